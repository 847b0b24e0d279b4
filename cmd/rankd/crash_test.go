package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
)

// submitBody is a JSON submission of a random legal 9×9 game.
func submitBody(i int, black, white string) []byte {
	r := games.RandomRecord(rand.New(rand.NewPCG(uint64(i), 99)), 9, 40+i%30, i%5 == 0)
	moves := make([]string, len(r.Moves))
	for j, m := range r.Moves {
		if !m.Pass {
			moves[j] = m.Point.SGF()
		}
	}
	b, _ := json.Marshal(map[string]any{"source_id": fmt.Sprintf("burst-%d", i), "black": black, "white": white,
		"size": 9, "rules": "chinese", "komi": r.Komi, "moves": moves, "end": string(r.End), "result": r.Result})
	return b
}

// post sends one submission; status 0 means no answer (the server died).
func post(client *http.Client, url, token string, body []byte) (int, map[string]any) {
	req, err := http.NewRequest("POST", url+"/api/v1/games", bytes.NewReader(body))
	if err != nil {
		return 0, nil
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return res.StatusCode, out
}

// TestKillDuringBurst: rankd is killed with SIGKILL while 8 clients
// submit games; restarted on the same data, it completes what was cut
// off. Then every game answered 201 or 200 is rated, each game is in both
// players' ledgers exactly once (also those resubmitted because their
// answer was lost), and every score is the placement (0) plus the sum of
// its ledger.
//
// It runs on the embedded store and on a store server of its own
// (FerretDB on PostgreSQL, reached by MONGO_URI).
func TestKillDuringBurst(t *testing.T) { onEachStore(t, adminEnv, killDuringBurst) }

func killDuringBurst(t *testing.T, env map[string]string) {
	const (
		nPlayers = 8
		nGames   = 240
		clients  = 8
		killAt   = 60 // answers before the kill
	)
	p := startRankd(t, procOptions{Env: env})
	root := p.Login("root", adminPW)
	p.Must(201, "POST", "/api/v1/admin/accounts", root, map[string]string{"username": "go-server", "password": "another long secret", "role": "server"})
	server := p.Login("go-server", "another long secret")
	names := make([]string, nPlayers)
	for i := range names {
		names[i] = fmt.Sprintf("burst%d", i)
		p.Must(201, "POST", "/api/v1/auth/register", "", map[string]string{"username": names[i], "password": alicePW})
	}
	bodies := make([][]byte, nGames)
	for i := range bodies {
		b := i % nPlayers
		w := (b + 1 + (i/nPlayers)%(nPlayers-1)) % nPlayers
		bodies[i] = submitBody(i, names[b], names[w])
	}

	client := &http.Client{Timeout: time.Minute}
	answered := make([]int, nGames) // status, 0 when none
	ids := make([]string, nGames)
	var done atomic.Int64
	var killed sync.Once
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for i := range jobs {
				status, out := post(client, p.URL, server, bodies[i])
				answered[i] = status
				if g, ok := out["game"].(map[string]any); ok {
					ids[i], _ = g["id"].(string)
				}
				if done.Add(1) == killAt {
					killed.Do(p.Kill)
				}
			}
		})
	}
	for i := range nGames {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	killed.Do(p.Kill)

	p = p.Restart()
	accepted, lost := 0, 0
	for i, st := range answered {
		switch st {
		case 200, 201:
			accepted++
		case 0:
			lost++
			// The answer was lost: the client retries, as a source would.
			status, out := post(client, p.URL, server, bodies[i])
			if status != 201 && status != 200 {
				t.Fatalf("resubmitting game %d after the restart: %d %v", i, status, out)
			}
			ids[i] = out["game"].(map[string]any)["id"].(string)
		default:
			t.Fatalf("game %d answered %d before the kill", i, st)
		}
	}
	if accepted < killAt/2 || lost == 0 {
		t.Fatalf("%d accepted and %d cut off: the kill did not land in the burst", accepted, lost)
	}
	t.Logf("%d games accepted before the kill, %d cut off and resubmitted", accepted, lost)
	if !strings.Contains(p.Logs(), "msg=recovered") {
		t.Fatalf("the restart did not run recovery:\n%s", p.Logs())
	}

	// Every game is rated, and in both players' ledgers once.
	inLedger := map[string]int{}
	for _, n := range names {
		player := p.Must(200, "GET", "/api/v1/players/"+n, root, nil).JSON
		sum, entries := 0, 0
		cursor := ""
		for {
			path := "/api/v1/players/" + n + "/history?limit=500"
			if cursor != "" {
				path += "&cursor=" + cursor
			}
			page := p.Must(200, "GET", path, root, nil).JSON
			for _, it := range page["items"].([]any) {
				e := it.(map[string]any)
				sum += int(e["delta"].(float64))
				if e["cause"] != "game" {
					continue // a placement after a newcomer's last placement game
				}
				entries++
				inLedger[e["game_id"].(string)]++
			}
			next, ok := page["next_cursor"].(string)
			if !ok {
				break
			}
			cursor = next
		}
		if int(player["score"].(float64)) != sum {
			t.Errorf("%s: score %v is not the sum of the ledger, %d", n, player["score"], sum)
		}
		if int(player["games"].(float64)) != entries {
			t.Errorf("%s: %v games but %d ledger entries", n, player["games"], entries)
		}
	}
	for i, id := range ids {
		if inLedger[id] != 2 {
			t.Errorf("game %d (%s) is in the ledgers %d times, want twice (once per player)", i, id, inLedger[id])
		}
		if g := p.Must(200, "GET", "/api/v1/games/"+id, root, nil).JSON; g["status"] != "rated" {
			t.Errorf("game %d is %v", i, g["status"])
		}
	}
	if len(inLedger) != nGames {
		t.Errorf("the ledgers hold %d games, want %d", len(inLedger), nGames)
	}
	p.Stop()
}
