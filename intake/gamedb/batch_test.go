package gamedb_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/gamedb"
	"github.com/weiqi-platform/rank/intake/intaketest"
	"github.com/weiqi-platform/rank/internal/testsvc"
)

// batchOf is n finished games of ann and bob, a minute apart from t0,
// with ids from prefix.
func batchOf(prefix string, n int, t0 time.Time) []intake.StoredGame {
	gs := make([]intake.StoredGame, n)
	for i := range gs {
		gs[i] = intaketest.Finished(fmt.Sprintf("%s%d", prefix, i), fmt.Sprintf("src-%s%d", prefix, i), "ann", "bob", t0.Add(time.Duration(i)*time.Minute))
	}
	return gs
}

func statuses(t *testing.T, s intake.Store, gs []intake.StoredGame) []intake.Status {
	t.Helper()
	out := make([]intake.Status, len(gs))
	for i, g := range gs {
		got, err := s.Game(context.Background(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = got.Status
	}
	return out
}

func finishedIDs(t *testing.T, s intake.Store) []string {
	t.Helper()
	gs, err := s.Finished(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

// TestBatchMark: CreateAll marks a batch's finished games with one mark
// (one document in Unrated, not one a game), deleted by one MarkAllRated
// of them all; rated in part, the rest keep marks of their own; and what
// an interrupted import left (a batch mark, its games rated or not) is
// found by another process's Finished in the order played, and settled
// by its MarkAllRated.
func TestBatchMark(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	db := testsvc.Mongo(t)
	s, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	marks := func() int64 {
		n, err := db.Collection(gamedb.Unrated).CountDocuments(ctx, bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	create := func(s *gamedb.Store, gs []intake.StoredGame) {
		t.Helper()
		answers, err := s.CreateAll(ctx, gs)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range answers {
			if a != nil {
				t.Fatal(a)
			}
		}
	}

	// The whole batch rated.
	a := batchOf("a", 5, t0)
	create(s, a)
	if n := marks(); n != 1 {
		t.Fatalf("%d marks for a batch of 5, want 1", n)
	}
	if got := statuses(t, s, a); slices.ContainsFunc(got, func(st intake.Status) bool { return st != intake.StatusFinished }) {
		t.Fatalf("before MarkAllRated: %v", got)
	}
	if err := s.MarkAllRated(ctx, []string{"a0", "a1", "a2", "a3", "a4"}); err != nil {
		t.Fatal(err)
	}
	if got := statuses(t, s, a); slices.ContainsFunc(got, func(st intake.Status) bool { return st != intake.StatusRated }) {
		t.Fatalf("after MarkAllRated: %v", got)
	}
	if n := marks(); n != 0 {
		t.Fatalf("%d marks left, want none", n)
	}

	// Rated in part: the others keep their own marks.
	b := batchOf("b", 4, t0.Add(time.Hour))
	create(s, b)
	if err := s.MarkAllRated(ctx, []string{"b1", "b3"}); err != nil {
		t.Fatal(err)
	}
	want := []intake.Status{intake.StatusFinished, intake.StatusRated, intake.StatusFinished, intake.StatusRated}
	if got := statuses(t, s, b); !slices.Equal(got, want) {
		t.Fatalf("b rated in part: %v, want %v", got, want)
	}
	if got := finishedIDs(t, s); !slices.Equal(got, []string{"b0", "b2"}) {
		t.Fatalf("Finished = %v, want b0 b2", got)
	}
	if err := s.MarkAllRated(ctx, []string{"b0", "b2"}); err != nil {
		t.Fatal(err)
	}
	if n := marks(); n != 0 {
		t.Fatalf("%d marks left after b, want none", n)
	}

	// Interrupted: c's mark and games stored, c1 rated but not marked,
	// then the process stops. Another reads them all unrated, finds them
	// in the order played, and its MarkAllRated (an import run again)
	// settles them.
	c := batchOf("c", 3, t0.Add(2*time.Hour))
	create(s, c)
	other, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if got := finishedIDs(t, other); !slices.Equal(got, []string{"c0", "c1", "c2"}) {
		t.Fatalf("another process's Finished = %v, want c0 c1 c2", got)
	}
	if err := other.MarkAllRated(ctx, []string{"c1"}); err != nil {
		t.Fatal(err)
	}
	want = []intake.Status{intake.StatusFinished, intake.StatusRated, intake.StatusFinished}
	if got := statuses(t, other, c); !slices.Equal(got, want) {
		t.Fatalf("c after another's MarkAllRated of c1: %v, want %v", got, want)
	}
	// The first process, had it gone on, marks c as a whole: c0 and c2
	// are rated by then; nothing is left marked.
	if err := s.MarkAllRated(ctx, []string{"c0", "c1", "c2"}); err != nil {
		t.Fatal(err)
	}
	if got := statuses(t, other, c); slices.ContainsFunc(got, func(st intake.Status) bool { return st != intake.StatusRated }) {
		t.Fatalf("c at the end: %v", got)
	}
	if n := marks(); n != 0 {
		t.Fatalf("%d marks left after c, want none", n)
	}

	// Run again on a third process without Finished first: the mark of an
	// interrupted batch is found through its games.
	d := batchOf("d", 3, t0.Add(3*time.Hour))
	create(s, d)
	third, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	answers, err := third.CreateAll(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range answers {
		if a == nil {
			t.Fatal("a game stored twice")
		}
	}
	if err := third.MarkAllRated(ctx, []string{"d0", "d1"}); err != nil {
		t.Fatal(err)
	}
	want = []intake.Status{intake.StatusRated, intake.StatusRated, intake.StatusFinished}
	if got := statuses(t, third, d); !slices.Equal(got, want) {
		t.Fatalf("d run again, two marked: %v, want %v", got, want)
	}
	if got := finishedIDs(t, third); !slices.Equal(got, []string{"d2"}) {
		t.Fatalf("Finished = %v, want d2", got)
	}
}

// TestBatchMarkBeforeItsGames: a batch mark whose games are not stored
// yet (its CreateAll between the mark and the games, or stopped there)
// is settled by another process's Finished into marks of their own, so
// a game stored after that is still unrated until marked rated.
func TestBatchMarkBeforeItsGames(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	db := testsvc.Mongo(t)
	s, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	e := batchOf("e", 2, t0)
	// Only the mark, as CreateAll writes it first.
	if _, err := db.Collection(gamedb.Unrated).InsertOne(ctx, bson.D{{Key: "_id", Value: gamedb.BatchMarkID([]string{"e0", "e1"})}, {Key: "at", Value: t0}, {Key: "games", Value: bson.A{"e0", "e1"}}}); err != nil {
		t.Fatal(err)
	}
	if got := finishedIDs(t, s); len(got) != 0 {
		t.Fatalf("Finished = %v before the games are stored, want none", got)
	}
	// The games arrive (the same CreateAll going on, in effect).
	answers, err := s.CreateAll(ctx, e)
	if err != nil || answers[0] != nil || answers[1] != nil {
		t.Fatalf("CreateAll = %v, %v", answers, err)
	}
	if got := statuses(t, s, e); slices.ContainsFunc(got, func(st intake.Status) bool { return st != intake.StatusFinished }) {
		t.Fatalf("games stored after their mark was settled: %v, want finished", got)
	}
	if got := finishedIDs(t, s); !slices.Equal(got, []string{"e0", "e1"}) {
		t.Fatalf("Finished = %v, want e0 e1", got)
	}
}

// TestImportedGamesListedAfterUpgrade: a store whose imported games were
// never listed by player (CreateAll before stop 33, the list marked
// backfilled) lists them once New has run again.
func TestImportedGamesListedAfterUpgrade(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	db := testsvc.Mongo(t)
	s, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateAll(ctx, batchOf("f", 3, t0)); err != nil {
		t.Fatal(err)
	}
	// As such a store stands: no entries, the old mark.
	if err := db.Collection(gamedb.ByPlayer).Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Collection(gamedb.ByPlayer).InsertOne(ctx, bson.D{{Key: "_id", Value: "!backfilled"}}); err != nil {
		t.Fatal(err)
	}
	if s, err = gamedb.New(ctx, db); err != nil {
		t.Fatal(err)
	}
	gs, err := s.PlayerGames(ctx, intake.GamesQuery{Player: "bob"})
	if err != nil || len(gs) != 3 {
		t.Fatalf("bob's games after the upgrade: %v, %v; want 3", len(gs), err)
	}
}

// TestBatchMarkGoneIsRemembered: once a Store has seen an import batch's
// mark deleted, reading another game of the batch reads the game and its
// own mark, not the batch's mark again; games of a batch still marked
// read it each time.
func TestBatchMarkGoneIsRemembered(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := &finds{}
	s, err := gamedb.New(ctx, testsvc.MongoMonitored(t, testsvc.KindFerretDB, &event.CommandMonitor{Started: c.started}))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]intake.StoredGame{batchOf("a", 3, t0), batchOf("b", 3, t0.Add(time.Hour))} {
		if _, err := s.CreateAll(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.MarkAllRated(ctx, []string{"a0", "a1", "a2"}); err != nil {
		t.Fatal(err)
	}
	reads := func(id string, want intake.Status) int {
		t.Helper()
		c.reset()
		if g, err := s.Game(ctx, id); err != nil || g.Status != want {
			t.Fatalf("%s: %v, %v; want %s", id, g.Status, err, want)
		}
		return c.count()
	}
	reads("a0", intake.StatusRated) // sees the mark gone
	if n := reads("a1", intake.StatusRated); n != 2 {
		t.Errorf("a rated import's game read in %d commands, want 2 (the game, its own mark)", n)
	}
	for _, id := range []string{"b0", "b1"} {
		if n := reads(id, intake.StatusFinished); n != 2 {
			t.Errorf("%s of a marked batch read in %d commands, want 2 (the game, the batch's mark)", id, n)
		}
	}
}
