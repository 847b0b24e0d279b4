package games

// ValidateSettings checks what a game still to be played already has:
// board size, rules, komi and handicap (no moves, no end). The intake
// checks a pending game with it before storing it.
func (r *Record) ValidateSettings() error {
	probe := *r
	probe.End, probe.EndBy, probe.Dead = EndVoid, Empty, nil
	if err := probe.validate(); err != nil {
		return err
	}
	_, err := handicapStones(r.Size, r.Handicap, nil)
	return err
}

// InferEndBy fills in who ended a game that ended by resignation, time or
// forfeit when the record does not say: the loser the claimed result
// names. A record that says, or whose result names no winner, is left
// as it is (Judge then names what is missing).
func (r *Record) InferEndBy() {
	if r.EndBy != Empty || (r.End != EndResign && r.End != EndTime && r.End != EndForfeit) {
		return
	}
	if res, ok, err := ParseResult(r.Result); err == nil && ok && res.Winner != Empty {
		r.EndBy = res.Winner.Opponent()
	}
}
