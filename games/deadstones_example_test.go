package games_test

import (
	"fmt"

	"github.com/weiqi-platform/rank/games"
)

// The engine proposes the dead stones of a finished game, and the count
// uses them as if both players had agreed. The lone white stone on bc is
// Black's area in most playouts (ownership above 0), so it is dead.
func ExampleEstimateDead() {
	b, _ := games.BoardFromRows([]string{
		"...XO....",
		"...XO.X..",
		".O.XO....",
		"...XO....",
		"...XO....",
		"...XO....",
		"...XO..X.",
		"...XO....",
		"...XO....",
	})
	est := games.EstimateDead(b, games.EstimateOptions{Seed: 1})
	fmt.Println("dead:", est.Dead)
	fmt.Printf("ownership of bc: %+.1f\n", est.OwnerAt(games.Point{X: 1, Y: 2}))
	s, _ := games.ScorePosition(b, games.ScoreParams{Rules: games.Chinese(), Komi: 7.5, Dead: est.Dead})
	fmt.Println("result:", s.Result)
	// Output:
	// dead: [gb bc hg]
	// ownership of bc: +0.3
	// result: W+16.5
}
