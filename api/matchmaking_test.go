package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
)

// mmRig is matchmaking on the test redis-server and the real intake, and
// the env's clock; passes run when a test says so.
type mmRig struct {
	clock *clockwork.FakeClock
	svc   *matchmaking.Service
}

func (r *mmRig) advance(d time.Duration) { r.clock.Advance(d) }

// pass runs one pairing pass over every pool.
func (e *env) pass() []matchmaking.PassReport {
	e.t.Helper()
	reps, err := e.mm.svc.PassAll(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return reps
}

func ticketReq(token string, body any) req {
	return req{method: "POST", path: "/api/v1/matchmaking/tickets", token: token, body: body}
}

func mine(token string) req {
	return req{method: "GET", path: "/api/v1/matchmaking/tickets/mine", token: token}
}

var rapid19 = map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese"}

// Two players of one level queue, wait, are paired into one pending game
// that both see, cannot queue again until its result is in, then can.
func TestMatchmakingFlow(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	e.place("alice", 250)
	e.place("bob", 230)

	tk := e.expect(ticketReq(alice, rapid19), 201, "").JSON
	if tk["state"] != "waiting" || tk["pool"] != "19/600+3x30/chinese/r" || tk["rated"] != true {
		t.Fatalf("ticket = %v", tk)
	}
	if lv := tk["level"].(map[string]any); lv["score"] != 250.0 || lv["rank"] != "2d" {
		t.Fatalf("level = %v, want alice's score 250 (2d)", lv)
	}
	e.expect(ticketReq(alice, rapid19), 409, "ticket_exists")

	e.mm.advance(7 * time.Second)
	if got := e.expect(mine(alice), 200, "").JSON; got["state"] != "waiting" || got["waited_seconds"] != 7.0 {
		t.Fatalf("alice's poll = %v, want waiting 7 s", got)
	}
	// Explicit times equal to the preset's queue in the same pool.
	e.expect(ticketReq(bob, map[string]any{"board_size": 19, "rules": "chinese", "rated": true,
		"time_control": map[string]any{"main_seconds": 600, "periods": 3, "period_seconds": 30}}), 201, "")
	e.mm.advance(time.Second)
	if reps := e.pass(); len(reps) != 1 || reps[0].Paired != 1 {
		t.Fatalf("pass = %+v, want one pairing", reps)
	}

	a, b := e.expect(mine(alice), 200, "").JSON, e.expect(mine(bob), 200, "").JSON
	if a["state"] != "matched" || b["state"] != "matched" || a["opponent"] != "bob" || b["opponent"] != "alice" ||
		a["game_id"] == nil || a["game_id"] != b["game_id"] || a["colour"] == b["colour"] || a["waited_seconds"] != 8.0 {
		t.Fatalf("after the pass: alice %v, bob %v", a, b)
	}
	gameID := a["game_id"].(string)
	g := e.expect(req{method: "GET", path: "/api/v1/games/" + gameID, token: bob}, 200, "").JSON
	black, white := "alice", "bob"
	if a["colour"] == "white" {
		black, white = white, black
	}
	if g["status"] != "pending" || g["black"] != black || g["white"] != white {
		t.Fatalf("game %v, want pending %s vs %s", g, black, white)
	}

	// In a game: no queueing, and a cancel is too late.
	e.expect(ticketReq(alice, rapid19), 409, "in_game")
	late := e.expect(req{method: "DELETE", path: "/api/v1/matchmaking/tickets/mine", token: bob}, 409, "ticket_matched")
	if tk := late.errDetails()["ticket"].(map[string]any); tk["game_id"] != gameID {
		t.Fatalf("the late cancel shows %v", tk)
	}

	// The play server sends the result under the game's id.
	server := e.account("go-server", players.RoleServer)
	e.expect(req{method: "POST", path: "/api/v1/games", token: server, body: map[string]any{
		"game_id": gameID, "moves": []string{"pd"}, "end": "resign", "result": "W+R"}}, 201, "")
	if tk := e.expect(ticketReq(alice, rapid19), 201, "").JSON; tk["state"] != "waiting" || tk["id"] == a["id"] {
		t.Fatalf("alice after her game: %v", tk)
	}
}

func TestMatchmakingCancelAndExpiry(t *testing.T) {
	e := newEnv(t)
	carol := e.register("carol")
	e.expect(req{method: "DELETE", path: "/api/v1/matchmaking/tickets/mine", token: carol}, 404, "no_ticket")
	e.expect(mine(carol), 404, "no_ticket")
	e.expect(ticketReq(carol, map[string]any{"board_size": 9, "time_control": "blitz", "rules": "japanese", "rated": false}), 201, "")
	if c := e.expect(req{method: "DELETE", path: "/api/v1/matchmaking/tickets/mine", token: carol}, 200, "").JSON; c["state"] != "cancelled" || c["ended_at"] == nil {
		t.Fatalf("cancel = %v", c)
	}
	if c := e.expect(mine(carol), 200, "").JSON; c["state"] != "cancelled" {
		t.Fatalf("after cancel = %v", c)
	}
	// A new ticket, then silence: past the heartbeat it is expired.
	e.expect(ticketReq(carol, rapid19), 201, "")
	e.mm.advance(matchmaking.DefaultHeartbeatTimeout + time.Second)
	if c := e.expect(mine(carol), 200, "").JSON; c["state"] != "expired" {
		t.Fatalf("a silent ticket = %v, want expired", c)
	}
	e.expect(ticketReq(carol, rapid19), 201, "")
}

// Bad tickets name the field and change nothing.
func TestMatchmakingRefusesBadTickets(t *testing.T) {
	e := newEnv(t)
	dave := e.register("dave")
	e.place("dave", -150) // 3k
	for _, tc := range []struct {
		body        any
		status      int
		code, field string
	}{
		{map[string]any{"board_size": 15, "time_control": "rapid", "rules": "chinese"}, 422, "invalid_field", "board_size"},
		{map[string]any{"board_size": 19, "time_control": "bullet", "rules": "chinese"}, 422, "invalid_field", "time_control.preset"},
		{map[string]any{"board_size": 19, "rules": "chinese"}, 400, "missing_field", "time_control"},
		{map[string]any{"board_size": 19, "time_control": map[string]any{"main_seconds": 600, "periods": 3}, "rules": "chinese"}, 422, "invalid_field", "time_control.period"},
		{map[string]any{"board_size": 19, "time_control": map[string]any{"minutes": 10}, "rules": "chinese"}, 400, "invalid_json", "time_control"},
		{map[string]any{"board_size": 19, "time_control": map[string]any{"main_seconds": int64(1) << 55}, "rules": "chinese"}, 422, "invalid_field", "time_control.main_seconds"},
		{map[string]any{"board_size": 19, "time_control": "rapid", "rules": "lasker"}, 422, "invalid_field", "rules"},
		{map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese", "rank_range": map[string]any{"min": "5 dun"}}, 422, "invalid_field", "rank_range.min"},
		{map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese", "rank_range": map[string]any{"max": "9p"}}, 422, "invalid_field", "rank_range.max"},
		{map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese", "rank_range": map[string]any{"min": "1d", "max": "3d"}}, 422, "invalid_field", "rank_range"},
		{map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese", "colour": "black"}, 400, "unknown_field", "colour"},
	} {
		out := e.expect(ticketReq(dave, tc.body), tc.status, tc.code)
		if out.errDetails()["field"] != tc.field {
			t.Errorf("%v: details %v, want field %s", tc.body, out.errDetails(), tc.field)
		}
	}
	e.expect(mine(dave), 404, "no_ticket")
	// A range that includes the player's own rank is taken, as scores.
	tk := e.expect(ticketReq(dave, map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese",
		"rank_range": map[string]any{"min": "5 kyu", "max": "初段"}}), 201, "").JSON
	if r := tk["rank_range"].(map[string]any); r["min_score"] != -400.0 || r["max_score"] != 199.0 {
		t.Fatalf("rank_range = %v, want -400..199 (5k..1d)", r)
	}
}

// The admin view counts each pool's waiting players; a game server, which
// plays no games itself, cannot queue.
func TestMatchmakingPoolsAndRoles(t *testing.T) {
	e := newEnv(t)
	admin := e.account("root", players.RoleAdmin)
	server := e.account("go-server", players.RoleServer)
	for _, p := range []string{"pl1", "pl2", "pl3"} {
		e.expect(ticketReq(e.register(p), map[string]any{"board_size": 13, "time_control": "standard", "rules": "qq"}), 201, "")
		e.mm.advance(10 * time.Second)
	}
	e.expect(ticketReq(server, rapid19), 403, "forbidden")
	e.expect(req{method: "GET", path: "/api/v1/matchmaking/pools", token: e.register("pl4")}, 403, "forbidden")
	pools := e.expect(req{method: "GET", path: "/api/v1/matchmaking/pools", token: admin}, 200, "").JSON["items"].([]any)
	if len(pools) != 1 {
		t.Fatalf("pools = %v", pools)
	}
	if p := pools[0].(map[string]any); p["waiting"] != 3.0 || p["oldest_wait_seconds"] != 30.0 || p["board_size"] != 13.0 || p["rules"] != "qq" {
		t.Fatalf("pool = %v, want 3 waiting, oldest 30 s", p)
	}
}
