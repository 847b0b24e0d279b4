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
		{"HoldOncePerVersion", holdOnce},
		{"ConcurrentHoldOneWins", concurrentHold},
		{"CommitOncePerVersion", commitOnce},
		{"ConcurrentCommitOneWins", concurrentCommit},
		{"LedgerAppendOnce", ledgerAppendOnce},
		{"LedgerNewestFirst", ledgerNewestFirst},
		{"Leaderboard", leaderboard},
		{"LatestFoundPastAStaleHint", latestPastStaleHint},
		{"UnfinishedDropsDoneAndOrphans", unfinishedDrops},
		{"NotFound", notFound},
		{"ChangeRoundTrip", changeRoundTrip},
		{"CertifiedRoundTrip", certifiedRoundTrip},
		{"PlacementRoundTrip", placementRoundTrip},
		{"AuditFiltersAndPages", auditFiltersAndPages},
		{"EachInOrder", eachInOrder},
		{"ReportsNewestFirst", reportsNewestFirst},
		{"TimesInUTCToTheMillisecond", timesInUTC},
		{"EachMayUseTheStore", eachMayUseTheStore},
		{"TrackedIsNotUnfinished", trackedIsNotUnfinished},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

// RunBatch checks that stores made by newStore keep the rating.Store
// contract (Run) and the rating.BatchStore one: AppendEntries and
// CommitAll answer per element as AppendEntry and Commit would.
func RunBatch(t *testing.T, newStore func(t *testing.T) rating.BatchStore) {
	Run(t, func(t *testing.T) rating.Store { return newStore(t) })
	t.Run("BatchWrites", func(t *testing.T) { batchWrites(t, newStore(t)) })
	t.Run("HoldOp", func(t *testing.T) { holdOp(t, newStore(t)) })
	t.Run("ApplyOp", func(t *testing.T) {
		w, ok := newStore(t).(rating.OpWriter)
		if !ok {
			t.Fatal("the store is no rating.OpWriter")
		}
		applyOp(t, w)
	})
	t.Run("BulkWrites", func(t *testing.T) {
		bs, ok := newStore(t).(rating.BulkStore)
		if !ok {
			t.Fatal("the store is no rating.BulkStore")
		}
		bulkWrites(t, bs)
	})
}

// holdOp: HoldOp holds in order as Hold would, again for the same
// operation without error, and stops at the first player another
// operation holds, saying who, having held those before it only.
func holdOp(t *testing.T, s rating.BatchStore) {
	names, versions := []string{"alice", "bob"}, []int64{3, 7}
	for i := range 2 { // the second time: a retry
		if n, err := s.HoldOp(ctx, "g1", names, versions); n != 2 || err != nil {
			t.Fatalf("HoldOp #%d = %d, %v; want both held", i+1, n, err)
		}
	}
	if err := s.Hold(ctx, "bob", 7, "g1"); err != nil {
		t.Fatalf("bob#7 after HoldOp: %v, want held by g1", err)
	}
	// carol#1 is free, dave#2 taken by g1: g2 holds carol, then stops.
	if err := s.Hold(ctx, "dave", 2, "g1"); err != nil {
		t.Fatal(err)
	}
	n, err := s.HoldOp(ctx, "g2", []string{"carol", "dave", "erin"}, []int64{1, 2, 1})
	var he *rating.HeldError
	if n != 1 || !errors.As(err, &he) || he.By != "g1" || he.Username != "dave" {
		t.Fatalf("HoldOp past a held player = %d, %v; want 1 and dave held by g1", n, err)
	}
	if err := s.Hold(ctx, "carol", 1, "g3"); !errors.As(err, &he) || he.By != "g2" {
		t.Fatalf("carol#1: %v, want held by g2", err)
	}
	if err := s.Hold(ctx, "erin", 1, "g3"); err != nil {
		t.Fatalf("erin#1 after a HoldOp that stopped before her: %v, want free", err)
	}
}

// planned is a tracked game between alice and bob, planned from the
// versions given, each player one point up and one ledger entry on.
func planned(id string, from map[string]rating.PlayerState) rating.Operation {
	return PlannedGame(id, "alice", "bob", from)
}

// PlannedGame is a tracked game between black and white (in name order),
// planned from the versions given (from), each player one point up and one
// ledger entry on: what OpWriter.ApplyOp writes, for a store's tests.
func PlannedGame(id, black, white string, from map[string]rating.PlayerState) rating.Operation {
	o := op(id)
	o.Black, o.White = black, white
	o.Tracked = true
	var p rating.Plan
	for _, n := range []string{black, white} {
		before := from[n]
		after := before
		after.Score++
		after.Version++
		after.Seq++
		after.Op = id
		after.Head = fmt.Sprintf("%s-%s-%d", id, n, after.Seq)
		e := rating.LedgerEntry{Username: n, Seq: after.Seq, Cause: rating.CauseGame, CauseID: id, ScoreBefore: before.Score,
			ScoreAfter: after.Score, Delta: 1, At: t0, Prev: before.Head, Hash: after.Head}
		p.Steps = append(p.Steps, rating.Step{Before: before, After: after, Entry: e})
	}
	o.Plan = &p
	return o
}

// applyOp: ApplyOp writes every step of a tracked, planned game of two
// new players (their starts, the players at the plan's after, their
// entries, the operation with its plan, each version held by it); again,
// it writes nothing and says so;
// a game planned from a version another operation holds leaves only a
// prefix of the steps (the operation, the holds before that one) and
// says so.
func applyOp(t *testing.T, s rating.OpWriter) {
	// New players: their starts are written too.
	from := map[string]rating.PlayerState{}
	for _, n := range []string{"alice", "bob"} {
		from[n] = rating.NewPlayer(n)
	}
	g1 := planned("g1", from)
	for i, want := range []bool{true, false} {
		if ok, err := s.ApplyOp(ctx, g1); ok != want || err != nil {
			t.Fatalf("ApplyOp #%d = %v, %v; want %v", i+1, ok, err, want)
		}
	}
	for i, n := range []string{"alice", "bob"} {
		st, err := s.Player(ctx, n)
		if err != nil || st.Version != 1 || st.Score != g1.Plan.Steps[i].After.Score || st.Op != "g1" {
			t.Errorf("%s after g1: %+v, %v; want g1's version 1", n, st, err)
		}
		if l, err := s.Latest(ctx, n); err != nil || l.Version != 1 {
			t.Errorf("%s's recorded latest state: version %d, %v; want 1", n, l.Version, err)
		}
		es, err := s.Ledger(ctx, n, 0, 10)
		if err != nil || len(es) != 1 || es[0].Hash != g1.Plan.Steps[i].Entry.Hash {
			t.Errorf("%s's ledger: %+v, %v; want g1's entry", n, es, err)
		}
		if err := s.Hold(ctx, n, 0, "other"); !errors.Is(err, rating.ErrHeld) {
			t.Errorf("%s#0 after g1: %v, want held by g1", n, err)
		}
	}
	if sts, err := s.LatestOf(ctx, []string{"bob", "alice", "nobody"}); err != nil || len(sts) != 2 || sts[0].Username != "alice" || sts[0].Version != 1 || sts[1].Version != 1 {
		t.Errorf("LatestOf after g1: %+v, %v; want alice and bob at version 1", sts, err)
	}
	versions := map[string][]int64{}
	if err := s.EachState(ctx, func(st rating.PlayerState) error {
		versions[st.Username] = append(versions[st.Username], st.Version)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(versions, map[string][]int64{"alice": {0, 1}, "bob": {0, 1}}) {
		t.Errorf("stored versions after g1: %v, want each player's start and g1's", versions)
	}
	stored, err := s.Op(ctx, "g1")
	if err != nil || stored.Plan == nil || len(stored.Plan.Steps) != 2 || stored.Plan.Steps[1].Entry.Hash != g1.Plan.Steps[1].Entry.Hash {
		t.Fatalf("g1 stored: %+v, %v; want it with its plan", stored, err)
	}

	// g2 from version 1, but bob#1 is another operation's.
	for i, n := range []string{"alice", "bob"} {
		from[n] = g1.Plan.Steps[i].After
	}
	if err := s.Hold(ctx, "bob", 1, "other"); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ApplyOp(ctx, planned("g2", from)); ok || err != nil {
		t.Fatalf("ApplyOp past a held player = %v, %v; want false, nil", ok, err)
	}
	g2, err := s.Op(ctx, "g2")
	if err != nil || g2.Plan != nil {
		t.Fatalf("g2 after it stopped: %+v, %v; want it stored without a plan", g2, err)
	}
	var he *rating.HeldError
	if err := s.Hold(ctx, "alice", 1, "x"); !errors.As(err, &he) || he.By != "g2" {
		t.Errorf("alice#1: %v, want held by g2 (a step before the stop)", err)
	}
	for _, n := range []string{"alice", "bob"} {
		if st, err := s.Player(ctx, n); err != nil || st.Version != 1 {
			t.Errorf("%s after g2 stopped: version %d, %v; want 1", n, st.Version, err)
		}
		if es, err := s.Ledger(ctx, n, 0, 10); err != nil || len(es) != 1 {
			t.Errorf("%s's ledger after g2 stopped: %d entries, %v; want 1", n, len(es), err)
		}
	}
}

var (
	ctx = context.Background()
	// t0 has whole milliseconds: stores keep times to the millisecond.
	t0 = time.Date(2026, 3, 1, 12, 30, 45, 123_000_000, time.UTC)
)

func op(id string) rating.Operation {
	return rating.Operation{ID: id, Black: "alice", White: "bob", Winner: rating.SideWhite,
		Game: rating.Game{Moves: 120, Outcome: rating.Decisive, Escape: true}, SourceID: "src-" + id, GameHash: "game-hash-" + id, Actor: "go-server", At: t0}
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
	check(t, "first plan", must[rating.Plan](t)(s.SetPlan(ctx, "g1", p1)), p1)
	check(t, "second plan keeps the first", must[rating.Plan](t)(s.SetPlan(ctx, "g1", p2)), p1)
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
	if err := s.FinishOp(ctx, "g2", "first"); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishOp(ctx, "g2", "second"); err != nil {
		t.Fatal(err)
	}
	if g2 := must[rating.Operation](t)(s.Op(ctx, "g2")); !g2.Done || g2.Error != "first" {
		t.Fatalf("finished twice: %+v", g2)
	}
}

func holdOnce(t *testing.T, s rating.Store) {
	for range 2 {
		if err := s.Hold(ctx, "alice", 0, "g1"); err != nil {
			t.Fatal(err)
		}
	}
	err := s.Hold(ctx, "alice", 0, "g2")
	var he *rating.HeldError
	if !errors.As(err, &he) || he.By != "g1" || he.Username != "alice" {
		t.Fatalf("hold by another = %v, want HeldError by g1", err)
	}
	if err := s.Hold(ctx, "alice", 1, "g2"); err != nil {
		t.Fatalf("the next version: %v", err)
	}
	if err := s.Hold(ctx, "bob", 0, "g2"); err != nil {
		t.Fatalf("another player: %v", err)
	}
}

// race runs n calls at once and returns how many returned nil; every
// other error must match want.
func race(t *testing.T, n int, want error, call func(i int) error) int {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = call(i) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, want):
			t.Errorf("unexpected %v", err)
		}
	}
	return ok
}

func concurrentHold(t *testing.T, s rating.Store) {
	for v := range int64(5) {
		if ok := race(t, 8, rating.ErrHeld, func(i int) error { return s.Hold(ctx, "alice", v, fmt.Sprintf("g%d", i)) }); ok != 1 {
			t.Fatalf("version %d: %d concurrent holds succeeded, want 1", v, ok)
		}
	}
}

// next is the state after st written by op.
func next(st rating.PlayerState, op string, score int) rating.PlayerState {
	a := st
	a.Score, a.Games, a.Wins, a.Seq, a.Head = score, st.Games+1, st.Wins+1, st.Seq+1, fmt.Sprintf("h%d", st.Seq+1)
	a.Glicko.Rating += 10
	a.Version, a.Op, a.UpdatedAt = st.Version+1, op, t0
	return a
}

func commitOnce(t *testing.T, s rating.Store) {
	v0 := rating.NewPlayer("alice")
	v0.Placement, v0.Score = 300, 300
	for range 2 {
		if err := s.Commit(ctx, v0); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "version 0", must[rating.PlayerState](t)(s.Player(ctx, "alice")), v0)
	v1 := next(v0, "g1", 305)
	for range 2 {
		if err := s.Commit(ctx, v1); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "latest is version 1", must[rating.PlayerState](t)(s.Player(ctx, "alice")), v1)
	other := next(v0, "g2", 295)
	if err := s.Commit(ctx, other); !errors.Is(err, rating.ErrVersionTaken) {
		t.Fatalf("another operation's version 1 = %v, want ErrVersionTaken", err)
	}
	check(t, "still version 1 of g1", must[rating.PlayerState](t)(s.Player(ctx, "alice")), v1)
	// A late retry of version 0 does not bring it back.
	if err := s.Commit(ctx, v0); err != nil {
		t.Fatal(err)
	}
	check(t, "version 0 again changes nothing", must[rating.PlayerState](t)(s.Player(ctx, "alice")), v1)
	board := must[[]rating.PlayerState](t)(s.Leaderboard(ctx, rating.LeaderQuery{Limit: 10}))
	check(t, "the leaderboard has the latest version only", board, []rating.PlayerState{v1})
}

func concurrentCommit(t *testing.T, s rating.Store) {
	v0 := rating.NewPlayer("alice")
	if err := s.Commit(ctx, v0); err != nil {
		t.Fatal(err)
	}
	if ok := race(t, 8, rating.ErrVersionTaken, func(i int) error { return s.Commit(ctx, next(v0, fmt.Sprintf("g%d", i), i)) }); ok != 1 {
		t.Fatalf("%d concurrent commits of one version succeeded, want 1", ok)
	}
}

func entry(user string, seq int64, delta int) rating.LedgerEntry {
	e := rating.LedgerEntry{Username: user, Seq: seq, Cause: rating.CauseGame, CauseID: fmt.Sprintf("g%d", seq), SourceID: "s",
		Actor: "go-server", Opponent: "bob", ScoreBefore: 0, ScoreAfter: delta, RankBefore: "1k", RankAfter: "1k", Delta: delta,
		Glicko: rating.Glicko{Rating: 1500.5, RD: 200.25, Volatility: 0.06}, At: t0.Add(time.Duration(seq) * time.Second), Prev: "p",
		GameHash: fmt.Sprintf("game-hash-%d", seq), MAC: "mac"} // kept as written (issue 11)
	switch {
	case delta > 0:
		e.Result = rating.ResultWin
	case delta < 0:
		e.Result = rating.ResultLoss
	default:
		e.Result = rating.ResultDraw
	}
	e.Hash = e.ComputeHash()
	return e
}

// head commits a state of the player whose ledger head is seq: the
// ledger is read from the head down.
func head(t *testing.T, s rating.Store, user string, seq int64) {
	t.Helper()
	st := rating.NewPlayer(user)
	if err := s.Commit(ctx, st); err != nil {
		t.Fatal(err)
	}
	st.Version, st.Op, st.Seq = 1, "g", seq
	if err := s.Commit(ctx, st); err != nil {
		t.Fatal(err)
	}
}

func ledgerAppendOnce(t *testing.T, s rating.Store) {
	head(t, s, "alice", 1)
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
	// Entry 5 is appended but its state not yet written: not shown.
	head(t, s, "alice", 4)
	want = want[1:]
	check(t, "first page", must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "alice", 0, 2)), want[:2])
	check(t, "next page", must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "alice", 3, 2)), want[2:4])
	if got := must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "alice", 1, 2)); len(got) != 0 {
		t.Fatalf("below the first entry: %v", got)
	}
	if got := must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "nobody", 0, 2)); len(got) != 0 {
		t.Fatalf("ledger of nobody: %v", got)
	}
}

func leaderboard(t *testing.T, s rating.Store) {
	scores := map[string]int{"ann": 250, "bea": 120, "cid": 120, "dan": -30, "eve": 400, "fay": 120}
	for name, score := range scores {
		v0 := rating.NewPlayer(name)
		if err := s.Commit(ctx, v0); err != nil {
			t.Fatal(err)
		}
		if err := s.Commit(ctx, next(v0, "g", score)); err != nil {
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

// latestPastStaleHint: versions written in any order, the latest is
// what Player and the leaderboard show.
func latestPastStaleHint(t *testing.T, s rating.Store) {
	v0 := rating.NewPlayer("alice")
	v1, v2 := next(v0, "g1", 5), next(next(v0, "g1", 5), "g2", 10)
	for _, st := range []rating.PlayerState{v0, v1, v2, v1, v0} {
		if err := s.Commit(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "latest", must[rating.PlayerState](t)(s.Player(ctx, "alice")), v2)
	check(t, "leaderboard", must[[]rating.PlayerState](t)(s.Leaderboard(ctx, rating.LeaderQuery{Limit: 5})), []rating.PlayerState{v2})
	b0 := rating.NewPlayer("bob")
	if err := s.Commit(ctx, b0); err != nil {
		t.Fatal(err)
	}
	check(t, "latest of several", must[[]rating.PlayerState](t)(s.LatestOf(ctx, []string{"nobody", "bob", "alice"})),
		[]rating.PlayerState{must[rating.PlayerState](t)(s.Latest(ctx, "alice")), b0})
	check(t, "latest of none", len(must[[]rating.PlayerState](t)(s.LatestOf(ctx, []string{"nobody"}))), 0)
	// Many names at once (a store may read a few one by one, many in one
	// query): the same answer.
	check(t, "latest of many", must[[]rating.PlayerState](t)(s.LatestOf(ctx, []string{"n1", "bob", "n2", "n3", "alice", "n4", "n5", "bob"})),
		[]rating.PlayerState{must[rating.PlayerState](t)(s.Latest(ctx, "alice")), b0})
}

func unfinishedDrops(t *testing.T, s rating.Store) {
	for _, id := range []string{"a", "b"} {
		must[rating.Operation](t)(s.CreateOp(ctx, op(id)))
	}
	if err := s.FinishOp(ctx, "a", ""); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		ops := must[[]rating.Operation](t)(s.Unfinished(ctx, 10))
		if len(ops) != 1 || ops[0].ID != "b" {
			t.Fatalf("Unfinished = %+v, want b", ops)
		}
	}
}

func notFound(t *testing.T, s rating.Store) {
	if _, err := s.Player(ctx, "nobody"); !errors.Is(err, rating.ErrNotFound) {
		t.Errorf("Player = %v", err)
	}
	if _, err := s.Op(ctx, "nope"); !errors.Is(err, rating.ErrNotFound) {
		t.Errorf("Op = %v", err)
	}
}

// timesInUTC: a store keeps the times it indexes as BSON dates do, in
// UTC to the millisecond, whatever zone and precision they came in.
func timesInUTC(t *testing.T, s rating.Store) {
	shanghai := time.FixedZone("CST", 8*3600)
	at := time.Date(2026, 3, 1, 20, 30, 45, 123_456_789, shanghai) // t0 and a bit, in Shanghai
	o := op("g1")
	o.At = at
	must[rating.Operation](t)(s.CreateOp(ctx, o))
	check(t, "operation time", must[rating.Operation](t)(s.Op(ctx, "g1")).At, t0)
	st := rating.NewPlayer("alice")
	st.UpdatedAt = at
	if err := s.Commit(ctx, st); err != nil {
		t.Fatal(err)
	}
	check(t, "state time", must[rating.PlayerState](t)(s.Player(ctx, "alice")).UpdatedAt, t0)
	check(t, "latest state time", must[rating.PlayerState](t)(s.Latest(ctx, "alice")).UpdatedAt, t0)
	e := entry("alice", 1, 5)
	e.At = at
	e.Hash = e.ComputeHash()
	if err := s.AppendEntry(ctx, e); err != nil {
		t.Fatal(err)
	}
	got := must[[]rating.LedgerEntry](t)(s.Audit(ctx, rating.AuditQuery{Limit: 1}))
	if len(got) != 1 {
		t.Fatalf("audit trail = %v, want the one entry", keys(got))
	}
	check(t, "entry time", got[0].At, t0)
	if got[0].ComputeHash() != e.Hash {
		t.Errorf("the stored entry no longer matches its hash")
	}
}

// eachMayUseTheStore: a callback of an Each method may read the store
// (a cursor does not lock it).
func eachMayUseTheStore(t *testing.T, s rating.Store) {
	for _, name := range []string{"alice", "bob"} {
		if err := s.Commit(ctx, rating.NewPlayer(name)); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	if err := s.EachPlayer(ctx, func(p rating.PlayerState) error {
		got, err := s.Player(ctx, p.Username)
		if err != nil {
			return err
		}
		n++
		check(t, "read inside EachPlayer", got, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("EachPlayer called back %d times, want 2", n)
	}
}

// batchWrites: AppendEntries and CommitAll answer per element as
// AppendEntry and Commit would: a retry is no error, a conflict is.
func batchWrites(t *testing.T, s rating.BatchStore) {
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	entry := func(user string, delta int) rating.LedgerEntry {
		e := rating.LedgerEntry{Username: user, Seq: 1, Cause: rating.CauseGame, CauseID: "g1", Delta: delta, At: at}
		e.Hash = e.ComputeHash()
		return e
	}
	es := []rating.LedgerEntry{entry("alice", 5), entry("bob", -5)}
	for i := range 2 { // the second time: a retry
		if err := s.AppendEntries(ctx, es); err != nil {
			t.Fatalf("AppendEntries #%d: %v", i+1, err)
		}
	}
	if err := s.AppendEntries(ctx, []rating.LedgerEntry{entry("carol", 1), entry("bob", 7)}); !errors.Is(err, rating.ErrLedgerConflict) {
		t.Fatalf("another bob entry 1: %v, want ErrLedgerConflict", err)
	}
	sts := []rating.PlayerState{rating.NewPlayer("alice"), rating.NewPlayer("bob")}
	for i := range 2 {
		if err := s.CommitAll(ctx, sts); err != nil {
			t.Fatalf("CommitAll #%d: %v", i+1, err)
		}
	}
	next := func(p rating.PlayerState, op string) rating.PlayerState {
		p.Version, p.Op, p.Seq, p.Score = 1, op, 1, p.Score+5
		return p
	}
	if err := s.CommitAll(ctx, []rating.PlayerState{next(sts[0], "g1"), next(sts[1], "g1")}); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitAll(ctx, []rating.PlayerState{next(sts[0], "g1"), next(sts[1], "g2")}); !errors.Is(err, rating.ErrVersionTaken) {
		t.Fatalf("bob's version 1 by another operation: %v, want ErrVersionTaken", err)
	}
	for i, user := range []string{"alice", "bob"} {
		got, err := s.Player(ctx, user)
		if err != nil || got.Version != 1 || got.Op != "g1" {
			t.Fatalf("%s = %+v, %v; want version 1 by g1", user, got, err)
		}
		l, err := s.Ledger(ctx, user, 0, 10)
		if err != nil || len(l) != 1 || l[0].Hash != es[i].Hash {
			t.Fatalf("%s's ledger = %+v, %v; want the one entry", user, l, err)
		}
	}
}

// placementRoundTrip: a placing player's progress and a plan whose step
// carries a placement (Step.Then) come back as written.
func placementRoundTrip(t *testing.T, s rating.Store) {
	v0 := rating.NewPlayer("alice")
	v0.Placing = true
	if err := s.Commit(ctx, v0); err != nil {
		t.Fatal(err)
	}
	v1 := next(v0, "g1", 5)
	v1.PlacingGames = 1
	if err := s.Commit(ctx, v1); err != nil {
		t.Fatal(err)
	}
	check(t, "Player", must[rating.PlayerState](t)(s.Player(ctx, "alice")), v1)
	check(t, "Latest", must[rating.PlayerState](t)(s.Latest(ctx, "alice")), v1)
	var versions []rating.PlayerState
	if err := s.EachState(ctx, func(st rating.PlayerState) error { versions = append(versions, st); return nil }); err != nil {
		t.Fatal(err)
	}
	check(t, "EachState", versions, []rating.PlayerState{v0, v1})

	must[rating.Operation](t)(s.CreateOp(ctx, op("g2")))
	p := plan(5)
	then := p.Steps[0].Entry
	then.Seq, then.Cause, then.Actor, then.ScoreBefore, then.ScoreAfter, then.Delta = 2, rating.CausePlacement, rating.PlacementActor, 5, 300, 295
	then.Evidence, then.Prev = []string{"g1", "g2"}, p.Steps[0].Entry.Hash
	then.Hash = then.ComputeHash()
	p.Steps[0].Then = &then
	p.Steps[0].After.Placing, p.Steps[0].After.PlacingGames = false, 10
	check(t, "SetPlan", must[rating.Plan](t)(s.SetPlan(ctx, "g2", p)), p)
	check(t, "stored plan", must[rating.Operation](t)(s.Op(ctx, "g2")).Plan, &p)
}

// trackedIsNotUnfinished: an operation its caller tracks is stored and
// read back as any other (Tracked too), runs through its plan and its
// end, but Unfinished never lists it; an untracked one beside it is.
func trackedIsNotUnfinished(t *testing.T, s rating.Store) {
	tr := op("t1")
	tr.Tracked = true
	if got := must[rating.Operation](t)(s.CreateOp(ctx, tr)); !got.Tracked {
		t.Fatalf("CreateOp = %+v, want it tracked", got)
	}
	if got := must[rating.Operation](t)(s.CreateOp(ctx, tr)); !got.Tracked || got.ID != "t1" {
		t.Fatalf("CreateOp again = %+v", got)
	}
	must[rating.Operation](t)(s.CreateOp(ctx, op("u1")))
	if got := must[rating.Operation](t)(s.Op(ctx, "t1")); !got.Tracked || got.Done {
		t.Fatalf("Op(t1) = %+v, want tracked and not done", got)
	}
	ops := must[[]rating.Operation](t)(s.Unfinished(ctx, 10))
	if len(ops) != 1 || ops[0].ID != "u1" {
		t.Fatalf("Unfinished = %+v, want u1 alone", ops)
	}
	must[rating.Plan](t)(s.SetPlan(ctx, "t1", plan(5)))
	if err := s.FinishOp(ctx, "t1", ""); err != nil {
		t.Fatal(err)
	}
	if got := must[rating.Operation](t)(s.Op(ctx, "t1")); !got.Done || got.Plan == nil {
		t.Fatalf("Op(t1) after FinishOp = %+v", got)
	}
	if ops := must[[]rating.Operation](t)(s.Unfinished(ctx, 10)); len(ops) != 1 || ops[0].ID != "u1" {
		t.Fatalf("Unfinished after t1 finished = %+v, want u1 alone", ops)
	}
}
