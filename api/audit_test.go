package api_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
)

// adminWorld: an admin, a game server, players alice and bob, and one
// rated game alice won.
type adminWorld struct {
	*env
	admin, server, alice, bob, gameID string
}

func newAdminWorld(t *testing.T, opts ...option) *adminWorld {
	e := newEnv(t, opts...)
	w := &adminWorld{env: e, admin: e.account("root", players.RoleAdmin), server: e.account("go-server", players.RoleServer),
		alice: e.register("alice"), bob: e.register("bob")}
	out := e.expect(req{method: "POST", path: "/api/v1/games", token: w.server, body: map[string]any{"source_id": "s-1", "black": "alice", "white": "bob",
		"size": 9, "rules": "chinese", "komi": 7, "moves": []string{"ee", "cc", "gc", "cg", "gg"}, "end": "resign", "result": "B+R"}}, 201, "")
	w.gameID = out.JSON["game"].(map[string]any)["id"].(string)
	return w
}

func (w *adminWorld) post(path string, body any, key string, status int, code string) *resp {
	w.t.Helper()
	r := req{method: "POST", path: path, token: w.admin, body: body}
	if key != "" {
		r.header = map[string]string{"Idempotency-Key": key}
	}
	return w.expect(r, status, code)
}

func entriesOf(out *resp) []map[string]any {
	var es []map[string]any
	for _, x := range out.JSON["entries"].([]any) {
		es = append(es, x.(map[string]any))
	}
	return es
}

func TestAdminAdjustments(t *testing.T) {
	w := newAdminWorld(t)
	adjust := "/api/v1/admin/players/bob/adjust"
	for _, tc := range []struct {
		body        any
		status      int
		code, field string
	}{
		{map[string]any{"delta": 10}, 400, "missing_field", "reason"},
		{map[string]any{"reason": "x"}, 422, "invalid_field", "delta"},
		{map[string]any{"delta": 10, "score": 3, "reason": "x"}, 422, "invalid_field", "delta"},
		{map[string]any{"rank": "3p", "reason": "x"}, 422, "invalid_field", "rank"},
		{map[string]any{"rank": "eleven", "reason": "x"}, 422, "invalid_field", "rank"},
		{map[string]any{"score": 2_000_000_000, "reason": "x"}, 422, "invalid_field", "score"},
		{`{"delta":"ten","reason":"x"}`, 400, "invalid_json", "delta"},
		// Bounds (issue 11): a delta that changes nothing, one past the
		// limit, a reason past its length or with control characters.
		{map[string]any{"delta": 0, "reason": "x"}, 422, "invalid_field", "delta"},
		{map[string]any{"delta": 100_000, "reason": "x"}, 422, "invalid_field", "delta"},
		{map[string]any{"delta": -1001, "reason": "x"}, 422, "invalid_field", "delta"},
		{map[string]any{"score": 100_000, "reason": "x"}, 422, "invalid_field", "score"},
		{map[string]any{"delta": 10, "reason": strings.Repeat("长", 1001)}, 422, "invalid_field", "reason"},
		{map[string]any{"delta": 10, "reason": "a\x00b"}, 422, "invalid_field", "reason"},
	} {
		out := w.post(adjust, tc.body, "", tc.status, tc.code)
		if out.errDetails()["field"] != tc.field {
			t.Errorf("%v: %s, want field %s", tc.body, out.Body, tc.field)
		}
	}
	w.post("/api/v1/admin/players/nobody/adjust", map[string]any{"delta": 1, "reason": "x"}, "", 404, "not_found")

	// bob has played: a rank is an adjustment, once per key.
	for range 2 {
		out := w.post(adjust, map[string]any{"rank": "2k", "reason": "plays 2k at the club"}, "adj-1", 200, "")
		e := entriesOf(out)[0]
		if e["cause"] != "adjustment" || e["score_after"] != float64(-100) || e["actor"] != "root" || e["reason"] != "plays 2k at the club" || e["seq"] != float64(2) {
			t.Fatalf("adjustment %s", out.Body)
		}
	}
	w.post(adjust, map[string]any{"delta": 5, "reason": "other"}, "adj-1", 409, "idempotency_key_reused")
	out := w.post(adjust, map[string]any{"delta": -15, "reason": "sandbagging"}, "", 200, "")
	if p := out.JSON["players"].([]any)[0].(map[string]any); p["score"] != float64(-115) || p["rank"] != "3k" {
		t.Fatalf("after the delta: %s", out.Body)
	}
	// carol has played nothing: a rank is her placement.
	w.register("carol")
	out = w.post("/api/v1/admin/players/carol/adjust", map[string]any{"rank": "3d", "reason": "EGF 3d"}, "", 200, "")
	if e := entriesOf(out)[0]; e["cause"] != "placement" || e["score_after"] != float64(300) || e["rank_after"] != "3d" {
		t.Fatalf("placement %s", out.Body)
	}

	// Certified rank: placed, then revoked, each with a reason.
	cert := "/api/v1/admin/players/carol/certified-rank"
	w.post(cert, map[string]any{"rank": "3d"}, "", 400, "missing_field")
	w.post(cert, map[string]any{"reason": "x"}, "", 400, "missing_field")
	w.post(cert, map[string]any{"rank": "9p", "reason": "x"}, "", 422, "invalid_field")
	out = w.post(cert, map[string]any{"rank": "3d", "reason": "certified by the EGF"}, "", 200, "")
	if e := entriesOf(out)[0]; e["cause"] != "placement" || e["certified_before"] != nil || e["certified_after"] != "3d" {
		t.Fatalf("certified placement %s", out.Body)
	}
	if p := w.expect(req{method: "GET", path: "/api/v1/players/carol", token: w.bob}, 200, ""); p.JSON["certified_rank"] != "3d" {
		t.Fatalf("carol %s", p.Body)
	}
	w.post(cert+"/revoke", map[string]any{}, "", 400, "missing_field")
	out = w.post(cert+"/revoke", map[string]any{"reason": "the EGF withdrew it"}, "rev-1", 200, "")
	if e := entriesOf(out)[0]; e["cause"] != "revocation" || e["certified_before"] != "3d" || e["certified_after"] != nil {
		t.Fatalf("revocation %s", out.Body)
	}
	w.post(cert+"/revoke", map[string]any{"reason": "the EGF withdrew it"}, "rev-1", 200, "") // a retry
	w.post(cert+"/revoke", map[string]any{"reason": "again"}, "", 409, "no_certified_rank")
	if p := w.expect(req{method: "GET", path: "/api/v1/players/carol", token: w.bob}, 200, ""); p.JSON["certified_rank"] != nil {
		t.Fatalf("carol after the revocation %s", p.Body)
	}
}

func TestAnnulGame(t *testing.T) {
	w := newAdminWorld(t)
	annul := "/api/v1/admin/games/" + w.gameID + "/annul"
	w.post(annul, map[string]any{}, "", 400, "missing_field")
	w.post("/api/v1/admin/games/nope/annul", map[string]any{"reason": "x"}, "", 404, "not_found")
	before := w.expect(req{method: "GET", path: "/api/v1/players/bob", token: w.bob}, 200, "")
	if g := w.expect(req{method: "GET", path: "/api/v1/games/" + w.gameID, token: w.bob}, 200, ""); g.JSON["annulled"] != nil {
		t.Fatalf("a rated game says annulled: %s", g.Body)
	}
	out := w.post(annul, map[string]any{"reason": "bob's connection was cut"}, "", 200, "")
	// The game shows its annulment, so that it no longer looks rated.
	g := w.expect(req{method: "GET", path: "/api/v1/games/" + w.gameID, token: w.bob}, 200, "")
	if a, _ := g.JSON["annulled"].(map[string]any); a == nil || a["reason"] != "bob's connection was cut" || a["by"] != nil || a["at"] == nil {
		t.Fatalf("the annulled game: %s", g.Body)
	}
	es := entriesOf(out)
	if out.JSON["game_id"] != w.gameID || len(es) != 2 {
		t.Fatalf("annulment %s", out.Body)
	}
	for _, e := range es {
		if e["cause"] != "annulment" || e["cause_id"] != w.gameID || e["score_after"] != float64(0) || e["reason"] != "bob's connection was cut" {
			t.Fatalf("compensating entry %v", e)
		}
	}
	again := w.post(annul, map[string]any{"reason": "twice"}, "", 200, "")
	if string(again.Body) != string(out.Body) {
		t.Fatalf("a second annulment answered %s, not the first %s", again.Body, out.Body)
	}
	after := w.expect(req{method: "GET", path: "/api/v1/players/bob", token: w.bob}, 200, "")
	if before.JSON["score"] != float64(-5) || after.JSON["score"] != float64(0) || after.JSON["games"] != float64(0) || after.JSON["glicko"].(map[string]any)["rating"] != before.JSON["glicko"].(map[string]any)["rating"] {
		t.Fatalf("bob before %s after %s", before.Body, after.Body)
	}
	// An unrated game has nothing to annul.
	unrated := w.expect(req{method: "POST", path: "/api/v1/games", token: w.server, body: map[string]any{"source_id": "s-2", "black": "alice", "white": "bob",
		"size": 9, "moves": []string{"ee"}, "end": "resign", "result": "B+R", "rated": false}}, 201, "")
	w.post("/api/v1/admin/games/"+unrated.JSON["game"].(map[string]any)["id"].(string)+"/annul", map[string]any{"reason": "x"}, "", 409, "not_rated")
	if rep := w.expect(req{method: "GET", path: "/api/v1/admin/verify", token: w.admin}, 200, ""); rep.JSON["ok"] != true || rep.JSON["games"] != float64(1) {
		t.Fatalf("verify after the annulment: %s", rep.Body)
	}
}

// TestPlayerGamesMarkAnnulled: a player's list of games marks the
// annulled game as the game's own read does (when and why, not who), on
// both players' lists, with and without a token, on a later page too;
// the other game carries no mark.
func TestPlayerGamesMarkAnnulled(t *testing.T) {
	w := newAdminWorld(t)
	w.mm.advance(time.Second) // the second game is the newer
	out := w.expect(req{method: "POST", path: "/api/v1/games", token: w.server, body: map[string]any{"source_id": "s-2", "black": "alice", "white": "bob",
		"size": 9, "rules": "chinese", "komi": 7, "moves": []string{"ee", "cc"}, "end": "resign", "result": "W+R"}}, 201, "")
	other := out.JSON["game"].(map[string]any)["id"].(string)
	w.mm.advance(time.Minute)
	w.post("/api/v1/admin/games/"+w.gameID+"/annul", map[string]any{"reason": "bob's connection was cut"}, "", 200, "")
	want := w.expect(req{method: "GET", path: "/api/v1/games/" + w.gameID, token: w.bob}, 200, "").JSON["annulled"]
	if want == nil {
		t.Fatal("the game does not say it was annulled")
	}
	check := func(path, token string, ids ...string) string {
		t.Helper()
		page := w.expect(req{method: "GET", path: path, token: token}, 200, "")
		items := page.JSON["items"].([]any)
		if len(items) != len(ids) {
			t.Fatalf("%s: %d items, want %v: %s", path, len(items), ids, page.Body)
		}
		for i, x := range items {
			g := x.(map[string]any)
			raw, _ := json.Marshal(g)
			a, has := g["annulled"]
			switch {
			case g["id"] != ids[i]:
				t.Fatalf("%s: item %d is %v, want %s", path, i, g["id"], ids[i])
			case ids[i] == other && has:
				t.Fatalf("%s: the game not annulled says annulled: %s", path, raw)
			case ids[i] == w.gameID && (fmt.Sprint(a) != fmt.Sprint(want) || strings.Contains(string(raw), "root")):
				t.Fatalf("%s: the annulled game: %s; want annulled %v, no admin", path, raw, want)
			}
		}
		next, _ := page.JSON["next_cursor"].(string)
		return next
	}
	for _, p := range []struct{ name, token string }{{"alice", w.alice}, {"bob", w.bob}, {"alice", ""}, {"bob", ""}} {
		path := "/api/v1/players/" + p.name + "/games"
		check(path, p.token, other, w.gameID)
		next := check(path+"?limit=1", p.token, other)
		check(path+"?limit=1&cursor="+url.QueryEscape(next), p.token, w.gameID)
	}
	if a := want.(map[string]any); a["at"] == nil || a["reason"] != "bob's connection was cut" || len(a) != 2 {
		t.Fatalf("annulled %v, want at and reason alone", a)
	}
}

func TestAuditTrail(t *testing.T) {
	w := newAdminWorld(t)
	w.post("/api/v1/admin/players/bob/adjust", map[string]any{"delta": 20, "reason": "outage"}, "", 200, "")
	w.post("/api/v1/admin/games/"+w.gameID+"/annul", map[string]any{"reason": "cheating"}, "", 200, "")

	all := w.expect(req{method: "GET", path: "/api/v1/admin/audit", token: w.admin}, 200, "").JSON["items"].([]any)
	if len(all) != 5 {
		t.Fatalf("audit trail %v", all)
	}
	// Paging visits every entry once, newest first.
	var paged []any
	path := "/api/v1/admin/audit?limit=2"
	for {
		out := w.expect(req{method: "GET", path: path, token: w.admin}, 200, "")
		paged = append(paged, out.JSON["items"].([]any)...)
		next, ok := out.JSON["next_cursor"].(string)
		if !ok {
			break
		}
		path = "/api/v1/admin/audit?limit=2&cursor=" + url.QueryEscape(next)
	}
	if len(paged) != 5 || paged[0].(map[string]any)["hash"] != all[0].(map[string]any)["hash"] {
		t.Fatalf("pages %v", paged)
	}
	for _, tc := range []struct {
		query string
		n     int
	}{
		{"player=BOB", 3}, {"cause=annulment", 2}, {"player=bob&cause=adjustment", 1},
		{"from=" + url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339)), 0},
		{"to=" + url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339)), 5},
	} {
		out := w.expect(req{method: "GET", path: "/api/v1/admin/audit?" + tc.query, token: w.admin}, 200, "")
		if n := len(out.JSON["items"].([]any)); n != tc.n {
			t.Errorf("?%s: %d entries, want %d", tc.query, n, tc.n)
		}
	}
	for _, q := range []string{"cause=luck", "from=yesterday", "player=a%20b", "cursor=zzz"} {
		w.expect(req{method: "GET", path: "/api/v1/admin/audit?" + q, token: w.admin}, 400, "")
	}

	// CSV: a header and every matching entry.
	out := w.expect(req{method: "GET", path: "/api/v1/admin/audit?player=bob", token: w.admin, header: map[string]string{"Accept": "text/csv"}}, 200, "")
	if !strings.HasPrefix(out.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("content type %q", out.Header.Get("Content-Type"))
	}
	rows, err := csv.NewReader(strings.NewReader(string(out.Body))).ReadAll()
	if err != nil || len(rows) != 4 || rows[0][0] != "player" || rows[1][2] != "annulment" || rows[2][14] != "outage" {
		t.Fatalf("CSV %v, %v", rows, err)
	}

	// A player sees their own trail, not another's.
	mine := w.expect(req{method: "GET", path: "/api/v1/players/bob/audit", token: w.bob}, 200, "").JSON["items"].([]any)
	if len(mine) != 3 {
		t.Fatalf("bob's trail %v", mine)
	}
	w.expect(req{method: "GET", path: "/api/v1/players/bob/audit", token: w.alice}, 403, "forbidden")
	w.expect(req{method: "GET", path: "/api/v1/players/bob/audit?cause=game", token: w.admin}, 200, "")
	w.expect(req{method: "GET", path: "/api/v1/players/nobody/audit", token: w.admin}, 404, "not_found")
}

// TestVerifyReportsTampering: an audit entry or a score edited through
// the driver, behind the service's back, is reported by GET
// /admin/verify, which keeps its reports.
func TestVerifyReportsTampering(t *testing.T) {
	w := newAdminWorld(t, onRealStores())
	w.post("/api/v1/admin/players/bob/adjust", map[string]any{"delta": 20, "reason": "outage"}, "", 200, "")
	if rep := w.expect(req{method: "GET", path: "/api/v1/admin/verify", token: w.admin}, 200, ""); rep.JSON["ok"] != true {
		t.Fatalf("clean store: %s", rep.Body)
	}
	w.stack.Tamper(t, apptest.LedgerCollection, apptest.LedgerID("bob", 2), map[string]map[string]any{"$set": {"reason": "routine"}})
	w.stack.Tamper(t, apptest.PlayersCollection, "alice", map[string]map[string]any{"$inc": {"score": 100}})
	w.mm.advance(time.Minute) // reports are listed newest first
	rep := w.expect(req{method: "GET", path: "/api/v1/admin/verify", token: w.admin}, 200, "")
	found := map[string]bool{}
	for _, x := range rep.JSON["mismatches"].([]any) {
		m := x.(map[string]any)
		found[m["player"].(string)+" "+m["check"].(string)] = true
	}
	if rep.JSON["ok"] != false || !found["bob chain"] || !found["alice state"] {
		t.Fatalf("tampered store: %s", rep.Body)
	}
	reports := w.expect(req{method: "GET", path: "/api/v1/admin/verify/reports?limit=5", token: w.admin}, 200, "").JSON["items"].([]any)
	if len(reports) != 2 || reports[0].(map[string]any)["ok"] != false {
		t.Fatalf("reports %v", reports)
	}
	w.expect(req{method: "GET", path: "/api/v1/admin/verify/reports?cursor=abc", token: w.admin}, 400, "")
}
