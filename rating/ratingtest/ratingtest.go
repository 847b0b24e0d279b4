package ratingtest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/rating"
)

// Run checks that stores made by newStore keep the rating.Store contract.
// Each subtest gets a fresh, empty store.
func Run(t *testing.T, newStore func(t *testing.T) rating.Store) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s rating.Store)
	}{
		{"OperationOnce", operationOnce},
		{"PlanOnce", planOnce},
		{"FinishAndUnfinished", finishAndUnfinished},
		{"HoldCreatesAndExcludes", holdCreatesAndExcludes},
		{"ConcurrentHoldOneWins", concurrentHold},
		{"CommitGuardedByVersionAndHold", commitGuarded},
		{"CommitAgainReleasesLateHold", commitAgainReleases},
		{"Release", release},
		{"LedgerAppendOnce", ledgerAppendOnce},
		{"LedgerNewestFirst", ledgerNewestFirst},
		{"Leaderboard", leaderboard},
		{"NotFound", notFound},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

var (
	ctx = context.Background()
	// t0 has whole milliseconds: stores keep times to the millisecond.
	t0 = time.Date(2026, 3, 1, 12, 30, 45, 123_000_000, time.UTC)
)

func op(id string) rating.Operation {
	return rating.Operation{ID: id, Black: "alice", White: "bob", Winner: rating.SideWhite,
		Game: rating.Game{Moves: 120, Outcome: rating.Decisive, Escape: true}, SourceID: "src-" + id, Actor: "go-server", At: t0}
}

func plan(score int) rating.Plan {
	before := rating.NewPlayer("alice")
	after := before
	after.Score, after.Version, after.Seq = score, 1, 1
	after.Glicko = rating.Glicko{Rating: 1662.3112, RD: 290.3188, Volatility: 0.05999}
	e := rating.LedgerEntry{Username: "alice", Seq: 1, Cause: rating.CauseGame, CauseID: "g", ScoreAfter: score, Delta: score, At: t0}
	e.Hash = e.ComputeHash()
	after.Head = e.Hash
	return rating.Plan{Steps: []rating.Step{{Before: before, After: after, Entry: e}}}
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func operationOnce(t *testing.T, s rating.Store) {
	first := op("g1")
	check(t, "CreateOp", must[rating.Operation](t)(s.CreateOp(ctx, first)), first)
	other := op("g1")
	other.Black = "carol"
	check(t, "CreateOp again gives the first", must[rating.Operation](t)(s.CreateOp(ctx, other)), first)
	check(t, "Op", must[rating.Operation](t)(s.Op(ctx, "g1")), first)
}

func planOnce(t *testing.T, s rating.Store) {
	must[rating.Operation](t)(s.CreateOp(ctx, op("g1")))
	p1, p2 := plan(5), plan(7)
	got := must[rating.Operation](t)(s.SetPlan(ctx, "g1", p1))
	check(t, "first plan", got.Plan, &p1)
	got = must[rating.Operation](t)(s.SetPlan(ctx, "g1", p2))
	check(t, "second plan keeps the first", got.Plan, &p1)
	check(t, "stored", must[rating.Operation](t)(s.Op(ctx, "g1")).Plan, &p1)
}

func finishAndUnfinished(t *testing.T, s rating.Store) {
	for i, off := range []int{2, 0, 1} {
		o := op(fmt.Sprintf("g%d", i))
		o.At = t0.Add(time.Duration(off) * time.Second)
		must[rating.Operation](t)(s.CreateOp(ctx, o))
	}
	for range 2 {
		if err := s.FinishOp(ctx, "g1", ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.FinishOp(ctx, "g0", "score beyond the limit"); err != nil {
		t.Fatal(err)
	}
	g0 := must[rating.Operation](t)(s.Op(ctx, "g0"))
	if !g0.Done || g0.Error != "score beyond the limit" {
		t.Fatalf("given-up operation: %+v", g0)
	}
	ops := must[[]rating.Operation](t)(s.Unfinished(ctx, 10))
	if len(ops) != 1 || ops[0].ID != "g2" {
		t.Fatalf("Unfinished = %+v, want g2 alone", ops)
	}
	if err := s.FinishOp(ctx, "nope", ""); !errors.Is(err, rating.ErrNotFound) {
		t.Fatalf("FinishOp(nope) = %v", err)
	}
}

func holdCreatesAndExcludes(t *testing.T, s rating.Store) {
	fresh := rating.NewPlayer("alice")
	fresh.Placement, fresh.Score = 300, 300
	got := must[rating.PlayerState](t)(s.Hold(ctx, "alice", "g1", fresh))
	want := fresh
	want.Hold = "g1"
	check(t, "first hold creates the player", got, want)
	check(t, "hold again by the holder", must[rating.PlayerState](t)(s.Hold(ctx, "alice", "g1", rating.NewPlayer("alice"))), want)
	_, err := s.Hold(ctx, "alice", "g2", rating.NewPlayer("alice"))
	var he *rating.HeldError
	if !errors.As(err, &he) || he.By != "g1" || he.Username != "alice" {
		t.Fatalf("hold by another = %v, want HeldError by g1", err)
	}
	check(t, "Player", must[rating.PlayerState](t)(s.Player(ctx, "alice")), want)
}

func concurrentHold(t *testing.T, s rating.Store) {
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = s.Hold(ctx, "alice", fmt.Sprintf("g%d", i), rating.NewPlayer("alice"))
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, rating.ErrHeld):
			t.Errorf("unexpected %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d concurrent holds succeeded, want 1", ok)
	}
}

func committed(from rating.PlayerState, score int) rating.PlayerState {
	a := from
	a.Hold, a.Score, a.Games, a.Wins, a.Seq, a.Head = "", score, from.Games+1, from.Wins+1, from.Seq+1, fmt.Sprintf("h%d", from.Seq+1)
	a.Glicko.Rating += 10
	a.Version = from.Version + 1
	a.UpdatedAt = t0
	return a
}

func commitGuarded(t *testing.T, s rating.Store) {
	st := must[rating.PlayerState](t)(s.Hold(ctx, "alice", "g1", rating.NewPlayer("alice")))
	after := committed(st, 5)
	if err := s.Commit(ctx, "alice", "g2", st.Version, after); !errors.Is(err, rating.ErrNotHeld) {
		t.Fatalf("commit by a non-holder = %v, want ErrNotHeld", err)
	}
	if err := s.Commit(ctx, "alice", "g1", st.Version, after); err != nil {
		t.Fatal(err)
	}
	check(t, "after commit", must[rating.PlayerState](t)(s.Player(ctx, "alice")), after)
	// Again: already applied, no error, nothing changes.
	if err := s.Commit(ctx, "alice", "g1", st.Version, committed(after, 99)); err != nil {
		t.Fatal(err)
	}
	check(t, "a repeated commit changes nothing", must[rating.PlayerState](t)(s.Player(ctx, "alice")), after)
	// The next operation holds it; the old commit still changes nothing.
	must[rating.PlayerState](t)(s.Hold(ctx, "alice", "g2", rating.NewPlayer("alice")))
	if err := s.Commit(ctx, "alice", "g1", st.Version, committed(after, 99)); err != nil {
		t.Fatal(err)
	}
	if got := must[rating.PlayerState](t)(s.Player(ctx, "alice")); got.Hold != "g2" || got.Score != 5 {
		t.Fatalf("a late commit of g1 disturbed g2's hold: %+v", got)
	}
}

func commitAgainReleases(t *testing.T, s rating.Store) {
	st := must[rating.PlayerState](t)(s.Hold(ctx, "alice", "g1", rating.NewPlayer("alice")))
	after := committed(st, 5)
	if err := s.Commit(ctx, "alice", "g1", st.Version, after); err != nil {
		t.Fatal(err)
	}
	// A late runner of g1 took the hold again after the commit.
	must[rating.PlayerState](t)(s.Hold(ctx, "alice", "g1", rating.NewPlayer("alice")))
	if err := s.Commit(ctx, "alice", "g1", st.Version, after); err != nil {
		t.Fatal(err)
	}
	check(t, "the late hold is released", must[rating.PlayerState](t)(s.Player(ctx, "alice")), after)
}

func release(t *testing.T, s rating.Store) {
	must[rating.PlayerState](t)(s.Hold(ctx, "alice", "g1", rating.NewPlayer("alice")))
	if err := s.Release(ctx, "alice", "g2"); err != nil {
		t.Fatal(err)
	}
	if h := must[rating.PlayerState](t)(s.Player(ctx, "alice")).Hold; h != "g1" {
		t.Fatalf("release by a non-holder freed the hold: %q", h)
	}
	if err := s.Release(ctx, "alice", "g1"); err != nil {
		t.Fatal(err)
	}
	if h := must[rating.PlayerState](t)(s.Player(ctx, "alice")).Hold; h != "" {
		t.Fatalf("hold %q after release", h)
	}
	must[rating.PlayerState](t)(s.Hold(ctx, "alice", "g2", rating.NewPlayer("alice")))
}

func entry(user string, seq int64, delta int) rating.LedgerEntry {
	e := rating.LedgerEntry{Username: user, Seq: seq, Cause: rating.CauseGame, CauseID: fmt.Sprintf("g%d", seq), SourceID: "s",
		Actor: "go-server", Opponent: "bob", ScoreBefore: 0, ScoreAfter: delta, RankBefore: "1k", RankAfter: "1k", Delta: delta,
		Glicko: rating.Glicko{Rating: 1500.5, RD: 200.25, Volatility: 0.06}, At: t0.Add(time.Duration(seq) * time.Second), Prev: "p"}
	e.Hash = e.ComputeHash()
	return e
}

func ledgerAppendOnce(t *testing.T, s rating.Store) {
	e := entry("alice", 1, 5)
	for range 2 {
		if err := s.AppendEntry(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	other := entry("alice", 1, -5)
	if err := s.AppendEntry(ctx, other); !errors.Is(err, rating.ErrLedgerConflict) {
		t.Fatalf("another entry with the same seq = %v, want ErrLedgerConflict", err)
	}
	check(t, "ledger", must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "alice", 0, 10)), []rating.LedgerEntry{e})
}

func ledgerNewestFirst(t *testing.T, s rating.Store) {
	var want []rating.LedgerEntry
	for seq := int64(1); seq <= 5; seq++ {
		e := entry("alice", seq, int(seq))
		if err := s.AppendEntry(ctx, e); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendEntry(ctx, entry("bob", seq, 1)); err != nil {
			t.Fatal(err)
		}
		want = append([]rating.LedgerEntry{e}, want...)
	}
	check(t, "first page", must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "alice", 0, 2)), want[:2])
	check(t, "next page", must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "alice", 4, 2)), want[2:4])
	check(t, "last page", must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "alice", 2, 2)), want[4:])
	if got := must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "nobody", 0, 2)); len(got) != 0 {
		t.Fatalf("ledger of nobody: %v", got)
	}
}

func leaderboard(t *testing.T, s rating.Store) {
	scores := map[string]int{"ann": 250, "bea": 120, "cid": 120, "dan": -30, "eve": 400, "fay": 120}
	for name, score := range scores {
		st := must[rating.PlayerState](t)(s.Hold(ctx, name, "g", rating.NewPlayer(name)))
		if err := s.Commit(ctx, name, "g", st.Version, committed(st, score)); err != nil {
			t.Fatal(err)
		}
	}
	names := func(ps []rating.PlayerState) []string {
		var out []string
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%s:%d", p.Username, p.Score))
		}
		return out
	}
	all := must[[]rating.PlayerState](t)(s.Leaderboard(ctx, rating.LeaderQuery{Limit: 10}))
	check(t, "all", names(all), []string{"eve:400", "ann:250", "bea:120", "cid:120", "fay:120", "dan:-30"})
	page := must[[]rating.PlayerState](t)(s.Leaderboard(ctx, rating.LeaderQuery{Limit: 3, After: &rating.LeaderCursor{Score: 120, Username: "bea"}}))
	check(t, "after bea", names(page), []string{"cid:120", "fay:120", "dan:-30"})
	lo, hi := 100, 199
	d1 := must[[]rating.PlayerState](t)(s.Leaderboard(ctx, rating.LeaderQuery{Limit: 10, MinScore: &lo, MaxScore: &hi}))
	check(t, "1d only", names(d1), []string{"bea:120", "cid:120", "fay:120"})
	d1 = must[[]rating.PlayerState](t)(s.Leaderboard(ctx, rating.LeaderQuery{Limit: 10, MinScore: &lo, MaxScore: &hi, After: &rating.LeaderCursor{Score: 120, Username: "cid"}}))
	check(t, "1d after cid", names(d1), []string{"fay:120"})
}

func notFound(t *testing.T, s rating.Store) {
	if _, err := s.Player(ctx, "nobody"); !errors.Is(err, rating.ErrNotFound) {
		t.Errorf("Player = %v", err)
	}
	if _, err := s.Op(ctx, "nope"); !errors.Is(err, rating.ErrNotFound) {
		t.Errorf("Op = %v", err)
	}
}
