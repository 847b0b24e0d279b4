package rating_test

import (
	"fmt"

	"github.com/weiqi-platform/rank/rating"
)

// The points-difference formula on the worked examples of rating.md §2.
func ExampleLadder() {
	ordinary := rating.Game{Moves: 180}
	examples := []struct {
		winner, loser int
		game          rating.Game
	}{
		{0, 30, ordinary},      // diff 30
		{120, 50, ordinary},    // winner higher, diff 70
		{50, 120, ordinary},    // winner lower, diff 70
		{400, 150, ordinary},   // winner higher, diff 250
		{150, 400, ordinary},   // winner lower, diff 250
		{300, 180, ordinary},   // winner higher, diff 120
		{-850, -790, ordinary}, // equal rank, winner lower score
		{0, 0, rating.Game{Moves: 35}},
		{0, 0, rating.Game{Moves: 180, Escape: true}},
		{0, 0, rating.Game{Moves: 180, Handicap: 2}},
		{0, 0, rating.Game{Moves: 180, Outcome: rating.Draw}},
	}
	for _, e := range examples {
		d, _ := rating.Ladder(e.winner, e.loser, e.game)
		fmt.Printf("%5d beats %5d: %+d / %+d  rated=%v\n", e.winner, e.loser, d.Winner, d.Loser, d.Rated)
	}
	// Output:
	//     0 beats    30: +5 / -5  rated=true
	//   120 beats    50: +3 / -3  rated=true
	//    50 beats   120: +7 / -7  rated=true
	//   400 beats   150: +0 / -1  rated=true
	//   150 beats   400: +10 / -10  rated=true
	//   300 beats   180: +1 / -1  rated=true
	//  -850 beats  -790: +6 / -6  rated=true
	//     0 beats     0: +0 / -5  rated=true
	//     0 beats     0: +5 / -10  rated=true
	//     0 beats     0: +0 / +0  rated=false
	//     0 beats     0: +0 / +0  rated=true
}

// Glickman's worked example: one rating period of three games.
func ExampleSystem_Update() {
	player := rating.Glicko{Rating: 1500, RD: 200, Volatility: 0.06}
	after, _ := rating.System{Tau: 0.5}.Update(player, []rating.Result{
		{Opponent: rating.Glicko{Rating: 1400, RD: 30}, Score: rating.Win},
		{Opponent: rating.Glicko{Rating: 1550, RD: 100}, Score: rating.Loss},
		{Opponent: rating.Glicko{Rating: 1700, RD: 300}, Score: rating.Loss},
	})
	fmt.Printf("r′ %.2f  RD′ %.2f  σ′ %.6f\n", after.Rating, after.RD, after.Volatility)
	// Output:
	// r′ 1464.05  RD′ 151.52  σ′ 0.059996
}

// What a server does with one finished game: both states in, both out.
func ExampleSystem_Apply() {
	winner := rating.State{Score: 50, Glicko: rating.NewGlicko()}
	loser := rating.State{Score: 120, Glicko: rating.Glicko{Rating: 1620, RD: 90, Volatility: 0.06}}
	out, _ := rating.Default.Apply(winner, loser, rating.Game{Moves: 211})
	fmt.Printf("winner %+d → %d (%s), Glicko %.0f±%.0f\n", out.Deltas.Winner, out.Winner.Score, out.Winner.Rank(), out.Winner.Glicko.Rating, out.Winner.Glicko.RD)
	fmt.Printf("loser  %+d → %d (%s), Glicko %.0f±%.0f\n", out.Deltas.Loser, out.Loser.Score, out.Loser.Rank(), out.Loser.Glicko.Rating, out.Loser.Glicko.RD)
	// Output:
	// winner +7 → 57 (1k), Glicko 1743±258
	// loser  -7 → 113 (1d), Glicko 1601±89
}

// A Glicko-2 rating suggests a ladder rank, with the ranks at the ends of
// its 95% interval.
func ExampleSuggest() {
	s, _ := rating.Suggest(rating.Glicko{Rating: 1834, RD: 60, Volatility: 0.06})
	fmt.Println(s.Score, s.Rank, s.Low, s.High)
	// Output:
	// 334 3d 2d 4d
}
