package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// TestRateAllStopsOnAStoreError: a store that fails in the second
// batch's commit, with the third batch being prepared beside it, stops
// rateAll with the error and the first batch done; the preparer is
// stopped (a rerun of the whole archive then rates every game once, and
// verification is clean).
func TestRateAllStopsOnAStoreError(t *testing.T) {
	ctx := context.Background()
	s := apptest.Memory(t)
	mem, ok := s.Stores.Ratings.(*ratingtest.Memory)
	if !ok {
		t.Fatalf("the memory app's rating store is %T", s.Stores.Ratings)
	}
	var calls atomic.Int32
	down := errors.New("store down")
	mem.Fail = func(method string) error {
		if method == "CreateOps" && calls.Add(1) == 2 {
			return down
		}
		return nil
	}
	var gs []intake.ArchiveGame
	t0 := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 40 {
		r := sgfGame(uint64(i+1), fmt.Sprintf("player%d", i%5), fmt.Sprintf("player%d", (i+1)%5), "")
		gs = append(gs, intake.ArchiveGame{Source: fmt.Sprintf("a.sgf#%d", i), Record: r, At: t0.Add(time.Duration(i) * time.Hour), Dated: true})
	}
	arch := s.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true})
	shown := 0
	done, err := rateAll(ctx, arch, gs, 10, func(n int, _ []intake.ArchiveOutcome) { shown = n })
	if !errors.Is(err, down) || done != 10 || shown != 10 {
		t.Fatalf("rateAll: %d done, %d shown, %v; want 10, 10 and the store's error", done, shown, err)
	}

	mem.Fail = nil
	again := s.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true})
	rated, dups := 0, 0
	if _, err := rateAll(ctx, again, gs, 10, func(_ int, out []intake.ArchiveOutcome) {
		for _, o := range out {
			switch o.Status {
			case intake.ArchiveRated:
				rated++
			case intake.ArchiveDuplicate:
				dups++
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := again.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if rated != 30 || dups != 10 {
		t.Fatalf("the rerun: %d rated, %d duplicates; want 30 and 10", rated, dups)
	}
	rep, err := s.Ratings.VerifyAll(ctx, "rerun")
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
}
