package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
)

// randomGame is a legal random 9×9 game of the given length, ending by
// resignation (or counting), reproducible from seed.
func randomGame(seed uint64, moves int, counted bool) *games.Record {
	return games.RandomRecord(rand.New(rand.NewPCG(seed, 7)), 9, moves, counted)
}

// gameBody is the JSON submission of r between black and white, moves as
// plain SGF points.
func gameBody(r *games.Record, source, black, white string) map[string]any {
	moves := make([]string, len(r.Moves))
	for i, m := range r.Moves {
		if !m.Pass {
			moves[i] = m.Point.SGF()
		}
	}
	b := map[string]any{"source_id": source, "black": black, "white": white, "size": r.Size, "rules": "chinese",
		"komi": r.Komi, "moves": moves, "end": string(r.End), "result": r.Result}
	if r.EndBy != games.Empty {
		b["end_by"] = strings.ToLower(r.EndBy.String())
	}
	return b
}

// gamesEnv is an env with two players and a game server's token.
type gamesEnv struct {
	*env
	server, alice, admin string
}

func newGamesEnv(t *testing.T) gamesEnv {
	e := newEnv(t)
	g := gamesEnv{env: e, server: e.account("go-server", players.RoleServer), alice: e.register("alice"), admin: e.account("root", players.RoleAdmin)}
	e.register("bob")
	return g
}

func (g gamesEnv) submit(body any, status int, code string) *resp {
	g.t.Helper()
	return g.expect(req{method: "POST", path: "/api/v1/games", token: g.server, body: body}, status, code)
}

func side(out *resp, color string) map[string]any { return out.JSON[color].(map[string]any) }

func TestSubmitGameAndRead(t *testing.T) {
	e := newGamesEnv(t)
	r := randomGame(1, 60, false)
	body := gameBody(r, "src-1", "Alice", "bob")
	out := e.submit(body, 201, "")
	game := out.JSON["game"].(map[string]any)
	if game["status"] != "rated" || game["black"] != "alice" || game["result"] != r.Result || game["source_id"] != "src-1" {
		t.Fatalf("stored game %v", game)
	}
	winner, loser := side(out, "black"), side(out, "white")
	if r.EndBy == games.Black {
		winner, loser = loser, winner
	}
	if winner["delta"] != 5.0 || loser["delta"] != -5.0 || winner["score"] != 5.0 || winner["rank"] != "1k" || loser["rank"] != "2k" || loser["score"] != -5.0 {
		t.Fatalf("winner %v, loser %v", winner, loser)
	}
	if g := winner["glicko"].(map[string]any); g["rating"].(float64) <= 1500 || g["rd"].(float64) >= 350 {
		t.Fatalf("winner's Glicko-2 did not move: %v", g)
	}
	if out.Header.Get("Location") != "/api/v1/games/"+game["id"].(string) {
		t.Fatalf("Location %q", out.Header.Get("Location"))
	}

	// A retry: 200 with the same answer, nothing rated twice.
	again := e.submit(body, 200, "")
	if string(again.Body) != string(out.Body) {
		t.Fatalf("retry answered\n%s\nnot\n%s", again.Body, out.Body)
	}
	// The same source_id with other content: 409, nothing changes.
	other := gameBody(randomGame(2, 60, false), "src-1", "alice", "bob")
	conflict := e.submit(other, 409, "source_conflict")
	if conflict.errDetails()["game_id"] != game["id"] {
		t.Fatalf("409 details %v", conflict.errDetails())
	}

	// Reading.
	id := game["id"].(string)
	got := e.expect(req{method: "GET", path: "/api/v1/games/" + id, token: e.alice}, 200, "")
	if got.JSON["id"] != id || len(got.JSON["moves"].([]any)) != len(r.Moves) {
		t.Fatalf("GET game %s", got.Body)
	}
	sgf := e.expect(req{method: "GET", path: "/api/v1/games/" + id, token: e.alice, header: map[string]string{"Accept": "application/x-go-sgf"}}, 200, "")
	back, err := games.ParseRecord(sgf.Body)
	if err != nil || back.Black.Name != "alice" || back.White.Name != "bob" || len(back.Moves) != len(r.Moves) || back.Result != r.Result {
		t.Fatalf("GET game as SGF: %v\n%s", err, sgf.Body)
	}
	e.expect(req{method: "GET", path: "/api/v1/games/nope", token: e.alice}, 404, "not_found")

	p := e.expect(req{method: "GET", path: "/api/v1/players/BOB", token: e.alice}, 200, "")
	if p.JSON["username"] != "bob" || p.JSON["games"] != 1.0 || p.JSON["score"] != side(out, "white")["score"] {
		t.Fatalf("GET player %s", p.Body)
	}
	h := e.expect(req{method: "GET", path: "/api/v1/players/bob/history", token: e.alice}, 200, "")
	items := h.JSON["items"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["game_id"] != id || items[0].(map[string]any)["seq"] != 1.0 || items[0].(map[string]any)["cause"] != "game" {
		t.Fatalf("history %s", h.Body)
	}
	e.expect(req{method: "GET", path: "/api/v1/players/nobody", token: e.alice}, 404, "not_found")
	e.expect(req{method: "GET", path: "/api/v1/players/go-server", token: e.alice}, 404, "not_found")
	e.expect(req{method: "GET", path: "/api/v1/players/nobody/history", token: e.alice}, 404, "not_found")

	metrics := string(e.expect(req{method: "GET", path: "/metrics"}, 200, "").Body)
	for _, want := range []string{"rank_games_accepted_total 1", "rank_rating_updates_total 1", `rank_games_refused_total{reason="source_conflict"} 1`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestRefusedGameChangesNothing: every refusal the issue names, with its
// details; afterwards no player, ledger or game exists, and the source_ids
// of refused games are still free.
func TestRefusedGameChangesNothing(t *testing.T) {
	e := newGamesEnv(t)
	good := randomGame(3, 50, false)
	illegal := gameBody(good, "s-illegal", "alice", "bob")
	illegal["moves"] = []string{"ee", "cc", "ee"}
	mismatch := gameBody(good, "s-mismatch", "alice", "bob")
	mismatch["moves"], mismatch["end"], mismatch["result"] = []string{"", ""}, "score", "B+5"
	delete(mismatch, "end_by")
	for _, tc := range []struct {
		name    string
		body    any
		status  int
		code    string
		details map[string]any
	}{
		{"illegal move", illegal, 422, "illegal_move", map[string]any{"move": 3.0, "point": "e5", "sgf_point": "ee", "reason": "occupied", "color": "black"}},
		{"bad sgf", map[string]any{"source_id": "s-sgf", "sgf": "(;GM[1]SZ[9];B[ee]"}, 400, "invalid_sgf", map[string]any{"offset": 18.0}},
		{"unknown player", gameBody(good, "s-unknown", "alice", "nobody"), 422, "unknown_player", map[string]any{"side": "white", "username": "nobody"}},
		{"server cannot play", gameBody(good, "s-server", "go-server", "bob"), 422, "unknown_player", map[string]any{"side": "black"}},
		{"self play", gameBody(good, "s-self", "alice", "ALICE"), 422, "invalid_field", map[string]any{"field": "white"}},
		{"bad rules", map[string]any{"source_id": "s-rules", "black": "alice", "white": "bob", "rules": "chess", "end": "void"}, 422, "invalid_field", map[string]any{"field": "rules"}},
		{"bad point", map[string]any{"source_id": "s-point", "black": "alice", "white": "bob", "moves": []string{"e5"}, "end": "void"}, 422, "invalid_field", map[string]any{"field": "moves"}},
		{"no end", map[string]any{"source_id": "s-end", "black": "alice", "white": "bob", "moves": []string{"ee"}}, 422, "invalid_field", map[string]any{"field": "end"}},
		{"no source", map[string]any{"black": "alice", "white": "bob", "end": "void"}, 400, "missing_field", map[string]any{"field": "source_id"}},
		{"sgf and fields", map[string]any{"source_id": "s-both", "sgf": "(;SZ[9])", "moves": []string{"ee"}}, 422, "invalid_field", map[string]any{"field": "sgf"}},
		{"unknown field", `{"source_id":"s-x","colour":"black"}`, 400, "unknown_field", nil},
		{"pending game unknown", map[string]any{"game_id": "nope", "end": "void"}, 404, "not_found", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := e.submit(tc.body, tc.status, tc.code)
			for k, v := range tc.details {
				if got := out.errDetails()[k]; got != v {
					t.Errorf("details.%s = %v, want %v (%s)", k, got, v, out.Body)
				}
			}
		})
	}
	// A count that contradicts the claim is refused from anyone but a game
	// server (TestCountUnverified: a server is trusted for results).
	t.Run("result mismatch", func(t *testing.T) {
		out := e.expect(req{method: "POST", path: "/api/v1/games", token: e.admin, body: mismatch}, 422, "result_mismatch")
		for k, v := range map[string]any{"claimed": "B+5", "computed": "W+7.5"} {
			if got := out.errDetails()[k]; got != v {
				t.Errorf("details.%s = %v, want %v (%s)", k, got, v, out.Body)
			}
		}
	})
	// Raw SGF, malformed: the offset too.
	out := e.expect(req{method: "POST", path: "/api/v1/games?source_id=s-raw", token: e.server, body: "(;GM[1]SZ[9]PB[alice]PW[bob];B[ee]", header: map[string]string{"Content-Type": "application/x-go-sgf"}}, 400, "invalid_sgf")
	if out.errDetails()["offset"] != 34.0 {
		t.Errorf("raw SGF offset %v", out.errDetails())
	}

	// Nothing changed.
	for _, name := range []string{"alice", "bob"} {
		p := e.expect(req{method: "GET", path: "/api/v1/players/" + name, token: e.alice}, 200, "")
		if p.JSON["games"] != 0.0 || p.JSON["score"] != 0.0 {
			t.Errorf("%s after refusals: %s", name, p.Body)
		}
		if h := e.expect(req{method: "GET", path: "/api/v1/players/" + name + "/history", token: e.alice}, 200, ""); len(h.JSON["items"].([]any)) != 0 {
			t.Errorf("%s has history after refusals: %s", name, h.Body)
		}
	}
	if lb := e.expect(req{method: "GET", path: "/api/v1/leaderboard", token: e.alice}, 200, ""); len(lb.JSON["items"].([]any)) != 0 {
		t.Errorf("leaderboard after refusals: %s", lb.Body)
	}
	metrics := string(e.expect(req{method: "GET", path: "/metrics"}, 200, "").Body)
	for _, want := range []string{"rank_games_accepted_total 0", `rank_games_refused_total{reason="illegal_move"} 1`, `rank_games_refused_total{reason="invalid_sgf"} 2`, `rank_games_refused_total{reason="unknown_player"} 2`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	// The source_ids of refused games are free.
	e.submit(gameBody(good, "s-illegal", "alice", "bob"), 201, "")
}

// TestSubmitSGF: a raw SGF body with the players from PB/PW; the same game
// sent again as JSON is the same content (200), so the form does not
// matter.
func TestSubmitSGF(t *testing.T) {
	e := newGamesEnv(t)
	r := randomGame(4, 45, true)
	r.Black.Name, r.White.Name = "Alice", "bob"
	sgfReq := func(source string) req {
		return req{method: "POST", path: "/api/v1/games?source_id=" + url.QueryEscape(source), token: e.server, body: string(r.SGF()), header: map[string]string{"Content-Type": "application/x-go-sgf; charset=utf-8"}}
	}
	out := e.expect(sgfReq("kgs/1"), 201, "")
	if side(out, "black")["username"] != "alice" || out.JSON["game"].(map[string]any)["end"] != "score" {
		t.Fatalf("SGF game %s", out.Body)
	}
	e.expect(sgfReq("kgs/1"), 200, "")
	e.submit(gameBody(r, "kgs/1", "alice", "bob"), 200, "")
	// And JSON carrying SGF text.
	e.submit(map[string]any{"source_id": "kgs/1", "sgf": string(r.SGF())}, 200, "")
	e.expect(req{method: "POST", path: "/api/v1/games", token: e.server, body: string(r.SGF()), header: map[string]string{"Content-Type": "application/x-go-sgf"}}, 422, "invalid_field")
	e.expect(req{method: "POST", path: "/api/v1/games?source_id=x&rated=maybe", token: e.server, body: string(r.SGF()), header: map[string]string{"Content-Type": "application/x-go-sgf"}}, 400, "invalid_parameter")
	// Unrated: stored, no rating moves.
	un := e.expect(req{method: "POST", path: "/api/v1/games?source_id=kgs/2&rated=false", token: e.server, body: string(r.SGF()), header: map[string]string{"Content-Type": "application/x-go-sgf"}}, 201, "")
	if side(un, "black")["delta"] != 0.0 || side(un, "black")["score"] != side(out, "black")["score"] {
		t.Fatalf("an unrated game moved the rating: %s", un.Body)
	}
}

// TestPendingGame: a game a pairing made is finished by naming its id;
// the result must fit the pairing; an expired one takes no result.
func TestPendingGame(t *testing.T) {
	e := newGamesEnv(t)
	ctx := context.Background()
	p, err := e.intake.CreatePending(ctx, intake.Pending{Black: "bob", White: "alice", Size: 9, Rules: games.Japanese(), Komi: 6.5, Rated: true, By: "matchmaking", TimeControl: games.TimePresets["blitz"]})
	if err != nil {
		t.Fatal(err)
	}
	pend := e.expect(req{method: "GET", path: "/api/v1/games/" + p.ID, token: e.alice}, 200, "")
	if pend.JSON["status"] != "pending" || pend.JSON["rules"] != "japanese" || pend.JSON["expires_at"] == nil {
		t.Fatalf("pending game %s", pend.Body)
	}
	r := randomGame(5, 50, false)
	body := gameBody(r, "", "", "")
	for _, k := range []string{"source_id", "black", "white", "size", "rules", "komi"} {
		delete(body, k)
	}
	body["game_id"] = p.ID
	wrong := map[string]any{}
	for k, v := range body {
		wrong[k] = v
	}
	wrong["komi"] = 7.5
	e.submit(wrong, 422, "invalid_field")
	out := e.submit(body, 201, "")
	g := out.JSON["game"].(map[string]any)
	if g["id"] != p.ID || g["black"] != "bob" || g["rules"] != "japanese" || g["time_control"] != "300+3x10" || g["status"] != "rated" {
		t.Fatalf("finished pending game %v", g)
	}
	e.submit(body, 200, "")
	other := gameBody(randomGame(6, 50, false), "", "", "")
	delete(other, "source_id")
	other["game_id"], other["size"], other["rules"], other["komi"] = p.ID, 9, "japanese", 6.5
	e.submit(other, 409, "source_conflict")

	// Expiry voids a pending game that never finished.
	old, err := e.intake.CreatePending(ctx, intake.Pending{Black: "alice", White: "bob", Size: 9, Rules: games.Chinese(), Komi: 7, Rated: true, TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	e.mm.advance(48 * time.Hour)
	n, err := e.intake.ExpirePending(ctx)
	if err != nil || n != 1 {
		t.Fatalf("ExpirePending = %d, %v", n, err)
	}
	late := gameBody(randomGame(7, 50, false), "", "", "")
	delete(late, "source_id")
	late["game_id"] = old.ID
	e.submit(late, 409, "game_not_pending")
	if _, err := e.intake.CreatePending(ctx, intake.Pending{Black: "alice", White: "nobody"}); err == nil {
		t.Fatal("a pending game with an unknown player was created")
	}
}

// TestLeaderboardAndHistoryPaging: pages follow each other without
// overlap or gap, and ?rank= keeps one rank.
func TestLeaderboardAndHistoryPaging(t *testing.T) {
	e := newGamesEnv(t)
	names := []string{"alice", "bob"}
	for i := range 3 {
		n := fmt.Sprintf("pl%d", i)
		e.register(n)
		names = append(names, n)
	}
	// alice beats everyone twice: 8 games, her history has 8 entries.
	for i := range 8 {
		r := randomGame(uint64(100+i), 50, false)
		black, white := "alice", names[1+i%4]
		if r.EndBy == games.Black {
			black, white = white, black
		}
		e.submit(gameBody(r, fmt.Sprintf("lb-%d", i), black, white), 201, "")
	}
	var seqs []float64
	cursor := ""
	for page := 0; ; page++ {
		path := "/api/v1/players/alice/history?limit=3"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		out := e.expect(req{method: "GET", path: path, token: e.alice}, 200, "")
		for _, it := range out.JSON["items"].([]any) {
			seqs = append(seqs, it.(map[string]any)["seq"].(float64))
		}
		next, ok := out.JSON["next_cursor"].(string)
		if !ok {
			break
		}
		cursor = next
		if page > 5 {
			t.Fatal("history pages never end")
		}
	}
	if fmt.Sprint(seqs) != "[8 7 6 5 4 3 2 1]" {
		t.Fatalf("history seqs %v", seqs)
	}
	e.expect(req{method: "GET", path: "/api/v1/players/alice/history?cursor=garbage", token: e.alice}, 400, "invalid_cursor")

	var board []string
	cursor = ""
	for {
		path := "/api/v1/leaderboard?limit=2"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		out := e.expect(req{method: "GET", path: path, token: e.alice}, 200, "")
		for _, it := range out.JSON["items"].([]any) {
			m := it.(map[string]any)
			board = append(board, fmt.Sprintf("%s:%v", m["username"], m["score"]))
		}
		next, ok := out.JSON["next_cursor"].(string)
		if !ok {
			break
		}
		cursor = next
	}
	if len(board) != 5 || !strings.HasPrefix(board[0], "alice:40") {
		t.Fatalf("leaderboard %v", board)
	}
	k1 := e.expect(req{method: "GET", path: "/api/v1/leaderboard?rank=1k", token: e.alice}, 200, "")
	if items := k1.JSON["items"].([]any); len(items) != 1 || items[0].(map[string]any)["username"] != "alice" {
		t.Fatalf("1k: %s", k1.Body)
	}
	k2 := e.expect(req{method: "GET", path: "/api/v1/leaderboard?rank=2k", token: e.alice}, 200, "")
	if items := k2.JSON["items"].([]any); len(items) != 4 {
		t.Fatalf("2k (the four at -10): %s", k2.Body)
	}
	k9 := e.expect(req{method: "GET", path: "/api/v1/leaderboard?rank=9k", token: e.alice}, 200, "")
	if items := k9.JSON["items"].([]any); len(items) != 0 {
		t.Fatalf("9k: %s", k9.Body)
	}
	e.expect(req{method: "GET", path: "/api/v1/leaderboard?rank=3p", token: e.alice}, 400, "invalid_parameter")
	e.expect(req{method: "GET", path: "/api/v1/leaderboard?rank=strong", token: e.alice}, 400, "invalid_parameter")
}

// TestCountUnverified: a counted game from a game server whose count
// (nothing on the board to propose dead) does not give the claim is
// accepted as claimed (a game server is trusted for results), rated by
// the claim, flagged count_unverified with both results on the game and in
// the admins' list; a retry does not flag it twice; an admin's identical
// submission is refused (TestRefusedGameChangesNothing).
func TestCountUnverified(t *testing.T) {
	e := newGamesEnv(t)
	body := gameBody(randomGame(3, 50, false), "s-unverified", "alice", "bob")
	body["moves"], body["end"], body["result"] = []string{"", ""}, "score", "B+5"
	delete(body, "end_by")
	out := e.submit(body, 201, "")
	g := out.JSON["game"].(map[string]any)
	if g["result"] != "B+5" || g["count_unverified"] != true || g["computed_result"] != "W+7.5" || side(out, "white")["delta"] != -5.0 { // rated by the claim (a 2-move win gains nothing)
		t.Fatalf("accepted %s", out.Body)
	}
	e.submit(body, 200, "")
	list := e.expect(req{method: "GET", path: "/api/v1/admin/games?flag=count_unverified", token: e.admin}, 200, "").JSON["items"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["game"].(map[string]any)["id"] != g["id"] {
		t.Fatalf("flagged games %v, want the one game once", list)
	}
	if out := e.expect(req{method: "GET", path: "/api/v1/admin/games?flag=nope", token: e.admin}, 400, "invalid_parameter"); out.errDetails()["parameter"] != "flag" {
		t.Errorf("unknown flag: %s", out.Body)
	}
	e.expect(req{method: "GET", path: "/api/v1/admin/games", token: e.alice}, 403, "forbidden")
	if got := e.expect(req{method: "GET", path: "/api/v1/games/" + g["id"].(string), token: e.alice}, 200, "").JSON; got["count_unverified"] != true {
		t.Fatalf("the game does not show it: %v", got)
	}
}

// TestPlayedAtFromTheRecord: a record's date (SGF DT) is when the game was
// played, not when it was sent; without one it is the submission's time.
func TestPlayedAtFromTheRecord(t *testing.T) {
	e := newGamesEnv(t)
	sgf := "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]DT[2024-05-02]EV[City Cup]PB[alice]PW[bob]RE[W+R];B[ee];W[cc])"
	out := e.expect(req{method: "POST", path: "/api/v1/games?source_id=s-dt", token: e.server, body: sgf, header: map[string]string{"Content-Type": "application/x-go-sgf"}}, 201, "")
	g := out.JSON["game"].(map[string]any)
	if g["played_at"] != "2024-05-02T00:00:00Z" || g["event"] != "City Cup" {
		t.Fatalf("game %v", g)
	}
	out = e.submit(gameBody(randomGame(4, 50, false), "s-nodt", "alice", "bob"), 201, "")
	if g := out.JSON["game"].(map[string]any); g["played_at"] != g["finished_at"] {
		t.Fatalf("without a date: played_at %v, finished_at %v", g["played_at"], g["finished_at"])
	}
}

// TestPlayersByServerIDs: a game server links its own ids of players to
// accounts once, then submits a game whose record names them otherwise
// (PB[柯洁]) with black_id and white_id; an unlinked id is refused naming
// it; a link is never moved; only a game server links.
func TestPlayersByServerIDs(t *testing.T) {
	e := newGamesEnv(t)
	link := func(id, user string, status int, code string) {
		t.Helper()
		e.expect(req{method: "PUT", path: "/api/v1/server/players/" + id, token: e.server, body: map[string]string{"username": user}}, status, code)
	}
	link("fox-1001", "alice", 200, "")
	link("fox-1001", "alice", 200, "") // again: no error
	link("fox-1001", "bob", 409, "link_conflict")
	link("fox-2002", "bob", 200, "")
	link("fox-3003", "nobody", 404, "not_found")
	e.expect(req{method: "PUT", path: "/api/v1/server/players/fox-4", token: e.alice, body: map[string]string{"username": "alice"}}, 403, "forbidden")

	sgf := "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[柯洁]PW[芈昱廷]RE[W+R];B[ee];W[cc])"
	post := func(query string, status int, code string) *resp {
		t.Helper()
		return e.expect(req{method: "POST", path: "/api/v1/games?source_id=s-ids" + query, token: e.server, body: sgf,
			header: map[string]string{"Content-Type": "application/x-go-sgf"}}, status, code)
	}
	out := post("", 422, "unknown_player")
	if out.errDetails()["username"] != "柯洁" {
		t.Fatalf("by name: %s", out.Body)
	}
	out = post("&black_id=fox-1001&white_id=fox-9999", 422, "unknown_player")
	if out.errDetails()["external_id"] != "fox-9999" || out.errDetails()["side"] != "white" {
		t.Fatalf("an unlinked id: %s", out.Body)
	}
	out = post("&black_id=fox-1001&white_id=fox-2002", 201, "")
	if g := out.JSON["game"].(map[string]any); g["black"] != "alice" || g["white"] != "bob" {
		t.Fatalf("game %v", g)
	}
	// The ids are the linking server's own: another server, or an admin
	// (who links none), naming them reaches no account, and cannot link
	// into the first server's namespace either.
	other := e.account("tygem", players.RoleServer)
	for who, tok := range map[string]string{"another server": other, "an admin": e.admin} {
		out := e.expect(req{method: "POST", path: "/api/v1/games?source_id=s-ids-2&black_id=fox-1001&white_id=fox-2002", token: tok, body: sgf,
			header: map[string]string{"Content-Type": "application/x-go-sgf"}}, 422, "unknown_player")
		if out.errDetails()["external_id"] != "fox-1001" {
			t.Errorf("%s with the first server's ids: %s", who, out.Body)
		}
	}
	e.expect(req{method: "PUT", path: "/api/v1/server/players/fox-1001", token: other, body: map[string]string{"username": "bob"}}, 200, "")
	out = post("&black_id=fox-1001&white_id=fox-2002", 200, "")
	if g := out.JSON["game"].(map[string]any); g["black"] != "alice" {
		t.Fatalf("the first server's link moved: %v", g)
	}
}
