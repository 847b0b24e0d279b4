package ratingtest

import (
	"errors"
	"testing"

	"github.com/weiqi-platform/rank/rating"
)

// bulkWrites: each bulk method answers per element as its single call
// would (rating.BulkStore).
func bulkWrites(t *testing.T, s rating.BulkStore) {
	created, err := s.CreateOps(ctx, []rating.Operation{op("g1"), op("g2")})
	check(t, "CreateOps", created, []bool{true, true})
	if err != nil {
		t.Fatal(err)
	}
	other := op("g2")
	other.Black = "carol"
	created, err = s.CreateOps(ctx, []rating.Operation{other, op("g3")})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "CreateOps again", created, []bool{false, true})
	check(t, "the first g2 stays", must[rating.Operation](t)(s.Op(ctx, "g2")), op("g2"))

	answers, err := s.HoldAll(ctx, []rating.HoldRequest{hold("alice", 0, "g1"), hold("alice", 1, "g2"), hold("bob", 0, "g1")})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "HoldAll", answers, []error{nil, nil, nil})
	answers, err = s.HoldAll(ctx, []rating.HoldRequest{hold("alice", 1, "g2"), hold("bob", 0, "g3")})
	if err != nil {
		t.Fatal(err)
	}
	var he *rating.HeldError
	if answers[0] != nil || !errors.As(answers[1], &he) || he.By != "g1" {
		t.Fatalf("HoldAll again = %v; want nil and bob held by g1", answers)
	}
	if err := s.Hold(ctx, "alice", 1, "g3"); !errors.Is(err, rating.ErrHeld) {
		t.Fatalf("Hold of a version HoldAll held: %v, want ErrHeld", err)
	}

	p1, p2 := plan(5), plan(7)
	plans, err := s.SetPlans(ctx, []string{"g1"}, []rating.Plan{p1})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "SetPlans", plans, []rating.Plan{p1})
	plans, err = s.SetPlans(ctx, []string{"g1", "g2"}, []rating.Plan{p2, p2})
	if err != nil {
		t.Fatal(err)
	}
	check(t, "SetPlans keeps the first", plans, []rating.Plan{p1, p2})

	v := func(name string, version int64, opID string, score int) rating.PlayerState {
		p := rating.NewPlayer(name)
		p.Version, p.Op, p.Score, p.UpdatedAt = version, opID, score, t0
		return p
	}
	sts := []rating.PlayerState{v("alice", 0, "", 0), v("bob", 0, "", 0), v("alice", 1, "g1", 5), v("bob", 1, "g1", -5), v("alice", 2, "g2", 9)}
	for i := range 2 { // the second time: a retry
		if err := s.CommitStates(ctx, sts); err != nil {
			t.Fatalf("CommitStates #%d: %v", i+1, err)
		}
	}
	for _, want := range []rating.PlayerState{sts[4], sts[3]} {
		got := must[rating.PlayerState](t)(s.Player(ctx, want.Username))
		check(t, "Player after CommitStates", got, want)
		check(t, "Latest after CommitStates", must[rating.PlayerState](t)(s.Latest(ctx, want.Username)), want)
	}
	if err := s.CommitStates(ctx, []rating.PlayerState{v("carol", 0, "", 0), v("bob", 1, "g9", 1)}); !errors.Is(err, rating.ErrVersionTaken) {
		t.Fatalf("bob's version 1 by another operation: %v, want ErrVersionTaken", err)
	}
	if err := s.CommitStates(ctx, []rating.PlayerState{v("dave", 0, "", 0)}); err != nil {
		t.Fatal(err)
	}
	check(t, "one player", must[rating.PlayerState](t)(s.Latest(ctx, "dave")), v("dave", 0, "", 0))

	// A run of batches: the versions now, the latest-state records at
	// its end; a retry and another operation's version answer as above.
	run := []rating.PlayerState{v("alice", 3, "g5", 11), v("dave", 1, "g5", -2), v("dave", 2, "g6", -4)}
	for i := range 2 {
		if err := s.CommitVersions(ctx, run); err != nil {
			t.Fatalf("CommitVersions #%d: %v", i+1, err)
		}
	}
	check(t, "Player after CommitVersions", must[rating.PlayerState](t)(s.Player(ctx, "dave")), run[2])
	if err := s.CommitVersions(ctx, []rating.PlayerState{v("dave", 2, "g9", 0)}); !errors.Is(err, rating.ErrVersionTaken) {
		t.Fatalf("dave's version 2 by another operation: %v, want ErrVersionTaken", err)
	}
	if err := s.ReprojectAll(ctx, []rating.PlayerState{run[0], run[2]}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []rating.PlayerState{run[0], run[2]} {
		check(t, "Latest after ReprojectAll", must[rating.PlayerState](t)(s.Latest(ctx, want.Username)), want)
	}

	entry := func(user string, seq int64, delta int) rating.LedgerEntry {
		e := rating.LedgerEntry{Username: user, Seq: seq, Cause: rating.CauseGame, CauseID: "g1", Delta: delta, At: t0}
		e.Hash = e.ComputeHash()
		return e
	}
	es := []rating.LedgerEntry{entry("erin", 1, 5), entry("erin", 2, 3), entry("fay", 1, -5)}
	for i := range 2 { // the second time: a retry
		if err := s.AppendAll(ctx, es); err != nil {
			t.Fatalf("AppendAll #%d: %v", i+1, err)
		}
	}
	if err := s.AppendAll(ctx, []rating.LedgerEntry{entry("gus", 1, 1), entry("erin", 2, 4)}); !errors.Is(err, rating.ErrLedgerConflict) {
		t.Fatalf("another erin entry 2: %v, want ErrLedgerConflict", err)
	}
	var got []rating.LedgerEntry
	if err := s.EachEntry(ctx, func(e rating.LedgerEntry) error { got = append(got, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[0].Hash != es[0].Hash || got[1].Hash != es[1].Hash || got[2].Hash != es[2].Hash {
		t.Fatalf("the ledger after AppendAll: %+v", got)
	}

	for i := range 2 {
		if err := s.FinishOps(ctx, []string{"g1", "g3"}); err != nil {
			t.Fatalf("FinishOps #%d: %v", i+1, err)
		}
	}
	if got := must[rating.Operation](t)(s.Op(ctx, "g3")); !got.Done || got.Error != "" {
		t.Fatalf("g3 after FinishOps = %+v, want done", got)
	}
	open := must[[]rating.Operation](t)(s.Unfinished(ctx, 10))
	if len(open) != 1 || open[0].ID != "g2" {
		t.Fatalf("Unfinished = %+v, want g2 only", open)
	}
}

func hold(name string, version int64, opID string) rating.HoldRequest {
	return rating.HoldRequest{Username: name, Version: version, Op: opID}
}
