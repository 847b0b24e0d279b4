package games

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// deadRows marks the proposal on the position: lower case for dead stones.
func deadRows(b *Board, dead []Point) string {
	rows := b.Rows()
	for _, p := range dead {
		r := []byte(rows[p.Y])
		r[p.X] += 'a' - 'A'
		rows[p.Y] = string(r)
	}
	return strings.Join(rows, "\n")
}

func TestEstimateDead(t *testing.T) {
	tests := []struct {
		name string
		// board: X/O stones; x/o the stones expected to be proposed dead.
		board []string
	}{
		{
			name: "no dead stones",
			board: []string{
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO....",
			},
		},
		{
			name: "lone invaders",
			board: []string{
				"...XO....",
				"...XO.x..",
				".o.XO....",
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO..x.",
				"...XO....",
				"...XO....",
			},
		},
		{
			name: "a dead group with one eye",
			board: []string{
				"o.o.XO...",
				"ooo.XO...",
				"XXX.XO...",
				"..X.XO...",
				"....XO...",
				"....XO...",
				"....XO...",
				"....XO...",
				"....XO...",
			},
		},
		{
			// Black's group inside White's area has two eyes: alive, and
			// pass-alive, so never dead whatever the playouts say.
			name: "a living group in the opponent's area",
			board: []string{
				"...XOX.X.",
				"...XOXXXX",
				"...XOOOOO",
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO....",
				"...XO....",
			},
		},
		{
			// The two groups on the top edge have one eye each and share
			// the liberty between them: seki. Neither is dead; the
			// playouts keep it because they never put a chain of two or
			// more stones into atari.
			name: "seki",
			board: []string{
				".XX.OO.OX",
				"XXXXOOOOX",
				"OOOOXXXXX",
				"...OX....",
				"...OX....",
				"...OX....",
				"...OX....",
				"...OX....",
				"...OX....",
			},
		},
		{
			// Black's corner group lives by taking the five white stones
			// inside it (a fresh GNU Go game, 9x9 seed 500612); the
			// playouts fill its eye space and lose both: the rivals rule
			// keeps the one kept more often.
			name: "rivals in contact",
			board: []string{
				".X.X..XO.",
				"XooXXXXO.",
				"oo.XOOOO.",
				"XoXXOOO..",
				".XOOOXOO.",
				".XXXXXXOx",
				".....XOO.",
				"...X.XO..",
				"....XOO..",
			},
		},
		{
			// Black's stones on the left and in the middle have room
			// around them but no way to a living black group: White's
			// walls enclose them (a fresh GNU Go game, 9x9 seed 500927).
			// The playouts keep some a third of the time.
			name: "stranded in the opponent's open area",
			board: []string{
				"..OX.X.X.",
				"..OXXXX..",
				"...OOOOXX",
				".O.O..OOX",
				"....O.xOX",
				".x....xOO",
				"x.x...x..",
				".xOO.OOx.",
				".........",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			upper := make([]string, len(tt.board))
			var want []Point
			for y, r := range tt.board {
				upper[y] = strings.ToUpper(r)
				for x := range r {
					if r[x] == 'x' || r[x] == 'o' {
						want = append(want, Point{x, y})
					}
				}
			}
			b, err := BoardFromRows(upper)
			if err != nil {
				t.Fatal(err)
			}
			e := EstimateDead(b, EstimateOptions{Seed: 3})
			if !slices.Equal(e.Dead, want) {
				t.Errorf("proposed:\n%s\nwant:\n%s\nownership:\n%s", deadRows(b, e.Dead), deadRows(b, want), ownershipPicture(b, e))
			}
		})
	}
}

func TestEstimateDeadDeterministic(t *testing.T) {
	b := randomPosition(13, 5, 13*13*8/10)
	one := EstimateDead(b, EstimateOptions{Seed: 9, Playouts: 300, Workers: 1})
	three := EstimateDead(b, EstimateOptions{Seed: 9, Playouts: 300, Workers: 3})
	if !slices.Equal(one.Dead, three.Dead) || !slices.Equal(one.Ownership, three.Ownership) {
		t.Errorf("the number of workers changed the estimate")
	}
	other := EstimateDead(b, EstimateOptions{Seed: 10, Playouts: 300})
	if slices.Equal(one.Ownership, other.Ownership) {
		t.Errorf("another seed gave the very same ownership: is the seed used?")
	}
	if one.Playouts != 300 || len(one.Ownership) != 13*13 || len(one.Settled) != 13*13 {
		t.Errorf("estimate shape: %d playouts, %d ownership, %d settled", one.Playouts, len(one.Ownership), len(one.Settled))
	}
	for i, o := range one.Ownership {
		p := Point{i % 13, i / 13}
		if o < -1 || o > 1 {
			t.Errorf("ownership %v at %s is outside [-1, 1]", o, p)
		}
		if s := one.Settled[i]; s != Empty && b.At(p) == s && slices.Contains(one.Dead, p) {
			t.Errorf("the pass-alive stone on %s is proposed dead", p)
		}
	}
	if d := EstimateDead(b, EstimateOptions{}); d.Playouts != DefaultPlayouts {
		t.Errorf("default playouts: %d", d.Playouts)
	}
}

// TestPlayoutAllocatesNothing: the playouts reuse one board and one list.
func TestPlayoutAllocatesNothing(t *testing.T) {
	b := randomPosition(19, 3, 19*19/2)
	var settled bensonResult
	settled.run(b)
	p := new(playout)
	p.init(b, &settled.owner)
	var sum [maxIndex]int32
	k := uint64(0)
	allocs := testing.AllocsPerRun(20, func() {
		p.run(1, k)
		p.tally(&sum)
		k++
	})
	if allocs != 0 {
		t.Errorf("a playout allocates %v times", allocs)
	}
	if p.moves == 0 {
		t.Errorf("the playouts made no move")
	}
}

// readRecord reads and parses one SGF game of testdata.
func readRecord(tb testing.TB, file string) *Record {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := ParseRecord(data)
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	return r
}

// benchPosition is the final position of a game record in testdata.
func benchPosition(b *testing.B, file string) *Board {
	g, err := Replay(readRecord(b, file))
	if err != nil {
		b.Fatal(err)
	}
	return g.Board()
}

var benchPositions = []struct{ name, file string }{
	{"9x9", "testdata/deadstones/gnugo-9-0001.sgf"},
	{"13x13", "testdata/deadstones/gnugo-13-0001.sgf"},
	{"19x19", "testdata/selfplay/gnugo-19-1.sgf"},
}

// BenchmarkEstimateDead: one whole proposal with the default playouts.
func BenchmarkEstimateDead(b *testing.B) {
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			pos := benchPosition(b, bp.file)
			b.ReportAllocs()
			for b.Loop() {
				EstimateDead(pos, EstimateOptions{Seed: 1})
			}
		})
	}
}

// BenchmarkPlayout: one playout on one core, and the time per move in it.
func BenchmarkPlayout(b *testing.B) {
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			pos := benchPosition(b, bp.file)
			var settled bensonResult
			settled.run(pos)
			p := new(playout)
			p.init(pos, &settled.owner)
			var sum [maxIndex]int32
			b.ReportAllocs()
			k := uint64(0)
			for b.Loop() {
				p.run(1, k)
				p.tally(&sum)
				k++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(p.moves), "ns/move")
			b.ReportMetric(float64(p.moves)/float64(k), "moves/playout")
		})
	}
}

// FuzzProposalCount: on any position, the proposal is whole chains of
// stones, never a pass-alive one, and its count under area rules, the
// dame split or played out from either side, gives every point to one
// side or half to each; under territory rules a side's score is its
// territory and prisoners, its fills taken from territory it has.
func FuzzProposalCount(f *testing.F) {
	for seed := range uint64(6) {
		f.Add(uint8(seed*2), seed, uint8(5+seed))
	}
	f.Fuzz(func(t *testing.T, size uint8, seed uint64, fill uint8) {
		n := MinSize + int(size)%(13-MinSize+1)
		b := randomPosition(n, seed, n*n*(3+int(fill)%8)/10)
		e := EstimateDead(b, EstimateOptions{Seed: seed, Playouts: 64, Workers: 1})
		dead := map[Point]bool{}
		for _, p := range e.Dead {
			dead[p] = true
		}
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				p := Point{x, y}
				c := b.At(p)
				if dead[p] && !isStone(c) {
					t.Fatalf("seed %d: %s proposed dead is empty", seed, p)
				}
				if dead[p] && e.Settled[y*n+x] == c {
					t.Fatalf("seed %d: pass-alive %s proposed dead", seed, p)
				}
				for _, q := range []Point{{x + 1, y}, {x, y + 1}} {
					if q.On(n) && b.At(q) == c && isStone(c) && dead[p] != dead[q] {
						t.Fatalf("seed %d: the chain of %s is proposed dead only in part", seed, p)
					}
				}
			}
		}
		for _, to := range []Color{Empty, Black, White} {
			s, err := ScorePosition(b, ScoreParams{Rules: Chinese(), Komi: 7.5, Dead: e.Dead, ToMove: to})
			if err != nil {
				t.Fatal(err)
			}
			if sum := s.Black.Score + s.White.Score; sum != float64(n*n) {
				t.Fatalf("seed %d, %v to move: area counts add up to %v on %d points\n%s", seed, to, sum, n*n, deadRows(b, e.Dead))
			}
			s, err = ScorePosition(b, ScoreParams{Rules: Japanese(), Komi: 6.5, Dead: e.Dead, ToMove: to})
			if err != nil {
				t.Fatal(err)
			}
			for _, side := range []SideScore{s.Black, s.White} {
				if side.Fills < 0 || side.Territory < 0 || side.Score != float64(side.Territory+side.Prisoners) {
					t.Fatalf("seed %d: territory count %+v\n%s", seed, side, deadRows(b, e.Dead))
				}
			}
		}
	})
}

func TestVitalPoint(t *testing.T) {
	tests := []struct {
		name  string
		board []string
		last  Point // a stone next to the eye space
		want  Point // {-1,-1}: none
	}{
		{"straight three", []string{"XXXX.", "...X.", "XXXX.", ".....", "....."}, Point{0, 0}, Point{1, 1}},
		{"bent three", []string{".XX..", "..X..", "XXX..", ".....", "....."}, Point{1, 0}, Point{0, 1}},
		{"pyramid four", []string{"...X.", "X.XX.", "XXX..", ".....", "....."}, Point{3, 0}, Point{1, 0}},
		{"square four: no vital point", []string{"..X..", "..X..", "XXX..", ".....", "....."}, Point{2, 0}, Point{-1, -1}},
		{"both colours around", []string{"XXXX.", "...O.", "XXXX.", ".....", "....."}, Point{0, 0}, Point{-1, -1}},
		{"too big", []string{"XXXXX", ".....", "X.X..", "XXXXX", "....."}, Point{0, 0}, Point{-1, -1}},
		{"crossed five", []string{"XX.XX", "X...X", "XX.XX", ".XXX.", "....."}, Point{1, 0}, Point{2, 1}},
	}
	for _, tt := range tests {
		b, err := BoardFromRows(tt.board)
		if err != nil {
			t.Fatal(err)
		}
		var none [maxIndex]Color
		p := new(playout)
		p.init(b, &none)
		p.b = p.start
		p.last = b.idx(tt.last)
		got := p.vitalPoint()
		want := int16(0)
		if tt.want.On(b.Size()) {
			want = b.idx(tt.want)
		}
		if got != want {
			t.Errorf("%s: vital point %v, want %v", tt.name, b.point(got), tt.want)
		}
	}
}

func TestKillingShape(t *testing.T) {
	tests := []struct {
		name  string
		board []string // one chain of X
		want  bool
	}{
		{"bent three", []string{"XX...", ".X...", ".....", ".....", "....."}, true},
		{"square four", []string{"XX...", "XX...", ".....", ".....", "....."}, true},
		{"pyramid four", []string{"XXX..", ".X...", ".....", ".....", "....."}, true},
		{"straight four", []string{"XXXX.", ".....", ".....", ".....", "....."}, false},
		{"bent four", []string{"XXX..", "X....", ".....", ".....", "....."}, false},
		{"bulky five", []string{"XXX..", ".XX..", ".....", ".....", "....."}, true},
		{"crossed five", []string{".X...", "XXX..", ".X...", ".....", "....."}, true},
		{"long T five", []string{"XXX..", ".X...", ".X...", ".....", "....."}, false},
		{"rabbity six", []string{".X...", "XXX..", ".XX..", ".....", "....."}, true},
		{"two by three", []string{"XXX..", "XXX..", ".....", ".....", "....."}, false},
		{"seven", []string{".X...", "XXX..", ".XXX.", ".....", "....."}, false},
	}
	for _, tt := range tests {
		b, err := BoardFromRows(tt.board)
		if err != nil {
			t.Fatal(err)
		}
		var h int16
		for i := range b.color {
			if b.color[i] == Black {
				h = b.head[i]
				break
			}
		}
		if got := killingShape(b, h); got != tt.want {
			t.Errorf("%s: killing shape %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestDeadStoneFixed holds GNU Go self-play games (regenerated by seed
// with -dead-corpus-seeds) that a change to the proposal once turned from
// wrong to right, or from right to wrong: each must give the recorded
// result, winner and margin, so none turns back unseen.
func TestDeadStoneFixed(t *testing.T) {
	files, err := filepath.Glob("testdata/deadstones-fixed/*.sgf")
	if err != nil || len(files) == 0 {
		t.Fatalf("want the games of testdata/deadstones-fixed, found %d (%v)", len(files), err)
	}
	for _, f := range files {
		p := proposeFor(t, f)
		if !p.claimed.agrees(p.s.Result) {
			t.Errorf("%s: recorded %s, proposal gives %s\nGNU Go dead %v\nproposed   %v\n%s", f, p.r.Result, p.s.Result, p.r.Dead, p.est.Dead, ownershipPicture(p.b, p.est))
		}
	}
}
