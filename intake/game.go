package intake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/games"
)

// Status is where a stored game is in its life.
type Status string

// The statuses. A game is created Pending (a pairing or an exam made it;
// nothing was played yet) or Finished (submitted); Finished becomes Rated
// once the rating service has applied it (or decided it moves nothing);
// a Pending game that never finishes becomes Expired.
const (
	StatusPending  Status = "pending"
	StatusFinished Status = "finished"
	StatusRated    Status = "rated"
	StatusExpired  Status = "expired"
	// StatusAborted: a pending game a player aborted before it began
	// (Intake.Abort): void, no loss.
	StatusAborted Status = "aborted"
)

// Statuses lists every status, for filters and documentation.
var Statuses = []Status{StatusPending, StatusFinished, StatusRated, StatusExpired, StatusAborted}

// StoredGame is a game record as the platform keeps it: the players'
// usernames (the keys of every other part), the record, the engine's
// verdict and where the game is in its life. A pending game has a record
// with its size, rules, komi and handicap and no moves, and no verdict.
type StoredGame struct {
	ID       string `json:"id"`
	SourceID string `json:"source_id"` // unique; a pending game's is its ID
	Status   Status `json:"status"`
	Black    string `json:"black"` // usernames
	White    string `json:"white"`
	Rated    bool   `json:"rated"`
	// TimeControl is as the pairing or the source gave it ("" if none).
	TimeControl string         `json:"time_control,omitempty"`
	Record      *games.Record  `json:"record"`
	Verdict     *games.Verdict `json:"verdict,omitempty"`
	// Hash is ContentHash of a finished game: a retry with the same
	// source_id and the same hash is the same game.
	Hash        string    `json:"hash,omitempty"`
	SubmittedBy string    `json:"submitted_by,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	FinishedAt  time.Time `json:"finished_at,omitzero"`
	// PlayedAt is when the game was played: the record's date (SGF DT)
	// when it gives one, else when it was submitted.
	PlayedAt  time.Time `json:"played_at,omitzero"`
	ExpiresAt time.Time `json:"expires_at,omitzero"` // pending games only
}

// Store keeps game records. Implementations map their driver's errors to
// ErrNotFound, ErrSourceTaken and ErrNotPending, and connection trouble to
// an outage (internal/outage). Every decision is an insert under a
// deterministic id (a game under its id, its end, its being rated), never
// a filtered update, so every step of intake can be repeated.
type Store interface {
	// Create stores a new game (pending or finished). ErrSourceTaken if a
	// game with its source_id (or ID) exists; then a finished game's
	// unrated mark it made may stay beside the stored game (which reads
	// finished until MarkRated): whether that game is rated yet, only the
	// rating can tell, and another call may be rating it now.
	Create(ctx context.Context, g StoredGame) error
	// Game returns the game with the ID; ErrNotFound if none.
	Game(ctx context.Context, id string) (StoredGame, error)
	// BySource returns the game with the source_id; ErrNotFound if none.
	BySource(ctx context.Context, sourceID string) (StoredGame, error)
	// Finish turns the pending game f.ID into the finished f (status,
	// record, verdict, hash, submitter, finished time), only while it is
	// pending; ErrNotPending otherwise, ErrNotFound if there is none.
	Finish(ctx context.Context, f StoredGame) error
	// MarkRated records that a finished game is rated; marking it again
	// is no error. Only a finished game may be marked: the store need not
	// check (intake marks only what it rated).
	MarkRated(ctx context.Context, id string) error
	// Finished lists up to limit finished (not yet rated) games, oldest
	// finish first.
	Finished(ctx context.Context, limit int) ([]StoredGame, error)
	// ExpirePending sets every pending game whose expiry is at or before
	// now to expired and returns how many it changed.
	ExpirePending(ctx context.Context, now time.Time) (int, error)
	// Unfinished lists the ids of the player's pending games that have not
	// ended (finished or expired): a player in one may not queue for
	// another.
	Unfinished(ctx context.Context, player string) ([]string, error)
	// Flag marks a stored game with a flag that admins list
	// (FlagCountUnverified), at `at`; marking it again is no error (the
	// first time stays).
	Flag(ctx context.Context, id, flag string, at time.Time) error
	// Flagged lists up to limit games marked with flag, newest mark first
	// (then by id), after the cursor when it is set.
	Flagged(ctx context.Context, flag string, after *FlagCursor, limit int) ([]FlaggedGame, error)
	// PlayerGames lists up to q.Limit of q.Player's games, newest created
	// first (then by id, descending), after q.After when it is set, with
	// q.Opponent when it is set, in one of q.States when any is given.
	PlayerGames(ctx context.Context, q GamesQuery) ([]StoredGame, error)
	// Abort ends the pending game id as aborted by the player by, at
	// `at`, decided once like a result or an expiry: ErrNotPending if it
	// ended before, ErrNotFound if there is none.
	Abort(ctx context.Context, id, by string, at time.Time) error
	// Aborts lists the aborts at or after since, newest first.
	Aborts(ctx context.Context, since time.Time) ([]Abort, error)
}

// GamesQuery asks for a page of one player's games (Store.PlayerGames).
type GamesQuery struct {
	Player   string
	Opponent string      // "": any
	States   []Status    // none: any
	After    *GameCursor // the last game of the previous page
	Limit    int
}

// GameCursor is the last game of the previous page of PlayerGames.
type GameCursor struct {
	At time.Time `json:"t"` // its CreatedAt
	ID string    `json:"i"`
}

// CursorOf is the cursor after g.
func CursorOf(g StoredGame) GameCursor { return GameCursor{At: g.CreatedAt, ID: g.ID} }

// Before reports whether g comes after the cursor in PlayerGames' order
// (created before it, or at the same time with a smaller id).
func (c GameCursor) Before(g StoredGame) bool {
	return g.CreatedAt.Before(c.At) || g.CreatedAt.Equal(c.At) && g.ID < c.ID
}

// Abort is one aborted game: who aborted it, when.
type Abort struct {
	GameID       string
	By           string
	Black, White string
	At           time.Time
}

// FlagCountUnverified marks a game from a game server whose count did not
// give the claimed result: accepted as claimed (a game server is trusted
// for results), listed for admins with both results.
const FlagCountUnverified = "count_unverified"

// Flags are the flags a game may carry.
var Flags = []string{FlagCountUnverified}

// FlaggedGame is a game with one of its flags.
type FlaggedGame struct {
	Game StoredGame
	Flag string
	At   time.Time // when it was marked
}

// FlagCursor is the last game of the previous page of Flagged.
type FlagCursor struct {
	At time.Time `json:"t"`
	ID string    `json:"i"`
}

// Sentinels of the store and of intake; api maps them to HTTP.
var (
	ErrNotFound = errors.New("game not found")
	// ErrSourceTaken: a game with this source_id exists (intake turns it
	// into the stored game again, or a *ConflictError).
	ErrSourceTaken = errors.New("source_id taken")
	// ErrNotPending: the game named is not pending (already finished or
	// expired).
	ErrNotPending = errors.New("game is not pending")
	// ErrConflict matches *ConflictError.
	ErrConflict = errors.New("another game has this source_id")
	// ErrUnknownPlayer matches *UnknownPlayerError.
	ErrUnknownPlayer = errors.New("unknown player")
)

// ConflictError: a game with the same source_id but other content exists.
type ConflictError struct {
	SourceID string
	GameID   string // the stored game
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("source_id %q is game %s, whose content differs from this submission", e.SourceID, e.GameID)
}

// Unwrap gives ErrConflict.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// UnknownPlayerError names a side whose username is no player's, or
// whose game server's id is linked to no account.
type UnknownPlayerError struct {
	Side       string // "black" or "white"
	Username   string
	ExternalID string // the server's id, when the side was given by one
}

func (e *UnknownPlayerError) Error() string {
	if e.ExternalID != "" {
		return fmt.Sprintf("%s player id %q is linked to no account of this server's (link it with PUT /api/v1/server/players/{id})", e.Side, e.ExternalID)
	}
	return fmt.Sprintf("%s player %q is not a known player", e.Side, e.Username)
}

// Unwrap gives ErrUnknownPlayer.
func (e *UnknownPlayerError) Unwrap() error { return ErrUnknownPlayer }

// hashedContent is what ContentHash covers: the facts of the game, not how
// they were sent (JSON or SGF), nor the claimed result's spelling, nor
// metadata such as the date or the ranks written in the file.
type hashedContent struct {
	Black    string          `json:"b"`
	White    string          `json:"w"`
	Rated    bool            `json:"rated"`
	Size     int             `json:"size"`
	Rules    games.Ruleset   `json:"rules"`
	Komi     float64         `json:"komi"`
	Handicap int             `json:"ha"`
	Setup    []games.Stone   `json:"setup"`
	Moves    []games.Move    `json:"moves"`
	End      games.EndReason `json:"end"`
	EndBy    games.Color     `json:"end_by"`
	Dead     []games.Point   `json:"dead"`
	Result   string          `json:"result"` // the verdict's
	Pen      games.Penalties `json:"pen"`
	// First changes the game (who moved first); empty for the usual
	// order, so the hashes of games stored before it stay the same.
	First games.Color `json:"first,omitempty"`
}

// ContentHash is the hex SHA-256 of a finished game's facts: its players,
// whether it is rated, the record's rules, setup, moves, end, dead stones
// and penalties, and the verdict's result. Two submissions of one game
// have the same hash, whichever form they came in.
func ContentHash(black, white string, rated bool, r *games.Record, v games.Verdict) string {
	b, err := json.Marshal(hashedContent{
		Black: black, White: white, Rated: rated, Size: r.Size, Rules: r.Rules, Komi: r.Komi,
		Handicap: r.Handicap, Setup: r.Setup, Moves: r.Moves, End: r.End, EndBy: r.EndBy,
		Dead: r.Dead, Result: v.Result, Pen: r.Penalties, First: r.First,
	})
	if err != nil {
		// Only a move without a colour fails to marshal, and Judge refuses
		// those before any hash is taken.
		panic("games: hashing a judged record: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
