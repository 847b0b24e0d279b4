package rating

import "github.com/weiqi-platform/rank/ranks"

// State is a player's rating state: the ladder score, which alone decides
// the rank shown, and the Glicko-2 rating kept beside it.
type State struct {
	Score  int    `json:"score"`
	Glicko Glicko `json:"glicko"`
}

// NewState is a new player's state: StartScore (1k) and NewGlicko.
func NewState() State { return State{Score: StartScore, Glicko: NewGlicko()} }

// Rank is the ladder rank of the state's score.
func (s State) Rank() ranks.Rank { return ranks.FromScore(s.Score) }

// Applied is what one finished game did: both players' states after it
// and the ladder deltas (Winner.Score = before + Deltas.Winner).
type Applied struct {
	Winner State `json:"winner"`
	Loser  State `json:"loser"`
	Deltas
}

// Apply applies one finished game to both players' states: the ladder
// formula (Ladder) to the scores and one Glicko-2 rating period of one
// game to each rating, both computed from the states before the game. A
// game that is not rated (void, handicap) changes neither; a draw changes
// only Glicko-2. For a draw either player may be the winner: the result
// is the same, mirrored. It is pure; on an error nothing is applied.
func (s System) Apply(winner, loser State, g Game) (Applied, error) {
	d, err := Ladder(winner.Score, loser.Score, g)
	if err != nil {
		return Applied{}, err
	}
	if err := s.check(); err != nil {
		return Applied{}, err
	}
	if err := winner.Glicko.check("winner", 0, true); err != nil {
		return Applied{}, err
	}
	if err := loser.Glicko.check("loser", 0, true); err != nil {
		return Applied{}, err
	}
	out := Applied{Winner: winner, Loser: loser, Deltas: d}
	out.Winner.Score += d.Winner
	out.Loser.Score += d.Loser
	if ws, ls, ok := glickoScores(g); ok {
		out.Winner.Glicko = s.update(winner.Glicko, []Result{{Opponent: loser.Glicko, Score: ws}})
		out.Loser.Glicko = s.update(loser.Glicko, []Result{{Opponent: winner.Glicko, Score: ls}})
	}
	return out, nil
}

// glickoScores gives the two players' Glicko-2 scores of a game, and false
// when the game does not count. Decided: Glicko-2 counts every rated game
// by its plain result, a draw as ½ each; the ladder's short-game rule and
// escape penalty are ladder rules and do not touch it.
func glickoScores(g Game) (winner, loser float64, ok bool) {
	switch {
	case g.Outcome == Void || isHandicap(g.Handicap):
		return 0, 0, false
	case g.Outcome == Draw:
		return Tie, Tie, true
	}
	return Win, Loss, true
}
