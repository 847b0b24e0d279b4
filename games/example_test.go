package games_test

import (
	"errors"
	"fmt"

	"github.com/weiqi-platform/rank/games"
)

// Judge a submitted SGF record: replay, count, compare with the claim.
func ExampleJudge() {
	sgf := `(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]RE[W+7.5]
;B[ee];W[cc];B[];W[])`
	rec, err := games.ParseRecord([]byte(sgf))
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := games.Judge(rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Result, v.Winner, v.Moves)

	// The same game claiming another result is refused.
	rec.Result = "B+R"
	_, err = games.Judge(rec)
	var mismatch *games.ResultMismatchError
	if errors.As(err, &mismatch) {
		fmt.Println("claimed", mismatch.Claimed, "computed", mismatch.Computed)
	}
	// Output:
	// W+7.5 W 4
	// claimed B+R computed W+7.5
}

// Drive a game move by move: an illegal move is refused with its reason
// and the same player moves again.
func ExampleGame_Play() {
	g, _ := games.NewGame(9, games.Chinese(), 0, nil)
	e5 := games.Point{X: 4, Y: 4}
	_ = g.Play(games.Play(games.Black, e5))
	err := g.Play(games.Play(games.White, e5))
	fmt.Println(err)
	fmt.Println(errors.Is(err, games.ErrOccupied), g.ToMove())
	// Output:
	// move 2 (W E5): occupied
	// true W
}

// Count a position given as text, with a dead stone removed.
func ExampleScorePosition() {
	b, _ := games.BoardFromRows([]string{
		"..X.O",
		"..X.O",
		"O.X.O",
		"..X.O",
		"..X.O",
	})
	s, _ := games.ScorePosition(b, games.ScoreParams{
		Rules: games.Chinese(), Komi: 0,
		Dead: []games.Point{{X: 0, Y: 2}},
	})
	fmt.Println(s.Result, s.Black.Score, s.White.Score, s.MarginStones())
	// Output: B+10 17.5 7.5 5
}
