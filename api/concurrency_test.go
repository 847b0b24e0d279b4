package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// TestConcurrentGamesApplyInOrder: 200 games among 20 players, each sent
// twice, from 16 goroutines. Exactly one submission of each game is
// accepted (201) and the other is a retry (200). Each player's ledger
// holds each of their games once; and the order the ledgers give (their
// per-player sequence numbers) is one order of all 200 games in which
// applying them one by one with the pure formula gives exactly the stored
// states.
func TestConcurrentGamesApplyInOrder(t *testing.T) {
	const (
		nPlayers = 20
		nGames   = 200
		workers  = 16
	)
	// The subject is exactly once and in order, not speed: 32 requests
	// at a time on the tests' store (which scans for a find by _id) under
	// the race detector can take longer than the default deadline.
	e := newEnv(t, onRealStores(), withRequestTimeout(10*time.Minute))
	server := e.account("go-server", players.RoleServer)
	names := make([]string, nPlayers)
	for i := range names {
		names[i] = fmt.Sprintf("player%02d", i)
		if _, err := e.players.CreateAccount(context.Background(), players.Principal{Role: players.RoleAdmin}, names[i], pw, players.RoleTeacher); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(42, 42))
	bodies := make([]map[string]any, nGames)
	for i := range bodies {
		b := rng.IntN(nPlayers)
		w := (b + 1 + rng.IntN(nPlayers-1)) % nPlayers
		r := randomGame(uint64(1000+i), 30+rng.IntN(40), rng.IntN(4) == 0)
		bodies[i] = gameBody(r, fmt.Sprintf("conc-%d", i), names[b], names[w])
	}
	// Each game twice, shuffled, so retries race first submissions.
	jobs := make(chan int, 2*nGames)
	order := rng.Perm(2 * nGames)
	for _, j := range order {
		jobs <- j % nGames
	}
	close(jobs)
	var mu sync.Mutex
	status := map[int][]int{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				out := e.do(req{method: "POST", path: "/api/v1/games", token: server, body: bodies[i]})
				mu.Lock()
				status[i] = append(status[i], out.Code)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for i := range nGames {
		s := status[i]
		if len(s) != 2 || !(s[0] == 201 && s[1] == 200 || s[0] == 200 && s[1] == 201) {
			t.Fatalf("game %d answered %v, want one 201 and one 200", i, s)
		}
	}

	ctx := context.Background()
	// The games each ledger holds, in sequence order.
	ledgers := map[string][]string{}
	for _, n := range names {
		entries, err := e.ratings.History(ctx, n, 0, 500)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for i := len(entries) - 1; i >= 0; i-- {
			if entries[i].Cause == rating.CausePlacement {
				continue // the placement that follows a newcomer's last placement game
			}
			id := entries[i].CauseID
			if seen[id] {
				t.Fatalf("%s's ledger holds game %s twice", n, id)
			}
			seen[id] = true
			ledgers[n] = append(ledgers[n], id)
		}
		if err := e.ratings.Verify(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	// Replay: repeatedly apply a game that is next in both its players'
	// ledgers. If none is, the ledgers contradict each other.
	games := map[string]rating.GameInput{}
	for _, b := range bodies {
		st, err := e.gstore.BySource(ctx, b["source_id"].(string))
		if err != nil {
			t.Fatal(err)
		}
		in, err := intake.RatingInput(st)
		if err != nil {
			t.Fatal(err)
		}
		games[st.ID] = in
	}
	states := map[string]rating.PlayerState{}
	next := map[string]int{}
	for _, n := range names {
		states[n] = rating.NewPlayer(n)
		states[n] = placing(states[n])
	}
	applied := 0
	for applied < len(games) {
		progress := false
		for _, n := range names {
			if next[n] >= len(ledgers[n]) {
				continue
			}
			g := games[ledgers[n][next[n]]]
			if ledgers[g.Black][next[g.Black]] != g.ID || ledgers[g.White][next[g.White]] != g.ID {
				continue
			}
			b, w := states[g.Black], states[g.White]
			win, lose := &b, &w
			if g.Winner == rating.SideWhite {
				win, lose = &w, &b
			}
			a, err := rating.Default.Apply(win.State, lose.State, g.Game)
			if err != nil {
				t.Fatal(err)
			}
			win.State, lose.State = a.Winner, a.Loser
			if a.Rated {
				win.Games, lose.Games = win.Games+1, lose.Games+1
				// The placement rule, after the formula, as the service
				// applies it.
				for _, p := range []*rating.PlayerState{win, lose} {
					if *p, _, err = rating.PlacementStep(*p); err != nil {
						t.Fatal(err)
					}
				}
			}
			states[g.Black], states[g.White] = b, w
			next[g.Black]++
			next[g.White]++
			applied++
			progress = true
		}
		if !progress {
			t.Fatalf("the ledgers give no order: %d of %d games applied", applied, len(games))
		}
	}
	for _, n := range names {
		got, err := e.ratings.Player(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		want := states[n]
		if got.Score != want.Score || got.Glicko != want.Glicko || got.Games != want.Games || got.Placing != want.Placing {
			t.Errorf("%s: stored %+v, replaying the ledger order gives %+v", n, got, want)
		}
	}
}

// placing is a new player as the service makes them with placement on.
func placing(st rating.PlayerState) rating.PlayerState {
	st.Placing = true
	return st
}
