package main

import (
	"context"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
)

// TestRecomputeFindsTampering: a replay of an untouched ledger is as
// stored; a latest-state record or a ledger entry edited behind the
// services' back is reported, field by field, with exit 1.
func TestRecomputeFindsTampering(t *testing.T) {
	ctx := context.Background()
	s := apptest.Real(t)
	for _, g := range []rating.GameInput{
		{ID: "g1", Black: "alice", White: "bob", Winner: rating.SideBlack, Game: rating.Game{Moves: 120}},
		{ID: "g2", Black: "bob", White: "carol", Winner: rating.SideBlack, Game: rating.Game{Moves: 80}},
		{ID: "g3", Black: "carol", White: "alice", Winner: rating.SideWhite, Game: rating.Game{Moves: 200}},
	} {
		if _, err := s.Ratings.Apply(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	uri := testsvc.MongoURI(t)
	recompute := func() (int, string) {
		code, out, errs := runCtl("recompute", "--mongo-uri", uri, "--mongo-db", s.DB.Name())
		if code == exitUsage {
			t.Fatalf("recompute: %q", errs)
		}
		return code, out
	}
	if code, out := recompute(); code != exitOK || out != "replayed 3 operations, 6 ledger entries, 3 players: as stored\n" {
		t.Fatalf("untouched: exit %d, %q", code, out)
	}
	st, err := s.Ratings.Player(ctx, "carol")
	if err != nil {
		t.Fatal(err)
	}
	s.Tamper(t, apptest.PlayersCollection, "carol", map[string]map[string]any{"$set": {"score": st.Score + 300}})
	code, out := recompute()
	want := "carol: latest-state record score: stored " // the stored latest version still agrees
	if code != exitNo || !strings.Contains(out, want) || !strings.HasSuffix(out, "1 differences\n") {
		t.Fatalf("a tampered latest-state record: exit %d, %q; want %q", code, out, want)
	}
	s.Tamper(t, apptest.PlayersCollection, "carol", map[string]map[string]any{"$set": {"score": st.Score}})
	s.Tamper(t, apptest.LedgerCollection, apptest.LedgerID("bob", 2), map[string]map[string]any{"$inc": {"delta": 7, "score_after": 7}})
	code, out = recompute()
	for _, w := range []string{"bob entry 2: delta: stored ", "bob entry 2: score_after: stored "} {
		if code != exitNo || !strings.Contains(out, w) {
			t.Fatalf("a tampered entry: exit %d, %q; want %q", code, out, w)
		}
	}
}
