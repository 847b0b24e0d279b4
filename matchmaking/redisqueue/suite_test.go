package redisqueue_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/matchmaking/redisqueue"
)

// The one suite, on both kinds of Redis the product runs on.
func TestRealRedis(t *testing.T) { runSuite(t, testsvc.Universal(testsvc.Redis)) }
func TestMiniRedis(t *testing.T) { runSuite(t, testsvc.Universal(testsvc.MiniRedis)) }

// TestRedisCluster: the suite on a real Redis Cluster of three primaries
// (every multi-key script keeps to one hash slot, or the cluster refuses
// it with CROSSSLOT).
func TestRedisCluster(t *testing.T) { runSuite(t, testsvc.RedisCluster) }

func runSuite(t *testing.T, newClient func(testing.TB) redis.UniversalClient) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, *env)
	}{
		{"Pointer", testPointer},
		{"AddIsIdempotent", testAddIsIdempotent},
		{"EndModes", testEndModes},
		{"ClaimAndComplete", testClaimAndComplete},
		{"Lease", testLease},
		{"History", testHistory},
		{"EnqueueRefusesBadInput", testEnqueueRefusesBadInput},
		{"OneLiveTicketPerPlayer", testOneLiveTicketPerPlayer},
		{"PlayerInGameCannotQueue", testPlayerInGameCannotQueue},
		{"Expiry", testExpiry},
		{"HeartbeatRefresh", testHeartbeatRefresh},
		{"ExpireWithoutLease", testExpireWithoutLease},
		{"PassPairsAndMakesGames", testPassPairsAndMakesGames},
		{"WindowWidensWithWaiting", testWindowWidensWithWaiting},
		{"Cooldown", testCooldown},
		{"CrashBetweenClaimAndGame", testCrashBetweenClaimAndGame},
		{"LeaseTakeover", testLeaseTakeover},
		{"AdminView", testAdminView},
		{"RaceSamePlayerEnqueues", testRaceSamePlayerEnqueues},
		{"RaceCancelVersusPair", testRaceCancelVersusPair},
		{"RaceTwoReplicas", testRaceTwoReplicas},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newEnv(t, newClient)) })
	}
}

var ctx = context.Background()

func ticket(id, player string, score int, at time.Time) matchmaking.Ticket {
	return matchmaking.Ticket{ID: id, Player: player, Level: matchmaking.Level{Score: score, Rating: 1500.25, RD: 61.5}, Pool: pool, Range: matchmaking.AnyScore, CreatedAt: at, State: matchmaking.Waiting}
}

func (e *env) cut() matchmaking.Cutoffs {
	now := e.clock.Now()
	return matchmaking.Cutoffs{Created: now.Add(-10 * time.Minute), Seen: now.Add(-time.Minute)}
}

func testPointer(t *testing.T, e *env) {
	for _, player := range []string{"alice", "we{ir}d"} {
		a := matchmaking.Ref{Pool: pool.Key(), ID: "t1"}
		b := matchmaking.Ref{Pool: pool.Key(), ID: "t2"}
		if _, ok, err := e.q.Pointer(ctx, player); ok || err != nil {
			t.Fatalf("%s: fresh pointer: ok=%v err=%v", player, ok, err)
		}
		if cur, ok, err := e.q.SwapPointer(ctx, player, b, a); ok || err != nil || cur != (matchmaking.Ref{}) {
			t.Fatalf("%s: swap from a wrong old value: cur=%v ok=%v err=%v", player, cur, ok, err)
		}
		if _, ok, err := e.q.SwapPointer(ctx, player, matchmaking.Ref{}, a); !ok || err != nil {
			t.Fatalf("%s: swap from none: ok=%v err=%v", player, ok, err)
		}
		if cur, ok, _ := e.q.SwapPointer(ctx, player, matchmaking.Ref{}, b); ok || cur != a {
			t.Fatalf("%s: second swap from none: cur=%v ok=%v, want refused showing %v", player, cur, ok, a)
		}
		if got, ok, _ := e.q.Pointer(ctx, player); !ok || got != a {
			t.Fatalf("%s: pointer = %v %v, want %v", player, got, ok, a)
		}
		if err := e.q.KeepPointer(ctx, player, b, time.Hour); err != nil {
			t.Fatal(err)
		}
		if ttl := e.c.PTTL(ctx, "mm:player:"+tagOf(player)).Val(); ttl > 0 {
			t.Fatalf("%s: KeepPointer of another ref set a TTL %v", player, ttl)
		}
		if err := e.q.KeepPointer(ctx, player, a, time.Hour); err != nil {
			t.Fatal(err)
		}
		if ttl := e.c.PTTL(ctx, "mm:player:"+tagOf(player)).Val(); ttl <= 0 || ttl > time.Hour {
			t.Fatalf("%s: pointer TTL %v, want up to an hour", player, ttl)
		}
	}
}

// tagOf mirrors the adapter's key naming, to look at keys from the test.
func tagOf(player string) string {
	if player == "we{ir}d" {
		return "{%" + fmt.Sprintf("%x", player) + "}"
	}
	return "{=" + player + "}"
}

func testAddIsIdempotent(t *testing.T, e *env) {
	now := e.clock.Now()
	tk := ticket("t1", "alice", 120, now)
	tk.Range = matchmaking.ScoreRange{Min: 0, Max: 300}
	for range 2 {
		got, err := e.q.Add(ctx, tk, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if got.State != matchmaking.Waiting || got.Player != "alice" || got.Level != tk.Level || got.Range != tk.Range || !got.CreatedAt.Equal(now) || got.Pool != pool {
			t.Fatalf("stored ticket %+v, want %+v", got, tk)
		}
	}
	w, err := e.q.Waiting(ctx, pool.Key())
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 1 || w[0].ID != "t1" || w[0].Level != tk.Level || w[0].Range != tk.Range || w[0].Player != "alice" || !w[0].CreatedAt.Equal(now) {
		t.Fatalf("waiting = %+v, want the one ticket", w)
	}
	if pools, _ := e.q.Pools(ctx); !slices.Equal(pools, []string{pool.Key()}) {
		t.Fatalf("pools = %v", pools)
	}
	if _, err := e.q.Get(ctx, matchmaking.Ref{Pool: pool.Key(), ID: "nope"}); !errors.Is(err, matchmaking.ErrNoTicket) {
		t.Fatalf("get missing: %v, want ErrNoTicket", err)
	}
}

func testEndModes(t *testing.T, e *env) {
	now := e.clock.Now()
	ref := func(id string) matchmaking.Ref { return matchmaking.Ref{Pool: pool.Key(), ID: id} }
	for _, id := range []string{"a", "b", "c"} {
		if _, err := e.q.Add(ctx, ticket(id, "p"+id, 0, now), time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		id     string
		mode   string // retire, cancel, poll
		now    time.Duration
		want   matchmaking.State
		orMiss bool
	}{
		{"a", "retire", 0, matchmaking.Waiting, false},
		{"a", "poll", 30 * time.Second, matchmaking.Waiting, false}, // heartbeat at +30s
		{"a", "cancel", 30 * time.Second, matchmaking.Cancelled, false},
		{"a", "cancel", 31 * time.Second, matchmaking.Cancelled, false}, // again: unchanged
		{"a", "poll", 31 * time.Second, matchmaking.Cancelled, false},
		// b was never polled: at +61s its heartbeat (its creation) is too old.
		{"b", "retire", 61 * time.Second, matchmaking.Expired, false},
		// c is polled along, but at +10m it is too old anyway.
		{"c", "poll", 50 * time.Second, matchmaking.Waiting, false},
		{"c", "poll", 100 * time.Second, matchmaking.Waiting, false},
		{"c", "cancel", 10 * time.Minute, matchmaking.Expired, false},
		// A ticket never added: poll finds nothing; cancel and retire leave
		// tombstones that a late Add cannot bring back to life.
		{"d", "poll", 0, "", true},
		{"d", "cancel", 0, matchmaking.Cancelled, false},
		{"e", "retire", 0, matchmaking.Expired, false},
	}
	for _, s := range steps {
		e.clock.Set(now.Add(s.now))
		var got matchmaking.Ticket
		var err error
		switch s.mode {
		case "poll":
			got, err = e.q.Poll(ctx, ref(s.id), e.clock.Now(), e.cut(), time.Hour)
		default:
			got, err = e.q.End(ctx, ref(s.id), s.mode == "cancel", e.clock.Now(), e.cut(), time.Hour)
		}
		if s.orMiss {
			if !errors.Is(err, matchmaking.ErrNoTicket) {
				t.Fatalf("%s %s: err %v, want ErrNoTicket", s.mode, s.id, err)
			}
			continue
		}
		if err != nil || got.State != s.want {
			t.Fatalf("%s %s at +%v: state %q err %v, want %q", s.mode, s.id, s.now, got.State, err, s.want)
		}
	}
	for id, want := range map[string]matchmaking.State{"d": matchmaking.Cancelled, "e": matchmaking.Expired} {
		late, err := e.q.Add(ctx, ticket(id, "p"+id, 0, now), time.Hour)
		if err != nil || late.State != want {
			t.Fatalf("add after tombstone: %q %v, want %q", late.State, err, want)
		}
	}
	if w, _ := e.q.Waiting(ctx, pool.Key()); len(w) != 0 {
		t.Fatalf("waiting after every ticket ended: %+v", w)
	}
	if n, _, _ := e.q.Stats(ctx, pool.Key()); n != 0 {
		t.Fatalf("stats count %d, want 0", n)
	}
}

func pairing(pool string, black, white matchmaking.Ticket) matchmaking.Pairing {
	return matchmaking.Pairing{
		ID: matchmaking.PairID(black.ID, white.ID), Pool: pool, Nigiri: true,
		Black: matchmaking.Side{Ticket: black.ID, Player: black.Player, Level: black.Level, Since: black.CreatedAt},
		White: matchmaking.Side{Ticket: white.ID, Player: white.Player, Level: white.Level, Since: white.CreatedAt},
	}
}

func testClaimAndComplete(t *testing.T, e *env) {
	now := e.clock.Now()
	a, b, c := ticket("a", "alice", 0, now), ticket("b", "bob", 10, now), ticket("c", "carol", 20, now)
	for _, tk := range []matchmaking.Ticket{a, b, c} {
		if _, err := e.q.Add(ctx, tk, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	ab, bc := pairing(pool.Key(), a, b), pairing(pool.Key(), b, c)
	ok, err := e.q.Claim(ctx, pool.Key(), []matchmaking.Pairing{ab, bc, ab}, now, e.cut())
	if err != nil {
		t.Fatal(err)
	}
	// b cannot be in two pairings; claiming ab again claims nothing new.
	if !slices.Equal(ok, []bool{true, false, false}) {
		t.Fatalf("claimed = %v, want [true false false]", ok)
	}
	for _, id := range []string{"a", "b"} {
		tk, err := e.q.Get(ctx, matchmaking.Ref{Pool: pool.Key(), ID: id})
		if err != nil || tk.State != matchmaking.Matched || tk.Match == nil || tk.Match.PairID != ab.ID || tk.Match.GameID != "" {
			t.Fatalf("ticket %s after claim: %+v %v", id, tk, err)
		}
	}
	if tk, _ := e.q.Get(ctx, matchmaking.Ref{Pool: pool.Key(), ID: "a"}); tk.Match.Colour != matchmaking.Black || tk.Match.Opponent != "bob" {
		t.Fatalf("alice's match %+v, want black against bob", tk.Match)
	}
	if w, _ := e.q.Waiting(ctx, pool.Key()); len(w) != 1 || w[0].ID != "c" {
		t.Fatalf("waiting after claim = %+v, want only c", w)
	}
	// A claimed pairing stays open, with everything needed to make its game.
	open, err := e.q.Open(ctx, pool.Key(), now, 10)
	if err != nil || len(open) != 1 || open[0].ID != ab.ID || open[0].Black.Player != "alice" || open[0].White.Level != b.Level || !open[0].White.Since.Equal(now) {
		t.Fatalf("open = %+v %v", open, err)
	}
	if got, err := e.q.Pairing(ctx, pool.Key(), ab.ID); err != nil || got.Black.Ticket != "a" {
		t.Fatalf("pairing = %+v %v", got, err)
	}
	if ttl := e.c.PTTL(ctx, "mm:{"+pool.Key()+"}:t:a").Val(); ttl > 0 {
		t.Fatalf("a matched ticket without its game must not expire (TTL %v)", ttl)
	}
	open[0].GameID = "g1"
	for range 2 {
		if err := e.q.Complete(ctx, pool.Key(), open, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if open, _ := e.q.Open(ctx, pool.Key(), now, 10); len(open) != 0 {
		t.Fatalf("open after complete = %+v", open)
	}
	if tk, _ := e.q.Get(ctx, matchmaking.Ref{Pool: pool.Key(), ID: "b"}); tk.Match.GameID != "g1" {
		t.Fatalf("bob's game = %q, want g1", tk.Match.GameID)
	}
	// A cancelled ticket cannot be claimed; neither can a stale one.
	if _, err := e.q.End(ctx, matchmaking.Ref{Pool: pool.Key(), ID: "c"}, true, now, e.cut(), time.Hour); err != nil {
		t.Fatal(err)
	}
	d, f := ticket("d", "dan", 0, now), ticket("f", "fay", 0, now)
	for _, tk := range []matchmaking.Ticket{d, f} {
		if _, err := e.q.Add(ctx, tk, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	later := now.Add(2 * time.Minute)
	ok, _ = e.q.Claim(ctx, pool.Key(), []matchmaking.Pairing{pairing(pool.Key(), c, d), pairing(pool.Key(), d, f)}, later, matchmaking.Cutoffs{Created: later.Add(-10 * time.Minute), Seen: later.Add(-time.Minute)})
	if !slices.Equal(ok, []bool{false, false}) {
		t.Fatalf("claims of a cancelled and of silent tickets = %v, want none", ok)
	}
}

func testLease(t *testing.T, e *env) {
	now := e.clock.Now()
	p := pool.Key()
	take := func(holder string, at time.Time) bool {
		ok, err := e.q.Lease(ctx, p, holder, 5*time.Second, at)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !take("r1", now) {
		t.Fatal("r1 could not take a free lease")
	}
	if take("r2", now.Add(time.Second)) {
		t.Fatal("r2 took a lease r1 holds")
	}
	if !take("r1", now.Add(4*time.Second)) {
		t.Fatal("r1 could not renew its lease")
	}
	if take("r2", now.Add(8*time.Second)) {
		t.Fatal("r2 took the lease before r1's renewed deadline (+9s)")
	}
	if !take("r2", now.Add(9*time.Second+time.Millisecond)) {
		t.Fatal("r2 could not take over after r1's deadline")
	}
	if err := e.q.Release(ctx, p, "r1"); err != nil {
		t.Fatal(err)
	}
	if take("r1", now.Add(10*time.Second)) {
		t.Fatal("r1's release removed r2's lease")
	}
	if err := e.q.Release(ctx, p, "r2"); err != nil {
		t.Fatal(err)
	}
	if !take("r1", now.Add(10*time.Second)) {
		t.Fatal("the lease is not free after its holder released it")
	}
}

func testHistory(t *testing.T, e *env) {
	now := e.clock.Now()
	if err := e.q.Met(ctx, []matchmaking.Meeting{
		{A: "alice", B: "bob", At: now.Add(-40 * time.Minute)},
		{A: "alice", B: "c{a}rol", At: now.Add(-10 * time.Minute)},
	}, time.Hour); err != nil {
		t.Fatal(err)
	}
	got, err := e.q.Recent(ctx, []string{"alice", "bob", "c{a}rol", "dan"}, now.Add(-30*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	want := matchmaking.Recent{"alice": {"c{a}rol"}, "c{a}rol": {"alice"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("recent = %v, want %v", got, want)
	}
}

func testEnqueueRefusesBadInput(t *testing.T, e *env) {
	s := e.service("r1")
	for _, tc := range []struct {
		mod   func(*matchmaking.Request)
		field string
	}{
		{func(r *matchmaking.Request) { r.BoardSize = 15 }, "board_size"},
		{func(r *matchmaking.Request) { r.Rules = "go" }, "rules"},
		{func(r *matchmaking.Request) { r.TimeControl = games.TimeControl{Preset: "bullet"} }, "time_control.preset"},
		{func(r *matchmaking.Request) { r.TimeControl = games.TimeControl{Main: time.Minute, Periods: 3} }, "time_control.period"},
		{func(r *matchmaking.Request) { r.Range = &matchmaking.ScoreRange{Min: 300, Max: 100} }, "rank_range"},
		{func(r *matchmaking.Request) { r.Range = &matchmaking.ScoreRange{Min: 300, Max: 500} }, "rank_range"},
		{func(r *matchmaking.Request) { r.Player = "" }, "player"},
	} {
		r := request("alice", 0)
		tc.mod(&r)
		_, err := s.Enqueue(ctx, r)
		var fe *matchmaking.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, matchmaking.ErrInvalid) {
			t.Errorf("err = %v, want a field error on %s", err, tc.field)
		}
	}
	if _, ok, _ := e.q.Pointer(ctx, "alice"); ok {
		t.Fatal("a refused request left a pointer")
	}
	if pools, _ := e.q.Pools(ctx); len(pools) != 0 {
		t.Fatalf("a refused request listed pools %v", pools)
	}
}

func testOneLiveTicketPerPlayer(t *testing.T, e *env) {
	s := e.service("r1")
	first := e.enqueue(s, "alice", 0)
	other := request("alice", 0)
	other.BoardSize = 9 // another pool: still one ticket per player
	if _, err := s.Enqueue(ctx, other); !errors.Is(err, matchmaking.ErrHasTicket) {
		t.Fatalf("second ticket: %v, want ErrHasTicket", err)
	}
	if got := e.mine(s, "alice"); got.ID != first.ID || got.State != matchmaking.Waiting {
		t.Fatalf("mine = %+v, want the first ticket waiting", got)
	}
	if ttl := e.c.PTTL(ctx, "mm:player:{=alice}").Val(); ttl != -1 {
		t.Fatalf("a live ticket's pointer has TTL %v, want none", ttl)
	}
	if c, err := s.Cancel(ctx, "alice"); err != nil || c.State != matchmaking.Cancelled {
		t.Fatalf("cancel: %+v %v", c, err)
	}
	if ttl := e.c.PTTL(ctx, "mm:player:{=alice}").Val(); ttl <= 0 || ttl > matchmaking.DefaultKeep {
		t.Fatalf("a cancelled ticket's pointer has TTL %v, want the retention", ttl)
	}
	if got := e.mine(s, "alice"); got.State != matchmaking.Cancelled {
		t.Fatalf("mine after cancel: %q", got.State)
	}
	second, err := s.Enqueue(ctx, other)
	if err != nil || second.State != matchmaking.Waiting || second.Pool.BoardSize != 9 {
		t.Fatalf("enqueue after cancel: %+v %v", second, err)
	}
	if _, err := s.Cancel(ctx, "nobody"); !errors.Is(err, matchmaking.ErrNoTicket) {
		t.Fatalf("cancel without a ticket: %v", err)
	}
	if _, err := s.Mine(ctx, "nobody"); !errors.Is(err, matchmaking.ErrNoTicket) {
		t.Fatalf("mine without a ticket: %v", err)
	}
	// A crash between claiming the pointer and adding the ticket leaves a
	// pointer to nothing: the next enqueue retires it and goes ahead.
	if _, ok, _ := e.q.SwapPointer(ctx, "bob", matchmaking.Ref{}, matchmaking.Ref{Pool: pool.Key(), ID: "ghost"}); !ok {
		t.Fatal("could not plant a dangling pointer")
	}
	if got := e.enqueue(s, "bob", 0); got.State != matchmaking.Waiting {
		t.Fatalf("enqueue over a dangling pointer: %+v", got)
	}
	if late, _ := e.q.Add(ctx, ticket("ghost", "bob", 0, e.clock.Now()), time.Hour); late.State != matchmaking.Expired {
		t.Fatalf("the crashed enqueue's late add made a live ticket: %+v", late)
	}
}

func testPlayerInGameCannotQueue(t *testing.T, e *env) {
	s := e.service("r1")
	e.enqueue(s, "alice", 0)
	e.enqueue(s, "bob", 10)
	if rep := e.pass(s); rep.Paired != 1 {
		t.Fatalf("pass = %+v, want one pairing", rep)
	}
	if _, err := s.Enqueue(ctx, request("alice", 0)); !errors.Is(err, matchmaking.ErrInGame) {
		t.Fatalf("enqueue while in a game: %v, want ErrInGame", err)
	}
	if _, err := s.Cancel(ctx, "alice"); !errors.Is(err, matchmaking.ErrMatched) {
		t.Fatalf("cancel after the match: %v, want ErrMatched", err)
	}
	e.games.finishAll()
	if got := e.enqueue(s, "alice", 5); got.State != matchmaking.Waiting {
		t.Fatalf("enqueue after the game finished: %+v", got)
	}
}

// The expire job ends stale tickets in every pool even where another
// replica holds the pass lease, and only the stale ones.
func testExpireWithoutLease(t *testing.T, e *env) {
	long := func(c *matchmaking.Config) { c.HeartbeatTimeout, c.LeaseTTL = 30*time.Second, time.Hour }
	holder := e.service("r1", long)
	other := e.service("r2", long)
	e.enqueue(holder, "silent", 0)
	e.pass(holder) // r1 takes the lease; one player, no pairing
	e.clock.Advance(20 * time.Second)
	e.enqueue(holder, "fresh", 5000)
	if rep := e.pass(other); !rep.Skipped {
		t.Fatalf("r2 passed while r1 holds the lease: %+v", rep)
	}
	e.clock.Advance(20 * time.Second)
	n, err := other.Expire(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Expire = %d, %v; want 1", n, err)
	}
	if got := e.mine(other, "silent"); got.State != matchmaking.Expired {
		t.Fatalf("silent = %q, want expired", got.State)
	}
	if got := e.mine(other, "fresh"); got.State != matchmaking.Waiting {
		t.Fatalf("fresh = %q, want waiting", got.State)
	}
	if n, err := other.Expire(ctx); err != nil || n != 0 {
		t.Fatalf("second Expire = %d, %v; want 0", n, err)
	}
}

func testExpiry(t *testing.T, e *env) {
	s := e.service("r1", func(c *matchmaking.Config) {
		c.MaxAge = 5 * time.Minute
		c.HeartbeatTimeout = 30 * time.Second
	})
	e.enqueue(s, "poller", 0)
	e.enqueue(s, "silent", 2000)
	e.enqueue(s, "lazy", -2000)
	for range 9 { // poller polls every 20s for three minutes
		e.clock.Advance(20 * time.Second)
		if got := e.mine(s, "poller"); got.State != matchmaking.Waiting {
			t.Fatalf("a polling player's ticket is %q", got.State)
		}
	}
	// silent and lazy never polled: the pass expires them.
	rep := e.pass(s)
	if rep.Expired != 2 {
		t.Fatalf("pass = %+v, want 2 expired", rep)
	}
	if got := e.mine(s, "lazy"); got.State != matchmaking.Expired {
		t.Fatalf("lazy = %q, want expired", got.State)
	}
	if got := e.mine(s, "poller"); got.State != matchmaking.Waiting || got.Waited(e.clock.Now()) != 3*time.Minute {
		t.Fatalf("poller = %q after %v, want waiting 3m", got.State, got.Waited(e.clock.Now()))
	}
	for range 6 { // past the maximum age despite polling
		e.clock.Advance(20 * time.Second)
		e.mine(s, "poller")
	}
	if got := e.mine(s, "poller"); got.State != matchmaking.Expired {
		t.Fatalf("poller after 5m = %q, want expired", got.State)
	}
	if got := e.enqueue(s, "silent", 0); got.State != matchmaking.Waiting {
		t.Fatalf("re-enqueue after expiry: %+v", got)
	}
}

// pollCount counts the polls that reach the queue (a script each).
type pollCount struct {
	*redisqueue.Queue
	n atomic.Int64
}

func (q *pollCount) Poll(ctx context.Context, ref matchmaking.Ref, now time.Time, cut matchmaking.Cutoffs, keep time.Duration) (matchmaking.Ticket, error) {
	q.n.Add(1)
	return q.Queue.Poll(ctx, ref, now, cut, keep)
}

// testHeartbeatRefresh: with a refresh, a poll records the heartbeat only
// when this replica's last record is that old; a player polling keeps the
// ticket, one who stops expires between timeout-refresh and timeout after
// the last poll; ended tickets read as before, and are read, not polled,
// once seen ended.
func testHeartbeatRefresh(t *testing.T, e *env) {
	q := &pollCount{Queue: e.q}
	s, err := matchmaking.New(q, e.games, e.q, matchmaking.Config{Holder: "r1", Now: e.clock.Now, NewID: newIDs("r1"),
		HeartbeatTimeout: 30 * time.Second, HeartbeatRefresh: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e.enqueue(s, "poller", 0)
	for range 36 { // every 5s for three minutes
		e.clock.Advance(5 * time.Second)
		if got := e.mine(s, "poller"); got.State != matchmaking.Waiting {
			t.Fatalf("a polling player's ticket is %q", got.State)
		}
	}
	// Recorded at +10s, +20s, …: every other poll.
	if n := q.n.Load(); n != 18 {
		t.Fatalf("36 polls 5s apart ran %d scripts, want 18", n)
	}
	// The last record was at +180s (the 36th poll). A poll at +185s is not
	// recorded; then silence: still waiting at +205s (timeout after the
	// record), expired by +211s, 26s after the last poll.
	e.clock.Advance(5 * time.Second)
	e.mine(s, "poller")
	e.clock.Advance(20 * time.Second)
	if rep := e.pass(s); rep.Expired != 0 {
		t.Fatalf("pass 20s after the last poll: %+v, want nothing expired", rep)
	}
	e.clock.Advance(6 * time.Second)
	if rep := e.pass(s); rep.Expired != 1 {
		t.Fatalf("pass 31s after the last record: %+v, want the ticket expired", rep)
	}
	if got := e.mine(s, "poller"); got.State != matchmaking.Expired {
		t.Fatalf("poller = %q, want expired", got.State)
	}
	// A ticket seen ended is read, not polled: it never turns live again.
	// Matched tickets are the common case (players poll until the game).
	e.enqueue(s, "black", 1000)
	e.enqueue(s, "white", 1000)
	if rep := e.pass(s); rep.Paired != 1 {
		t.Fatalf("pass: %+v, want one pairing", rep)
	}
	before := q.n.Load()
	for range 3 {
		e.clock.Advance(15 * time.Second)
		for _, p := range []string{"poller", "black", "white"} {
			if got := e.mine(s, p); got.State == matchmaking.Waiting {
				t.Fatalf("%s's ticket is waiting again", p)
			}
		}
	}
	if n := q.n.Load() - before; n != 0 {
		t.Fatalf("9 polls of ended tickets ran %d scripts, want none", n)
	}
	if _, err := matchmaking.New(q, e.games, e.q, matchmaking.Config{HeartbeatTimeout: time.Minute, HeartbeatRefresh: time.Minute}); err == nil {
		t.Fatal("a refresh as long as the timeout was accepted")
	}
}

func testPassPairsAndMakesGames(t *testing.T, e *env) {
	s := e.service("r1", func(c *matchmaking.Config) { c.Rand = fixedRand{0, 0} }) // odd stones, guess even: holder takes Black
	// Levels 0, 30, 55, 90: greedy closest-first would pair 30-55 and strand
	// two; the optimal pass pairs 0-30 and 55-90.
	for i, sc := range []int{0, 30, 55, 90} {
		e.enqueue(s, fmt.Sprintf("p%d", i), sc)
	}
	e.clock.Advance(3 * time.Second)
	rep := e.pass(s)
	if rep.Paired != 2 || rep.Waiting != 4 || rep.Lost != 0 {
		t.Fatalf("pass = %+v, want 2 pairings of 4", rep)
	}
	byPlayer := map[string]matchmaking.Ticket{}
	for i := range 4 {
		p := fmt.Sprintf("p%d", i)
		tk := e.mine(s, p)
		if tk.State != matchmaking.Matched || tk.Match.GameID == "" {
			t.Fatalf("%s = %+v, want matched with a game", p, tk)
		}
		byPlayer[p] = tk
	}
	if byPlayer["p0"].Match.Opponent != "p1" || byPlayer["p2"].Match.Opponent != "p3" {
		t.Fatalf("opponents: p0-%s p2-%s, want p0-p1 p2-p3", byPlayer["p0"].Match.Opponent, byPlayer["p2"].Match.Opponent)
	}
	// The stronger player held the stones; the guess was wrong.
	if byPlayer["p1"].Match.Colour != matchmaking.Black || byPlayer["p0"].Match.Colour != matchmaking.White {
		t.Fatalf("colours p0 %s p1 %s, want p1 black by nigiri", byPlayer["p0"].Match.Colour, byPlayer["p1"].Match.Colour)
	}
	gs := e.games.all()
	if len(gs) != 2 {
		t.Fatalf("games = %+v", gs)
	}
	for _, g := range gs {
		if g.BoardSize != 19 || g.Rules != "chinese" || !g.Rated || g.TimeControl.Preset != "rapid" || g.ID == "" {
			t.Fatalf("pending game %+v lost the pool's terms", g)
		}
		if byPlayer[g.Black].Match.GameID != byPlayer[g.White].Match.GameID {
			t.Fatalf("players of one game see different games")
		}
		if ttl := e.c.PTTL(ctx, "mm:player:{="+g.Black+"}").Val(); ttl <= 0 {
			t.Fatalf("a matched ticket's pointer has TTL %v, want the retention", ttl)
		}
	}
	if len(e.metrics.waits) != 4 || e.metrics.waits[0] != 3*time.Second || len(e.metrics.gaps) != 2 || e.metrics.gaps[0]+e.metrics.gaps[1] != 65 {
		t.Fatalf("metrics waits %v gaps %v, want four 3s waits and gaps summing to 65", e.metrics.waits, e.metrics.gaps)
	}
	if e.metrics.queue[pool.Key()] != 0 {
		t.Fatalf("queue length metric %d, want 0", e.metrics.queue[pool.Key()])
	}
	if rep := e.pass(s); rep.Waiting != 0 || rep.Paired != 0 {
		t.Fatalf("second pass = %+v, want nothing to do", rep)
	}
}

// fixedRand returns its values in turn.
type fixedRand []int

func (f fixedRand) IntN(n int) int {
	v := f[0]
	copy(f, f[1:])
	f[len(f)-1] = v
	return v % n
}

func testWindowWidensWithWaiting(t *testing.T, e *env) {
	s := e.service("r1")
	e.enqueue(s, "low", 0)
	e.enqueue(s, "high", 150)
	if rep := e.pass(s); rep.Paired != 0 {
		t.Fatalf("150 points apart at once: %+v", rep)
	}
	e.clock.Advance(30 * time.Second) // window 50 + 75 = 125
	e.mine(s, "low")
	e.mine(s, "high")
	if rep := e.pass(s); rep.Paired != 0 {
		t.Fatalf("150 points apart after 30s: %+v", rep)
	}
	e.clock.Advance(10 * time.Second) // window 150
	if rep := e.pass(s); rep.Paired != 1 {
		t.Fatalf("150 points apart after 40s: %+v, want paired", rep)
	}
}

func testCooldown(t *testing.T, e *env) {
	s := e.service("r1", func(c *matchmaking.Config) {
		c.Policy = matchmaking.DefaultPolicy()
		c.Policy.Cooldown = 20 * time.Minute
	})
	e.enqueue(s, "alice", 0)
	e.enqueue(s, "bob", 0)
	if rep := e.pass(s); rep.Paired != 1 {
		t.Fatalf("first meeting: %+v", rep)
	}
	e.games.finishAll()
	e.clock.Advance(10 * time.Minute)
	e.enqueue(s, "alice", 0)
	e.enqueue(s, "bob", 0)
	if rep := e.pass(s); rep.Paired != 0 || rep.Waiting != 2 {
		t.Fatalf("rematch within the cooldown: %+v", rep)
	}
	e.enqueue(s, "carol", 10)
	if rep := e.pass(s); rep.Paired != 1 {
		t.Fatalf("a third player: %+v, want one pairing", rep)
	}
	if got := e.mine(s, "carol"); got.State != matchmaking.Matched {
		t.Fatalf("carol = %q, want matched", got.State)
	}
	e.clock.Advance(11 * time.Minute) // 21 minutes after the first game
	e.games.finishAll()
	e.enqueue(s, "alice", 0) // her old ticket, if unpaired, has expired
	e.enqueue(s, "bob", 0)
	if rep := e.pass(s); rep.Paired != 1 || e.mine(s, "alice").Match.Opponent != "bob" {
		t.Fatalf("rematch after the cooldown: %+v, want alice and bob paired", rep)
	}
}

func testCrashBetweenClaimAndGame(t *testing.T, e *env) {
	s := e.service("r1")
	e.enqueue(s, "alice", 0)
	e.enqueue(s, "bob", 10)
	// The game store is down: the pairing is claimed, its game is not made.
	e.games.failing.Store(true)
	rep, err := s.Pass(ctx, pool.Key())
	if err == nil || rep.Paired != 1 {
		t.Fatalf("pass with the game store down: %+v %v, want a claimed pairing and an error", rep, err)
	}
	tk := e.mine(s, "alice")
	if tk.State != matchmaking.Matched || tk.Match.GameID != "" {
		t.Fatalf("alice = %+v, want matched without a game yet", tk)
	}
	// Until the game exists, she can neither queue again nor cancel.
	if _, err := s.Enqueue(ctx, request("alice", 0)); !errors.Is(err, matchmaking.ErrInGame) {
		t.Fatalf("enqueue with a pairing in flight: %v", err)
	}
	if _, err := s.Cancel(ctx, "alice"); !errors.Is(err, matchmaking.ErrMatched) {
		t.Fatalf("cancel with a pairing in flight: %v", err)
	}
	// Still down after the grace period: the poll answers all the same.
	e.clock.Advance(matchmaking.DefaultOpenGrace)
	if tk := e.mine(s, "bob"); tk.State != matchmaking.Matched || tk.Match.GameID != "" {
		t.Fatalf("bob's poll with the store down: %+v", tk)
	}
	// The store is back; a poll after the grace period makes the game.
	e.games.failing.Store(false)
	e.clock.Advance(matchmaking.DefaultOpenGrace)
	tk = e.mine(s, "bob")
	if tk.State != matchmaking.Matched || tk.Match.GameID == "" {
		t.Fatalf("bob's poll did not finish the pairing: %+v", tk)
	}
	if got := e.mine(s, "alice"); got.Match.GameID != tk.Match.GameID {
		t.Fatalf("alice's game %q, bob's %q", got.Match.GameID, tk.Match.GameID)
	}

	// A replica that dies right after its claim: the next pass finishes it,
	// and making the game twice gives one game.
	e.enqueue(s, "carol", 500)
	e.enqueue(s, "dan", 510)
	w, _ := e.q.Waiting(ctx, pool.Key())
	slices.SortFunc(w, func(a, b matchmaking.Ticket) int { return a.Level.Score - b.Level.Score })
	cd := pairing(pool.Key(), w[0], w[1])
	if ok, err := e.q.Claim(ctx, pool.Key(), []matchmaking.Pairing{cd}, e.clock.Now(), e.cut()); err != nil || !ok[0] {
		t.Fatalf("claim: %v %v", ok, err)
	}
	e.clock.Advance(time.Second)
	if rep := e.pass(s); rep.Recovered != 1 {
		t.Fatalf("pass after a dead claimer: %+v, want one recovered", rep)
	}
	if got := e.mine(s, "dan"); got.Match == nil || got.Match.GameID == "" {
		t.Fatalf("dan = %+v, want a game", got)
	}
	if n := len(e.games.all()); n != 2 {
		t.Fatalf("%d games, want 2", n)
	}
}

func testLeaseTakeover(t *testing.T, e *env) {
	r1 := e.service("r1")
	r2 := e.service("r2")
	e.enqueue(r1, "alice", 0)
	if rep := e.pass(r1); rep.Skipped {
		t.Fatal("r1 could not take the free lease")
	}
	if rep := e.pass(r2); !rep.Skipped {
		t.Fatal("r2 passed while r1 holds the lease")
	}
	e.clock.Advance(matchmaking.DefaultLeaseTTL / 2)
	if rep := e.pass(r1); rep.Skipped {
		t.Fatal("r1 could not renew")
	}
	// r1 dies: after its lease runs out, r2 takes over.
	e.clock.Advance(matchmaking.DefaultLeaseTTL + time.Millisecond)
	e.enqueue(r2, "bob", 20)
	if rep := e.pass(r2); rep.Skipped || rep.Paired != 1 {
		t.Fatalf("r2 after r1 died: %+v", rep)
	}
}

func testAdminView(t *testing.T, e *env) {
	s := e.service("r1")
	e.enqueue(s, "alice", 0)
	e.clock.Advance(40 * time.Second)
	e.mine(s, "alice")
	e.enqueue(s, "bob", 1000)
	r := request("carol", 0)
	r.BoardSize, r.Rated = 9, false
	if _, err := s.Enqueue(ctx, r); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(5 * time.Second)
	stats, err := s.Pools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, st := range stats {
		got[st.Key] = fmt.Sprintf("%d %v", st.Waiting, st.OldestWait)
	}
	want := map[string]string{pool.Key(): "2 45s", "9/600+3x30/chinese/u": "1 5s"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("pools = %v, want %v", got, want)
	}
}

// testRaceSamePlayerEnqueues: many requests of one player at once, in
// several pools, give exactly one live ticket, the one whose request
// succeeded.
func testRaceSamePlayerEnqueues(t *testing.T, e *env) {
	s := e.service("r1")
	for round := range 10 {
		player := fmt.Sprintf("p%d", round)
		var wg sync.WaitGroup
		tickets := make([]matchmaking.Ticket, 8)
		errs := make([]error, len(tickets))
		for i := range errs {
			wg.Go(func() {
				r := request(player, 0)
				r.BoardSize = []int{9, 13, 19}[i%3]
				tickets[i], errs[i] = s.Enqueue(ctx, r)
			})
		}
		wg.Wait()
		var won []string
		for i, err := range errs {
			switch {
			case err == nil:
				won = append(won, tickets[i].ID)
			case !errors.Is(err, matchmaking.ErrHasTicket):
				t.Fatalf("unexpected error %v", err)
			}
		}
		var live []string
		pools, _ := e.q.Pools(ctx)
		for _, p := range pools {
			w, _ := e.q.Waiting(ctx, p)
			for _, tk := range w {
				if tk.Player == player {
					live = append(live, tk.ID)
				}
			}
		}
		if len(won) != 1 || !slices.Equal(won, live) {
			t.Fatalf("round %d: requests that succeeded %v, live tickets %v; want the same one", round, won, live)
		}
		if got := e.mine(s, player); got.ID != won[0] {
			t.Fatalf("round %d: the pointer shows %s, want %s", round, got.ID, won[0])
		}
	}
}

// testRaceCancelVersusPair: a cancel racing a pass gives a cancel or a
// game, never both, never neither.
func testRaceCancelVersusPair(t *testing.T, e *env) {
	s := e.service("r1")
	rounds := 40
	cancels, games := 0, 0
	for i := range rounds {
		a, b := fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i)
		e.enqueue(s, a, i*1000)
		e.enqueue(s, b, i*1000)
		var wg sync.WaitGroup
		var cancelErr error
		var cancelled matchmaking.Ticket
		wg.Go(func() { cancelled, cancelErr = s.Cancel(ctx, a) })
		wg.Go(func() { _, _ = s.Pass(ctx, pool.Key()) })
		wg.Wait()
		final := e.mine(s, a)
		switch {
		case cancelErr == nil:
			cancels++
			if cancelled.State != matchmaking.Cancelled || final.State != matchmaking.Cancelled {
				t.Fatalf("round %d: cancel succeeded but the ticket is %q", i, final.State)
			}
			if busy, _ := e.games.Unfinished(ctx, a); busy {
				t.Fatalf("round %d: cancelled and given a game", i)
			}
			if got := e.mine(s, b); got.State != matchmaking.Waiting {
				t.Fatalf("round %d: the partner of a cancelled ticket is %q", i, got.State)
			}
			if _, err := s.Cancel(ctx, b); err != nil {
				t.Fatal(err)
			}
		case errors.Is(cancelErr, matchmaking.ErrMatched):
			games++
			if final.State != matchmaking.Matched || final.Match.GameID == "" {
				t.Fatalf("round %d: cancel refused but the ticket is %+v", i, final)
			}
		default:
			t.Fatalf("round %d: cancel: %v", i, cancelErr)
		}
	}
	t.Logf("%d rounds: %d cancels won, %d games", rounds, cancels, games)
}

// testRaceTwoReplicas: replicas passing at once, first with the lease and
// then as if the lease were lost mid-pass (every replica plans and claims
// at once): no ticket is paired twice, and everyone is paired.
func testRaceTwoReplicas(t *testing.T, e *env) {
	for _, splitBrain := range []bool{false, true} {
		q := matchmaking.Queue(e.q)
		if splitBrain {
			q = alwaysLeased{e.q}
		}
		var reps []*matchmaking.Service
		for i := range 3 {
			s, err := matchmaking.New(q, e.games, e.q, matchmaking.Config{Holder: fmt.Sprintf("r%d", i), Now: e.clock.Now, NewID: newIDs(fmt.Sprintf("r%d-", i))})
			if err != nil {
				t.Fatal(err)
			}
			reps = append(reps, s)
		}
		const players = 120
		for i := range players {
			e.enqueue(reps[i%3], fmt.Sprintf("x%v-%d", splitBrain, i), (i/2)*7) // pairs of equals
		}
		var wg sync.WaitGroup
		for _, s := range reps {
			wg.Go(func() {
				for range 3 {
					if _, err := s.Pass(ctx, pool.Key()); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		seen := map[string]string{}
		for _, g := range e.games.all() {
			for _, p := range []string{g.Black, g.White} {
				if prev, dup := seen[p]; dup {
					t.Fatalf("%s is in pairings %s and %s", p, prev, g.ID)
				}
				seen[p] = g.ID
			}
		}
		for i := range players {
			p := fmt.Sprintf("x%v-%d", splitBrain, i)
			tk := e.mine(reps[0], p)
			if tk.State != matchmaking.Matched || seen[p] != tk.Match.PairID {
				t.Fatalf("split brain %v: %s = %+v, game pairing %q", splitBrain, p, tk, seen[p])
			}
		}
		e.games.finishAll()
	}
}

// alwaysLeased grants every lease: replicas that each believe they hold it.
type alwaysLeased struct{ matchmaking.Queue }

func (alwaysLeased) Lease(context.Context, string, string, time.Duration, time.Time) (bool, error) {
	return true, nil
}

// TestReloadsLostScripts: a server that lost its scripts (a restart, a
// SCRIPT FLUSH) gets them again, also inside pipelines. On the in-process
// server only: flushing the shared test server's scripts would disturb
// other packages' tests.
func TestReloadsLostScripts(t *testing.T) {
	e := newEnv(t, testsvc.Universal(testsvc.MiniRedis))
	s := e.service("r1")
	e.enqueue(s, "alice", 0)
	e.enqueue(s, "bob", 0)
	if err := e.c.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if rep := e.pass(s); rep.Paired != 1 {
		t.Fatalf("pass after the scripts were flushed: %+v", rep)
	}
	if got := e.mine(s, "bob"); got.State != matchmaking.Matched || got.Match.GameID == "" {
		t.Fatalf("bob = %+v, want matched with a game", got)
	}
}
