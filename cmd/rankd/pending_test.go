package main

import (
	"testing"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestPendingGameSurvivesRestart: in the zero-setup mode (embedded store,
// in-process Redis) two players are paired; rankd restarts, the Redis and
// the tickets with it are gone, and the players are not stuck: GET
// /api/v1/me shows the pending game from the game store, queueing again
// is a 409 naming it, and either player may abort it, which frees both.
func TestPendingGameSurvivesRestart(t *testing.T) {
	// A window no loaded machine outlasts: the subject is the restart.
	p := startRankd(t, procOptions{Env: map[string]string{"RANK_ABORT_WINDOW": "1h", "RANK_MATCH_EVERY": "100ms"}})
	pw := "correct horse battery"
	tok := map[string]string{}
	for _, n := range []string{"alice", "bob"} {
		tok[n] = p.Must(201, "POST", "/api/v1/auth/register", "", map[string]string{"username": n, "password": pw}).JSON["token"].(string)
		p.Must(201, "POST", "/api/v1/matchmaking/tickets", tok[n], map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese"})
	}
	var game string
	testsvc.Eventually(t, "alice to be paired", func() bool {
		tk := p.Must(200, "GET", "/api/v1/matchmaking/tickets/mine", tok["alice"], nil).JSON
		game, _ = tk["game_id"].(string)
		return game != ""
	})
	p.Stop()
	p = p.Restart()

	p.Must(404, "GET", "/api/v1/matchmaking/tickets/mine", tok["alice"], nil) // the ticket is gone
	for _, n := range []string{"alice", "bob"} {
		me := p.Must(200, "GET", "/api/v1/me", tok[n], nil).JSON
		pg, _ := me["pending_game"].(map[string]any)
		if pg == nil || pg["game"].(map[string]any)["id"] != game || pg["abortable_until"] == nil {
			t.Fatalf("%s after the restart: %v", n, me["pending_game"])
		}
	}
	in := p.Must(409, "POST", "/api/v1/matchmaking/tickets", tok["alice"], map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese"})
	if d := in.JSON["error"].(map[string]any)["details"].(map[string]any); d["game_id"] != game {
		t.Fatalf("409 names %v, want %s", d, game)
	}
	if g := p.Must(200, "POST", "/api/v1/games/"+game+"/abort", tok["bob"], nil).JSON; g["status"] != "aborted" {
		t.Fatalf("the aborted game: %v", g)
	}
	if me := p.Must(200, "GET", "/api/v1/me", tok["alice"], nil).JSON; me["pending_game"] != nil {
		t.Fatalf("alice after the abort: %v", me["pending_game"])
	}
	p.Must(201, "POST", "/api/v1/matchmaking/tickets", tok["alice"], map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese"})
}
