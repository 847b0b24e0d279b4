package matchmaking

import (
	"context"
	"time"

	"github.com/weiqi-platform/rank/games"
)

// Queue is the shared state of every pool: tickets, the per-player pointer
// to a player's one live ticket, pairings and the pass lease. The Redis
// adapter (matchmaking/redisqueue) implements it; its doc.go says how each
// method stays atomic in Redis Cluster.
//
// Times are passed in (the service's clock), never read by the store, so
// that tests can drive them.
type Queue interface {
	// Pointer returns the ref a player's pointer holds, or ok=false.
	Pointer(ctx context.Context, player string) (ref Ref, ok bool, err error)
	// SwapPointer sets the player's pointer to ref if it holds old (old
	// zero: if it holds nothing). It reports whether it did and, if not,
	// what the pointer holds (zero: nothing).
	SwapPointer(ctx context.Context, player string, old, ref Ref) (cur Ref, swapped bool, err error)
	// KeepPointer gives the pointer a lifetime of ttl (0: no expiry) if it
	// still holds ref.
	KeepPointer(ctx context.Context, player string, ref Ref, ttl time.Duration) error

	// Add stores a new waiting ticket unless one with its ref exists; it
	// returns the stored ticket (the existing one if there was one).
	Add(ctx context.Context, t Ticket, keep time.Duration) (Ticket, error)
	// Get returns a ticket; ErrNoTicket if none.
	Get(ctx context.Context, ref Ref) (Ticket, error)
	// Poll is a player's poll: a waiting ticket past the cutoffs becomes
	// Expired (kept for keep), a fresh one records now as its heartbeat. It
	// returns the ticket; ErrNoTicket if none.
	Poll(ctx context.Context, ref Ref, now time.Time, cut Cutoffs, keep time.Duration) (Ticket, error)
	// End ends a ticket atomically and returns its final state: a waiting
	// ticket past the cutoffs (created or last seen at or before them)
	// becomes Expired; a fresh waiting one becomes Cancelled if cancel is
	// set, else stays Waiting; a missing one is written as a tombstone (so
	// that a late Add of it does nothing): Cancelled if cancel is set, else
	// Expired; other states are returned unchanged. Ended tickets are kept
	// for keep.
	End(ctx context.Context, ref Ref, cancel bool, now time.Time, cut Cutoffs, keep time.Duration) (Ticket, error)
	// Stale lists the waiting tickets of a pool past the cutoffs, at most
	// limit of them.
	Stale(ctx context.Context, pool string, cut Cutoffs, limit int) ([]Ref, error)
	// Waiting returns a pool's waiting tickets.
	Waiting(ctx context.Context, pool string) ([]Ticket, error)

	// Claim takes each pairing atomically: both tickets must still be
	// waiting and fresh; then both become Matched and the pairing is
	// recorded as open (no game yet). claimed[i] reports whether this call
	// claimed pairing i; one claimed before (by a replica that planned the
	// same pair) is not, and is finished from its stored record.
	Claim(ctx context.Context, pool string, ps []Pairing, now time.Time, cut Cutoffs) (claimed []bool, err error)
	// Pairing returns one pairing; ErrNoTicket if none.
	Pairing(ctx context.Context, pool, id string) (Pairing, error)
	// Open lists the pool's claimed pairings that have no game yet and were
	// claimed at or before since.
	Open(ctx context.Context, pool string, since time.Time, limit int) ([]Pairing, error)
	// Complete records the game of claimed pairings and closes them; it is
	// idempotent. Their tickets, and the players' pointers to them, are
	// kept for keep.
	Complete(ctx context.Context, pool string, done []Pairing, keep time.Duration) error

	// Pools lists the pools that have ever had a ticket.
	Pools(ctx context.Context) ([]string, error)
	// Stats returns a pool's waiting count and its oldest ticket's time.
	Stats(ctx context.Context, pool string) (waiting int, oldest time.Time, err error)

	// Lease takes or renews the lease on a pool's passes for holder, for
	// ttl. It reports whether holder has it.
	Lease(ctx context.Context, pool, holder string, ttl time.Duration, now time.Time) (bool, error)
	// Release gives the lease up if holder has it.
	Release(ctx context.Context, pool, holder string) error
}

// Cutoffs say when a waiting ticket is stale: made at or before Created, or
// last polled at or before Seen.
type Cutoffs struct {
	Created time.Time
	Seen    time.Time
}

// Pairing is two claimed tickets and the game they lead to.
type Pairing struct {
	ID        string // from the two ticket ids; the pending game's idempotency key
	Pool      string
	Black     Side
	White     Side
	Nigiri    bool
	ClaimedAt time.Time
	GameID    string // set by Complete
}

// Side is one player of a pairing.
type Side struct {
	Ticket string
	Player string
	Level  Level
	Since  time.Time // when the ticket was made
}

// PairID names the pairing of two tickets, whatever their order.
func PairID(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return a + "." + b
}

// History keeps who met whom, for the cooldown. The Redis adapter keeps the
// pairings it made; a games-backed one may add games from elsewhere.
type History interface {
	// Met records meetings, each kept for keep.
	Met(ctx context.Context, ms []Meeting, keep time.Duration) error
	// Recent returns, for each of players, whom they met at or after since.
	Recent(ctx context.Context, players []string, since time.Time) (Recent, error)
}

// Meeting is two players paired at a time.
type Meeting struct {
	A, B string
	At   time.Time
}

// PendingGame is the game a pairing creates: an even game (no handicap,
// the rules preset's komi) with colours by nigiri.
type PendingGame struct {
	ID          string // the pairing id: creating it twice gives one game
	Black       string
	White       string
	BoardSize   int
	Rules       string
	TimeControl games.TimeControl
	Rated       bool
	CreatedAt   time.Time
}

// Games is what matchmaking needs from the game records: IntakeGames (the
// games intake) in the product. It is a port so that the queue's suites
// can run thousands of pairings against a recorder that catches a player
// put in two games at once, and fail its writes on demand.
type Games interface {
	// Unfinished reports whether the player is in a game that has not
	// finished (pending or running).
	Unfinished(ctx context.Context, player string) (bool, error)
	// CreatePending stores the pending game of a pairing and returns its
	// game id. It must be idempotent by g.ID: a retry after a crash returns
	// the same game.
	CreatePending(ctx context.Context, g PendingGame) (gameID string, err error)
}

// Metrics receives the queue's measurements; see NopMetrics.
type Metrics interface {
	// QueueLength is a pool's waiting count after a pass.
	QueueLength(pool string, waiting int)
	// Paired is called once per paired ticket with how long it waited.
	Paired(pool string, waited time.Duration)
	// LevelGap is called once per pairing with its ladder gap.
	LevelGap(pool string, gap int)
}

// NopMetrics drops every measurement.
type NopMetrics struct{}

// QueueLength implements Metrics.
func (NopMetrics) QueueLength(string, int) {}

// Paired implements Metrics.
func (NopMetrics) Paired(string, time.Duration) {}

// LevelGap implements Metrics.
func (NopMetrics) LevelGap(string, int) {}
