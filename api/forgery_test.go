package api_test

import (
	"context"
	"maps"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/rating"
)

func withAuditKey(key string) option { return func(o *envOptions) { o.cfg.AuditKey = []byte(key) } }

const testAuditKey = "a test audit key of at least 32 bytes!"

// TestForgeriesAreFound (issue 11 item 5): whoever can write the database
// but does not hold the audit key edits a stored game's result, flips a
// game's winner in the ledger with every hash recomputed, and appends an
// adjustment with a valid (unkeyed) hash; verification names each.
func TestForgeriesAreFound(t *testing.T) {
	w := newAdminWorld(t, onRealStores(), withAuditKey(testAuditKey))
	ctx := context.Background()
	verify := func() rating.Report {
		t.Helper()
		r, err := w.ratings.VerifyAll(ctx, "forgery")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := verify(); !r.OK() || r.Unkeyed != 0 {
		t.Fatalf("before any forgery: %+v", r)
	}
	has := func(r rating.Report, player string, seq int64, check, words string) bool {
		for _, m := range r.Mismatches {
			if m.Player == player && m.Seq == seq && m.Check == check && strings.Contains(m.Detail, words) {
				return true
			}
		}
		return false
	}

	// 1. The stored game's result rewritten (B+R to W+R).
	verdict, _ := w.stack.Raw(t, apptest.GamesCollection, w.gameID)["verdict"].(string)
	forged := strings.Replace(strings.Replace(verdict, `"B+R"`, `"W+R"`, 1), `"winner":"B"`, `"winner":"W"`, 1)
	if forged == verdict {
		t.Fatalf("nothing to rewrite in %s", verdict)
	}
	w.stack.Tamper(t, apptest.GamesCollection, w.gameID, map[string]map[string]any{"$set": {"verdict": forged}})
	r := verify()
	if !has(r, "alice", 1, rating.CheckGame, w.gameID) || !has(r, "bob", 1, rating.CheckGame, "changed after it was rated") {
		t.Fatalf("a rewritten game result is not reported: %+v", r.Mismatches)
	}
	w.stack.Tamper(t, apptest.GamesCollection, w.gameID, map[string]map[string]any{"$set": {"verdict": verdict}})

	// 2. The winner flipped in the ledger: alice's entry rewritten as a
	// loss, its hash recomputed, her state's head and score following.
	es, err := w.rstore.Ledger(ctx, "alice", 0, 10)
	if err != nil || len(es) != 1 {
		t.Fatalf("alice's ledger: %v, %v", es, err)
	}
	e := es[0]
	e.Delta, e.ScoreAfter, e.Result = -e.Delta, e.ScoreBefore-e.Delta, rating.ResultLoss
	e.Hash = e.ComputeHash()
	w.stack.Tamper(t, apptest.LedgerCollection, apptest.LedgerID("alice", 1), map[string]map[string]any{"$set": {
		"delta": e.Delta, "score_after": e.ScoreAfter, "result": e.Result, "hash": e.Hash}})
	r = verify()
	if !has(r, "alice", 1, rating.CheckKey, "forged") {
		t.Fatalf("a flipped winner with a recomputed hash is not reported: %+v", r.Mismatches)
	}

	// 3. An adjustment appended to bob's ledger, linked and hashed right,
	// but without the key.
	bob, err := w.rstore.Ledger(ctx, "bob", 0, 10)
	if err != nil || len(bob) != 1 {
		t.Fatalf("bob's ledger: %v, %v", bob, err)
	}
	add := rating.LedgerEntry{Username: "bob", Seq: 2, Cause: rating.CauseAdjustment, CauseID: "forged", Actor: "root",
		ScoreBefore: bob[0].ScoreAfter, ScoreAfter: bob[0].ScoreAfter + 300, Delta: 300, RankBefore: bob[0].RankAfter, RankAfter: "1d",
		Glicko: bob[0].Glicko, Reason: "looks official", At: bob[0].At, Prev: bob[0].Hash}
	add.Hash = add.ComputeHash()
	if err := w.rstore.AppendEntry(ctx, add); err != nil {
		t.Fatal(err)
	}
	r = verify()
	if !has(r, "bob", 2, rating.CheckKey, "without the audit key") {
		t.Fatalf("an appended unkeyed adjustment is not reported: %+v", r.Mismatches)
	}
}

// TestRollbackFound: a checkpoint kept outside the database shows the
// store rolled back to an earlier consistent state (here: bob's last
// entry deleted and his state put back as it was before it, everything
// else untouched, every hash and MAC genuine).
func TestRollbackFound(t *testing.T) {
	w := newAdminWorld(t, onRealStores(), withAuditKey(testAuditKey))
	ctx := context.Background()
	w.post("/api/v1/admin/players/bob/adjust", map[string]any{"delta": 30, "reason": "a server outage cost him a game"}, "adj-1", 200, "")
	out := w.expect(req{method: "GET", path: "/api/v1/audit/checkpoints", token: w.admin}, 200, "")
	kept := out.JSON["checkpoint"]
	if ok := w.expect(req{method: "POST", path: "/api/v1/audit/checkpoints/verify", token: w.admin, body: kept}, 200, ""); ok.JSON["ok"] != true {
		t.Fatalf("the fresh checkpoint does not verify: %s", ok.Body)
	}
	// GET's answer as it was saved verifies too (the README's way).
	if ok := w.expect(req{method: "POST", path: "/api/v1/audit/checkpoints/verify", token: w.admin, body: out.JSON}, 200, ""); ok.JSON["ok"] != true {
		t.Fatalf("GET's answer as saved does not verify: %s", ok.Body)
	}
	both := maps.Clone(kept.(map[string]any))
	both["checkpoint"] = kept
	w.expect(req{method: "POST", path: "/api/v1/audit/checkpoints/verify", token: w.admin, body: both}, 400, "invalid_json")
	// Roll bob back: entry 2 gone, his latest state that of entry 1.
	es, err := w.rstore.Ledger(ctx, "bob", 0, 10)
	if err != nil || len(es) != 2 {
		t.Fatalf("bob's ledger: %v, %v", es, err)
	}
	w.stack.Delete(t, apptest.LedgerCollection, apptest.LedgerID("bob", 2))
	w.stack.Tamper(t, apptest.PlayersCollection, "bob", map[string]map[string]any{"$set": {
		"seq": int64(1), "head": es[1].Hash, "score": es[1].ScoreAfter}})
	got := w.expect(req{method: "POST", path: "/api/v1/audit/checkpoints/verify", token: w.admin, body: kept}, 200, "")
	if got.JSON["ok"] != false || !strings.Contains(string(got.Body), "rolled back") || !strings.Contains(string(got.Body), `"player":"bob"`) {
		t.Fatalf("a rollback is not reported: %s", got.Body)
	}
	// A checkpoint someone made up (or signed with another key) proves
	// nothing and is refused.
	fake := kept.(map[string]any)
	fake["mac"] = strings.Repeat("0", 64)
	w.expect(req{method: "POST", path: "/api/v1/audit/checkpoints/verify", token: w.admin, body: fake}, 422, "invalid_field")
}
