package rating

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/ranks"
)

// PlayerState is a player's rating state at one version: the rating
// (ladder score and Glicko-2), the counts of rated games, the score the
// player was placed at, the head of the ledger, and the version with the
// operation that wrote it. States are never updated: each version is a new
// document, unique per player and version, written only by the operation
// holding the version before.
type PlayerState struct {
	Username string `json:"username"`
	State
	Games     int `json:"games"`
	Wins      int `json:"wins"`
	Losses    int `json:"losses"`
	Draws     int `json:"draws"`
	Placement int `json:"placement"` // the score the ledger starts from
	// Certified is the certified rank, set only by a passed exam or an
	// audited placement (the zero Rank: none). It never moves by itself.
	Certified ranks.Rank `json:"certified_rank,omitzero"`
	// Placing is true while a new player plays their placement games
	// (placement.go; only when the service places newcomers), and
	// PlacingGames counts the placement games played. Both are absent
	// from states written before placement existed: those players are
	// placed.
	Placing      bool      `json:"placing,omitempty"`
	PlacingGames int       `json:"placing_games,omitempty"`
	Version      int64     `json:"version"`
	Op           string    `json:"op,omitempty"`   // the operation that wrote this version; "" for the first
	Seq          int64     `json:"seq"`            // the last ledger entry's sequence number
	Head         string    `json:"head,omitempty"` // the last ledger entry's hash
	UpdatedAt    time.Time `json:"updated_at,omitzero"`
}

// NewPlayer is a player's state before their first rated game: StartScore
// and NewGlicko, placed at StartScore.
func NewPlayer(username string) PlayerState {
	return PlayerState{Username: username, State: NewState(), Placement: StartScore}
}

// Side names a player of a game.
type Side string

// The sides; SideNone is a draw's winner.
const (
	SideBlack Side = "black"
	SideWhite Side = "white"
	SideNone  Side = ""
)

// Operation is one change of players' ratings, stored before anything
// else is written; its plan, computed once while its players are held,
// says exactly what to write. Kind says which: a game applied to its two
// players (keyed by the game's id), a change of one player (an
// adjustment, a placement, a certification or a revocation, keyed
// "change:"+its idempotency key) or a game's annulment (two players,
// keyed "annul:"+the game's id).
type Operation struct {
	ID       string    `json:"id"`
	Kind     string    `json:"kind,omitempty"`   // OpGame when empty
	Player   string    `json:"player,omitempty"` // OpChange: the player changed
	Change   *Change   `json:"change,omitempty"` // OpChange and OpAnnul: what to do
	Black    string    `json:"black"`
	White    string    `json:"white"`
	Winner   Side      `json:"winner"` // SideNone for a draw
	Game     Game      `json:"game"`
	SourceID string    `json:"source_id,omitempty"`
	GameHash string    `json:"game_hash,omitempty"` // the stored game's content hash (GameInput.GameHash)
	Actor    string    `json:"actor,omitempty"`
	At       time.Time `json:"at"` // when the game was accepted
	Plan     *Plan     `json:"plan,omitempty"`
	Done     bool      `json:"done"`
	Error    string    `json:"error,omitempty"` // why it was given up (corrupt data)
	// Tracked: the caller keeps its own record of the work until the
	// operation is done, and applies it again after a crash (intake's
	// unrated games): Unfinished need not list it, which spares the
	// store a marker's write and delete.
	Tracked bool `json:"tracked,omitempty"`
}

// Plan is what an operation writes: one step per player, in sorted
// username order.
type Plan struct {
	Steps []Step `json:"steps"`
}

// Step is one player's part of a plan: the state the plan was computed
// from (its Version guards the write), the state after, and the ledger
// entry. Then is a second entry after Entry, in the same step: the
// placement that follows a newcomer's last placement game (so the game
// and the placement are applied together, once).
type Step struct {
	Before PlayerState  `json:"before"`
	After  PlayerState  `json:"after"`
	Entry  LedgerEntry  `json:"entry"`
	Then   *LedgerEntry `json:"then,omitempty"`
}

// Writes are what the plan writes after it is stored: every step's
// ledger entries (a placement's after its game's), then every step's
// state after.
func (p Plan) Writes() ([]LedgerEntry, []PlayerState) {
	entries := make([]LedgerEntry, 0, len(p.Steps)+1)
	states := make([]PlayerState, len(p.Steps))
	for i, st := range p.Steps {
		entries, states[i] = append(entries, st.entries()...), st.After
	}
	return entries, states
}

// entries are the step's ledger entries in sequence order.
func (st Step) entries() []LedgerEntry {
	if st.Then == nil {
		return []LedgerEntry{st.Entry}
	}
	return []LedgerEntry{st.Entry, *st.Then}
}

// LeaderQuery selects a page of the leaderboard: players by score, highest
// first, then by username; after the cursor when After is set; within
// [MinScore, MaxScore] when set.
type LeaderQuery struct {
	MinScore, MaxScore *int
	After              *LeaderCursor
	Limit              int
}

// LeaderCursor is the last row of the previous page.
type LeaderCursor struct {
	Score    int    `json:"s"`
	Username string `json:"u"`
}

// Store keeps rating states, holds, operations, plans and the ledger.
// Every write is an insert that a unique key decides (the first wins, a
// repeat of the same is no error), or a monotonic update that cannot be
// undone by a late writer. Conditional updates are avoided on purpose:
// FerretDB v1 (the embedded store) does not apply a filtered update
// atomically, so two "compare and set" updates can both succeed there,
// while a unique index holds on every store. Implementations map driver
// errors to ErrNotFound, and connection trouble to an outage
// (internal/outage).
type Store interface {
	// CreateOp stores op unless an operation with its ID exists, and
	// returns the stored one either way.
	CreateOp(ctx context.Context, op Operation) (Operation, error)
	// Op returns the operation with its plan, if one is stored;
	// ErrNotFound if none.
	Op(ctx context.Context, id string) (Operation, error)
	// SetPlan stores the plan of the operation unless one is stored, and
	// returns whichever plan was first.
	SetPlan(ctx context.Context, id string, p Plan) (Plan, error)
	// FinishOp marks the operation done, with an error text when it was
	// given up. Finishing twice is no error; the first text stays. The
	// service finishes a Tracked operation only when it gives it up:
	// otherwise its written plan says it is done.
	FinishOp(ctx context.Context, id, errText string) error
	// Unfinished lists up to limit operations not done, oldest first,
	// except Tracked ones (their callers apply them again).
	Unfinished(ctx context.Context, limit int) ([]Operation, error)

	// Player returns the player's latest state; ErrNotFound if none.
	Player(ctx context.Context, username string) (PlayerState, error)
	// Latest returns the player's latest state as last recorded, cheaply:
	// it may be behind Player when writers crossed or one died between
	// its two writes. ErrNotFound if none was recorded.
	Latest(ctx context.Context, username string) (PlayerState, error)
	// LatestOf returns, as Latest would, the recorded latest states of
	// those of the players that have one, by username: one query (by
	// _id, indexed on MongoDB; on FerretDB v1 one scan of the players,
	// cheaper than many single reads for a large share of them).
	LatestOf(ctx context.Context, usernames []string) ([]PlayerState, error)
	// Hold gives the player's state at version to opID, once: holding it
	// again by opID is no error; if another operation holds it, a
	// *HeldError names it.
	Hold(ctx context.Context, username string, version int64, opID string) error
	// Commit stores st as the player's state at st.Version, written by
	// opID (st.Op), and marks every older version as not the latest. The
	// same state again is no error; another state at that version is
	// ErrVersionTaken.
	Commit(ctx context.Context, st PlayerState) error

	// AppendEntry adds an entry, unique per player and sequence number.
	// An entry already there with the same hash is no error (a retry);
	// one with another hash is ErrLedgerConflict.
	AppendEntry(ctx context.Context, e LedgerEntry) error
	// Ledger returns up to limit of the player's entries, newest first,
	// with sequence numbers below before (all when before is 0).
	Ledger(ctx context.Context, username string, before int64, limit int) ([]LedgerEntry, error)
	// Leaderboard returns a page of the players' latest states by score
	// (see LeaderQuery).
	Leaderboard(ctx context.Context, q LeaderQuery) ([]PlayerState, error)

	// The audit trail and its verification (audit.go, verify.go).

	// EachState calls fn with every stored state version, by username
	// and then version.
	EachState(ctx context.Context, fn func(PlayerState) error) error
	// Audit returns a page of ledger entries matching q (see AuditQuery).
	Audit(ctx context.Context, q AuditQuery) ([]LedgerEntry, error)
	// EachPlayer calls fn with every player's recorded latest state (as
	// Latest gives it), by username.
	EachPlayer(ctx context.Context, fn func(PlayerState) error) error
	// EachEntry calls fn with every ledger entry, by username and then
	// sequence number.
	EachEntry(ctx context.Context, fn func(LedgerEntry) error) error
	// EachOp calls fn with every operation as created (without its plan
	// or whether it is done).
	EachOp(ctx context.Context, fn func(Operation) error) error
	// SaveReport stores a verification report under its ID, once.
	SaveReport(ctx context.Context, r Report) error
	// Reports returns up to limit stored reports, newest first.
	Reports(ctx context.Context, limit int) ([]Report, error)
}

// BatchStore is a Store that can hold both players of a game, write
// both their ledger entries, and then both states, together (one write
// instead of two). Each element behaves as AppendEntry or Commit would;
// an error may leave some written, as the single calls would.
type BatchStore interface {
	Store
	AppendEntries(ctx context.Context, es []LedgerEntry) error
	CommitAll(ctx context.Context, sts []PlayerState) error
	// HoldOp holds, for opID, each player names[i] at versions[i], in
	// that order, as Hold would, stopping at the first that fails: it
	// returns how many it held and that failure (nil when all were
	// held). One write on every store when none fails.
	HoldOp(ctx context.Context, opID string, names []string, versions []int64) (int, error)
}

// OpWriter is a BatchStore that writes a tracked game operation whose
// plan is known beforehand all at once (ApplyOp): one command instead of
// one per step, where the store can keep the steps' order in one write.
type OpWriter interface {
	BatchStore
	// ApplyOp writes op (Tracked, with its Plan) as its steps would, in
	// their order: a player's start when the plan moves them from version
	// 0 (idempotent, as holdOne's), the operation, the holds of the plan's
	// Before versions by op.ID, the plan, the ledger entries, then the
	// states (Plan.Writes). It stops at the first step that finds
	// something already there and reports
	// whether it wrote every step itself: false with no error means some
	// of op or of its players' versions was there (a retry, a crash, a
	// guess behind, another runner), and the caller goes step by step,
	// which sees what. Whatever stops it, what is written is a prefix of
	// the steps, as the steps one by one would leave.
	ApplyOp(ctx context.Context, op Operation) (bool, error)
}

// ApplyInSteps is ApplyOp on any BatchStore, by its calls one after the
// other: the behaviour every OpWriter matches (the in-memory store is one
// through it).
func ApplyInSteps(ctx context.Context, s BatchStore, op Operation) (bool, error) {
	if !op.Tracked || op.Plan == nil {
		return false, fmt.Errorf("rating: ApplyOp of operation %s: it must be tracked and planned", op.ID)
	}
	plan := *op.Plan
	op.Plan = nil
	for _, st := range plan.Steps {
		if st.Before.Version == 0 {
			if err := s.Commit(ctx, st.Before); err != nil {
				return false, err
			}
		}
	}
	stored, err := s.CreateOp(ctx, op)
	if err != nil || stored.Plan != nil || stored.Done {
		return false, err
	}
	names := make([]string, len(plan.Steps))
	versions := make([]int64, len(plan.Steps))
	for i, st := range plan.Steps {
		names[i], versions[i] = st.Before.Username, st.Before.Version
	}
	if n, err := s.HoldOp(ctx, op.ID, names, versions); err != nil || n < len(names) {
		if errors.Is(err, ErrHeld) {
			err = nil
		}
		return false, err
	}
	got, err := s.SetPlan(ctx, op.ID, plan)
	if err != nil || !samePlan(got, plan) {
		return false, err
	}
	entries, states := plan.Writes()
	if err := s.AppendEntries(ctx, entries); err != nil {
		return false, err
	}
	if err := s.CommitAll(ctx, states); err != nil {
		return false, err
	}
	return true, nil
}

// Sentinels.
var (
	ErrNotFound = errors.New("not found")
	// ErrHeld matches *HeldError.
	ErrHeld = errors.New("player held by another operation")
	// ErrVersionTaken: another operation wrote the player's state at this
	// version: a bug or tampering, never a race.
	ErrVersionTaken = errors.New("player version written by another operation")
	// ErrLedgerConflict: a different entry has the same player and
	// sequence number.
	ErrLedgerConflict = errors.New("ledger entry conflict")
	// ErrBusy: an operation could not take its players (too many others
	// in the way); the caller may retry, and Recover completes it.
	ErrBusy = errors.New("players busy; try again")
)

// HeldError says which operation holds a player.
type HeldError struct {
	Username string
	By       string
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("player %s is held by operation %s", e.Username, e.By)
}

// Unwrap gives ErrHeld.
func (e *HeldError) Unwrap() error { return ErrHeld }
