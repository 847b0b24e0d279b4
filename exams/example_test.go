package exams_test

import (
	"fmt"

	"github.com/weiqi-platform/rank/exams"
)

// Five candidates for 1d, three games each: five times three is odd, so
// candidates alone cannot pair it and one game goes to the volunteer
// examiner. Everyone meets three different players, and nobody has more
// than two games with one colour.
func ExamplePairEntrants() {
	candidates := []exams.Entrant{
		{Player: "ann", Score: 95}, {Player: "bob", Score: 80}, {Player: "cat", Score: 60},
		{Player: "dan", Score: 40}, {Player: "eve", Score: 10},
	}
	examiners := []exams.Entrant{{Player: "sensei", Score: 150, Capacity: 2}}
	p := exams.PairEntrants(candidates, examiners, 3)
	for _, g := range p.Games {
		fmt.Printf("%s (B) – %s (W)\n", g.Black, g.White)
	}
	fmt.Println("short:", p.Short)
	// Output:
	// ann (B) – bob (W)
	// ann (B) – eve (W)
	// bob (B) – cat (W)
	// cat (B) – ann (W)
	// cat (B) – dan (W)
	// dan (B) – bob (W)
	// eve (B) – dan (W)
	// eve (B) – sensei (W)
	// short: map[]
}
