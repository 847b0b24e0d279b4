package rating_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

var bg = context.Background()

// fixedClock is an injected clock: ledger times are part of the hash, so
// a test that compares plans must not read the wall clock.
func fixedClock() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }

func newStore(t *testing.T) rating.Store {
	t.Helper()
	s, err := ratingdb.New(bg, testsvc.Mongo(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newStoreOf is newStore on the given kind of store (testsvc.MongoKinds):
// the exactly-once tests run on each.
func newStoreOf(t *testing.T, kind string) rating.Store {
	t.Helper()
	s, err := ratingdb.New(bg, testsvc.MongoOf(t, kind))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func game(id, black, white string, winner rating.Side) rating.GameInput {
	g := rating.GameInput{ID: id, Black: black, White: white, Winner: winner, Game: rating.Game{Moves: 150}, SourceID: "src-" + id, Actor: "go-server", At: fixedClock()}
	if winner == rating.SideNone {
		g.Game.Outcome = rating.Draw
	}
	return g
}

func TestApplyOnceAndAgain(t *testing.T) {
	store := newStore(t)
	svc := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
	r, err := svc.Apply(bg, game("g1", "alice", "bob", rating.SideBlack))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Applied || r.Black.Delta != 5 || r.White.Delta != -5 || r.Black.Score != 5 || r.White.Score != -5 {
		t.Fatalf("first game: %+v", r)
	}
	if r.Black.Glicko.Rating <= 1500 || r.White.Glicko.Rating >= 1500 || r.Black.Wins != 1 || r.White.Losses != 1 || r.Black.Games != 1 {
		t.Fatalf("Glicko-2 or counts not moved: %+v", r)
	}
	again, err := svc.Apply(bg, game("g1", "alice", "bob", rating.SideBlack))
	if err != nil {
		t.Fatal(err)
	}
	if again != r {
		t.Fatalf("applying again gave\n%+v\nnot\n%+v", again, r)
	}
	for _, name := range []string{"alice", "bob"} {
		h, err := svc.History(bg, name, 0, 10)
		if err != nil || len(h) != 1 {
			t.Fatalf("%s history %v, %v: want one entry", name, h, err)
		}
		if err := svc.Verify(bg, name); err != nil {
			t.Fatal(err)
		}
	}
	// A draw moves Glicko-2 and the counts, not the ladder.
	d, err := svc.Apply(bg, game("g2", "bob", "alice", rating.SideNone))
	if err != nil {
		t.Fatal(err)
	}
	if d.Black.Delta != 0 || d.Black.Score != -5 || d.Black.Draws != 1 || d.Black.Games != 2 || d.Black.Glicko == r.White.Glicko {
		t.Fatalf("draw: %+v", d)
	}
}

// A tracked game (intake's) is written without a document saying it is
// done: its written plan says so. Applying it again, also after later
// games of its players, gives the same result and writes nothing, also
// when the caller wrongly says it is fresh (the one write stops at the
// stored operation), and the integrity review's RatedGames lists it.
func TestTrackedGameIsDoneByItsPlan(t *testing.T) {
	store := newStore(t)
	svc := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
	g1 := game("g1", "alice", "bob", rating.SideBlack)
	g1.Tracked, g1.Fresh = true, true
	r, err := svc.Apply(bg, g1)
	if err != nil {
		t.Fatal(err)
	}
	if op, err := store.Op(bg, "g1"); err != nil || op.Done || op.Plan == nil {
		t.Fatalf("stored g1 = %+v, %v: want its plan and no done document", op, err)
	}
	g2 := game("g2", "bob", "alice", rating.SideBlack)
	g2.Tracked, g2.Fresh = true, true
	if _, err := svc.Apply(bg, g2); err != nil {
		t.Fatal(err)
	}
	before := map[string]rating.PlayerState{}
	for _, n := range []string{"alice", "bob"} {
		before[n] = must(t)(svc.Player(bg, n))
	}
	for _, fresh := range []bool{false, true} { // this process, and another
		s := svc
		if fresh {
			s = rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
		}
		for _, wrong := range []bool{false, true} {
			g := g1
			g.Fresh = wrong
			again, err := s.Apply(bg, g)
			if err != nil {
				t.Fatal(err)
			}
			if again != r {
				t.Fatalf("applying g1 again (fresh %v) gave\n%+v\nnot\n%+v", wrong, again, r)
			}
			for _, n := range []string{"alice", "bob"} {
				if now := must(t)(s.Player(bg, n)); now != before[n] {
					t.Fatalf("%s after g1 again (fresh %v) = %+v, want %+v", n, wrong, now, before[n])
				}
			}
		}
	}
	rated, err := svc.RatedGames(bg, fixedClock().Add(-time.Hour), fixedClock().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(rated) != 2 || rated[0].ID != "g1" || rated[1].ID != "g2" {
		t.Fatalf("RatedGames = %+v, want g1 and g2", rated)
	}
}

func must(t *testing.T) func(rating.PlayerState, error) rating.PlayerState {
	return func(st rating.PlayerState, err error) rating.PlayerState {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
}

func TestGameThatMovesNothing(t *testing.T) {
	store := newStore(t)
	svc := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
	g := game("h1", "alice", "bob", rating.SideBlack)
	g.Game.Handicap = 3
	r, err := svc.Apply(bg, g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Applied || r.Black.Score != 0 || r.Black.Glicko != rating.NewGlicko() || r.Black.Games != 0 {
		t.Fatalf("handicap game: %+v", r)
	}
	if _, err := store.Op(bg, "h1"); !errors.Is(err, rating.ErrNotFound) {
		t.Fatalf("a handicap game left an operation: %v", err)
	}
	if _, err := store.Player(bg, "alice"); !errors.Is(err, rating.ErrNotFound) {
		t.Fatalf("a handicap game created a player: %v", err)
	}
}

func TestApplyRefusesBadInput(t *testing.T) {
	svc := rating.NewService(newStore(t), rating.ServiceConfig{})
	for _, g := range []rating.GameInput{
		{ID: "", Black: "a", White: "b", Winner: rating.SideBlack},
		{ID: "x", Black: "a", White: "a", Winner: rating.SideBlack},
		{ID: "x", Black: "a", White: "b", Winner: rating.SideNone},
		{ID: "x", Black: "a", White: "b", Winner: "red"},
	} {
		if _, err := svc.Apply(bg, g); !errors.Is(err, rating.ErrInvalidGame) {
			t.Errorf("Apply(%+v) = %v, want ErrInvalidGame", g, err)
		}
	}
}

// errCrash is the failure the crashing store injects.
var errCrash = errors.New("injected crash")

// crashStore fails the write after the first `after` writes: with
// beforeWrite the failing write is not done (the process died before
// sending it), otherwise it is done and its answer lost (died after).
type crashStore struct {
	rating.Store
	mu          sync.Mutex
	writes      int
	after       int
	beforeWrite bool
	log         []string
}

func (c *crashStore) step(name string, write func() error) error {
	c.mu.Lock()
	n := c.writes
	c.writes++
	c.log = append(c.log, name)
	c.mu.Unlock()
	if n < c.after {
		return write()
	}
	if n == c.after && !c.beforeWrite {
		_ = write()
	}
	return errCrash
}

func (c *crashStore) CreateOp(ctx context.Context, op rating.Operation) (out rating.Operation, err error) {
	err = c.step("create op", func() error { out, err = c.Store.CreateOp(ctx, op); return err })
	return out, err
}
func (c *crashStore) SetPlan(ctx context.Context, id string, p rating.Plan) (out rating.Plan, err error) {
	err = c.step("set plan", func() error { out, err = c.Store.SetPlan(ctx, id, p); return err })
	return out, err
}
func (c *crashStore) FinishOp(ctx context.Context, id, e string) error {
	return c.step("finish op", func() error { return c.Store.FinishOp(ctx, id, e) })
}
func (c *crashStore) Hold(ctx context.Context, u string, v int64, id string) error {
	return c.step("hold "+u, func() error { return c.Store.Hold(ctx, u, v, id) })
}
func (c *crashStore) Commit(ctx context.Context, st rating.PlayerState) error {
	return c.step(fmt.Sprintf("commit %s v%d", st.Username, st.Version), func() error { return c.Store.Commit(ctx, st) })
}
func (c *crashStore) AppendEntry(ctx context.Context, e rating.LedgerEntry) error {
	return c.step(fmt.Sprintf("append %s#%d", e.Username, e.Seq), func() error { return c.Store.AppendEntry(ctx, e) })
}

// TestCrashAtEveryStep: the process dies before or after each write of
// applying a game (alice's second game, so her ledger has a head); then
// either the restart recovery or the next game of one of the players
// completes it. Either way every player ends exactly where a run without
// a crash ends, with one ledger entry per game and an intact chain. In
// the placement scenario the game is bob's last placement game, so its
// plan also places bob (a second ledger entry in his step): that too is
// written once whatever the crash.
func TestCrashAtEveryStep(t *testing.T) {
	for _, sc := range []struct {
		name      string
		placement bool
		prelude   []rating.GameInput // before g0
	}{
		{name: "game"},
		{name: "placement", placement: true, prelude: placementPrelude("bob", rating.PlacementGames-1)},
	} {
		for _, kind := range testsvc.MongoKinds() {
			t.Run(sc.name+"/"+kind, func(t *testing.T) { crashAtEveryStep(t, kind, sc.placement, sc.prelude) })
		}
	}
}

// placementPrelude is n games that player wins, each against a new
// opponent (who stays placing).
func placementPrelude(player string, n int) []rating.GameInput {
	var out []rating.GameInput
	for i := range n {
		out = append(out, game(fmt.Sprintf("p%d", i), player, fmt.Sprintf("opp%d", i), rating.SideBlack))
	}
	return out
}

func crashAtEveryStep(t *testing.T, kind string, placement bool, prelude []rating.GameInput) {
	cfg := rating.ServiceConfig{Now: fixedClock, Placement: placement}
	start := func(t *testing.T, store rating.Store) *rating.Service {
		svc := rating.NewService(store, cfg)
		for _, g := range append(prelude, game("g0", "alice", "carol", rating.SideBlack)) {
			if _, err := svc.Apply(bg, g); err != nil {
				t.Fatal(err)
			}
		}
		return svc
	}
	// The reference: no crash, in the order the ledger says the games were
	// applied. A g1 whose operation holds no player yet when g2 comes is
	// applied after g2: the order is that in which the holds were taken.
	games := map[string]rating.GameInput{
		"g1": game("g1", "bob", "alice", rating.SideWhite),
		"g2": game("g2", "alice", "carol", rating.SideWhite),
	}
	refs := map[string]map[string]rating.PlayerState{}
	reference := func(t *testing.T, order []string) map[string]rating.PlayerState {
		key := fmt.Sprint(order)
		if want, ok := refs[key]; ok {
			return want
		}
		ref := start(t, newStoreOf(t, kind))
		for _, id := range order[1:] { // order[0] is g0
			if _, err := ref.Apply(bg, games[id]); err != nil {
				t.Fatal(err)
			}
		}
		want := map[string]rating.PlayerState{}
		for _, n := range []string{"alice", "bob", "carol"} {
			st, err := ref.Player(bg, n)
			if err != nil {
				t.Fatal(err)
			}
			want[n] = st
		}
		refs[key] = want
		return want
	}

	// With a BatchStore, both entries and then both states go together.
	batches := []bool{false, true}
	if kind != testsvc.KindFerretDB {
		// ratingdb is a BatchStore: on the other stores, the path rankd
		// takes (the single writes are the embedded run's subject too).
		batches = []bool{true}
	}
	for _, batch := range batches {
		wrap := func(c *crashStore) rating.Store {
			if batch {
				return crashBatchStore{c}
			}
			return c
		}
		// One clean run counts the writes of g1 (after g0, as below).
		probe := &crashStore{Store: newStoreOf(t, kind), after: 1 << 30}
		start(t, probe.Store)
		if _, err := rating.NewService(wrap(probe), cfg).Apply(bg, games["g1"]); err != nil {
			t.Fatal(err)
		}
		steps := probe.log
		if min := map[bool]int{false: 7, true: 6}[batch]; len(steps) < min {
			t.Fatalf("applying a game took only %d writes: %v", len(steps), steps)
		}
		if placement && !batch && !slices.Contains(steps, fmt.Sprintf("append bob#%d", rating.PlacementGames+1)) {
			t.Fatalf("the placement game wrote no entry of bob's: %v", steps)
		}

		from := 0
		if placement {
			// Before its plan is stored a placement game writes what any
			// game writes (the operation, the holds): the game scenario
			// crashes there; this one from the plan on, where the
			// placement is.
			from = slices.Index(steps, "set plan")
		}
		for k := from; k < len(steps); k++ {
			for _, before := range []bool{true, false} {
				repairs := []string{"recover", "next game"}
				if placement {
					// The placement is in g1's own plan: how the crash is
					// repaired is the game scenario's subject; one way
					// keeps this one affordable.
					repairs = repairs[:1]
				}
				for _, repair := range repairs {
					name := fmt.Sprintf("batch=%v/die %s %s/%s", batch, map[bool]string{true: "before", false: "after"}[before], steps[k], repair)
					t.Run(name, func(t *testing.T) {
						store := newStoreOf(t, kind)
						svc := start(t, store)
						crashing := &crashStore{Store: store, after: k, beforeWrite: before}
						_, err := rating.NewService(wrap(crashing), cfg).Apply(bg, games["g1"])
						if !errors.Is(err, errCrash) {
							t.Fatalf("the crash was not injected: %v", err)
						}
						// A new process on the same store.
						switch repair {
						case "recover":
							if _, err := svc.Recover(bg); err != nil {
								t.Fatal(err)
							}
							if _, err := svc.Apply(bg, games["g2"]); err != nil {
								t.Fatal(err)
							}
						case "next game":
							// alice's next game helps a g1 that holds a player to
							// completion first; a g1 that holds none yet comes
							// after g2, by the restart recovery or the retry.
							if _, err := svc.Apply(bg, games["g2"]); err != nil {
								t.Fatal(err)
							}
							if _, err := svc.Recover(bg); err != nil {
								t.Fatal(err)
							}
						}
						// The submitter's retry changes nothing more.
						if _, err := svc.Apply(bg, games["g1"]); err != nil {
							t.Fatal(err)
						}
						ledger, err := store.Ledger(bg, "alice", 0, 10)
						if err != nil {
							t.Fatal(err)
						}
						var order []string
						for i := len(ledger) - 1; i >= 0; i-- {
							order = append(order, ledger[i].CauseID)
						}
						if len(order) != 3 || order[0] != "g0" {
							t.Fatalf("alice's ledger holds %v, want g0 then g1 and g2 once each", order)
						}
						for n, w := range reference(t, order) {
							got, err := store.Player(bg, n)
							if err != nil {
								t.Fatal(err)
							}
							if got.Score != w.Score || got.Glicko != w.Glicko || got.Games != w.Games || got.Wins != w.Wins ||
								got.Seq != w.Seq || got.Placing != w.Placing || got.PlacingGames != w.PlacingGames {
								t.Errorf("%s ends at %+v, want %+v", n, got, w)
							}
							if err := svc.Verify(bg, n); err != nil {
								t.Error(err)
							}
						}
						if placement {
							bob, err := store.Ledger(bg, "bob", 0, 20)
							if err != nil {
								t.Fatal(err)
							}
							if len(bob) != rating.PlacementGames+1 || bob[0].Cause != rating.CausePlacement || bob[0].CauseID != "g1" || bob[1].CauseID != "g1" {
								t.Fatalf("bob's ledger ends %+v, want g1 then its placement, once", bob[:min(2, len(bob))])
							}
						}
						if ops, err := store.Unfinished(bg, 10); err != nil || len(ops) != 0 {
							t.Errorf("unfinished operations left: %v, %v", ops, err)
						}
						if rep, err := svc.VerifyAll(bg, "t"); err != nil || !rep.OK() {
							t.Errorf("verify: %+v, %v", rep, err)
						}
					})
				}
			}
		}
	}
}

// crashBatchStore is crashStore as a rating.BatchStore: a batch is one
// write (one transaction on the embedded store).
type crashBatchStore struct{ *crashStore }

func (c crashBatchStore) AppendEntries(ctx context.Context, es []rating.LedgerEntry) error {
	return c.step("append entries", func() error { return c.Store.(rating.BatchStore).AppendEntries(ctx, es) })
}
func (c crashBatchStore) HoldOp(ctx context.Context, opID string, names []string, versions []int64) (n int, err error) {
	err = c.step("hold all", func() error { n, err = c.Store.(rating.BatchStore).HoldOp(ctx, opID, names, versions); return err })
	if err != nil && n == len(names) {
		n = 0 // the answer was lost: nothing is known held
	}
	return n, err
}
func (c crashBatchStore) CommitAll(ctx context.Context, sts []rating.PlayerState) error {
	return c.step("commit all", func() error { return c.Store.(rating.BatchStore).CommitAll(ctx, sts) })
}

// staleStore's Latest always answers the player's first state, as a
// projection left behind by crossed writers would.
type staleStore struct {
	rating.Store
	mu    sync.Mutex
	first map[string]rating.PlayerState
}

func (s *staleStore) Latest(ctx context.Context, u string) (rating.PlayerState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.first[u]; ok {
		return st, nil
	}
	st, err := s.Store.Latest(ctx, u)
	if err == nil {
		s.first[u] = st
	}
	return st, err
}

// TestStaleLatestIsCorrected: a projection that stays behind costs a
// detour through the holder of the old version, never a wrong result.
func TestStaleLatestIsCorrected(t *testing.T) {
	store := newStore(t)
	ref := rating.NewService(newStore(t), rating.ServiceConfig{Now: fixedClock})
	svc := rating.NewService(&staleStore{Store: store, first: map[string]rating.PlayerState{}}, rating.ServiceConfig{Now: fixedClock})
	for i := range 6 {
		g := game(fmt.Sprintf("g%d", i), "alice", "bob", rating.SideBlack)
		want, err := ref.Apply(bg, g)
		if err != nil {
			t.Fatal(err)
		}
		got, err := svc.Apply(bg, g)
		if err != nil {
			t.Fatal(err)
		}
		if got.Black.Score != want.Black.Score || got.White.Glicko != want.White.Glicko || got.Black.Seq != int64(i+1) {
			t.Fatalf("game %d: %+v, want %+v", i, got, want)
		}
	}
	for _, n := range []string{"alice", "bob"} {
		if err := svc.Verify(bg, n); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkServiceApply: one game to two of 100 players, end to end on
// the test store (embedded FerretDB unless RANK_TEST_MONGO_URI is set).
func BenchmarkServiceApply(b *testing.B) {
	s, err := ratingdb.New(bg, testsvc.Mongo(b))
	if err != nil {
		b.Fatal(err)
	}
	svc := rating.NewService(s, rating.ServiceConfig{})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g := game(fmt.Sprintf("b%d", i), fmt.Sprintf("p%d", i%100), fmt.Sprintf("p%d", (i+1)%100), rating.SideBlack)
		if _, err := svc.Apply(bg, g); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCorruptScoreGivesTheGameUp: a score beyond ScoreLimit (tampering)
// makes the formula refuse; the game is given up once and for all, both
// players are passed on unchanged, and the other player's next game goes
// through.
func TestCorruptScoreGivesTheGameUp(t *testing.T) {
	store := newStore(t)
	bad := rating.NewPlayer("mallory")
	bad.Score = rating.ScoreLimit + 1
	if err := store.Commit(bg, bad); err != nil {
		t.Fatal(err)
	}
	svc := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
	for range 2 {
		if _, err := svc.Apply(bg, game("g1", "alice", "mallory", rating.SideBlack)); !errors.Is(err, rating.ErrInvalidGame) {
			t.Fatalf("Apply with a corrupt score = %v, want ErrInvalidGame", err)
		}
	}
	op, err := store.Op(bg, "g1")
	if err != nil || !op.Done || op.Error == "" || op.Plan != nil {
		t.Fatalf("the given-up operation: %+v, %v", op, err)
	}
	if n, err := svc.Recover(bg); err != nil || n != 0 {
		t.Fatalf("Recover = %d, %v: nothing is left to do", n, err)
	}
	r, err := svc.Apply(bg, game("g2", "alice", "bob", rating.SideBlack))
	if err != nil || r.Black.Score != 5 || r.Black.Games != 1 {
		t.Fatalf("alice's next game: %+v, %v", r, err)
	}
	if err := svc.Verify(bg, "alice"); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentApplyOnce: the same games applied from many goroutines
// at once, through services that do not share their in-process locks (as
// replicas would), each rate exactly once: one ledger entry per game and
// player, and the chains verify.
func TestConcurrentApplyOnce(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) { concurrentApplyOnce(t, kind) })
	}
}

func concurrentApplyOnce(t *testing.T, kind string) {
	store := newStoreOf(t, kind)
	svcs := []*rating.Service{
		rating.NewService(store, rating.ServiceConfig{}),
		rating.NewService(store, rating.ServiceConfig{}),
		rating.NewService(store, rating.ServiceConfig{}),
	}
	names := []string{"ann", "ben", "cat"}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 8 {
		wg.Go(func() {
			for i := range 6 {
				g := game(fmt.Sprintf("g%d", i), names[i%3], names[(i+1)%3], rating.SideBlack)
				if _, err := svcs[(w+i)%len(svcs)].Apply(bg, g); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, n := range names {
		h, err := svcs[0].History(bg, n, 0, 50)
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 4 { // each player is in 4 of the 6 games
			t.Fatalf("%s has %d ledger entries, want 4", n, len(h))
		}
		seen := map[string]bool{}
		for _, e := range h {
			if seen[e.CauseID] {
				t.Fatalf("%s's ledger has game %s twice", n, e.CauseID)
			}
			seen[e.CauseID] = true
		}
		if err := svcs[0].Verify(bg, n); err != nil {
			t.Fatal(err)
		}
	}
}
