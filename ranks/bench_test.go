package ranks

import "testing"

var sinkRank Rank

func BenchmarkFromScore(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sinkRank = FromScore(i%2000 - 1000)
	}
}

func BenchmarkParse(b *testing.B) {
	for _, s := range []string{"5k", "5 kyu", "三段", "职业九段"} {
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkRank, _ = Parse(s)
			}
		})
	}
}
