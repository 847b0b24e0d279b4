package matchmaking

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/weiqi-platform/rank/games"
)

// Sentinel errors; the api error table maps them to HTTP statuses.
var (
	// ErrInvalid: a request field is wrong (400/422). A *FieldError names it.
	ErrInvalid = errors.New("invalid matchmaking request")
	// ErrHasTicket: the player already has a live ticket (409).
	ErrHasTicket = errors.New("player already has a live ticket")
	// ErrInGame: the player is in an unfinished game and cannot queue (409).
	ErrInGame = errors.New("player is in an unfinished game")
	// ErrNoTicket: the player has no ticket (404).
	ErrNoTicket = errors.New("player has no matchmaking ticket")
	// ErrMatched: a cancel came after the ticket was paired (409); the game
	// stands. A *MatchedError carries the ticket.
	ErrMatched = errors.New("ticket is already matched")
)

// MatchedError is a cancel refused because a pairing took the ticket
// first: the matched ticket, as of At (when the cancel came), shows the
// game that stands. It unwraps to ErrMatched.
type MatchedError struct {
	Ticket Ticket
	At     time.Time
}

func (e *MatchedError) Error() string { return ErrMatched.Error() + ": " + e.Ticket.ID }

// Unwrap makes errors.Is(err, ErrMatched) true.
func (e *MatchedError) Unwrap() error { return ErrMatched }

// FieldError names the request field that is wrong and why. It unwraps to
// ErrInvalid.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Unwrap() error { return ErrInvalid }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// PointsPerRank is the width of one kyu/dan rank on the ladder (rating.md
// §1); the matchmaking window is counted in these points.
const PointsPerRank = 100

// Unbounded ends of a ScoreRange (they fit a Lua number exactly).
const (
	NoMin = math.MinInt32
	NoMax = math.MaxInt32
)

// ScoreRange is the ladder scores a player accepts an opponent from,
// inclusive. The api turns a rank range ("5k".."3d") into scores with the
// ladder table: Min is the lower rank's first score, Max the upper rank's
// last; the table's ends (9k, 9d) are open, so they give NoMin/NoMax.
type ScoreRange struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// AnyScore accepts every opponent.
var AnyScore = ScoreRange{Min: NoMin, Max: NoMax}

// Contains reports whether score is in the range.
func (r ScoreRange) Contains(score int) bool { return r.Min <= score && score <= r.Max }

// Level is a player's strength when they queue: the ladder score decides
// the pairing, the Glicko-2 rating breaks ties, RD is kept for the record.
type Level struct {
	Score  int     `json:"score"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
}

// Request is what a player asks for. The api fills Player from the token
// and Level from the rating service.
type Request struct {
	Player      string
	Level       Level
	BoardSize   int
	TimeControl games.TimeControl
	Rules       string
	Rated       bool
	Range       *ScoreRange // nil: any opponent
}

// maxPlayerLen bounds usernames stored in tickets (decided; players owns
// the real rule).
const maxPlayerLen = 64

// validate checks the request and returns its pool and range.
func (r Request) validate() (Pool, ScoreRange, error) {
	if r.Player == "" || len(r.Player) > maxPlayerLen {
		return Pool{}, ScoreRange{}, fieldErr("player", "a username of 1 to %d bytes is required", maxPlayerLen)
	}
	if math.IsNaN(r.Level.Rating) || math.IsInf(r.Level.Rating, 0) || math.IsNaN(r.Level.RD) || math.IsInf(r.Level.RD, 0) || r.Level.RD < 0 {
		return Pool{}, ScoreRange{}, fieldErr("level", "the Glicko-2 rating and RD must be finite and RD not negative")
	}
	if r.Level.Score <= NoMin || r.Level.Score >= NoMax {
		return Pool{}, ScoreRange{}, fieldErr("level.score", "ladder score %d out of range", r.Level.Score)
	}
	pool, err := NewPool(r.BoardSize, r.TimeControl, r.Rules, r.Rated)
	if err != nil {
		return Pool{}, ScoreRange{}, err
	}
	rng := AnyScore
	if r.Range != nil {
		rng = *r.Range
		if rng.Min > rng.Max {
			return Pool{}, ScoreRange{}, fieldErr("rank_range", "the lower end (%d) is above the upper end (%d)", rng.Min, rng.Max)
		}
		if !rng.Contains(r.Level.Score) {
			// Decided: a range must include the player's own level, so the
			// pairing window (which starts at the player) can reach it.
			return Pool{}, ScoreRange{}, fieldErr("rank_range", "the range %d..%d must include your own ladder score %d", rng.Min, rng.Max, r.Level.Score)
		}
	}
	return pool, rng, nil
}

// State is where a ticket is in its life.
type State string

// Ticket states. Waiting is the only live one; the rest are final.
const (
	Waiting   State = "waiting"
	Matched   State = "matched"
	Cancelled State = "cancelled"
	Expired   State = "expired"
)

// Colour is a side of the board.
type Colour string

// The two colours.
const (
	Black Colour = "black"
	White Colour = "white"
)

// Ref names a ticket: its pool and id. It is what the per-player pointer
// holds.
type Ref struct {
	Pool string // Pool.Key()
	ID   string
}

// Match is the pairing a matched ticket got.
type Match struct {
	PairID    string    `json:"pair_id"`
	GameID    string    `json:"game_id,omitempty"` // empty until the game is created
	Opponent  string    `json:"opponent"`
	Colour    Colour    `json:"colour"`
	MatchedAt time.Time `json:"matched_at"`
}

// Ticket is one player's request to be paired, as stored.
type Ticket struct {
	ID        string     `json:"id"`
	Player    string     `json:"player"`
	Level     Level      `json:"level"`
	Pool      Pool       `json:"pool"`
	Range     ScoreRange `json:"range"`
	CreatedAt time.Time  `json:"created_at"`
	State     State      `json:"state"`
	EndedAt   time.Time  `json:"ended_at,omitzero"` // when it left Waiting
	Match     *Match     `json:"match,omitempty"`
}

// Ref returns the ticket's reference.
func (t Ticket) Ref() Ref { return Ref{Pool: t.Pool.Key(), ID: t.ID} }

// Waited is how long the ticket waited: until now while waiting, else
// until it ended.
func (t Ticket) Waited(now time.Time) time.Duration {
	end := now
	if t.State != Waiting && !t.EndedAt.IsZero() {
		end = t.EndedAt
	}
	if end.Before(t.CreatedAt) {
		return 0
	}
	return end.Sub(t.CreatedAt)
}
