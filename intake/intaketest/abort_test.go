package intaketest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/intaketest"
)

// TestAbortWindow: either player of a pairing's pending game may abort it
// within the window, once; another caller, a game past its window, an
// exam's game and an ended game are refused; the aborts are counted per
// player who aborted; the pending game is found from the store until it
// ends.
func TestAbortWindow(t *testing.T) {
	ctx := context.Background()
	store := intaketest.NewMemory()
	now := t0
	in := intake.New(store, intaketest.NewMemoryPresence(), nil, nil, nil,
		intake.Config{Now: func() time.Time { return now }, AbortWindow: time.Minute, AbortMakers: []string{"matchmaking"}})
	mk := func(g intake.StoredGame) {
		t.Helper()
		if err := store.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	mk(intaketest.PendingGame("p1", "alice", "bob", t0, time.Hour))
	mk(intaketest.PendingGame("p2", "alice", "carol", t0.Add(time.Second), time.Hour))
	exam := intaketest.PendingGame("e1", "dave", "erin", t0, time.Hour)
	exam.SubmittedBy = "exam-1"
	mk(exam)
	if g, ok, err := in.PendingOf(ctx, "alice"); err != nil || !ok || g.ID != "p2" {
		t.Fatalf("alice's pending game: %s %v %v; want the newest, p2", g.ID, ok, err)
	}
	if _, ok, err := in.PendingOf(ctx, "zed"); ok || err != nil {
		t.Fatalf("zed's pending game: %v %v", ok, err)
	}
	if _, err := in.Abort(ctx, "p1", "carol"); !errors.Is(err, intake.ErrNotInGame) {
		t.Errorf("carol aborts p1: %v", err)
	}
	if _, err := in.Abort(ctx, "e1", "dave"); !errors.Is(err, intake.ErrNotAbortable) {
		t.Errorf("an exam game aborted: %v", err)
	}
	if _, err := in.Abort(ctx, "nope", "alice"); !errors.Is(err, intake.ErrNotFound) {
		t.Errorf("no game: %v", err)
	}
	now = t0.Add(time.Minute)
	g, err := in.Abort(ctx, "p1", "bob")
	if err != nil || g.Status != intake.StatusAborted {
		t.Fatalf("bob aborts p1: %+v, %v", g, err)
	}
	if _, err := in.Abort(ctx, "p1", "alice"); !errors.Is(err, intake.ErrNotPending) {
		t.Errorf("p1 aborted twice: %v", err)
	}
	if _, err := in.Abort(ctx, "p2", "alice"); err != nil {
		t.Errorf("alice aborts p2 59s after: %v", err)
	}
	mk(intaketest.PendingGame("p3", "bob", "alice", t0, time.Hour))
	now = t0.Add(time.Minute + time.Millisecond)
	var na *intake.NotAbortableError
	if _, err := in.Abort(ctx, "p3", "bob"); !errors.As(err, &na) || na.Window != time.Minute {
		t.Errorf("past the window: %v", err)
	}
	if _, ok, _ := in.PendingOf(ctx, "alice"); !ok {
		t.Errorf("p3 is alice's pending game")
	}
	counts, err := in.Aborts(ctx, t0)
	if err != nil || len(counts) != 2 || counts[0].Player != "alice" || counts[0].Count != 1 || counts[1].Player != "bob" || counts[1].Games[0] != "p1" {
		t.Errorf("abort counts %+v, %v", counts, err)
	}
	if gs, err := in.PlayerGames(ctx, intake.GamesQuery{Player: "alice", States: []intake.Status{"lost"}}); err == nil {
		t.Errorf("a state that is none: %v", gs)
	}
	if gs, err := in.PlayerGames(ctx, intake.GamesQuery{Player: "alice", States: []intake.Status{intake.StatusAborted}}); err != nil || len(gs) != 2 {
		t.Errorf("alice's aborted games: %v, %v", gs, err)
	}
}
