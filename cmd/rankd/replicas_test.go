package main

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestThreeReplicas: three rankd processes on one store server (FerretDB
// on PostgreSQL) and the real Redis Cluster. Clients send every game to
// two of them at once (the same source_id: a source retrying elsewhere),
// the same players in many games; one process is killed with SIGKILL in
// the middle and started again. Then every game is rated once (in both
// players' ledgers once), every score is the sum of its ledger, and the
// verification of the whole store finds nothing wrong.
func TestThreeReplicas(t *testing.T) {
	const (
		nPlayers = 6
		nGames   = 90
		clients  = 4
		killAt   = 30 // games answered before the kill
	)
	testsvc.RedisCluster(t) // the cluster is this test's until it ends
	db := testsvc.MongoOf(t, testsvc.KindFerretPG)
	env := map[string]string{"MONGO_URI": testsvc.FerretPGURI(t), "MONGO_DB": db.Name(), "REDIS_URL": testsvc.RedisClusterURL()}
	for k, v := range adminEnv {
		env[k] = v
	}
	procs := make([]*proc, 3)
	for i := range procs {
		procs[i] = startRankd(t, procOptions{Env: env})
	}
	p := procs[0]
	root := p.Login("root", adminPW)
	p.Must(201, "POST", "/api/v1/admin/accounts", root, map[string]string{"username": "go-server", "password": "another long secret", "role": "server"})
	server := procs[1].Login("go-server", "another long secret") // a token of one works on all
	names := make([]string, nPlayers)
	for i := range names {
		names[i] = fmt.Sprintf("rep%d", i)
		procs[i%3].Must(201, "POST", "/api/v1/auth/register", "", map[string]string{"username": names[i], "password": alicePW})
	}
	bodies := make([][]byte, nGames)
	for i := range bodies {
		b := i % nPlayers
		w := (b + 1 + (i/nPlayers)%(nPlayers-1)) % nPlayers
		bodies[i] = submitBody(1000+i, names[b], names[w])
	}

	client := &http.Client{Timeout: time.Minute}
	var mu sync.Mutex
	ids := make([]string, nGames)
	var answered, lost atomic.Int64
	var killed sync.Once
	victim := procs[2]
	jobs := make(chan int)
	var wg sync.WaitGroup
	errs := make(chan string, 2*nGames)
	for range clients {
		wg.Go(func() {
			for i := range jobs {
				var two sync.WaitGroup
				for _, k := range []int{i % 3, (i + 1) % 3} {
					two.Go(func() {
						status, out := post(client, procs[k].URL, server, bodies[i])
						switch status {
						case 0: // the killed process
							lost.Add(1)
						case 200, 201:
							g, _ := out["game"].(map[string]any)
							id, _ := g["id"].(string)
							mu.Lock()
							if ids[i] != "" && ids[i] != id {
								errs <- fmt.Sprintf("game %d answered as %s and as %s", i, ids[i], id)
							}
							ids[i] = id
							mu.Unlock()
						default:
							errs <- fmt.Sprintf("game %d to rankd %d: %d %v", i, k, status, out)
						}
					})
				}
				two.Wait()
				if answered.Add(1) == killAt {
					killed.Do(victim.Kill)
				}
			}
		})
	}
	for i := range nGames {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if t.Failed() {
		t.FailNow()
	}
	killed.Do(victim.Kill)
	if lost.Load() == 0 {
		t.Fatal("no request was cut off: the kill did not land in the burst")
	}
	t.Logf("%d requests cut off by the kill", lost.Load())
	procs[2] = victim.Restart()
	for i, id := range ids {
		if id == "" {
			// Both answers lost: cannot be (one of the two was alive),
			// but a source would retry; so does the test.
			status, out := post(client, procs[2].URL, server, bodies[i])
			if status != 200 && status != 201 {
				t.Fatalf("game %d resubmitted: %d %v", i, status, out)
			}
			ids[i] = out["game"].(map[string]any)["id"].(string)
		}
	}

	// Every game rated, in both ledgers once; scores are the ledgers' sums.
	p = procs[1]
	testsvc.Eventually(t, "every game rated", func() bool {
		for _, id := range ids {
			if g := p.Must(200, "GET", "/api/v1/games/"+id, root, nil).JSON; g["status"] != "rated" {
				return false
			}
		}
		return true
	})
	inLedger := map[string]int{}
	for _, n := range names {
		player := p.Must(200, "GET", "/api/v1/players/"+n, root, nil).JSON
		sum, entries := 0, 0
		page := p.Must(200, "GET", "/api/v1/players/"+n+"/history?limit=500", root, nil).JSON
		for _, it := range page["items"].([]any) {
			e := it.(map[string]any)
			sum += int(e["delta"].(float64))
			if e["cause"] != "game" {
				continue
			}
			entries++
			inLedger[e["game_id"].(string)]++
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
			t.Errorf("game %d (%s) is in the ledgers %d times, want twice", i, id, inLedger[id])
		}
	}
	if rep := procs[0].Must(200, "GET", "/api/v1/admin/verify", root, nil).JSON; rep["ok"] != true {
		t.Errorf("verification: %v", rep)
	}
	for _, q := range procs {
		q.Stop()
	}
}
