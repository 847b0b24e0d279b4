package rating

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/weiqi-platform/rank/ranks"
)

// The points-difference formula of rating.md §2 (QQ room, seed 003). Each
// number and each decided point lives here, once.
const (
	// StartScore is a new player's ladder score (1k), unless a teacher, an
	// admin or an exam places them (decided).
	StartScore = 0

	// FlatBandBelow: a diff below it is "within 50" (decided: < 50) and
	// moves both scores by FlatPoints.
	FlatBandBelow = 50
	FlatPoints    = 5

	// CloseBandBelow: from FlatBandBelow up to below it the points depend
	// on diff/DiffDivisor (integer division, decided): the higher-ranked
	// winner takes CloseBase − diff/10, the lower-ranked winner diff/10.
	CloseBandBelow = 100
	CloseBase      = 10
	DiffDivisor    = 10

	// FarBandUpTo: from CloseBandBelow up to and including it ("100 to
	// 200", decided: both ends included) a higher-ranked winner takes
	// FavouriteWin and the loser gives FavouriteLoss.
	FarBandUpTo   = 200
	FavouriteWin  = 1
	FavouriteLoss = 1

	// Beyond FarBandUpTo a higher-ranked winner gains MismatchWin and the
	// loser still gives MismatchLoss.
	MismatchWin  = 0
	MismatchLoss = 1

	// UpsetPoints: a lower-ranked winner from diff 100 up takes this much.
	UpsetPoints = 10

	// MinMovesToGain: a game won in fewer moves gives the winner nothing;
	// the loser still loses as usual (decided: the text names only the
	// winner). Moves count plays and passes after the handicap stones.
	MinMovesToGain = 40

	// EscapeFactor multiplies the escaper's deduction; the opponent gains
	// as for an ordinary win.
	EscapeFactor = 2

	// ScoreLimit bounds the scores the formula accepts. It is no clamp:
	// the ladder moves at most 20 points a game, so a score this far out
	// is corrupt data, and the bound keeps all arithmetic exact, also
	// where int has 32 bits.
	ScoreLimit = 1_000_000_000
)

// winnerHigher says whether the winner counts as the higher player: the
// higher rank by the table, and with equal ranks the higher score
// (decided). Since the rank never falls as the score rises, this is the
// same as winner > loser; the test suite checks that.
func winnerHigher(winner, loser int) bool {
	if c := ranks.FromScore(winner).Compare(ranks.FromScore(loser)); c != 0 {
		return c > 0
	}
	return winner > loser
}

// isHandicap says whether a game with this handicap is a handicap game,
// which is not rated. Decided: 让先 (handicap 1: Black first, no komi) is
// one too, so anything above 0.
func isHandicap(handicap int) bool { return handicap > 0 }

// winnerGains applies the short-game rule ("不满40步赢的人一律不得分").
// Decided: it holds for a win by the opponent's escape too, since the
// opponent gains "as for an ordinary win"; otherwise an early abandon
// would be a way to hand out points.
func winnerGains(g Game) bool { return g.Moves >= MinMovesToGain }

// pointsDifference is the table of rating.md §2: the winner's gain and the
// loser's loss (both ≥ 0) of an ordinary rated win.
func pointsDifference(winner, loser int) (gain, loss int) {
	diff := winner - loser
	if diff < 0 {
		diff = -diff
	}
	higher := winnerHigher(winner, loser)
	switch {
	case diff < FlatBandBelow:
		return FlatPoints, FlatPoints
	case diff < CloseBandBelow && higher:
		p := CloseBase - diff/DiffDivisor
		return p, p
	case diff < CloseBandBelow:
		p := diff / DiffDivisor
		return p, p
	case !higher:
		return UpsetPoints, UpsetPoints
	case diff <= FarBandUpTo:
		return FavouriteWin, FavouriteLoss
	default:
		return MismatchWin, MismatchLoss
	}
}

// Outcome says how a game ended for the ladder.
type Outcome uint8

const (
	// Decisive: one player won (by score, resignation, time, forfeit or
	// the other's escape). It is the zero value.
	Decisive Outcome = iota
	// Draw changes nobody's ladder score (jigo, 和棋).
	Draw
	// Void is no result or an annulled game: nothing changes at all.
	Void
)

// MarshalText writes "decisive", "draw" or "void".
func (o Outcome) MarshalText() ([]byte, error) {
	if o > Void {
		return nil, &InputError{"outcome", fmt.Sprintf("%d is unknown", o)}
	}
	return []byte(o.String()), nil
}

// UnmarshalText reads what MarshalText writes.
func (o *Outcome) UnmarshalText(b []byte) error {
	for c := Decisive; c <= Void; c++ {
		if string(b) == c.String() {
			*o = c
			return nil
		}
	}
	return &InputError{"outcome", strconv.Quote(string(b)) + " is not decisive, draw or void"}
}

func (o Outcome) String() string {
	switch o {
	case Decisive:
		return "decisive"
	case Draw:
		return "draw"
	case Void:
		return "void"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Game holds the facts of a finished game that the ladder looks at.
type Game struct {
	// Moves is the number of plays and passes after the handicap stones.
	Moves int `json:"moves"`
	// Handicap is the number of handicap stones; 1 is 让先. 0 is even.
	Handicap int `json:"handicap"`
	// Outcome is Decisive, Draw or Void.
	Outcome Outcome `json:"outcome"`
	// Escape: the loser abandoned the game (逃跑). Only with Decisive.
	Escape bool `json:"escape,omitempty"`
}

// Deltas is what one game does to the two ladder scores.
type Deltas struct {
	Winner int `json:"winner_delta"` // ≥ 0
	Loser  int `json:"loser_delta"`  // ≤ 0
	// Rated says the game counts: an even game that was not void. A
	// draw is rated (it moves Glicko-2) but moves no ladder score.
	Rated bool `json:"rated"`
}

// ErrInvalidGame is returned (wrapped in an *InputError) for facts or
// ratings that make no sense.
var ErrInvalidGame = errors.New("invalid game")

// InputError names the field that is wrong and why.
type InputError struct {
	Field  string
	Reason string
}

func (e *InputError) Error() string { return "rating: " + e.Field + " " + e.Reason }

// Unwrap lets errors.Is(err, ErrInvalidGame) match.
func (e *InputError) Unwrap() error { return ErrInvalidGame }

// Ladder applies rating.md §2 to one game: from the winner's and the
// loser's ladder scores before it and the game's facts, the two deltas.
// For a draw or a void game either player may be called the winner.
// It is pure: the same arguments always give the same answer.
func Ladder(winner, loser int, g Game) (Deltas, error) {
	if err := checkLadder(winner, loser, g); err != nil {
		return Deltas{}, err
	}
	if g.Outcome == Void || isHandicap(g.Handicap) {
		return Deltas{}, nil
	}
	if g.Outcome == Draw {
		return Deltas{Rated: true}, nil
	}
	gain, loss := pointsDifference(winner, loser)
	if !winnerGains(g) {
		gain = 0
	}
	if g.Escape {
		loss *= EscapeFactor
	}
	return Deltas{Winner: gain, Loser: -loss, Rated: true}, nil
}

func checkLadder(winner, loser int, g Game) error {
	switch {
	case winner < -ScoreLimit || winner > ScoreLimit:
		return &InputError{"winner score", fmt.Sprintf("%d is beyond ±%d", winner, ScoreLimit)}
	case loser < -ScoreLimit || loser > ScoreLimit:
		return &InputError{"loser score", fmt.Sprintf("%d is beyond ±%d", loser, ScoreLimit)}
	case g.Moves < 0:
		return &InputError{"moves", fmt.Sprintf("%d is negative", g.Moves)}
	case g.Handicap < 0:
		return &InputError{"handicap", fmt.Sprintf("%d is negative", g.Handicap)}
	case g.Outcome > Void:
		return &InputError{"outcome", fmt.Sprintf("%d is unknown", g.Outcome)}
	case g.Escape && g.Outcome != Decisive:
		return &InputError{"escape", "is set on a " + g.Outcome.String() + " game; an escape is a loss"}
	}
	return nil
}
