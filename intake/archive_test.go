package intake_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/rating"
)

// archive makes n random games among six players, dated an hour apart,
// handed over in a shuffled order (SortArchive puts them back).
func archive(n int) []intake.ArchiveGame {
	rng := rand.New(rand.NewPCG(7, 15))
	t0 := time.Date(2019, 5, 1, 10, 0, 0, 0, time.UTC)
	out := make([]intake.ArchiveGame, n)
	for i := range out {
		r := games.RandomRecord(rng, 9, 30+rng.IntN(40), false)
		b := rng.IntN(6)
		r.Black.Name, r.White.Name = fmt.Sprintf("player%d", b), fmt.Sprintf("player%d", (b+1+rng.IntN(5))%6)
		out[i] = intake.ArchiveGame{Source: fmt.Sprintf("f.sgf#%d", i), Record: r, At: t0.Add(time.Duration(i) * time.Hour), Dated: true}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func submitAll(ctx context.Context, a *intake.Archive, gs []intake.ArchiveGame, size int) (map[string]int, error) {
	count := map[string]int{}
	for i := 0; i < len(gs); i += size {
		out, err := a.Submit(ctx, gs[i:min(i+size, len(gs))])
		if err != nil {
			return count, err
		}
		for _, o := range out {
			count[o.Status]++
		}
	}
	return count, a.Close(ctx)
}

func ledger(t *testing.T, s rating.Store) []string {
	t.Helper()
	var out []string
	if err := s.EachEntry(context.Background(), func(e rating.LedgerEntry) error {
		out = append(out, fmt.Sprintf("%s#%d %s", e.Username, e.Seq, e.Hash))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestArchiveRatesOnceInOrder: an archive is rated in the order played,
// with players made on request, duplicates counted, a game naming an
// unknown player refused; a second run rates nothing again.
func TestArchiveRatesOnceInOrder(t *testing.T) {
	ctx := context.Background()
	gs := archive(60)
	intake.SortArchive(gs)
	for i := 1; i < len(gs); i++ {
		if gs[i].At.Before(gs[i-1].At) {
			t.Fatal("SortArchive left the games out of order")
		}
	}
	dup := gs[10]
	dup.Source = "copy.sgf#0"
	stranger := intake.ArchiveGame{Source: "x.sgf#0", Record: games.RandomRecord(rand.New(rand.NewPCG(1, 1)), 9, 20, false), At: gs[59].At.Add(time.Hour)}
	stranger.Record.Black.Name, stranger.Record.White.Name = "player1", "Nobody Here"
	all := append(append(append([]intake.ArchiveGame{}, gs...), dup), stranger)

	s := apptest.Memory(t)
	refused := s.Intake.Archive(intake.ArchiveOptions{})
	out, err := refused.Submit(ctx, all[:3])
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		if o.Status != intake.ArchiveRefused || o.Code != "unknown_player" {
			t.Fatalf("without --create-players: %+v, want unknown_player", o)
		}
	}

	a := s.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true})
	count, err := submitAll(ctx, a, all, 16)
	if err != nil {
		t.Fatal(err)
	}
	if count[intake.ArchiveRated] != 60 || count[intake.ArchiveDuplicate] != 1 || count[intake.ArchiveRefused] != 1 {
		t.Fatalf("outcomes %v, want 60 rated, 1 duplicate, 1 refused", count)
	}
	if len(a.Created) != 6 || a.Stats.Bulk != 60 {
		t.Fatalf("created %v, stats %+v", a.Created, a.Stats)
	}
	// In the order played: each player's entries go forward in time.
	var last map[string]time.Time = map[string]time.Time{}
	if err := s.Stores.Ratings.EachEntry(ctx, func(e rating.LedgerEntry) error {
		if e.At.Before(last[e.Username]) {
			return fmt.Errorf("%s entry %d at %v, before the one before", e.Username, e.Seq, e.At)
		}
		last[e.Username] = e.At
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	before := ledger(t, s.Stores.Ratings)
	again, err := submitAll(ctx, s.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true}), all, 25)
	if err != nil {
		t.Fatal(err)
	}
	if again[intake.ArchiveDuplicate] != 61 || again[intake.ArchiveRated] != 0 {
		t.Fatalf("the second run: %v, want all 61 duplicates", again)
	}
	if got := ledger(t, s.Stores.Ratings); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Fatal("the second run changed the ledger")
	}
	rep, err := s.Ratings.VerifyAll(ctx, "archive")
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
}

// crashingBulk is a rating store that dies (fails every call from then
// on, as a killed process writes nothing more) at the n-th call of one
// bulk method.
type crashingBulk struct {
	rating.BulkStore
	method string
	n      int32
	calls  *atomic.Int32
	dead   *atomic.Bool
}

func (c crashingBulk) die(method string) error {
	if c.dead.Load() {
		return errCrash
	}
	if method == c.method && c.calls.Add(1) == c.n {
		c.dead.Store(true)
		return errCrash
	}
	return nil
}

func (c crashingBulk) CreateOps(ctx context.Context, ops []rating.Operation) ([]bool, error) {
	if err := c.die("CreateOps"); err != nil {
		return nil, err
	}
	return c.BulkStore.CreateOps(ctx, ops)
}

func (c crashingBulk) AppendAll(ctx context.Context, es []rating.LedgerEntry) error {
	if err := c.die("AppendAll"); err != nil {
		return err
	}
	return c.BulkStore.AppendAll(ctx, es)
}

func (c crashingBulk) CommitVersions(ctx context.Context, sts []rating.PlayerState) error {
	if err := c.die("CommitVersions"); err != nil {
		return err
	}
	return c.BulkStore.CommitVersions(ctx, sts)
}

func (c crashingBulk) ReprojectAll(ctx context.Context, sts []rating.PlayerState) error {
	if err := c.die("ReprojectAll"); err != nil {
		return err
	}
	return c.BulkStore.ReprojectAll(ctx, sts)
}

func (c crashingBulk) SetPlans(ctx context.Context, ids []string, plans []rating.Plan) ([]rating.Plan, error) {
	if err := c.die("SetPlans"); err != nil {
		return nil, err
	}
	return c.BulkStore.SetPlans(ctx, ids, plans)
}

// crashingMarks dies at the n-th MarkAllRated: games rated, not marked.
type crashingMarks struct {
	intake.BulkStore
	dead *atomic.Bool
}

func (c crashingMarks) MarkAllRated(ctx context.Context, ids []string) error {
	if c.dead.CompareAndSwap(false, true) {
		return errCrash
	}
	return c.BulkStore.MarkAllRated(ctx, ids)
}

// TestArchiveCrashAndRerun: a run killed mid-batch (at each bulk step)
// and run again, in a new process on the same store, gives the ledger of
// one uninterrupted run: nothing doubled, nothing lost.
func TestArchiveCrashAndRerun(t *testing.T) {
	ctx := context.Background()
	gs := archive(50)
	intake.SortArchive(gs)
	ref := apptest.Real(t)
	if _, err := submitAll(ctx, ref.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true}), gs, 20); err != nil {
		t.Fatal(err)
	}
	want := ledger(t, ref.Stores.Ratings)
	// The archive's operations are tracked (its unrated marks): no
	// FinishOps to die at; its states are versions until its end, where
	// ReprojectAll writes the players' latest-state records once.
	for _, where := range []string{"CreateOps", "SetPlans", "AppendAll", "CommitVersions", "MarkAllRated", "ReprojectAll"} {
		t.Run(where, func(t *testing.T) {
			var calls atomic.Int32
			var dead atomic.Bool
			crashing := apptest.Real(t, apptest.Wrap(func(s app.Stores) app.Stores {
				if where == "MarkAllRated" {
					s.Games = crashingMarks{s.Games.(intake.BulkStore), &dead}
					return s
				}
				n := int32(2) // the second batch's
				if where == "ReprojectAll" {
					n = 1 // the end's
				}
				s.Ratings = crashingBulk{s.Ratings.(rating.BulkStore), where, n, &calls, &dead}
				return s
			}))
			if _, err := submitAll(ctx, crashing.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true}), gs, 20); !errors.Is(err, errCrash) {
				t.Fatalf("the crash was not injected: %v", err)
			}
			rerun := apptest.Real(t, apptest.DB(crashing.DB))
			a := rerun.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true})
			count, err := submitAll(ctx, a, gs, 20)
			if err != nil {
				t.Fatal(err)
			}
			if count[intake.ArchiveRated]+count[intake.ArchiveDuplicate] != len(gs) {
				t.Fatalf("the rerun: %v", count)
			}
			if got := ledger(t, rerun.Stores.Ratings); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("the ledger after the rerun differs from one run's:\n got %v\nwant %v", got, want)
			}
			rep, err := rerun.Ratings.VerifyAll(ctx, "rerun")
			if err != nil || !rep.OK() {
				t.Fatalf("verify: %+v, %v", rep, err)
			}
			// The leaderboard's records are the players' latest states.
			rs := rerun.Stores.Ratings
			if err := rs.EachPlayer(ctx, func(rec rating.PlayerState) error {
				if st, err := rs.Player(ctx, rec.Username); err != nil || st != rec {
					t.Errorf("%s: recorded %+v, latest %+v (%v)", rec.Username, rec, st, err)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestArchivePreparedBesideCommit: preparing and storing each next batch
// while the one before is rated (as rankctl import does) rates the same
// games into the same ledger as Submit batch after batch, a copy in the
// next batch of a game being rated included, and verifies clean. Run
// with -race it also checks that Prepare and Store share nothing
// unguarded with Rate. Rate refuses a batch not stored.
func TestArchivePreparedBesideCommit(t *testing.T) {
	ctx := context.Background()
	gs := archive(50)
	intake.SortArchive(gs)
	dup := gs[12]
	dup.Source = "copy.sgf#0"
	gs = append(gs[:14:14], append([]intake.ArchiveGame{dup}, gs[14:]...)...) // batch 2 copies a game of batch 1
	const size = 10

	seq := apptest.Memory(t)
	want, err := submitAll(ctx, seq.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true}), gs, size)
	if err != nil {
		t.Fatal(err)
	}

	s := apptest.Memory(t)
	a := s.Intake.Archive(intake.ArchiveOptions{CreatePlayers: true})
	got := map[string]int{}
	p, err := a.Prepare(ctx, gs[:size])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Rate(ctx, p); err == nil {
		t.Fatal("Rate of a batch not stored: no error")
	}
	if err := a.Store(ctx, p); err != nil {
		t.Fatal(err)
	}
	for i := size; p != nil; i += size {
		var next *intake.Prepared
		var nextErr error
		prepared := make(chan struct{})
		go func() {
			defer close(prepared)
			if i < len(gs) {
				if next, nextErr = a.Prepare(ctx, gs[i:min(i+size, len(gs))]); nextErr == nil {
					nextErr = a.Store(ctx, next)
				}
			}
		}()
		out, err := a.Rate(ctx, p)
		<-prepared
		if err != nil || nextErr != nil {
			t.Fatal(err, nextErr)
		}
		for _, o := range out {
			got[o.Status]++
		}
		p = next
	}
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || got[intake.ArchiveDuplicate] != 1 || got[intake.ArchiveRated] != 50 {
		t.Fatalf("prepared beside the commits: %v, batch after batch: %v (want 50 rated, 1 duplicate)", got, want)
	}
	if l, w := ledger(t, s.Stores.Ratings), ledger(t, seq.Stores.Ratings); fmt.Sprint(l) != fmt.Sprint(w) {
		t.Fatalf("the ledgers differ:\n%v\n%v", l, w)
	}
	rep, err := s.Ratings.VerifyAll(ctx, "pipelined")
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
}
