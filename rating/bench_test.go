package rating

import "testing"

var (
	sinkDeltas  Deltas
	sinkGlicko  Glicko
	sinkApplied Applied
)

func BenchmarkLadder(b *testing.B) {
	b.ReportAllocs()
	g := Game{Moves: 180}
	for i := 0; b.Loop(); i++ {
		// Walk the bands: diffs 0 … 299 in both directions.
		d := i % 300
		sinkDeltas, _ = Ladder(d, 0, g)
		sinkDeltas, _ = Ladder(0, d, g)
	}
}

func BenchmarkGlicko2Update(b *testing.B) {
	b.Run("one-game", func(b *testing.B) {
		b.ReportAllocs()
		res := []Result{{Opponent: Glicko{1620, 90, 0.06}, Score: Win}}
		p := Glicko{1500, 200, 0.06}
		for b.Loop() {
			sinkGlicko, _ = Default.Update(p, res)
		}
	})
	b.Run("glickman-period", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkGlicko, _ = Default.Update(glickmanPlayer, glickmanResults)
		}
	})
}

func BenchmarkApply(b *testing.B) {
	b.ReportAllocs()
	w := State{Score: 50, Glicko: Glicko{1500, 200, 0.06}}
	l := State{Score: 120, Glicko: Glicko{1620, 90, 0.06}}
	g := Game{Moves: 180}
	for b.Loop() {
		sinkApplied, _ = Default.Apply(w, l, g)
	}
}
