package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestMatchmakingThroughTheWiring: two rankd replicas in this process on
// one store and one real redis-server, both running pairing passes. Ten
// players of five levels queue, half through each replica, and poll until
// paired: each is paired exactly once, with a player of their own level,
// into one pending game both see; nobody in a game may queue. The game
// server finishes one game, which frees its players; the expire job voids
// the rest once their time is up, which frees theirs.
func TestMatchmakingThroughTheWiring(t *testing.T) {
	db := testsvc.Mongo(t)
	redisURL := testsvc.RedisURL(t)
	clock := clockwork.NewFakeClockAt(time.Date(2026, 3, 7, 10, 0, 0, 0, time.UTC))
	fast := func(c *Config) { c.MatchEvery, c.GameTTL = 20*time.Millisecond, time.Hour }
	logsA, logsB := &lockedBuffer{}, &lockedBuffer{}
	_, a := startMain(t, testsvc.MongoURI(t), db.Name(), redisURL, clock, logsA, fast)
	_, b := startMain(t, testsvc.MongoURI(t), db.Name(), redisURL, clock, logsB, fast)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replica A:\n%s\nreplica B:\n%s", logsA, logsB)
		}
	})
	root := a.Login("root", adminPassword)
	a.Must(201, "POST", "/api/v1/admin/accounts", root, map[string]string{"username": "go-server", "password": adminPassword, "role": "server"})
	server := a.Login("go-server", adminPassword)

	// Levels a full rank and more apart, so that pairs can only form within
	// a level while the window is half a rank (the fake clock stands still).
	tok, score, via := map[string]string{}, map[string]int{}, map[string]*proc{}
	for i := range 10 {
		name := fmt.Sprintf("player%02d", i)
		score[name] = -600 + 300*(i/2)
		via[name] = []*proc{a, b}[i%2]
		tok[name] = a.Must(201, "POST", "/api/v1/auth/register", "", map[string]string{"username": name, "password": adminPassword}).JSON["token"].(string)
		a.Must(200, "POST", "/api/v1/admin/players/"+name+"/adjust", root, map[string]any{"score": score[name], "reason": "placed by the club"})
	}
	ticket := map[string]any{"board_size": 19, "time_control": "blitz", "rules": "chinese"}
	for name := range tok {
		via[name].Must(201, "POST", "/api/v1/matchmaking/tickets", tok[name], ticket)
	}

	matched := map[string]map[string]any{}
	testsvc.Eventually(t, "every player to be paired", func() bool {
		for name := range tok {
			if matched[name] != nil {
				continue
			}
			tk := via[name].Must(200, "GET", "/api/v1/matchmaking/tickets/mine", tok[name], nil).JSON
			switch {
			case tk["state"] == "matched" && tk["game_id"] != nil:
				matched[name] = tk
			case tk["state"] != "waiting" && tk["state"] != "matched":
				t.Fatalf("%s's ticket: %v", name, tk)
			}
		}
		return len(matched) == len(tok)
	})

	gameOf := map[string]string{}
	for name, tk := range matched {
		opp := tk["opponent"].(string)
		if score[opp] != score[name] || matched[opp]["opponent"] != name || matched[opp]["game_id"] != tk["game_id"] || matched[opp]["colour"] == tk["colour"] {
			t.Fatalf("%s (%d) got %v; the opponent %s (%d) got %v", name, score[name], tk, opp, score[opp], matched[opp])
		}
		gameOf[name] = tk["game_id"].(string)
		g := b.Must(200, "GET", "/api/v1/games/"+gameOf[name], tok[name], nil).JSON
		if g["status"] != "pending" || (g["black"] != name && g["white"] != name) {
			t.Fatalf("%s's game: %v", name, g)
		}
		via[name].Must(409, "POST", "/api/v1/matchmaking/tickets", tok[name], ticket)
	}
	pools := a.Must(200, "GET", "/api/v1/matchmaking/pools", root, nil).JSON["items"].([]any)
	if len(pools) != 1 || pools[0].(map[string]any)["waiting"] != 0.0 {
		t.Fatalf("pools after pairing everyone: %v", pools)
	}

	// One result frees its two players.
	first := gameOf["player00"]
	b.Must(201, "POST", "/api/v1/games", server, map[string]any{"game_id": first, "moves": []string{"pd"}, "end": "resign", "result": "W+R"})
	a.Must(201, "POST", "/api/v1/matchmaking/tickets", tok["player00"], ticket)
	b.Must(201, "POST", "/api/v1/matchmaking/tickets", tok["player01"], ticket)
	a.Must(409, "POST", "/api/v1/matchmaking/tickets", tok["player02"], ticket)

	// The rest expire once their time is up, by the expire job.
	clock.Advance(time.Hour + time.Minute)
	b.Must(200, "POST", "/api/v1/admin/jobs/expire/run", root, nil)
	for name := range tok {
		if gameOf[name] == first {
			continue
		}
		if g := a.Must(200, "GET", "/api/v1/games/"+gameOf[name], tok[name], nil).JSON; g["status"] != "expired" {
			t.Fatalf("%s's game after its time: %v", name, g)
		}
		via[name].Must(201, "POST", "/api/v1/matchmaking/tickets", tok[name], ticket)
	}
}
