package api_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"testing"

	"github.com/weiqi-platform/rank/games"
)

// TestAnnulRecompute: with recompute, annulling alice's first win over
// bob recomputes their later games (the score gap the first win opened
// made the later wins worth less), one audited correction per changed
// delta; the store verifies clean; the body is checked; a retry answers
// the same.
func TestAnnulRecompute(t *testing.T) {
	w := newAdminWorld(t)
	var first string
	for i := range 8 {
		r := games.RandomRecord(rand.New(rand.NewPCG(uint64(i), 9)), 13, 160, false)
		r.End, r.EndBy, r.Result = games.EndResign, games.White, "B+R"
		r.Black.Name, r.White.Name = "alice", "bob"
		source := fmt.Sprintf("long-%d", i)
		out := w.expect(req{method: "POST", path: "/api/v1/games?source_id=" + url.QueryEscape(source), token: w.server,
			body: string(r.SGF()), header: map[string]string{"Content-Type": "application/x-go-sgf"}}, 201, "")
		if i == 0 {
			first = out.JSON["game"].(map[string]any)["id"].(string)
		}
	}
	annul := "/api/v1/admin/games/" + first + "/annul"
	w.post(annul, map[string]any{"reason": "x", "recompute": "yes"}, "", 400, "")
	out := w.post(annul, map[string]any{"reason": "a cheat", "recompute": true}, "", 200, "")
	fixes, ok := out.JSON["corrections"].([]any)
	if !ok || len(fixes) == 0 || len(entriesOf(out)) != 2 {
		t.Fatalf("annulment with recompute: %s", out.Body)
	}
	for _, f := range fixes {
		e := f.(map[string]any)["entries"].([]any)[0].(map[string]any)
		if e["cause"] != "adjustment" || e["actor"] != "root" || e["delta"] == float64(0) {
			t.Fatalf("correction %v", e)
		}
	}
	again := w.post(annul, map[string]any{"reason": "a cheat", "recompute": true}, "", 200, "")
	if string(again.Body) != string(out.Body) {
		t.Fatalf("a retry answered %s, not %s", again.Body, out.Body)
	}
	if rep := w.expect(req{method: "GET", path: "/api/v1/admin/verify", token: w.admin}, 200, ""); rep.JSON["ok"] != true {
		t.Fatalf("verify after the recompute: %s", rep.Body)
	}
	w.expect(req{method: "POST", path: annul, token: w.alice, body: map[string]any{"reason": "x", "recompute": true}}, 403, "")
}
