package rating_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// archiveGames are n games of an archive among ten players, in the order
// played: some draws, some handicap games (which move nothing).
func archiveGames(n int) []rating.GameInput {
	rng := rand.New(rand.NewPCG(15, 5))
	at := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]rating.GameInput, n)
	for i := range out {
		b := rng.IntN(10)
		w := (b + 1 + rng.IntN(9)) % 10
		g := rating.GameInput{ID: fmt.Sprintf("a%04d", i), Black: fmt.Sprintf("p%d", b), White: fmt.Sprintf("p%d", w),
			Winner: rating.SideBlack, Game: rating.Game{Moves: 100 + rng.IntN(150)}, SourceID: fmt.Sprintf("archive:%d", i), GameHash: fmt.Sprintf("bound%04d", i),
			Actor: rating.ArchiveActor, At: at.Add(time.Duration(i) * time.Hour)}
		switch r := rng.IntN(20); {
		case r == 0:
			g.Winner, g.Game.Outcome = rating.SideNone, rating.Draw
		case r == 1:
			g.Game.Handicap = 3
		case r < 10:
			g.Winner = rating.SideWhite
		}
		out[i] = g
	}
	return out
}

// ledgerOf is every ledger entry of the store, in its order.
func ledgerOf(t *testing.T, s rating.Store) []rating.LedgerEntry {
	t.Helper()
	var out []rating.LedgerEntry
	if err := s.EachEntry(bg, func(e rating.LedgerEntry) error { out = append(out, e); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func sameLedger(t *testing.T, what string, got, want []rating.LedgerEntry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d entries, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i].Hash != want[i].Hash {
			t.Fatalf("%s: entry %d is %+v\nwant %+v", what, i, got[i], want[i])
		}
	}
}

func applyBatches(svc *rating.Service, games []rating.GameInput, size int, stats *rating.BatchStats) error {
	for i := 0; i < len(games); i += size {
		if _, err := svc.ApplyBatch(bg, games[i:min(i+size, len(games))], stats); err != nil {
			return err
		}
	}
	return nil
}

// TestApplyBatchIsApplyInOrder: a batch writes exactly the ledger that
// applying the same games one by one writes (placements included), in
// bulk, on both stores; results agree; a second run changes nothing.
func TestApplyBatchIsApplyInOrder(t *testing.T) {
	games := archiveGames(120)
	cfg := rating.ServiceConfig{Now: fixedClock, Placement: true}
	want := rating.NewService(ratingtest.NewMemory(), cfg)
	wantRes := make([]rating.GameResult, len(games))
	for i, g := range games {
		r, err := want.Apply(bg, g)
		if err != nil {
			t.Fatal(err)
		}
		wantRes[i] = r
	}
	wantStore := ratingtest.NewMemory()
	ref := rating.NewService(wantStore, cfg)
	for _, g := range games {
		if _, err := ref.Apply(bg, g); err != nil {
			t.Fatal(err)
		}
	}
	wantLedger := ledgerOf(t, wantStore)
	for name, store := range map[string]func() rating.Store{
		"memory": func() rating.Store { return ratingtest.NewMemory() },
		"mongo": func() rating.Store {
			s, err := ratingdb.New(bg, testsvc.Mongo(t))
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := store()
			svc := rating.NewService(s, cfg)
			var stats rating.BatchStats
			var got []rating.GameResult
			for i := 0; i < len(games); i += 25 {
				r, err := svc.ApplyBatch(bg, games[i:min(i+25, len(games))], &stats)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, r...)
			}
			if stats.Bulk != len(games) || stats.Single != 0 {
				t.Fatalf("stats %+v, want all %d in bulk", stats, len(games))
			}
			for i := range got {
				if got[i].Black.Head != wantRes[i].Black.Head || got[i].White.Score != wantRes[i].White.Score || got[i].Applied != wantRes[i].Applied {
					t.Fatalf("result %d = %+v\nwant %+v", i, got[i], wantRes[i])
				}
			}
			sameLedger(t, "batch", ledgerOf(t, s), wantLedger)
			again := rating.NewService(s, cfg) // another process: no hints
			stats = rating.BatchStats{}
			if err := applyBatches(again, games, 40, &stats); err != nil {
				t.Fatal(err)
			}
			sameLedger(t, "run again", ledgerOf(t, s), wantLedger)
			rep, err := again.VerifyAll(bg, "batch")
			if err != nil || !rep.OK() {
				t.Fatalf("verify: %+v, %v", rep, err)
			}
		})
	}
}

// TestApplyBatchCrashAndRerun: a batch that dies at any bulk step (the
// store failing from then on, as a killed process writes nothing more),
// then a rerun in a new process — with or without Recover first — gives
// the ledger of one uninterrupted run.
func TestApplyBatchCrashAndRerun(t *testing.T) {
	games := archiveGames(90)
	cfg := rating.ServiceConfig{Now: fixedClock, Placement: true}
	wantStore := ratingtest.NewMemory()
	if err := applyBatches(rating.NewService(wantStore, cfg), games, 30, nil); err != nil {
		t.Fatal(err)
	}
	wantLedger := ledgerOf(t, wantStore)
	for _, step := range []string{"CreateOps", "CommitStates", "HoldAll", "SetPlans", "AppendAll", "FinishOps"} {
		for _, recoverFirst := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/recover=%v", step, recoverFirst), func(t *testing.T) {
				s := ratingtest.NewMemory()
				var calls, dead atomic.Int32
				crash := errors.New("killed")
				s.Fail = func(method string) error {
					if dead.Load() == 1 {
						return crash
					}
					if method == step && calls.Add(1) == 2 {
						dead.Store(1)
						return crash
					}
					return nil
				}
				if err := applyBatches(rating.NewService(s, cfg), games, 30, nil); !errors.Is(err, crash) {
					t.Fatalf("the first run: %v, want the crash", err)
				}
				dead.Store(0)
				s.Fail = nil
				rerun := rating.NewService(s, cfg)
				if recoverFirst {
					if _, err := rerun.Recover(bg); err != nil {
						t.Fatal(err)
					}
				}
				var stats rating.BatchStats
				if err := applyBatches(rerun, games, 30, &stats); err != nil {
					t.Fatal(err)
				}
				sameLedger(t, "after the rerun", ledgerOf(t, s), wantLedger)
				if stats.Bulk == 0 {
					t.Fatalf("stats %+v: the batches after the crash went one by one", stats)
				}
				rep, err := rerun.VerifyAll(bg, "rerun")
				if err != nil || !rep.OK() {
					t.Fatalf("verify: %+v, %v", rep, err)
				}
			})
		}
	}
}
