package intake_test

import (
	"fmt"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
)

// ExampleContentHash: a game sent as SGF and the same game sent as fields
// have one content hash, so the second is a retry, not a conflict.
func ExampleContentHash() {
	sgf := []byte("(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]RE[B+R];B[ee];W[cc];B[gc])")
	a, _ := games.ParseRecord(sgf)
	va, _ := games.Judge(a)

	b := &games.Record{Size: 9, Rules: games.Chinese(), Komi: 7, End: games.EndResign, EndBy: games.White,
		Moves: []games.Move{
			games.Play(games.Black, games.Point{X: 4, Y: 4}),
			games.Play(games.White, games.Point{X: 2, Y: 2}),
			games.Play(games.Black, games.Point{X: 6, Y: 2}),
		}}
	vb, _ := games.Judge(b)

	fmt.Println(intake.ContentHash("alice", "bob", true, a, va) == intake.ContentHash("alice", "bob", true, b, vb))
	fmt.Println(intake.ContentHash("alice", "bob", true, a, va) == intake.ContentHash("bob", "alice", true, a, va))
	// Output:
	// true
	// false
}
