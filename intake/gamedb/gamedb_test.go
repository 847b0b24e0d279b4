package gamedb_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/gamedb"
	"github.com/weiqi-platform/rank/intake/intaketest"
	"github.com/weiqi-platform/rank/internal/testsvc"
)

func TestContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			intaketest.Run(t, func(t *testing.T) intake.Store {
				s, err := gamedb.New(context.Background(), testsvc.MongoOf(t, kind))
				if err != nil {
					t.Fatal(err)
				}
				return s
			})
		})
	}
	// Marks deleted later (as rankd has them) answer as at once.
	t.Run("rated linger", func(t *testing.T) {
		intaketest.Run(t, func(t *testing.T) intake.Store {
			s, err := gamedb.New(context.Background(), testsvc.Mongo(t), gamedb.RatedLinger(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			return s
		})
	})
	// The sole writer's in-memory marks answer as the store would.
	t.Run("sole writer", func(t *testing.T) {
		intaketest.Run(t, func(t *testing.T) intake.Store {
			s, err := gamedb.New(context.Background(), testsvc.Mongo(t), gamedb.SoleWriter())
			if err != nil {
				t.Fatal(err)
			}
			return s
		})
	})
}

// TestSoleWriterMarks: a sole writer started on a database with pending
// games knows them (their marks are read at New), forgets a game once it
// ends, and asks the store nothing about a player without pending games.
func TestSoleWriterMarks(t *testing.T) {
	ctx := context.Background()
	c := &finds{}
	db := testsvc.MongoMonitored(t, testsvc.KindFerretDB, &event.CommandMonitor{Started: c.started})
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	first, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for i, pair := range [][2]string{{"ann", "bob"}, {"bob", "cat"}} {
		if err := first.Create(ctx, intaketest.PendingGame(fmt.Sprint("p", i), pair[0], pair[1], t0, time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := gamedb.New(ctx, db, gamedb.SoleWriter())
	if err != nil {
		t.Fatal(err)
	}
	unfinished := func(player string) []string {
		t.Helper()
		ids, err := s.Unfinished(ctx, player)
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	if got := unfinished("bob"); fmt.Sprint(got) != "[p0 p1]" {
		t.Fatalf("bob's pending games from the marks read at New: %v", got)
	}
	if err := s.Create(ctx, intaketest.PendingGame("p2", "dan", "ann", t0, time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got := unfinished("dan"); fmt.Sprint(got) != "[p2]" {
		t.Fatalf("dan's pending games after this store made one: %v", got)
	}
	if err := s.Abort(ctx, "p0", "ann", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if got := unfinished("ann"); fmt.Sprint(got) != "[p2]" {
		t.Fatalf("ann's pending games after p0 was aborted: %v", got)
	}
	c.reset()
	if got := unfinished("eve"); len(got) != 0 {
		t.Fatalf("eve has no game, got %v", got)
	}
	if n := c.count(); n != 0 {
		t.Fatalf("Unfinished of a player without marks sent %d commands, want 0", n)
	}
}

// finds counts the commands a database is sent.
type finds struct {
	mu sync.Mutex
	n  int
}

func (f *finds) started(_ context.Context, e *event.CommandStartedEvent) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
}

func (f *finds) reset() { f.mu.Lock(); f.n = 0; f.mu.Unlock() }

func (f *finds) count() int { f.mu.Lock(); defer f.mu.Unlock(); return f.n }

// TestNewIsIdempotent: every rankd start calls New on the same database.
func TestNewIsIdempotent(t *testing.T) {
	db := testsvc.Mongo(t)
	for i := range 2 {
		if _, err := gamedb.New(context.Background(), db); err != nil {
			t.Fatalf("New #%d: %v", i+1, err)
		}
	}
}

// TestPlayerListBackfilled: games stored before the player list existed
// are listed once New has run on the database again, and the mark makes
// later starts skip the backfill.
func TestPlayerListBackfilled(t *testing.T) {
	ctx := context.Background()
	db := testsvc.Mongo(t)
	s, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, pair := range [][2]string{{"ann", "bob"}, {"bob", "cat"}, {"cat", "ann"}} {
		if err := s.Create(ctx, intaketest.Finished(fmt.Sprint("g", i), fmt.Sprint("s", i), pair[0], pair[1], t0.Add(time.Duration(i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Collection(gamedb.ByPlayer).Drop(ctx); err != nil { // as before the list existed
		t.Fatal(err)
	}
	if s, err = gamedb.New(ctx, db); err != nil {
		t.Fatal(err)
	}
	gs, err := s.PlayerGames(ctx, intake.GamesQuery{Player: "ann"})
	if err != nil || len(gs) != 2 || gs[0].ID != "g2" || gs[1].ID != "g0" {
		t.Fatalf("ann's games after the backfill: %v, %v", gs, err)
	}
	if n, err := db.Collection(gamedb.ByPlayer).CountDocuments(ctx, map[string]any{}); err != nil || n != 4 {
		t.Fatalf("list entries %d (%v), want 3 and the mark", n, err)
	}
}

// BenchmarkPlayerGames: a page of 50 of one player's games among 2,000
// games of 20 players (each player in about 200), on the test store.
func BenchmarkPlayerGames(b *testing.B) {
	ctx := context.Background()
	s, err := gamedb.New(ctx, testsvc.Mongo(b))
	if err != nil {
		b.Fatal(err)
	}
	for i := range 2000 {
		black, white := fmt.Sprintf("p%02d", i%20), fmt.Sprintf("p%02d", (i*7+1)%20)
		if black == white {
			white = "p99"
		}
		g := intaketest.Finished(fmt.Sprintf("g%04d", i), fmt.Sprintf("s%04d", i), black, white, time.Date(2026, 3, 1, 0, 0, i, 0, time.UTC))
		if err := s.Create(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		gs, err := s.PlayerGames(ctx, intake.GamesQuery{Player: "p03", Limit: 50})
		if err != nil || len(gs) != 50 {
			b.Fatalf("%d games, %v", len(gs), err)
		}
	}
}

// TestRatedLinger: a game marked rated reads as rated at once through the
// Store that marked it, while its mark waits for the delete; another
// Store on the database (another process) reads it finished until the
// delete is sent, then rated; and a mark left by a process that stopped
// before its delete is found by Finished and dropped once rated.
func TestRatedLinger(t *testing.T) {
	ctx := context.Background()
	db := testsvc.Mongo(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s, err := gamedb.New(ctx, db, gamedb.RatedLinger(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	other, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	status := func(st *gamedb.Store, id string) intake.Status {
		t.Helper()
		g, err := st.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g.Status
	}
	for _, id := range []string{"g1", "g2"} {
		if err := s.Create(ctx, intaketest.Finished(id, "src-"+id, "ann", "bob", t0)); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkRated(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if got := status(s, "g1"); got != intake.StatusRated {
		t.Fatalf("g1 through the Store that rated it: %s, want rated", got)
	}
	if got := status(other, "g1"); got != intake.StatusFinished {
		t.Fatalf("g1 through another Store before the delete: %s, want finished", got)
	}
	if left, err := s.Finished(ctx, 10); err != nil || len(left) != 0 {
		t.Fatalf("Finished while the marks linger: %d games (%v), want none", len(left), err)
	}
	s.Drain()
	for _, id := range []string{"g1", "g2"} {
		if got := status(other, id); got != intake.StatusRated {
			t.Fatalf("%s through another Store after the drain: %s, want rated", id, got)
		}
	}
	// A pending game's mark, once the game ends, waits for its delete
	// too; nobody reads the player as in a game meanwhile.
	if err := s.Create(ctx, intaketest.PendingGame("p1", "ann", "bob", t0, time.Hour)); err != nil {
		t.Fatal(err)
	}
	fin := intaketest.Finished("p1", "p1", "ann", "bob", t0.Add(time.Minute))
	fin.CreatedAt = t0
	if err := s.Finish(ctx, fin); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRated(ctx, "p1"); err != nil {
		t.Fatal(err)
	}
	pendingMarks := func() int64 {
		t.Helper()
		n, err := db.Collection(gamedb.Pending).CountDocuments(ctx, bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := pendingMarks(); n != 1 {
		t.Fatalf("%d pending marks while the delete lingers, want 1", n)
	}
	for _, st := range []*gamedb.Store{s, other} {
		if ids, err := st.Unfinished(ctx, "ann"); err != nil || len(ids) != 0 {
			t.Fatalf("ann's unfinished games after the end: %v, %v", ids, err)
		}
	}
	s.Drain()
	if n := pendingMarks(); n != 0 {
		t.Fatalf("%d pending marks after the drain, want 0", n)
	}
	// A process that stops before its delete: the next one rates the
	// game again (Finished lists it) and its mark goes at once.
	if err := s.Create(ctx, intaketest.Finished("g3", "src-g3", "ann", "bob", t0)); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRated(ctx, "g3"); err != nil {
		t.Fatal(err)
	}
	next, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	left, err := next.Finished(ctx, 10)
	if err != nil || len(left) != 1 || left[0].ID != "g3" {
		t.Fatalf("Finished in the next process: %v (%v), want g3", left, err)
	}
	if err := next.MarkRated(ctx, "g3"); err != nil {
		t.Fatal(err)
	}
	if got := status(next, "g3"); got != intake.StatusRated {
		t.Fatalf("g3 after the next process rated it: %s", got)
	}
}

// TestBeforeRatedDelete: rated games' marks are deleted only after the
// hook (the rating store's held-back projections written) succeeded,
// and it runs while they are still there; when it fails they stay, and
// another process reads the games finished, for its recovery.
func TestBeforeRatedDelete(t *testing.T) {
	ctx := context.Background()
	db := testsvc.Mongo(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	marked := func(id string) bool {
		t.Helper()
		n, err := db.Collection(gamedb.Unrated).CountDocuments(ctx, bson.D{{Key: "_id", Value: id}})
		if err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	var mu sync.Mutex
	var fail error
	var calls []bool // whether g1 was still marked at each call
	hook := func(context.Context) error {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, marked("g1"))
		return fail
	}
	s, err := gamedb.New(ctx, db, gamedb.RatedLinger(time.Hour), gamedb.BeforeRatedDelete(hook))
	if err != nil {
		t.Fatal(err)
	}
	other, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	rate := func(id string) {
		t.Helper()
		if err := s.Create(ctx, intaketest.Finished(id, "src-"+id, "ann", "bob", t0)); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkRated(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	fail = fmt.Errorf("injected: the projections could not be written")
	mu.Unlock()
	rate("g1")
	s.Drain()
	if !marked("g1") {
		t.Fatal("g1's mark was deleted although the hook failed")
	}
	// The recovery's sweep lists it not (rated here) and sends its
	// delete again only through the hook.
	if gs, err := s.Finished(ctx, 10); err != nil || len(gs) != 0 {
		t.Fatalf("Finished with g1's delete failed: %d games, %v; want none", len(gs), err)
	}
	s.Drain()
	if !marked("g1") {
		t.Fatal("g1's mark was deleted by the recovery's sweep although the hook failed")
	}
	if g, err := other.Game(ctx, "g1"); err != nil || g.Status != intake.StatusFinished {
		t.Fatalf("g1 through another process: %v, %v; want finished", g.Status, err)
	}
	mu.Lock()
	fail = nil
	mu.Unlock()
	rate("g2")
	s.Drain()
	if marked("g2") {
		t.Fatal("g2's mark stayed although the hook succeeded")
	}
	mu.Lock()
	defer mu.Unlock()
	// The next sweep sends g1's delete again, and it goes.
	if gs, err := s.Finished(ctx, 10); err != nil || len(gs) != 0 {
		t.Fatalf("Finished: %d games, %v; want none", len(gs), err)
	}
	mu.Unlock()
	s.Drain()
	mu.Lock()
	if marked("g1") {
		t.Fatal("g1's mark stayed after a sweep with the hook succeeding")
	}
	if len(calls) != 4 || !calls[0] || !calls[1] || !calls[2] || !calls[3] {
		t.Fatalf("hook calls (g1 still marked at each): %v, want four, each before any delete", calls)
	}
}
