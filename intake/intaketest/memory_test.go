package intaketest_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/intaketest"
	"github.com/weiqi-platform/rank/internal/outage"
)

// TestMemory holds the in-memory store to the contract gamedb passes.
func TestMemory(t *testing.T) {
	intaketest.Run(t, func(t *testing.T) intake.Store { return intaketest.NewMemory() })
}

// TestMemoryPresence holds the in-memory presence to the contract
// gamedb.Presence passes.
func TestMemoryPresence(t *testing.T) {
	intaketest.RunPresence(t, func(t *testing.T) intake.Presence { return intaketest.NewMemoryPresence() })
}

var t0 = time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)

// TestMemoryFail: the fault hook answers for the method it names and
// nothing is written; once it stops, the same call goes through.
func TestMemoryFail(t *testing.T) {
	ctx := context.Background()
	m := intaketest.NewMemory()
	var down atomic.Bool
	m.Fail = func(method string) error {
		if down.Load() && method == "Finish" {
			return outage.Wrap("memory", "test", errors.New("store down"))
		}
		return nil
	}
	if err := m.Create(ctx, intaketest.PendingGame("g1", "ann", "bob", t0, time.Hour)); err != nil {
		t.Fatal(err)
	}
	down.Store(true)
	f := intaketest.Finished("g1", "g1", "ann", "bob", t0)
	if err := m.Finish(ctx, f); !outage.Is(err) {
		t.Fatalf("Finish during the outage = %v, want ErrUnavailable", err)
	}
	if g, err := m.Game(ctx, "g1"); err != nil || g.Status != intake.StatusPending {
		t.Fatalf("after a failed finish: %s, %v; want still pending", g.Status, err)
	}
	down.Store(false)
	if err := m.Finish(ctx, f); err != nil {
		t.Fatalf("Finish after the outage: %v", err)
	}
	p := intaketest.NewMemoryPresence()
	p.Fail = func(string) error { return outage.Wrap("memory", "test", errors.New("store down")) }
	if _, err := p.Present(ctx, "g1"); !outage.Is(err) {
		t.Fatalf("Present with a failing hook = %v", err)
	}
}

// TestMemoryCopies: a stored game's record is not the caller's: edits on
// either side after the call do not reach the other.
func TestMemoryCopies(t *testing.T) {
	ctx := context.Background()
	m := intaketest.NewMemory()
	g := intaketest.Finished("g1", "src", "ann", "bob", t0)
	if err := m.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	moves := len(g.Record.Moves)
	g.Record.Moves = g.Record.Moves[:1]
	g.Verdict.Result = "W+R"
	got, err := m.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Record.Moves) != moves || got.Verdict.Result != "B+R" {
		t.Fatalf("the caller's edit reached the store: %d moves, %s", len(got.Record.Moves), got.Verdict.Result)
	}
	got.Record.Komi = 0.5
	if again, _ := m.Game(ctx, "g1"); again.Record.Komi != 7 {
		t.Fatalf("an edit of a read reached the store: komi %v", again.Record.Komi)
	}
}

// TestMemoryWithAttendance: the memory stores serve the intake's check-ins as
// the Mongo ones do (gamedb's TestAttendance, shortened).
func TestMemoryWithAttendance(t *testing.T) {
	ctx := context.Background()
	store, presence := intaketest.NewMemory(), intaketest.NewMemoryPresence()
	now := t0
	a := intake.New(store, presence, nil, nil, nil, intake.Config{Now: func() time.Time { return now }})
	if err := store.Create(ctx, intaketest.PendingGame("g1", "ann", "bob", t0, time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.CheckIn(ctx, "g1", "ann"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.CheckIn(ctx, "g1", "cat"); !errors.Is(err, intake.ErrNotInGame) {
		t.Fatalf("check-in of a stranger = %v, want ErrNotInGame", err)
	}
	now = t0.Add(time.Hour)
	if _, err := a.CheckIn(ctx, "g1", "bob"); !errors.Is(err, intake.ErrNotPending) {
		t.Fatalf("check-in after the time is up = %v, want ErrNotPending", err)
	}
	if got, err := a.Present(ctx, "g1"); err != nil || len(got) != 1 || got[0] != "ann" {
		t.Fatalf("present = %v, %v; want [ann]", got, err)
	}
}
