package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	mem := memoryRatings(t, s)
	var calls atomic.Int32
	down := errors.New("store down")
	mem.Fail = func(method string) error {
		if method == "CreateOps" && calls.Add(1) == 2 {
			return down
		}
		return nil
	}
	gs := fivePlayerArchive(40)
	arch := s.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true})
	shown := 0
	// rateAll drops the records it has prepared: the rerun below reads
	// the archive again.
	done, err := rateAll(ctx, arch, slices.Clone(gs), 10, func(n int, _ []intake.ArchiveOutcome) { shown = n })
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

// TestRateAllStoresAhead: while a batch is rated, the next one is
// already stored (unrated, as an interruption would leave it), so the
// store has the games' writes to do beside the rating's; and the records
// of the batches prepared are dropped, so the archive's heap shrinks as
// the import goes. Everything is rated once all the same.
func TestRateAllStoresAhead(t *testing.T) {
	ctx := context.Background()
	s := apptest.Memory(t)
	mem := memoryRatings(t, s)
	var calls atomic.Int32
	var unratedSeen atomic.Int64
	mem.Fail = func(method string) error {
		if method != "CreateOps" || calls.Add(1) != 1 {
			return nil
		}
		// The first batch's rating waits until the second batch's games
		// are stored beside it (a generous ceiling: never met, the test
		// fails below).
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			gs, err := s.Stores.Games.Finished(ctx, 100)
			if err != nil {
				return err
			}
			if unratedSeen.Store(int64(len(gs))); len(gs) >= 20 {
				break
			}
		}
		return nil
	}
	gs := fivePlayerArchive(30)
	arch := s.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true})
	rated := 0
	done, err := rateAll(ctx, arch, gs, 10, func(_ int, out []intake.ArchiveOutcome) {
		for _, o := range out {
			if o.Status == intake.ArchiveRated {
				rated++
			}
		}
	})
	if err != nil || done != 30 || rated != 30 {
		t.Fatalf("rateAll: %d done, %d rated, %v; want 30, 30", done, rated, err)
	}
	if n := unratedSeen.Load(); n < 20 {
		t.Errorf("while the first batch was rated, %d games were stored unrated; want the second batch's too (20)", n)
	}
	for i, g := range gs {
		if g.Record != nil {
			t.Fatalf("game %d's record is still held after its batch was prepared", i)
		}
	}
	if err := arch.Close(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Ratings.VerifyAll(ctx, "stored ahead")
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
}

// fivePlayerArchive is n dated games, an hour apart, among five players.
func fivePlayerArchive(n int) []intake.ArchiveGame {
	var gs []intake.ArchiveGame
	t0 := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		r := sgfGame(uint64(i+1), fmt.Sprintf("player%d", i%5), fmt.Sprintf("player%d", (i+1)%5), "")
		gs = append(gs, intake.ArchiveGame{Source: fmt.Sprintf("a.sgf#%d", i), Record: r, At: t0.Add(time.Duration(i) * time.Hour), Dated: true})
	}
	return gs
}

// memoryRatings is the memory app's rating store, whose Fail the tests set.
func memoryRatings(t *testing.T, s *apptest.Stack) *ratingtest.Memory {
	t.Helper()
	mem, ok := s.Stores.Ratings.(*ratingtest.Memory)
	if !ok {
		t.Fatalf("the memory app's rating store is %T", s.Stores.Ratings)
	}
	return mem
}
