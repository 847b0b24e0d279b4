package games

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkReadAndJudgeDir reads and judges every record of the test
// corpora (GNU Go self-play, played out and with dead stones: a few
// hundred files) in one process, as `rankctl score DIR` does; games/s is
// the figure for docs/benchmarks.md (run with -cpu 1 for one core).
func BenchmarkReadAndJudgeDir(b *testing.B) {
	var files []string
	for _, g := range []string{"testdata/selfplay/*.sgf", "testdata/deadstones/*.sgf", "testdata/golden/*.sgf"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 400 {
		b.Fatalf("want the corpora, found %d files", len(files))
	}
	b.ReportAllocs()
	games := 0
	for b.Loop() {
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			recs, err := ReadRecords(data, ReadOptions{})
			if err != nil {
				continue // the golden files include bad SGF on purpose
			}
			for _, r := range recs {
				_, _ = Judge(r) // and illegal games
				games++
			}
		}
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}
