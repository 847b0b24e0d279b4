package games

import (
	"fmt"
	"testing"
)

// passRecord is n passes on an empty 19×19 board: the record that made
// replay cost grow with the square of its length (issue 11, item 1).
func passRecord(n int, rules Ruleset) *Record {
	r := &Record{Size: 19, Rules: rules, End: EndVoid, Moves: make([]Move, 0, n)}
	c := Black
	for range n {
		r.Moves = append(r.Moves, PassMove(c))
		c = c.Opponent()
	}
	return r
}

// koRecord is n moves under simple ko (Japanese) in which positions recur
// again and again, so that every few moves the engine compares the
// position with an earlier one: a ko in the top left is retaken and taken
// across pairs of passes until each position has come twice (a third time
// would end the game in a cycle), then each side adds a stone on its own
// rows (White rows 4–10, Black rows 12–18), which makes every position
// new, and runs of passes fill the record to n moves.
func koRecord(n int) *Record {
	r := &Record{Size: 19, Rules: Japanese(), End: EndVoid, Moves: make([]Move, 0, n)}
	// Around the ko: Black (2,0) (1,1) (2,2), White (3,0) (4,1) (3,2), and
	// a Black stone in the ko at (3,1); White retakes at (2,1).
	for _, p := range []Point{{2, 0}, {1, 1}, {2, 2}, {3, 1}} {
		r.Setup = append(r.Setup, Stone{Color: Black, Point: p})
	}
	for _, p := range []Point{{3, 0}, {4, 1}, {3, 2}} {
		r.Setup = append(r.Setup, Stone{Color: White, Point: p})
	}
	take, retake := Play(Black, Point{3, 1}), Play(White, Point{2, 1})
	bp, wp := PassMove(Black), PassMove(White)
	const rounds = 4 * 19 // stones each side can add
	pairs := max(0, (n-rounds*15)/(2*rounds))
	for i := 0; i < rounds && len(r.Moves) < n; i++ {
		x, row := i%19, i/19
		r.Moves = append(r.Moves,
			Play(Black, Point{x, 12 + 2*row}), Play(White, Point{x, 4 + 2*row}),
			bp, retake, bp, wp, take, wp, bp, retake, bp, wp, take, wp)
		for range pairs {
			r.Moves = append(r.Moves, bp, wp)
		}
	}
	for c := Black; len(r.Moves) < n; c = c.Opponent() {
		r.Moves = append(r.Moves, PassMove(c))
	}
	r.Moves = r.Moves[:n]
	return r
}

// BenchmarkReplayLength: replay records of 1k, 10k and 100k moves, of
// passes under each ko rule and of recurring ko positions under simple
// ko. Linear replay shows as the same ns/move at every length.
func BenchmarkReplayLength(b *testing.B) {
	positional := Chinese()
	positional.Ko = KoPositional
	kinds := []struct {
		name string
		make func(n int) *Record
	}{
		{"passes-situational", func(n int) *Record { return passRecord(n, Chinese()) }},
		{"passes-positional", func(n int) *Record { return passRecord(n, positional) }},
		{"passes-simple", func(n int) *Record { return passRecord(n, Japanese()) }},
		{"ko-cycles", koRecord},
	}
	for _, k := range kinds {
		for _, n := range []int{1_000, 10_000, 100_000} {
			b.Run(fmt.Sprintf("%s/%d", k.name, n), func(b *testing.B) {
				r := k.make(n)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Replay(r); err != nil {
						b.Fatal(err)
					}
				}
				perMove(b, n)
			})
		}
	}
}
