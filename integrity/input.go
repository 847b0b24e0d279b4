package integrity

import (
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/rating"
)

// End is how a game ended.
type End string

// Ends of a game. A game the stored record does not say how it ended is
// EndOther and never counts as a resignation.
const (
	EndCount   End = "count"   // counted (or scored) at the end
	EndResign  End = "resign"  // the loser resigned
	EndTimeout End = "timeout" // the loser ran out of time
	EndEscape  End = "escape"  // the loser left the game (逃跑)
	EndOther   End = "other"
)

// Side is one player of a game as they were before it.
type Side struct {
	Player string `json:"player"`
	// Glicko-2 before the game: the player's ledger entry before the
	// game's, or their first state.
	Glicko rating.Glicko `json:"glicko"`
	Score  int           `json:"score"` // ladder score before the game
	Games  int           `json:"games"` // rated games played before it
}

// Game is one finished rated game as the detectors need it; the lead's
// feed builds it from the stored game and the rating ledger.
type Game struct {
	ID     string `json:"id"`
	Black  Side   `json:"black"`
	White  Side   `json:"white"`
	Winner string `json:"winner,omitempty"` // a player's name; "" for a draw
	// Moves counts plays and passes after the handicap stones (as the
	// ladder's short-game rule does).
	Moves   int       `json:"moves"`
	End     End       `json:"end"`
	Exam    bool      `json:"exam,omitempty"`
	Started time.Time `json:"started,omitzero"`
	Ended   time.Time `json:"ended"`
}

// Check is an exam's eligibility check of a player (the moment their
// ladder rank decided which exam they may sit).
type Check struct {
	Player string    `json:"player"`
	At     time.Time `json:"at"`
	Exam   string    `json:"exam,omitempty"` // the exam or session, for the evidence
}

// Input is everything Detect reads.
type Input struct {
	Games  []Game  `json:"games"`
	Checks []Check `json:"checks,omitempty"`
}

// side returns the player's side of g and the opponent's, and whether
// they played it.
func (g *Game) side(player string) (me, opp Side, ok bool) {
	switch player {
	case g.Black.Player:
		return g.Black, g.White, true
	case g.White.Player:
		return g.White, g.Black, true
	}
	return Side{}, Side{}, false
}

// score is the player's result: 1 a win, ½ a draw, 0 a loss.
func (g *Game) score(player string) float64 {
	switch g.Winner {
	case "":
		return 0.5
	case player:
		return 1
	}
	return 0
}

// check refuses a game the detectors cannot read, naming the field.
func (g *Game) check(i int) error {
	bad := func(field, format string, args ...any) error {
		return &InputError{Game: g.ID, Index: i, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case g.ID == "":
		return bad("id", "is empty")
	case g.Black.Player == "" || g.White.Player == "":
		return bad("players", "are not both named")
	case g.Black.Player == g.White.Player:
		return bad("players", "%s plays themselves", g.Black.Player)
	case g.Winner != "" && g.Winner != g.Black.Player && g.Winner != g.White.Player:
		return bad("winner", "%q did not play", g.Winner)
	case g.Moves < 0:
		return bad("moves", "%d is negative", g.Moves)
	case g.Ended.IsZero():
		return bad("ended", "is not set")
	}
	for _, s := range []Side{g.Black, g.White} {
		if !(s.Glicko.RD > 0 && s.Glicko.RD <= rating.MaxRD) || !(s.Glicko.Rating >= -rating.MaxAbsRating && s.Glicko.Rating <= rating.MaxAbsRating) {
			return bad("glicko", "%s's %+v is not a Glicko-2 state", s.Player, s.Glicko)
		}
	}
	return nil
}

// InputError names the game and the field the detectors cannot read.
type InputError struct {
	Game   string
	Index  int // the game's position in Input.Games
	Field  string
	Reason string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("integrity: game %d (%s): %s %s", e.Index, e.Game, e.Field, e.Reason)
}
