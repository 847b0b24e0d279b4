package games

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// settledRows draws PassAlive's answer as rows: 'X'/'O' settled for Black
// or White, '.' not settled.
func settledRows(b *Board) []string {
	s := b.PassAlive()
	rows := make([]string, b.Size())
	for y := range rows {
		var sb strings.Builder
		for x := 0; x < b.Size(); x++ {
			switch s[y*b.Size()+x] {
			case Black:
				sb.WriteByte('X')
			case White:
				sb.WriteByte('O')
			default:
				sb.WriteByte('.')
			}
		}
		rows[y] = sb.String()
	}
	return rows
}

func TestPassAlive(t *testing.T) {
	tests := []struct {
		name    string
		board   []string
		settled []string
	}{
		{
			name:    "empty board",
			board:   []string{".....", ".....", ".....", ".....", "....."},
			settled: []string{".....", ".....", ".....", ".....", "....."},
		},
		{
			name: "two one-point eyes",
			board: []string{
				".X.X.",
				"XXXX.",
				".....",
				".....",
				".....",
			},
			settled: []string{
				"XXXX.",
				"XXXX.",
				".....",
				".....",
				".....",
			},
		},
		{
			name: "one eye is not life",
			board: []string{
				".XX..",
				"XXX..",
				".....",
				".....",
				".....",
			},
			settled: []string{".....", ".....", ".....", ".....", "....."},
		},
		{
			// Two chains that each touch both eyes live together.
			name: "two chains share their eyes",
			board: []string{
				".X.X.",
				"X.XX.",
				"XXX..",
				".....",
				".....",
			},
			settled: []string{
				"XXXX.",
				"XXXX.",
				"XXX..",
				".....",
				".....",
			},
		},
		{
			// Both eyes hold a dead white stone: the empty points are
			// still all liberties of the chain. So is every point of the
			// bottom row: a third vital region.
			name: "two-point eyes with opponent stones",
			board: []string{
				"X.X.X",
				"X.X.X",
				"XOXOX",
				"XXXXX",
				".....",
			},
			settled: []string{
				"XXXXX",
				"XXXXX",
				"XXXXX",
				"XXXXX",
				"XXXXX",
			},
		},
		{
			// The white stone in the eye has its liberty there: the eye is
			// still vital, and the white stone is settled as Black's.
			name: "opponent stone inside an eye",
			board: []string{
				"O.X.X",
				"XXXXX",
				".....",
				".....",
				".....",
			},
			settled: []string{
				"XXXXX",
				"XXXXX",
				".....",
				".....",
				".....",
			},
		},
		{
			// The corner area has a point (aa) that is no liberty of the
			// wall, so it is not vital: one vital eye is not enough.
			name: "big eye not vital",
			board: []string{
				"...X.X",
				"...XXX",
				"...X..",
				"XXXX..",
				"......",
				"......",
			},
			settled: []string{"......", "......", "......", "......", "......", "......"},
		},
		{
			name: "one eye each",
			board: []string{
				".XO.O",
				"XXOOO",
				"OXXXX",
				"OOOOO",
				".....",
			},
			settled: []string{".....", ".....", ".....", ".....", "....."},
		},
		{
			// White's and Black's two-eyed groups live; Black's one-eyed
			// group in the top right does not.
			name: "both colours",
			board: []string{
				".O.O..X.X",
				"OOOO..XXX",
				".........",
				".........",
				".........",
				".........",
				".........",
				"XXXX.....",
				".X.X.....",
			},
			settled: []string{
				"OOOO.....",
				"OOOO.....",
				".........",
				".........",
				".........",
				".........",
				".........",
				"XXXX.....",
				"XXXX.....",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := BoardFromRows(tt.board)
			if err != nil {
				t.Fatal(err)
			}
			got := settledRows(b)
			if strings.Join(got, "\n") != strings.Join(tt.settled, "\n") {
				t.Errorf("settled:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.settled, "\n"))
			}
		})
	}
}

// randomPosition plays a random game (random moves that fill no own eye)
// for at most limit moves or until both pass. Near the end such games
// have many pass-alive groups, and fights still open elsewhere.
func randomPosition(size int, seed uint64, limit int) *Board {
	b, _ := NewBoard(size)
	rng := rand.New(rand.NewPCG(seed, 7))
	var pts []Point
	c := Black
	for moves, passes := 0, 0; passes < 2 && moves < limit; moves++ {
		if p, ok := randomMove(b, c, rng, false, &pts); ok {
			_, _ = b.Play(c, p)
			passes = 0
		} else {
			b.Pass()
			passes++
		}
		c = c.Opponent()
	}
	return b
}

// TestPassAliveSurvivesAttack checks soundness: whatever the opponent
// plays, as many moves in a row as it likes while the owner passes, a
// pass-alive stone is never captured.
func TestPassAliveSurvivesAttack(t *testing.T) {
	partly := 0 // positions with settled and unsettled points: the cases that matter
	for seed := range uint64(60) {
		size := []int{5, 7, 9, 13}[seed%4]
		if n := checkPassAliveSurvives(t, randomPosition(size, seed, size*size*(6+int(seed%5))/10), seed); n > 0 && n < size*size {
			partly++
		}
	}
	if partly < 10 {
		t.Errorf("only %d of 60 random positions are partly settled: the test proves little", partly)
	}
}

func FuzzPassAlive(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(uint8(9), seed)
	}
	f.Fuzz(func(t *testing.T, size uint8, seed uint64) {
		n := MinSize + int(size)%(MaxSize-MinSize+1)
		checkPassAliveSurvives(t, randomPosition(n, seed, n*n*(5+int(seed%7))/10), seed)
	})
}

// checkPassAliveSurvives attacks the position and returns how many points
// Benson settled in it.
func checkPassAliveSurvives(t *testing.T, start *Board, seed uint64) int {
	t.Helper()
	settled := start.PassAlive()
	size := start.Size()
	n := 0
	for _, c := range settled {
		if c != Empty {
			n++
		}
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	var pts []Point
	for _, attacker := range []Color{Black, White} {
		for round := 0; round < 4; round++ {
			b := *start
			for moves := 0; moves < 4*size*size; moves++ {
				p, ok := randomAttack(&b, attacker, rng, &pts)
				if !ok {
					break
				}
				_, _ = b.Play(attacker, p)
				b.Pass() // the owner passes
				for i, c := range settled {
					q := Point{i % size, i / size}
					if c == attacker.Opponent() && start.At(q) == c && b.At(q) != c {
						t.Fatalf("seed %d: the pass-alive stone on %s was captured by %s after %d moves\nstart:\n%ssettled:\n%s\nnow:\n%s",
							seed, q, attacker, moves+1, start, strings.Join(settledRows(start), "\n"), b.String())
					}
				}
			}
		}
	}
	return n
}

// randomAttack is any legal move of c, eye-filling included.
func randomAttack(b *Board, c Color, rng *rand.Rand, pts *[]Point) (Point, bool) {
	*pts = (*pts)[:0]
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			if b.Legal(c, Point{x, y}) == nil {
				*pts = append(*pts, Point{x, y})
			}
		}
	}
	if len(*pts) == 0 {
		return Point{}, false
	}
	return (*pts)[rng.IntN(len(*pts))], true
}
