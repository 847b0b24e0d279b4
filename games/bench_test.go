package games

import (
	"os"
	"testing"
)

// benchGame is a 19×19 GNU Go game of 273 moves (passes included).
func benchGame(tb testing.TB) *Record {
	data, err := os.ReadFile("testdata/selfplay/gnugo-19-2.sgf")
	if err != nil {
		tb.Fatal(err)
	}
	r, err := ParseRecord(data)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func perMove(b *testing.B, moves int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*moves), "ns/move")
}

// BenchmarkReplay: replay a whole 19×19 game under simple ko (Japanese),
// situational superko (Chinese, what `rankctl check` does) and positional
// superko; a fresh Game per replay, so allocs/op are per game.
func BenchmarkReplay(b *testing.B) {
	r := benchGame(b)
	positional := Chinese()
	positional.Ko = KoPositional
	for _, rc := range []struct {
		name  string
		rules Ruleset
	}{{"simple-ko", Japanese()}, {"situational-superko", Chinese()}, {"positional-superko", positional}} {
		b.Run(rc.name, func(b *testing.B) {
			rec := *r
			rec.Rules = rc.rules
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Replay(&rec); err != nil {
					b.Fatal(err)
				}
			}
			perMove(b, len(rec.Moves))
		})
	}
}

// BenchmarkPlay: the moves alone, on games made beforehand (Reserve'd):
// the cost of a move with nothing per game around it.
func BenchmarkPlay(b *testing.B) {
	r := benchGame(b)
	const batch = 64
	gs := make([]*Game, batch)
	fresh := func() {
		for i := range gs {
			g, err := NewGame(r.Size, r.Rules, r.Handicap, r.Setup)
			if err != nil {
				b.Fatal(err)
			}
			g.Reserve(len(r.Moves))
			gs[i] = g
		}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if n%batch == 0 {
			b.StopTimer()
			fresh()
			b.StartTimer()
		}
		g := gs[n%batch]
		n++
		for _, m := range r.Moves {
			if err := g.Play(m); err != nil {
				b.Fatal(err)
			}
		}
	}
	perMove(b, len(r.Moves))
}

// BenchmarkScore: count the final position (area, and territory with seki
// detection).
func BenchmarkScore(b *testing.B) {
	r := benchGame(b)
	g, err := Replay(r)
	if err != nil {
		b.Fatal(err)
	}
	for _, rules := range []Ruleset{Chinese(), Japanese()} {
		b.Run(rules.Scoring.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ScorePosition(&g.board, ScoreParams{Rules: rules, Komi: 7.5}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkJudge: the whole entry point: check, replay, count, compare.
func BenchmarkJudge(b *testing.B) {
	r := benchGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Judge(r); err != nil {
			b.Fatal(err)
		}
	}
	perMove(b, len(r.Moves))
}

// BenchmarkParseSGF: read the game's SGF.
func BenchmarkParseSGF(b *testing.B) {
	data, err := os.ReadFile("testdata/selfplay/gnugo-19-2.sgf")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseRecord(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPlayAllocatesNothing: once a game has room for its moves, playing
// them (captures, ko, superko bookkeeping) allocates nothing.
func TestPlayAllocatesNothing(t *testing.T) {
	r := benchGame(t)
	var gs []*Game
	for range 2 { // AllocsPerRun runs once more to warm up
		g, err := NewGame(r.Size, r.Rules, r.Handicap, r.Setup)
		if err != nil {
			t.Fatal(err)
		}
		g.Reserve(len(r.Moves))
		gs = append(gs, g)
	}
	i := 0
	allocs := testing.AllocsPerRun(1, func() {
		g := gs[i]
		i++
		for _, m := range r.Moves {
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations playing %d moves", allocs, len(r.Moves))
	}
}
