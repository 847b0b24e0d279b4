package ratingtest_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// TestMemory holds the in-memory store to the contract ratingdb passes.
func TestMemory(t *testing.T) {
	ratingtest.RunBatch(t, func(t *testing.T) rating.BatchStore { return ratingtest.NewMemory() })
}

// TestMemoryFail: the fault hook answers for the method it names and
// nothing is written; once it stops, the same call goes through.
func TestMemoryFail(t *testing.T) {
	ctx := context.Background()
	m := ratingtest.NewMemory()
	var down atomic.Bool
	m.Fail = func(method string) error {
		if down.Load() && method == "Commit" {
			return outage.Wrap("memory", "test", errors.New("store down"))
		}
		return nil
	}
	down.Store(true)
	if err := m.Commit(ctx, rating.NewPlayer("ann")); !outage.Is(err) {
		t.Fatalf("Commit during the outage = %v, want ErrUnavailable", err)
	}
	if _, err := m.Player(ctx, "ann"); !errors.Is(err, rating.ErrNotFound) {
		t.Fatalf("Player after a failed commit = %v, want ErrNotFound", err)
	}
	down.Store(false)
	if err := m.Commit(ctx, rating.NewPlayer("ann")); err != nil {
		t.Fatalf("Commit after the outage: %v", err)
	}
}

// TestMemoryCopies: what a caller gets back or gave in is its own; a
// change made to it is not stored.
func TestMemoryCopies(t *testing.T) {
	ctx := context.Background()
	m := ratingtest.NewMemory()
	delta := 5
	op := rating.Operation{ID: "change:k", Kind: rating.OpChange, Player: "ann",
		Change: &rating.Change{Cause: rating.CauseAdjustment, Delta: &delta, Evidence: []string{"g1"}}}
	if _, err := m.CreateOp(ctx, op); err != nil {
		t.Fatal(err)
	}
	delta, op.Change.Evidence[0] = 50, "mine"
	got, err := m.Op(ctx, "change:k")
	if err != nil {
		t.Fatal(err)
	}
	if *got.Change.Delta != 5 || got.Change.Evidence[0] != "g1" {
		t.Fatalf("the caller's edit reached the store: %+v", got.Change)
	}
	*got.Change.Delta = 7
	if again, _ := m.Op(ctx, "change:k"); *again.Change.Delta != 5 {
		t.Fatalf("an edit of a read reached the store: %+v", again.Change)
	}
	e := rating.LedgerEntry{Username: "ann", Seq: 1, Cause: rating.CauseExam, Evidence: []string{"g1"}}
	e.Hash = e.ComputeHash()
	if err := m.AppendEntry(ctx, e); err != nil {
		t.Fatal(err)
	}
	e.Evidence[0] = "mine"
	es, err := m.Audit(ctx, rating.AuditQuery{Limit: 1})
	if err != nil || len(es) != 1 || es[0].Evidence[0] != "g1" {
		t.Fatalf("audit = %+v, %v; want the entry as appended", es, err)
	}
}

// BenchmarkMemoryServiceApply is rating's BenchmarkServiceApply on
// Memory: one game to two of 100 players through the rating service,
// what a domain or handler test pays per game without a store server.
func BenchmarkMemoryServiceApply(b *testing.B) {
	ctx := context.Background()
	svc := rating.NewService(ratingtest.NewMemory(), rating.ServiceConfig{})
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g := rating.GameInput{ID: fmt.Sprintf("b%d", i), Black: fmt.Sprintf("p%d", i%100), White: fmt.Sprintf("p%d", (i+1)%100),
			Winner: rating.SideBlack, Game: rating.Game{Moves: 150}, SourceID: fmt.Sprintf("src-b%d", i), Actor: "go-server", At: at}
		if _, err := svc.Apply(ctx, g); err != nil {
			b.Fatal(err)
		}
	}
}
