package examtest_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/exams/examtest"
	"github.com/weiqi-platform/rank/ranks"
)

// TestMemoryStoreContract holds the in-memory store to the contract
// examdb passes.
func TestMemoryStoreContract(t *testing.T) {
	examtest.StoreContract(t, func(t *testing.T) exams.Store { return examtest.NewMemory() })
}

var errDown = errors.New("exam store down")

// TestMemoryFail: the fault hook answers for the method it names and
// nothing is written; once it stops, the same call goes through.
func TestMemoryFail(t *testing.T) {
	ctx := context.Background()
	m := examtest.NewMemory()
	var down atomic.Bool
	m.Fail = func(method string) error {
		if down.Load() && method == "AddResult" {
			return errDown
		}
		return nil
	}
	r := exams.Result{ID: "s@1/ann", SessionID: "s@1", Player: "ann", Target: ranks.MustParse("1d"), State: exams.ResultPassed, GradedAt: examtest.T0}
	down.Store(true)
	if _, err := m.AddResult(ctx, r); !errors.Is(err, errDown) {
		t.Fatalf("AddResult during the outage = %v, want the hook's error", err)
	}
	if _, err := m.Result(ctx, r.ID); !errors.Is(err, exams.ErrNotFound) {
		t.Fatalf("Result after a failed add = %v, want ErrNotFound", err)
	}
	down.Store(false)
	if _, err := m.AddResult(ctx, r); err != nil {
		t.Fatalf("AddResult after the outage: %v", err)
	}
}

// TestMemoryCopies: what a caller gave in or got back is its own.
func TestMemoryCopies(t *testing.T) {
	ctx := context.Background()
	m := examtest.NewMemory()
	if _, err := m.CreateSession(ctx, exams.Session{ID: "s@1", ScheduleID: "s", At: examtest.T0, Deadline: examtest.T0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	candidates, short := []string{"ann", "bob"}, map[string]int{"bob": 1}
	got, err := m.SetPairing(ctx, "s@1", candidates, nil, []exams.Game{{ID: "s@1#1", Black: "ann", White: "bob"}}, short)
	if err != nil {
		t.Fatal(err)
	}
	candidates[0], short["bob"] = "eve", 9
	got.Candidates[1], got.Short["bob"], got.Pairing[0].Black = "mal", 7, "mal"
	again, err := m.Session(ctx, "s@1")
	if err != nil {
		t.Fatal(err)
	}
	if again.Candidates[0] != "ann" || again.Candidates[1] != "bob" || again.Short["bob"] != 1 || again.Pairing[0].Black != "ann" {
		t.Fatalf("an edit reached the store: %+v", again)
	}
	r, err := m.AddResult(ctx, exams.Result{ID: "s@1/ann", SessionID: "s@1", Player: "ann", Evidence: []string{"s@1#1"}})
	if err != nil {
		t.Fatal(err)
	}
	r.Evidence[0] = "forged"
	if stored, _ := m.Result(ctx, "s@1/ann"); stored.Evidence[0] != "s@1#1" {
		t.Fatalf("an edit of a read reached the store: %v", stored.Evidence)
	}
}
