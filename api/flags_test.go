package api_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
)

// TestIntegrityScanToReview: an accomplice with games of their own who
// loses twenty games in a row to one player, half resigned at move 20, is
// flagged as farming by the nightly scan (through the real intake, the
// ledger and the detectors); an admin finds the flag with its evidence,
// confirms it with a reason, and cannot resolve it otherwise after; the
// scores are untouched; a player may not see the queue.
func TestIntegrityScanToReview(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	admin := e.account("root", players.RoleAdmin)
	player := e.register("farmer")
	e.register("mule")
	submit := func(src, winner, loser string, moves int) {
		t.Helper()
		r := randomGame(uint64(len(src))*7919+uint64(moves), moves, false)
		black, white := winner, loser
		if r.EndBy == games.Black { // black resigned: the winner is white
			black, white = loser, winner
		}
		if _, err := e.intake.Submit(ctx, intake.Submission{SourceID: src, Black: black, White: white, Record: r, By: "go-server"}); err != nil {
			t.Fatal(err)
		}
		e.mm.advance(time.Minute)
	}
	for j := range 20 { // ordinary games of both, each side winning half
		opp := fmt.Sprintf("bg%02d", j)
		e.register(opp)
		for _, n := range []string{"farmer", "mule"} {
			w, l := n, opp
			if j%2 == 0 {
				w, l = opp, n
			}
			submit("bg-"+n+"-"+opp, w, l, 120)
		}
	}
	for i := range 20 {
		moves := 120
		if i%2 == 0 {
			moves = 20
		}
		submit(fmt.Sprintf("farm-%d", i), "farmer", "mule", moves)
	}
	before := e.expect(req{method: "GET", path: "/api/v1/players/farmer", token: admin}, 200, "").JSON["score"]

	n, err := e.stack.Reviews.Scan(ctx, e.stack.Clock.Now())
	if err != nil || n == 0 {
		t.Fatalf("scan = %d new flags, %v; want the farming", n, err)
	}
	if again, err := e.stack.Reviews.Scan(ctx, e.stack.Clock.Now()); err != nil || again != 0 {
		t.Fatalf("a second scan over the same window = %d new, %v; want 0", again, err)
	}
	page := e.expect(req{method: "GET", path: "/api/v1/admin/flags?kind=farming&status=open", token: admin}, 200, "").JSON["items"].([]any)
	var id string
	for _, x := range page {
		f := x.(map[string]any)
		flag := f["flag"].(map[string]any)
		if flag["player"] == "farmer" && len(flag["evidence"].([]any)) >= 10 && fmt.Sprint(flag["others"]) == "[mule]" && flag["detail"] != "" {
			id = f["id"].(string)
		}
	}
	if id == "" {
		t.Fatalf("no farming flag on farmer with its evidence: %v", page)
	}
	e.expect(req{method: "GET", path: "/api/v1/admin/flags", token: player}, 403, "forbidden")
	e.expect(req{method: "POST", path: "/api/v1/admin/flags/" + id + "/resolution", token: admin, body: map[string]any{"verdict": "confirmed"}}, 422, "invalid_field")
	ok := e.expect(req{method: "POST", path: "/api/v1/admin/flags/" + id + "/resolution", token: admin,
		body: map[string]any{"verdict": "confirmed", "reason": "the same pair, resigned at move 20"}}, 200, "").JSON
	if ok["status"] != "confirmed" || ok["resolution"].(map[string]any)["by"] != "root" {
		t.Fatalf("resolved %v", ok)
	}
	e.expect(req{method: "POST", path: "/api/v1/admin/flags/" + id + "/resolution", token: admin,
		body: map[string]any{"verdict": "dismissed", "reason": "changed my mind"}}, 409, "flag_resolved")
	e.expect(req{method: "GET", path: "/api/v1/admin/flags/nope", token: admin}, 404, "not_found")
	if after := e.expect(req{method: "GET", path: "/api/v1/players/farmer", token: admin}, 200, "").JSON["score"]; after != before {
		t.Fatalf("a flag moved the score: %v → %v", before, after)
	}
}
