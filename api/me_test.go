package api_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
)

// GET /me: the caller's account, rating (roles that play), schools and
// classes, pending game; a student sees their class and school, a
// teacher the classes they teach, a game server no rating.
func TestMe(t *testing.T) {
	w := newSchoolWorld(t)
	me := func(tok string) map[string]any {
		t.Helper()
		return w.expect(req{method: "GET", path: "/api/v1/me", token: tok}, 200, "").JSON
	}
	s := me(w.tok["stu-a"])
	if s["username"] != "stu-a" || s["role"] != "player" || fmt.Sprint(s["roles"]) != "[player]" || s["managed"] != false || s["pending_game"] != nil {
		t.Fatalf("stu-a: %v", s)
	}
	p := s["player"].(map[string]any)
	note := p["rank_note"].(map[string]any)
	if p["rank_shown"] != "1k?" || !strings.Contains(note["en"].(string), "ladder rank 1k?") || !strings.Contains(note["zh"].(string), "天梯段位1级？") ||
		!strings.Contains(note["en"].(string), "no certified rank") {
		t.Fatalf("stu-a's rating: %v", p)
	}
	cl := s["classes"].(map[string]any)
	if st := cl["student"].([]any); len(st) != 1 || st[0].(map[string]any)["id"] != w.classA || len(cl["teaching"].([]any)) != 0 {
		t.Fatalf("stu-a's classes: %v", cl)
	}
	if sc := s["schools"].([]any); len(sc) != 1 || sc[0].(map[string]any)["id"] != "a" || sc[0].(map[string]any)["teacher"] != false ||
		sc[0].(map[string]any)["time_zone"] != "Asia/Shanghai" {
		t.Fatalf("stu-a's schools: %v", s["schools"])
	}
	tt := me(w.tt)
	if te := tt["classes"].(map[string]any)["teaching"].([]any); len(te) != 1 || te[0].(map[string]any)["id"] != w.classA {
		t.Fatalf("tea-t teaches %v", te)
	}
	if sc := tt["schools"].([]any); len(sc) != 1 || sc[0].(map[string]any)["teacher"] != true {
		t.Fatalf("tea-t's schools: %v", sc)
	}
	if srv := me(w.server); srv["player"] != nil || srv["role"] != "server" {
		t.Fatalf("the game server: %v", srv)
	}
}

// PATCH /me sets a display name: any letters, NFC, shown on the profile;
// a look-alike of another's name or username is 409, a bad one 422, a
// malformed request 400; nothing changes on a refusal.
func TestDisplayNameOverHTTP(t *testing.T) {
	e := newGamesEnv(t)
	bob := e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "bob", "password": pw}}, 200, "").JSON["token"].(string)
	patch := func(tok string, body any, status int, code string) *resp {
		t.Helper()
		return e.expect(req{method: "PATCH", path: "/api/v1/me", token: tok, body: body}, status, code)
	}
	if out := patch(e.alice, map[string]any{"display_name": " 柯洁 "}, 200, ""); out.JSON["display_name"] != "柯洁" {
		t.Fatalf("alice named: %v", out.JSON)
	}
	if p := e.expect(req{method: "GET", path: "/api/v1/players/alice", token: bob}, 200, "").JSON; p["display_name"] != "柯洁" {
		t.Fatalf("alice's profile: %v", p)
	}
	out := patch(bob, map[string]any{"display_name": "柯洁"}, 409, "display_name_taken")
	if out.errDetails()["field"] != "display_name" {
		t.Errorf("409 details %v", out.errDetails())
	}
	patch(bob, map[string]any{"display_name": "аlice"}, 409, "display_name_taken") // Cyrillic а: alice's username
	out = patch(bob, map[string]any{"display_name": "<script>alert(1)</script>"}, 422, "invalid_field")
	if out.errDetails()["field"] != "display_name" {
		t.Errorf("422 details %v", out.errDetails())
	}
	patch(bob, map[string]any{"display_name": strings.Repeat("碁", players.DisplayNameMaxLen+1)}, 422, "invalid_field")
	patch(bob, map[string]any{}, 400, "missing_field")
	patch(bob, map[string]any{"name": "x"}, 400, "unknown_field")
	patch(bob, "{", 400, "invalid_json")
	if p := e.expect(req{method: "GET", path: "/api/v1/me", token: bob}, 200, "").JSON; p["display_name"] != nil {
		t.Fatalf("bob after the refusals: %v", p)
	}
	patch(e.alice, map[string]any{"display_name": ""}, 200, "")
	if out := patch(bob, map[string]any{"display_name": "柯洁"}, 200, ""); out.JSON["display_name"] != "柯洁" {
		t.Fatalf("bob after alice gave the name up: %v", out.JSON)
	}
}

// POST /me/password: the current password is checked (403), the new one
// too (422), the request's form (400); on success every session of the
// account ends and the new token and password work.
func TestChangePasswordOverHTTP(t *testing.T) {
	e := newEnv(t)
	tok := e.register("alice")
	other := e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "alice", "password": pw}}, 200, "").JSON["token"].(string)
	change := func(body any, status int, code string) *resp {
		t.Helper()
		return e.expect(req{method: "POST", path: "/api/v1/me/password", token: tok, body: body}, status, code)
	}
	out := change(map[string]string{"current_password": "not my password", "new_password": "a new passphrase"}, 403, "wrong_password")
	if out.errDetails()["field"] != "current_password" {
		t.Errorf("403 details %v", out.errDetails())
	}
	out = change(map[string]string{"current_password": pw, "new_password": "short"}, 422, "invalid_field")
	if out.errDetails()["field"] != "new_password" {
		t.Errorf("422 details %v", out.errDetails())
	}
	change(map[string]string{"current_password": pw}, 400, "missing_field")
	change(map[string]string{"current_password": pw, "new_password": "a new passphrase", "x": "y"}, 400, "unknown_field")
	e.expect(req{method: "GET", path: "/api/v1/me", token: other}, 200, "") // nothing changed yet
	fresh := change(map[string]string{"current_password": pw, "new_password": "a new passphrase"}, 200, "").JSON["token"].(string)
	for _, old := range []string{tok, other} {
		e.expect(req{method: "GET", path: "/api/v1/me", token: old}, 401, "invalid_token")
	}
	e.expect(req{method: "GET", path: "/api/v1/me", token: fresh}, 200, "")
	e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "alice", "password": pw}}, 401, "invalid_credentials")
	e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "alice", "password": "a new passphrase"}}, 200, "")
}

// A player's games: newest first, paged, by opponent and state, as one
// SGF archive; bad parameters are 400 naming them, an unknown player 404.
func TestPlayerGamesOverHTTP(t *testing.T) {
	e := newGamesEnv(t)
	e.register("carol")
	var ids []string
	for i, opp := range []string{"bob", "carol", "bob", "bob"} {
		e.mm.advance(time.Second) // created one after the other
		out := e.submit(gameBody(randomGame(uint64(100+i), 40, false), fmt.Sprint("pg-", i), "alice", opp), 201, "")
		ids = append([]string{out.JSON["game"].(map[string]any)["id"].(string)}, ids...) // newest first
	}
	list := func(query string) map[string]any {
		t.Helper()
		return e.expect(req{method: "GET", path: "/api/v1/players/alice/games" + query, token: e.alice}, 200, "").JSON
	}
	got := func(page map[string]any) []string {
		var out []string
		for _, g := range page["items"].([]any) {
			out = append(out, g.(map[string]any)["id"].(string))
		}
		return out
	}
	if all := got(list("")); fmt.Sprint(all) != fmt.Sprint(ids) {
		t.Fatalf("alice's games %v, want %v", all, ids)
	}
	p1 := list("?limit=3")
	p2 := list("?limit=3&cursor=" + url.QueryEscape(p1["next_cursor"].(string)))
	if fmt.Sprint(append(got(p1), got(p2)...)) != fmt.Sprint(ids) || p2["next_cursor"] != nil {
		t.Fatalf("pages %v then %v", p1, p2)
	}
	if vs := got(list("?opponent=Carol")); len(vs) != 1 || vs[0] != ids[2] {
		t.Fatalf("against carol: %v", vs)
	}
	if r := got(list("?state=finished&opponent=bob")); len(r) != 3 {
		t.Fatalf("finished against bob: %v", r)
	}
	if p := list("?state=pending"); len(p["items"].([]any)) != 0 {
		t.Fatalf("pending: %v", p)
	}
	sgf := e.expect(req{method: "GET", path: "/api/v1/players/alice/games?format=sgf", token: e.alice}, 200, "")
	if n := strings.Count(string(sgf.Body), "(;"); n != 4 || !strings.HasPrefix(sgf.Header.Get("Content-Type"), "application/x-go-sgf") ||
		!strings.Contains(sgf.Header.Get("Content-Disposition"), "alice-games.sgf") {
		t.Fatalf("archive: %d games, %v\n%s", n, sgf.Header, sgf.Body)
	}
	for _, c := range []struct{ query, param string }{
		{"?state=lost", "state"}, {"?opponent=a%20b", "opponent"}, {"?format=pdf", "format"}, {"?limit=0", "limit"}, {"?limit=501", "limit"},
	} {
		if out := e.expect(req{method: "GET", path: "/api/v1/players/alice/games" + c.query, token: e.alice}, 400, "invalid_parameter"); out.errDetails()["parameter"] != c.param {
			t.Errorf("%s: details %v", c.query, out.errDetails())
		}
	}
	e.expect(req{method: "GET", path: "/api/v1/players/alice/games?cursor=xyz", token: e.alice}, 400, "invalid_cursor")
	e.expect(req{method: "GET", path: "/api/v1/players/nobody/games", token: e.alice}, 404, "not_found")
}

// The rating history: a point a day up to today with the score, rank and
// Glicko-2 from the ledger, the placement marked; by week; every bad
// parameter is 400 naming it.
func TestRatingHistoryOverHTTP(t *testing.T) {
	e := newGamesEnv(t)
	e.place("bob", 150)
	e.mm.advance(36 * time.Hour) // 2026-03-02 12:00
	e.submit(gameBody(randomGame(7, 60, false), "rh-1", "alice", "bob"), 201, "")
	e.mm.advance(48 * time.Hour) // 2026-03-04 12:00
	hist := func(query string) map[string]any {
		t.Helper()
		return e.expect(req{method: "GET", path: "/api/v1/players/bob/rating-history" + query, token: e.alice}, 200, "").JSON
	}
	h := hist("?from=2026-02-28&to=2026-03-10")
	pts := h["points"].([]any)
	if len(pts) != 5 || h["start_score"] != 0.0 || h["step"] != "day" || h["time_zone"] != "UTC" { // 28th to the 4th (today)
		t.Fatalf("history %v", h)
	}
	p := func(i int) map[string]any { return pts[i].(map[string]any) }
	bob := e.expect(req{method: "GET", path: "/api/v1/players/bob", token: e.alice}, 200, "").JSON
	if p(0)["rank_shown"] != "1k?" { // a deviation of 350: not settled
		t.Errorf("the first point shows %v", p(0)["rank_shown"])
	}
	if p(0)["score"] != 0.0 || p(1)["date"] != "2026-03-01" || p(1)["score"] != 150.0 || p(2)["games"] != 1.0 ||
		p(4)["score"] != bob["score"] || p(4)["rd"] != bob["glicko"].(map[string]any)["rd"] || p(3)["score"] != p(4)["score"] {
		t.Fatalf("points %v; bob now %v", pts, bob)
	}
	if m := h["marks"].([]any); len(m) != 1 || m[0].(map[string]any)["cause"] != "placement" || m[0].(map[string]any)["score_after"] != 150.0 {
		t.Fatalf("marks %v", h["marks"])
	}
	if w := hist("?from=2026-02-23&to=2026-03-04&step=week&tz=Asia/Shanghai"); len(w["points"].([]any)) != 2 || w["time_zone"] != "Asia/Shanghai" {
		t.Fatalf("by week: %v", w)
	}
	if d := hist(""); len(d["points"].([]any)) != 90 || d["to"] != "2026-03-04" {
		t.Fatalf("the default range: %v points to %v", len(d["points"].([]any)), d["to"])
	}
	for _, c := range []struct{ query, param string }{
		{"?from=yesterday", "from"}, {"?to=2026-13-01", "to"}, {"?from=9999-12-01&to=9999-12-31", "to"}, {"?from=1899-12-31&to=1900-01-31", "from"}, {"?from=2026-03-04&to=2026-03-01", "to"},
		{"?from=2020-01-01&to=2026-03-01", "to"}, {"?step=month", "step"}, {"?tz=Mars/Olympus", "tz"}, {"?tz=" + strings.Repeat("Asia/", 20), "tz"},
	} {
		if out := e.expect(req{method: "GET", path: "/api/v1/players/bob/rating-history" + c.query, token: e.alice}, 400, "invalid_parameter"); out.errDetails()["parameter"] != c.param {
			t.Errorf("%s: details %v", c.query, out.errDetails())
		}
	}
	e.expect(req{method: "GET", path: "/api/v1/players/nobody/rating-history", token: e.alice}, 404, "not_found")
}

// Public reads: without a token, profiles, the leaderboard, finished
// games and a player's finished games and rating history answer; a
// pending game or pending games do not; a bad token is refused still;
// the operator turns it off.
func TestPublicReads(t *testing.T) {
	e := newGamesEnv(t)
	fin := e.submit(gameBody(randomGame(9, 40, false), "pub-1", "alice", "bob"), 201, "").JSON["game"].(map[string]any)["id"].(string)
	e.expect(ticketReq(e.alice, rapid19), 201, "")
	bob := e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "bob", "password": pw}}, 200, "").JSON["token"].(string)
	e.expect(ticketReq(bob, rapid19), 201, "")
	e.pass()
	pending := e.expect(mine(bob), 200, "").JSON["game_id"].(string)
	for _, path := range []string{"/api/v1/players/alice", "/api/v1/leaderboard", "/api/v1/games/" + fin,
		"/api/v1/players/alice/games", "/api/v1/players/alice/rating-history", "/api/v1/players/alice/games?state=rated"} {
		e.expect(req{method: "GET", path: path}, 200, "")
		e.expect(req{method: "GET", path: path, token: "rk_" + strings.Repeat("A", 43)}, 401, "invalid_token")
	}
	if gs := e.expect(req{method: "GET", path: "/api/v1/players/alice/games"}, 200, "").JSON["items"].([]any); len(gs) != 1 {
		t.Fatalf("anonymous sees %v, want the finished game only", gs)
	}
	e.expect(req{method: "GET", path: "/api/v1/games/" + pending}, 401, "unauthenticated")
	e.expect(req{method: "GET", path: "/api/v1/players/alice/games?state=pending"}, 401, "unauthenticated")
	e.expect(req{method: "GET", path: "/api/v1/games/" + pending, token: e.alice}, 200, "")
	e.expect(req{method: "GET", path: "/api/v1/me"}, 401, "unauthenticated")
	e.expect(req{method: "GET", path: "/api/v1/players/alice/history"}, 401, "unauthenticated")

	closed := newEnv(t, withoutPublicReads())
	closed.register("alice")
	closed.expect(req{method: "GET", path: "/api/v1/players/alice"}, 401, "unauthenticated")
	closed.expect(req{method: "GET", path: "/api/v1/leaderboard"}, 401, "unauthenticated")
}

// CORS: the configured origins get their origin echoed (never "*", no
// credentials) and a preflight answer; other origins get nothing.
func TestCORS(t *testing.T) {
	e := newEnv(t, withCORS("https://club.example", "http://localhost:3000"))
	tok := e.register("alice")
	pre := e.do(req{method: "OPTIONS", path: "/api/v1/me", header: map[string]string{"Origin": "https://club.example", "Access-Control-Request-Method": "PATCH",
		"Access-Control-Request-Headers": "authorization, content-type"}})
	if pre.Code != 204 || pre.Header.Get("Access-Control-Allow-Origin") != "https://club.example" || !strings.Contains(pre.Header.Get("Access-Control-Allow-Methods"), "PATCH") ||
		!strings.Contains(pre.Header.Get("Access-Control-Allow-Headers"), "Authorization") || pre.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("preflight %d %v", pre.Code, pre.Header)
	}
	got := e.expect(req{method: "GET", path: "/api/v1/me", token: tok, header: map[string]string{"Origin": "http://localhost:3000"}}, 200, "")
	if got.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" || !strings.Contains(got.Header.Get("Vary"), "Origin") {
		t.Fatalf("answer headers %v", got.Header)
	}
	for _, origin := range []string{"https://evil.example", "https://club.example.evil", "null"} {
		out := e.do(req{method: "OPTIONS", path: "/api/v1/me", header: map[string]string{"Origin": origin, "Access-Control-Request-Method": "GET"}})
		if out.Header.Get("Access-Control-Allow-Origin") != "" || out.Code == 204 {
			t.Errorf("%s: %d %v", origin, out.Code, out.Header)
		}
		if a := e.expect(req{method: "GET", path: "/api/v1/me", token: tok, header: map[string]string{"Origin": origin}}, 200, ""); a.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s is answered with CORS headers %v", origin, a.Header)
		}
	}
}

// The pending game of a pairing survives a restart of the zero-setup
// mode (the in-process Redis, and with it the ticket, is gone): /me
// shows it, queueing names it in the 409; either player may abort it
// within the window (not a third player, not after the window, not
// twice), it is void and counted for admins, and the player can queue
// again.
func TestPendingGameAfterRestartAndAbort(t *testing.T) {
	e := newEnv(t, withAbortWindow(2*time.Minute))
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	admin := e.account("root", players.RoleAdmin)
	server := e.account("go-server", players.RoleServer)
	pair := func(e *env, a, b string) string {
		t.Helper()
		e.expect(ticketReq(a, rapid19), 201, "")
		e.expect(ticketReq(b, rapid19), 201, "")
		if reps := e.pass(); len(reps) != 1 || reps[0].Paired != 1 {
			t.Fatalf("pass %+v", reps)
		}
		return e.expect(mine(a), 200, "").JSON["game_id"].(string)
	}
	game := pair(e, alice, bob)
	pg := e.expect(req{method: "GET", path: "/api/v1/me", token: alice}, 200, "").JSON["pending_game"].(map[string]any)
	if pg["game"].(map[string]any)["id"] != game || pg["opponent"] != "bob" || pg["abortable_until"] != "2026-03-01T00:02:00Z" {
		t.Fatalf("alice's pending game %v", pg)
	}

	// The restart: the same document stores, a new in-process Redis.
	old := e.stack.Stores
	st := apptest.Memory(t, apptest.Clock(e.mm.clock), apptest.Config(app.Config{Placement: true, PublicReads: true, AbortWindow: 2 * time.Minute,
		Players: players.Config{TokenTTL: envTokenTTL}}), apptest.Wrap(func(s app.Stores) app.Stores {
		s.Accounts, s.Ratings, s.Games, s.Presence, s.Exams, s.Schools, s.Reviews = old.Accounts, old.Ratings, old.Games, old.Presence, old.Exams, old.Schools, old.Reviews
		return s
	}))
	e = &env{t: t, stack: st, srv: st.Handler, players: st.Players, ratings: st.Ratings, intake: st.Intake, logs: st.Logs, router: openAPIRouter(t),
		mm: &mmRig{clock: e.mm.clock, svc: st.Matchmaking}}
	e.expect(mine(alice), 404, "no_ticket") // the ticket is gone
	for _, tok := range []string{alice, bob} {
		me := e.expect(req{method: "GET", path: "/api/v1/me", token: tok}, 200, "").JSON
		if me["pending_game"] == nil || me["pending_game"].(map[string]any)["game"].(map[string]any)["id"] != game {
			t.Fatalf("after the restart: %v", me["pending_game"])
		}
	}
	if out := e.expect(ticketReq(alice, rapid19), 409, "in_game"); out.errDetails()["game_id"] != game {
		t.Fatalf("409 in_game names %v", out.errDetails())
	}

	abort := func(tok, id string, status int, code string) *resp {
		t.Helper()
		return e.expect(req{method: "POST", path: "/api/v1/games/" + id + "/abort", token: tok}, status, code)
	}
	abort(carol, game, 403, "not_your_game")
	abort(admin, game, 403, "not_your_game")
	abort(server, game, 403, "forbidden")
	abort(bob, "nosuchgame", 404, "not_found")
	e.mm.advance(90 * time.Second)
	if g := abort(bob, game, 200, "").JSON; g["status"] != "aborted" {
		t.Fatalf("aborted game %v", g)
	}
	abort(alice, game, 409, "game_not_pending")
	if me := e.expect(req{method: "GET", path: "/api/v1/me", token: alice}, 200, "").JSON; me["pending_game"] != nil {
		t.Fatalf("alice after the abort: %v", me["pending_game"])
	}
	if p := e.expect(req{method: "GET", path: "/api/v1/players/bob", token: alice}, 200, "").JSON; p["games"] != 0.0 || p["score"] != 0.0 {
		t.Fatalf("bob rated for an abort: %v", p)
	}

	// Past the window: refused, the game stands.
	e.mm.advance(time.Hour) // past the pairing cooldown too
	e.mm.advance(time.Hour)
	late := pair(e, alice, carol)
	e.mm.advance(2*time.Minute + time.Millisecond)
	if out := abort(carol, late, 409, "not_abortable"); out.errDetails()["window_seconds"] != 120.0 {
		t.Fatalf("409 details %v", out.errDetails())
	}
	if g := e.expect(req{method: "GET", path: "/api/v1/games/" + late, token: carol}, 200, "").JSON; g["status"] != "pending" {
		t.Fatalf("the late game %v", g)
	}

	counts := e.expect(req{method: "GET", path: "/api/v1/admin/aborts?since=2026-03-01", token: admin}, 200, "").JSON["items"].([]any)
	if len(counts) != 1 || counts[0].(map[string]any)["player"] != "bob" || counts[0].(map[string]any)["count"] != 1.0 ||
		fmt.Sprint(counts[0].(map[string]any)["games"]) != "["+game+"]" {
		t.Fatalf("abort counts %v", counts)
	}
	if out := e.expect(req{method: "GET", path: "/api/v1/admin/aborts?since=March", token: admin}, 400, "invalid_parameter"); out.errDetails()["parameter"] != "since" {
		t.Errorf("details %v", out.errDetails())
	}
	// A day within the last year, not after today.
	for _, day := range []string{"2024-01-01", "2030-01-01"} {
		if out := e.expect(req{method: "GET", path: "/api/v1/admin/aborts?since=" + day, token: admin}, 400, "invalid_parameter"); !strings.Contains(string(out.Body), "366") {
			t.Errorf("since %s: %s", day, out.Body)
		}
	}
	// A player named in a filter is a username.
	if out := e.expect(req{method: "GET", path: "/api/v1/admin/flags?player=no%20such%20name", token: admin}, 400, "invalid_parameter"); out.errDetails()["parameter"] != "player" {
		t.Errorf("flags ?player=: %s", out.Body)
	}
	e.expect(req{method: "GET", path: "/api/v1/admin/flags?player=BOB", token: admin}, 200, "")
	e.expect(req{method: "GET", path: "/api/v1/admin/aborts", token: bob}, 403, "forbidden")
}
