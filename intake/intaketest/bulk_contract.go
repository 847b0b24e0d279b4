package intaketest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
)

// bulkWrites: CreateAll and MarkAllRated answer per game as Create and
// MarkRated would (intake.BulkStore).
func bulkWrites(t *testing.T, s intake.Store) {
	bs, ok := s.(intake.BulkStore)
	if !ok {
		t.Fatal("the store is no intake.BulkStore")
	}
	ctx := context.Background()
	answers, err := bs.CreateAll(ctx, []intake.StoredGame{
		Finished("g1", "src-1", "alice", "bob", t0), Finished("g2", "src-2", "bob", "alice", t0),
		PendingGame("p1", "carol", "dave", t0, time.Hour),
	})
	if err != nil || len(answers) != 3 || answers[0] != nil || answers[1] != nil || answers[2] != nil {
		t.Fatalf("CreateAll = %v, %v; want three nils", answers, err)
	}
	answers, err = bs.CreateAll(ctx, []intake.StoredGame{Finished("g3", "src-1", "alice", "bob", t0), Finished("g4", "src-4", "alice", "bob", t0)})
	if err != nil || !errors.Is(answers[0], intake.ErrSourceTaken) || answers[1] != nil {
		t.Fatalf("CreateAll again = %v, %v; want ErrSourceTaken for src-1 only", answers, err)
	}
	if g := mustGet(t, s, "g2"); g.Status != intake.StatusFinished || g.Hash != Finished("g2", "src-2", "bob", "alice", t0).Hash {
		t.Fatalf("g2 = %+v", g)
	}
	// Listed among each player's games, as Create lists them.
	for _, p := range []string{"alice", "bob"} {
		listed, err := s.PlayerGames(ctx, intake.GamesQuery{Player: p, Limit: 10})
		if err != nil || !slices.Contains(ids(listed), "g1") || !slices.Contains(ids(listed), "g2") || !slices.Contains(ids(listed), "g4") {
			t.Fatalf("%s's games = %v, %v; want g1, g2 and g4 among them", p, ids(listed), err)
		}
	}
	if un, err := s.Unfinished(ctx, "carol"); err != nil || len(un) != 1 {
		t.Fatalf("carol's pending games = %v, %v; want p1", un, err)
	}
	for range 2 {
		if err := bs.MarkAllRated(ctx, []string{"g1", "g4"}); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[string]intake.Status{"g1": intake.StatusRated, "g2": intake.StatusFinished, "g4": intake.StatusRated} {
		if g := mustGet(t, s, id); g.Status != want {
			t.Fatalf("%s is %s, want %s", id, g.Status, want)
		}
	}
	got, err := s.Finished(ctx, 10)
	if err != nil || len(got) != 1 || got[0].ID != "g2" {
		t.Fatalf("Finished = %v, %v; want g2", ids(got), err)
	}
	// A rated game created again (an import run again) stays rated.
	answers, err = bs.CreateAll(ctx, []intake.StoredGame{Finished("g1", "src-1", "alice", "bob", t0)})
	if err != nil || len(answers) != 1 || !errors.Is(answers[0], intake.ErrSourceTaken) {
		t.Fatalf("CreateAll of g1 again = %v, %v; want ErrSourceTaken", answers, err)
	}
	if g := mustGet(t, s, "g1"); g.Status != intake.StatusRated {
		t.Fatalf("g1 created again is %s, want rated", g.Status)
	}
	if got, err := s.Finished(ctx, 10); err != nil || len(got) != 1 || got[0].ID != "g2" {
		t.Fatalf("Finished after g1 again = %v, %v; want g2", ids(got), err)
	}
}
