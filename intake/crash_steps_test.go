package intake_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// stepCrash is a rating store whose process dies at its write number at
// (counted from when it is armed): before sending it, or after it was
// done with its answer lost; every write after that fails too (the
// process is gone).
type stepCrash struct {
	rating.BatchStore
	// whole: ApplyOp is the store's own, one write; otherwise its steps
	// one after the other (rating.ApplyInSteps), each a write of its own.
	whole  bool
	mu     sync.Mutex
	armed  bool
	n, at  int
	before bool
	log    []string
}

func (c *stepCrash) step(name string, write func() error) error {
	c.mu.Lock()
	if !c.armed {
		c.mu.Unlock()
		return write()
	}
	k := c.n
	c.n++
	c.log = append(c.log, name)
	c.mu.Unlock()
	switch {
	case k < c.at:
		return write()
	case k == c.at && !c.before:
		_ = write()
	}
	return errCrash
}

func (c *stepCrash) arm() { c.mu.Lock(); c.armed = true; c.mu.Unlock() }

func (c *stepCrash) CreateOp(ctx context.Context, op rating.Operation) (out rating.Operation, err error) {
	err = c.step("create op", func() error { out, err = c.BatchStore.CreateOp(ctx, op); return err })
	return out, err
}
func (c *stepCrash) ApplyOp(ctx context.Context, op rating.Operation) (ok bool, err error) {
	if !c.whole {
		return rating.ApplyInSteps(ctx, c, op)
	}
	err = c.step("apply op", func() error { ok, err = c.BatchStore.(rating.OpWriter).ApplyOp(ctx, op); return err })
	return ok, err
}
func (c *stepCrash) SetPlan(ctx context.Context, id string, p rating.Plan) (out rating.Plan, err error) {
	err = c.step("set plan", func() error { out, err = c.BatchStore.SetPlan(ctx, id, p); return err })
	return out, err
}
func (c *stepCrash) FinishOp(ctx context.Context, id, e string) error {
	return c.step("finish", func() error { return c.BatchStore.FinishOp(ctx, id, e) })
}
func (c *stepCrash) Hold(ctx context.Context, u string, v int64, op string) error {
	return c.step("hold "+u, func() error { return c.BatchStore.Hold(ctx, u, v, op) })
}
func (c *stepCrash) HoldOp(ctx context.Context, op string, names []string, vs []int64) (n int, err error) {
	err = c.step("hold all", func() error { n, err = c.BatchStore.HoldOp(ctx, op, names, vs); return err })
	if err != nil && n == len(names) {
		n = 0 // the answer was lost
	}
	return n, err
}
func (c *stepCrash) Commit(ctx context.Context, st rating.PlayerState) error {
	return c.step("commit "+st.Username, func() error { return c.BatchStore.Commit(ctx, st) })
}
func (c *stepCrash) CommitAll(ctx context.Context, sts []rating.PlayerState) error {
	return c.step("commit all", func() error { return c.BatchStore.CommitAll(ctx, sts) })
}
func (c *stepCrash) AppendEntry(ctx context.Context, e rating.LedgerEntry) error {
	return c.step("append "+e.Username, func() error { return c.BatchStore.AppendEntry(ctx, e) })
}
func (c *stepCrash) AppendEntries(ctx context.Context, es []rating.LedgerEntry) error {
	return c.step("append all", func() error { return c.BatchStore.AppendEntries(ctx, es) })
}

// TestIntakeCrashAtEveryRatingStep: a submitted game's rating dies before
// or after each of its store writes (the rating service keeps no marker
// of its own for it: intake's unrated game is the record); the restart's
// recovery rates it, once, and both players end where a run without the
// crash ends, their ledgers verified.
// Both ways of writing a game's steps die: all at once in one write
// (rating.OpWriter), and step by step.
func TestIntakeCrashAtEveryRatingStep(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		for _, whole := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/whole=%v", kind, whole), func(t *testing.T) { intakeCrashAtEveryRatingStep(t, kind, whole) })
		}
	}
}

func intakeCrashAtEveryRatingStep(t *testing.T, kind string, whole bool) {
	ctx := context.Background()
	sub := func(i int) intake.Submission {
		rec := games.RandomRecord(rand.New(rand.NewPCG(uint64(i), 5)), 9, 50, false)
		return intake.Submission{SourceID: fmt.Sprintf("steps-%d", i), Black: "alice", White: "bob", Record: rec, By: "srv"}
	}
	// stack wires the application on a fresh database with the crashing
	// rating store (not armed), alice, bob and their first game.
	stack := func(t *testing.T, c *stepCrash) *apptest.Stack {
		st := apptest.Real(t, apptest.DB(testsvc.MongoOf(t, kind)), apptest.Wrap(func(s app.Stores) app.Stores {
			c.BatchStore = s.Ratings.(rating.BatchStore)
			s.Ratings = c
			return s
		}))
		for _, n := range []string{"alice", "bob"} {
			if err := st.Stores.Accounts.CreateAccount(ctx, players.Account{Username: n, Role: players.RolePlayer, PasswordHash: "x", CreatedAt: time.Unix(0, 0)}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.Intake.Submit(ctx, sub(1)); err != nil {
			t.Fatal(err)
		}
		// Its rated mark's delete sent (it lingers, app.RatedMarkLinger):
		// the crash is the second game's alone.
		st.Stores.Drain()
		return st
	}
	// The run without a crash: its writes and where the players end.
	probe := &stepCrash{at: 1 << 30, whole: whole}
	ref := stack(t, probe)
	probe.arm()
	if _, err := ref.Intake.Submit(ctx, sub(2)); err != nil {
		t.Fatal(err)
	}
	steps := probe.log
	if whole && (len(steps) != 1 || steps[0] != "apply op") {
		t.Fatalf("rating a game wrote %v, want one write of all its steps", steps)
	}
	if !whole && len(steps) < 5 {
		t.Fatalf("rating a game took only %d writes: %v", len(steps), steps)
	}
	want := map[string]rating.PlayerState{}
	for _, n := range []string{"alice", "bob"} {
		st, err := ref.Ratings.Player(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		want[n] = st
	}

	for k := range steps {
		for _, before := range []bool{true, false} {
			t.Run(fmt.Sprintf("die %s %s", map[bool]string{true: "before", false: "after"}[before], steps[k]), func(t *testing.T) {
				c := &stepCrash{at: k, before: before, whole: whole}
				crashing := stack(t, c)
				c.arm()
				if _, err := crashing.Intake.Submit(ctx, sub(2)); !errors.Is(err, errCrash) {
					t.Fatalf("the crash was not injected: %v", err)
				}
				restarted := apptest.Real(t, apptest.DB(crashing.DB))
				if _, err := restarted.Ratings.Recover(ctx); err != nil {
					t.Fatal(err)
				}
				if n, err := restarted.Intake.Recover(ctx); err != nil || n != 1 {
					t.Fatalf("Recover = %d, %v; want the one game", n, err)
				}
				for _, n := range []string{"alice", "bob"} {
					st, err := restarted.Ratings.Player(ctx, n)
					if err != nil {
						t.Fatal(err)
					}
					if st.Score != want[n].Score || st.Seq != want[n].Seq || st.Glicko != want[n].Glicko {
						t.Errorf("%s ends at score %d seq %d %+v, want %d seq %d %+v", n, st.Score, st.Seq, st.Glicko, want[n].Score, want[n].Seq, want[n].Glicko)
					}
					if h, err := restarted.Ratings.History(ctx, n, 0, 10); err != nil || len(h) != 2 {
						t.Errorf("%s's ledger: %d entries, %v; want 2", n, len(h), err)
					}
					if err := restarted.Ratings.Verify(ctx, n); err != nil {
						t.Error(err)
					}
				}
				g, err := restarted.Intake.Game(ctx, intake.GameIDFor("steps-2"))
				if err != nil || g.Status != intake.StatusRated {
					t.Fatalf("the game: %+v, %v; want rated", g.Status, err)
				}
			})
		}
	}
}
