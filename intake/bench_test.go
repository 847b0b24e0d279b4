package intake

import (
	"os"
	"testing"

	"github.com/weiqi-platform/rank/games"
)

// BenchmarkContentHash: the idempotency hash of a 273-move game, taken
// once per submission.
func BenchmarkContentHash(b *testing.B) {
	data, err := os.ReadFile("../games/testdata/selfplay/gnugo-19-2.sgf")
	if err != nil {
		b.Fatal(err)
	}
	r, err := games.ParseRecord(data)
	if err != nil {
		b.Fatal(err)
	}
	v, err := games.Judge(r)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ContentHash("alice", "bob", true, r, v)
	}
}
