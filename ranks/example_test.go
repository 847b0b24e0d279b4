package ranks_test

import (
	"encoding/json"
	"fmt"

	"github.com/weiqi-platform/rank/ranks"
)

// The ladder table: each rank and the lowest score that holds it.
func ExampleLadderRanks() {
	for _, r := range ranks.LadderRanks() {
		from, _ := r.LowestScore()
		fmt.Printf("%s from %d\n", r, from)
	}
	// Output:
	// 9k from -800
	// 8k from -700
	// 7k from -600
	// 6k from -500
	// 5k from -400
	// 4k from -300
	// 3k from -200
	// 2k from -100
	// 1k from 0
	// 1d from 100
	// 2d from 200
	// 3d from 300
	// 4d from 400
	// 5d from 500
	// 6d from 600
	// 7d from 700
	// 8d from 800
	// 9d from 900
}

// A score maps to its rank; beyond the ends the rank stays 9k or 9d.
func ExampleFromScore() {
	for _, score := range []int{-850, -790, 0, 99, 100, 450, 1200} {
		fmt.Println(score, ranks.FromScore(score))
	}
	// Output:
	// -850 9k
	// -790 9k
	// 0 1k
	// 99 1k
	// 100 1d
	// 450 4d
	// 1200 9d
}

// Every common notation parses; a rank always prints in the short form.
func ExampleParse() {
	for _, s := range []string{"5 kyu", "5級", "三段", "初段", "职业九段", "26k"} {
		r, err := ranks.Parse(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(s, "→", r)
	}
	// Output:
	// 5 kyu → 5k
	// 5級 → 5k
	// 三段 → 3d
	// 初段 → 1d
	// 职业九段 → 9p
	// ranks: parsing "26k": kyu level 26 out of range 1…25
}

// In JSON a rank is its short form; any notation is read back.
func ExampleRank_MarshalText() {
	b, _ := json.Marshal(map[string]ranks.Rank{"rank": ranks.MustParse("3 dan")})
	fmt.Println(string(b))
	var back struct{ Rank ranks.Rank }
	_ = json.Unmarshal([]byte(`{"Rank":"職業九段"}`), &back)
	fmt.Println(back.Rank)
	// Output:
	// {"rank":"3d"}
	// 9p
}
