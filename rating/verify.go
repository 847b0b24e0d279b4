package rating

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// What a verification checks; each Mismatch names one.
const (
	CheckChain     = "chain"     // sequence, hash, link to the entry before, head
	CheckScore     = "score"     // score = placement + ledger; each entry's arithmetic
	CheckCertified = "certified" // certified rank = the ledger's last
	CheckFormula   = "formula"   // a game's deltas are the formula's for the scores before it
	CheckState     = "state"     // the latest-state record agrees with the stored version
	CheckGlicko    = "glicko"    // a game's Glicko-2 after-states are the algorithm's for the states before it
	CheckPlacement = "placement" // a placement by the rule is PlacedScore of the last placement game (PlacementFaults)
)

// Mismatch is one fault a verification found.
type Mismatch struct {
	Player string `json:"player"`
	Seq    int64  `json:"seq,omitempty"` // the entry at fault; 0: the player's state
	Check  string `json:"check"`
	Detail string `json:"detail"`
}

// Report is what a verification found.
type Report struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	Players int       `json:"players"`
	Entries int       `json:"entries"`
	Games   int       `json:"games"`
	// Unkeyed counts the entries written before the audit key was set:
	// not authenticated, not forged.
	Unkeyed    int        `json:"unkeyed,omitempty"`
	Mismatches []Mismatch `json:"mismatches"`
}

// OK reports whether nothing was wrong.
func (r Report) OK() bool { return len(r.Mismatches) == 0 }

// VerifyAll checks the whole store and reports every mismatch: for each
// player, that the ledger chain is intact (ChainFaults: sequence, hashes,
// links, head), that the score is the placement plus the ledger and the
// certified rank the ledger's last, that the latest-state record
// agrees with the latest stored version, that the rule's placements are
// right (PlacementFaults) and that only games move Glicko-2; for each
// rated game, that both deltas are what the formula gives for the two
// scores before it and both Glicko-2 after-states what the algorithm
// gives for the two before it (each player's entry before the game, or
// their first state, holds it); for each annulment, that it reverses
// exactly the game's delta. id names the report (the job's firing, or a
// request).
//
// It streams the states, the ledger and the operations once each, in
// order (a scan of each: it is a nightly job, not a request path), and
// keeps one player's entries at a time, the players' latest states and
// a few numbers per rated game.
func (s *Service) VerifyAll(ctx context.Context, id string) (Report, error) {
	r := Report{ID: id, At: s.stamp(), Mismatches: []Mismatch{}}
	bad := func(player string, seq int64, check, format string, args ...any) {
		r.Mismatches = append(r.Mismatches, Mismatch{Player: player, Seq: seq, Check: check, Detail: fmt.Sprintf(format, args...)})
	}
	latest := map[string]PlayerState{}
	first := map[string]PlayerState{} // each player's first version: the Glicko-2 before their first entry
	err := s.store.EachState(ctx, func(st PlayerState) error {
		if old, ok := latest[st.Username]; !ok || st.Version > old.Version {
			latest[st.Username] = st
		}
		if old, ok := first[st.Username]; !ok || st.Version < old.Version {
			first[st.Username] = st
		}
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("read the states: %w", err)
	}
	err = s.store.EachPlayer(ctx, func(p PlayerState) error {
		st, ok := latest[p.Username]
		switch {
		case !ok:
			bad(p.Username, 0, CheckState, "has a latest-state record (version %d) but no stored version", p.Version)
		case p.Version > st.Version:
			bad(p.Username, 0, CheckState, "the latest-state record names version %d, the last stored is %d", p.Version, st.Version)
		case p.Version == st.Version:
			if d := stateDiff(p, st); d != "" {
				bad(p.Username, 0, CheckState, "the latest-state record differs from the stored version %d: %s", st.Version, d)
			}
		}
		// A record behind the stored versions is a hint left by crossed
		// writers (Player repairs it), not a fault.
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("read the players: %w", err)
	}

	f := newFormulaCheck(s.sys)
	gameHashes := map[string]string{} // game id: its content hash now
	var gameErr error
	var player string
	var entries []LedgerEntry
	checked := map[string]bool{}
	flush := func() {
		if player == "" {
			return
		}
		checked[player] = true
		st, ok := latest[player]
		if !ok {
			bad(player, 0, CheckState, "has %d ledger entries but no rating state", len(entries))
			return
		}
		for _, c := range ChainFaults(st, entries) {
			bad(c.Username, c.Seq, c.Check, "%s", c.Reason)
		}
		keyFaults, unkeyed := s.keyFaults(entries)
		for _, c := range keyFaults {
			bad(c.Username, c.Seq, c.Check, "%s", c.Reason)
		}
		r.Unkeyed += unkeyed
		if err := s.gameFaults(ctx, entries, gameHashes, bad); err != nil {
			gameErr = err
		}
		placements := PlacementFaults(entries)
		for _, c := range placements {
			bad(c.Username, c.Seq, c.Check, "%s", c.Reason)
		}
		if last := entries[len(entries)-1]; st.Glicko != last.Glicko {
			bad(player, 0, CheckGlicko, "Glicko-2 %+v is not the last entry's %+v", st.Glicko, last.Glicko)
		}
		if st.Placing {
			if PlacementDue(st.PlacingGames) {
				bad(player, 0, CheckPlacement, "still placing after %d placement games", st.PlacingGames)
			}
			if placedByRule(entries) {
				bad(player, 0, CheckPlacement, "placing again after the rule placed them")
			}
		}
	}
	// before is the Glicko-2 state before the entry: the entry before it,
	// or the first state for entry 1; trusted is false after a gap (a
	// chain fault already reported), so the games around it are not
	// blamed on the other player.
	var before Glicko
	var prevSeq int64
	trusted := false
	err = s.store.EachEntry(ctx, func(e LedgerEntry) error {
		r.Entries++
		if e.Username != player {
			flush()
			player, entries = e.Username, entries[:0]
			st, ok := first[e.Username]
			before, prevSeq, trusted = st.Glicko, 0, ok
		}
		trusted = trusted && e.Seq == prevSeq+1
		entries = append(entries, e)
		f.add(e, before, trusted)
		if e.Cause != CauseGame && trusted && e.Glicko != before {
			bad(e.Username, e.Seq, CheckGlicko, "a %s entry moved Glicko-2 from %+v to %+v; only games move it", e.Cause, before, e.Glicko)
		}
		before, prevSeq, trusted = e.Glicko, e.Seq, true
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("read the ledger: %w", err)
	}
	flush()
	if gameErr != nil {
		return Report{}, fmt.Errorf("read the games: %w", gameErr)
	}
	for _, name := range slices.Sorted(maps.Keys(latest)) {
		if !checked[name] {
			for _, c := range ChainFaults(latest[name], nil) {
				bad(c.Username, c.Seq, c.Check, "%s", c.Reason)
			}
		}
	}
	r.Players = len(latest)
	if err := s.store.EachOp(ctx, func(op Operation) error { f.game(op, &r); return nil }); err != nil {
		return Report{}, fmt.Errorf("read the operations: %w", err)
	}
	f.finish(&r)
	slices.SortStableFunc(r.Mismatches, func(a, b Mismatch) int {
		return cmp.Or(cmp.Compare(a.Player, b.Player), cmp.Compare(a.Seq, b.Seq))
	})
	return r, nil
}

// stateDiff says how two records of one version differ in what the ledger
// vouches for ("" if they agree).
func stateDiff(a, b PlayerState) string {
	switch {
	case a.Score != b.Score:
		return fmt.Sprintf("score %d, stored %d", a.Score, b.Score)
	case a.Seq != b.Seq || a.Head != b.Head:
		return fmt.Sprintf("head %d %.12s, stored %d %.12s", a.Seq, a.Head, b.Seq, b.Head)
	case a.Certified != b.Certified:
		return fmt.Sprintf("certified rank %q, stored %q", rankText(a.Certified), rankText(b.Certified))
	case a.Placement != b.Placement:
		return fmt.Sprintf("placement %d, stored %d", a.Placement, b.Placement)
	}
	return ""
}

// placedByRule reports whether the ledger holds a placement by the rule.
func placedByRule(entries []LedgerEntry) bool {
	for _, e := range entries {
		if e.Cause == CausePlacement && e.Actor == PlacementActor {
			return true
		}
	}
	return false
}

// gameSide is what the formula check keeps of one game entry: the score
// and delta, and the Glicko-2 state before (trusted: read from the entry
// just before it) and after.
type gameSide struct {
	seq          int64
	scoreBefore  int
	delta        int
	glickoBefore Glicko
	glickoAfter  Glicko
	trusted      bool
}

// formulaCheck holds, per rated game, each player's entry, and the
// annulments, until the operations are read.
type formulaCheck struct {
	sys        System
	games      map[string]map[string]gameSide // game id → player → entry
	annulments []LedgerEntry
	seen       map[string]bool
}

func newFormulaCheck(sys System) *formulaCheck {
	return &formulaCheck{sys: sys, games: map[string]map[string]gameSide{}, seen: map[string]bool{}}
}

// add keeps what the checks need of e; before is the Glicko-2 state
// before it (trusted when read from the entry just before it).
func (f *formulaCheck) add(e LedgerEntry, before Glicko, trusted bool) {
	switch e.Cause {
	case CauseGame:
		if f.games[e.CauseID] == nil {
			f.games[e.CauseID] = make(map[string]gameSide, 2)
		}
		f.games[e.CauseID][e.Username] = gameSide{e.Seq, e.ScoreBefore, e.Delta, before, e.Glicko, trusted}
	case CauseAnnulment:
		f.annulments = append(f.annulments, e)
	}
}

func formulaFault(r *Report, player string, seq int64, format string, args ...any) {
	r.Mismatches = append(r.Mismatches, Mismatch{Player: player, Seq: seq, Check: CheckFormula, Detail: fmt.Sprintf(format, args...)})
}

// game checks one rated game's deltas against the formula.
func (f *formulaCheck) game(op Operation, r *Report) {
	if op.Kind != "" && op.Kind != OpGame {
		return
	}
	pair := f.games[op.ID]
	if len(pair) == 0 {
		return // given up, or not applied yet: no entries
	}
	f.seen[op.ID] = true
	r.Games++
	b, okb := pair[op.Black]
	w, okw := pair[op.White]
	if !okb || !okw {
		missing := op.Black
		if okb {
			missing = op.White
		}
		for name, e := range pair {
			formulaFault(r, name, e.seq, "game %s has no ledger entry for %s", op.ID, missing)
		}
		return
	}
	winner, loser, wn, ln := b, w, op.Black, op.White
	if op.Winner == SideWhite {
		winner, loser, wn, ln = w, b, op.White, op.Black
	}
	d, err := Ladder(winner.scoreBefore, loser.scoreBefore, op.Game)
	if err != nil {
		formulaFault(r, wn, winner.seq, "game %s: the formula refuses the scores before it: %v", op.ID, err)
		return
	}
	for _, c := range []struct {
		name string
		e    gameSide
		want int
	}{{wn, winner, d.Winner}, {ln, loser, d.Loser}} {
		if c.e.delta != c.want {
			formulaFault(r, c.name, c.e.seq, "game %s: delta %+d, the formula gives %+d for scores %d and %d", op.ID, c.e.delta, c.want, winner.scoreBefore, loser.scoreBefore)
		}
	}
	f.glicko(op, r, wn, ln, winner, loser)
}

// glicko recomputes a game's two Glicko-2 after-states from the two
// before it, as System.Apply does, and reports each side that differs.
// Exact equality: the algorithm is deterministic and the stores keep
// float64 exactly. A side whose state before is not trusted (a gap in
// the ledger, reported as a chain fault) skips the game.
func (f *formulaCheck) glicko(op Operation, r *Report, wn, ln string, winner, loser gameSide) {
	if !winner.trusted || !loser.trusted {
		return
	}
	a, err := f.sys.Apply(State{Score: winner.scoreBefore, Glicko: winner.glickoBefore}, State{Score: loser.scoreBefore, Glicko: loser.glickoBefore}, op.Game)
	if err != nil {
		glickoFault(r, wn, winner.seq, "game %s: the algorithm refuses the states before it: %v", op.ID, err)
		return
	}
	for _, c := range []struct {
		name string
		e    gameSide
		want Glicko
	}{{wn, winner, a.Winner.Glicko}, {ln, loser, a.Loser.Glicko}} {
		if c.e.glickoAfter != c.want {
			glickoFault(r, c.name, c.e.seq, "game %s: Glicko-2 after %+v, the algorithm gives %+v from %+v against %+v",
				op.ID, c.e.glickoAfter, c.want, c.e.glickoBefore, map[string]Glicko{wn: loser.glickoBefore, ln: winner.glickoBefore}[c.name])
		}
	}
}

func glickoFault(r *Report, player string, seq int64, format string, args ...any) {
	r.Mismatches = append(r.Mismatches, Mismatch{Player: player, Seq: seq, Check: CheckGlicko, Detail: fmt.Sprintf(format, args...)})
}

// finish reports game entries without an operation and checks the
// annulments.
func (f *formulaCheck) finish(r *Report) {
	for id, pair := range f.games {
		if !f.seen[id] {
			for name, e := range pair {
				formulaFault(r, name, e.seq, "game %s has ledger entries but no rating operation", id)
			}
		}
	}
	for _, a := range f.annulments {
		g, ok := f.games[a.CauseID][a.Username]
		switch {
		case !ok:
			formulaFault(r, a.Username, a.Seq, "annuls game %s, which has no entry of %s", a.CauseID, a.Username)
		case a.Delta != -g.delta:
			formulaFault(r, a.Username, a.Seq, "annuls game %s with %+d, the game's delta was %+d", a.CauseID, a.Delta, g.delta)
		}
	}
}

// VerifyAndKeep verifies the whole store (VerifyAll) and keeps the report
// under id: a repeated id (a resumed job firing) keeps the first.
// Kept checkpoints (from outside the database) are checked too: a ledger
// shorter than one of them, or rewritten under it, is a CheckRollback
// mismatch; a checkpoint not signed with this key is one as well.
func (s *Service) VerifyAndKeep(ctx context.Context, id string, kept ...Checkpoint) (Report, error) {
	r, err := s.VerifyAll(ctx, id)
	if err != nil {
		return Report{}, err
	}
	for _, c := range kept {
		ms, err := s.VerifyCheckpoint(ctx, c)
		var ie *InputError
		switch {
		case errors.As(err, &ie):
			r.Mismatches = append(r.Mismatches, Mismatch{Check: CheckRollback, Detail: "the kept checkpoint of " + c.At.Format(time.RFC3339) + " " + ie.Reason})
		case err != nil:
			return Report{}, err
		}
		r.Mismatches = append(r.Mismatches, ms...)
	}
	return r, s.store.SaveReport(ctx, r)
}

// Reports returns up to limit stored reports, newest first.
func (s *Service) Reports(ctx context.Context, limit int) ([]Report, error) {
	return s.store.Reports(ctx, limit)
}

// CheckGame is the check that a rated game's stored content is what its
// ledger entries bound (LedgerEntry.GameHash).
const CheckGame = "game"

// gameFaults compares each game entry's bound content hash with the stored
// game's as it is now (ServiceConfig.GameHash), once per game.
func (s *Service) gameFaults(ctx context.Context, entries []LedgerEntry, now map[string]string, bad func(string, int64, string, string, ...any)) error {
	if s.gameHash == nil {
		return nil
	}
	for _, e := range entries {
		if e.Cause != CauseGame || e.GameHash == "" {
			continue
		}
		h, ok := now[e.CauseID]
		if !ok {
			var err error
			if h, err = s.gameHash(ctx, e.CauseID); err != nil {
				return err
			}
			now[e.CauseID] = h
		}
		if h != e.GameHash {
			what := "its content hash is " + short(h) + ", the ledger bound " + short(e.GameHash)
			if h == "" {
				what = "it is not stored any more"
			}
			bad(e.Username, e.Seq, CheckGame, "the stored game %s was changed after it was rated: %s", e.CauseID, what)
		}
	}
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
