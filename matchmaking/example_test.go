package matchmaking_test

import (
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/matchmaking"
)

// The window starts at half a rank and widens with the wait, up to three
// ranks.
func ExamplePolicy_Window() {
	p := matchmaking.DefaultPolicy()
	for _, waited := range []time.Duration{0, 20 * time.Second, time.Minute, 5 * time.Minute} {
		fmt.Printf("after %v: %d points\n", waited, p.Window(waited))
	}
	// Output:
	// after 0s: 50 points
	// after 20s: 100 points
	// after 1m0s: 200 points
	// after 5m0s: 300 points
}

// A pass pairs the whole pool at once. Closest-first would pair 30 with 55
// and leave two players waiting; the optimal pass pairs all four. The 4d
// has waited long, but the 1d who just came accepts only half a rank.
func ExamplePolicy_Pair() {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	player := func(name string, score int, waited time.Duration) matchmaking.Candidate {
		return matchmaking.Candidate{Ticket: name, Player: name, Level: matchmaking.Level{Score: score, Rating: 1500}, Range: matchmaking.AnyScore, Since: now.Add(-waited)}
	}
	pool := []matchmaking.Candidate{
		player("1k-a", 0, 0),
		player("1k-b", 30, 0),
		player("1k-c", 55, 0),
		player("1k-d", 90, 0),
		player("4d", 420, 3*time.Minute),
		player("1d", 170, 0),
	}
	for _, pr := range matchmaking.DefaultPolicy().Pair(now, pool, nil) {
		fmt.Printf("%s - %s (gap %d)\n", pool[pr.A].Player, pool[pr.B].Player, pr.Gap)
	}
	// Output:
	// 1k-a - 1k-b (gap 30)
	// 1k-c - 1k-d (gap 35)
}
