package games

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// naive is a deliberately simple second implementation of the rules:
// boards are slices, groups are found by flood fill, every earlier
// position is kept whole. The engine must agree with it move by move.
type naive struct {
	size     int
	rules    Ruleset
	board    [][]Color
	captured [3]int
	toMove   Color
	history  []naivePos // every position so far, the current one last
	lastPlay bool       // the previous move was a play (not a pass)
	cycle    bool
}

type naivePos struct {
	board  [][]Color
	toMove Color
	byPlay bool
	stones int // a cheap first comparison
}

func countStones(g [][]Color) int {
	n := 0
	for _, row := range g {
		for _, c := range row {
			if c != Empty {
				n++
			}
		}
	}
	return n
}

func newNaive(size int, r Ruleset) *naive {
	n := &naive{size: size, rules: r, toMove: Black}
	n.board = make([][]Color, size)
	for i := range n.board {
		n.board[i] = make([]Color, size)
	}
	n.history = []naivePos{{copyGrid(n.board), Black, true, 0}}
	return n
}

func copyGrid(g [][]Color) [][]Color {
	c := make([][]Color, len(g))
	for i := range g {
		c[i] = append([]Color(nil), g[i]...)
	}
	return c
}

func sameGrid(a, b [][]Color) bool {
	for y := range a {
		for x := range a[y] {
			if a[y][x] != b[y][x] {
				return false
			}
		}
	}
	return true
}

func (n *naive) group(g [][]Color, x, y int) (stones [][2]int, libs int) {
	c := g[y][x]
	seen := map[[2]int]bool{{x, y}: true}
	libSeen := map[[2]int]bool{}
	todo := [][2]int{{x, y}}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		stones = append(stones, p)
		for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			q := [2]int{p[0] + d[0], p[1] + d[1]}
			if q[0] < 0 || q[1] < 0 || q[0] >= n.size || q[1] >= n.size {
				continue
			}
			switch g[q[1]][q[0]] {
			case Empty:
				libSeen[q] = true
			case c:
				if !seen[q] {
					seen[q] = true
					todo = append(todo, q)
				}
			}
		}
	}
	return stones, len(libSeen)
}

// play returns the sentinel error for an illegal move, else plays it.
func (n *naive) play(m Move) error {
	if n.cycle {
		return ErrGameOver
	}
	if m.Color != n.toMove {
		return ErrWrongTurn
	}
	if m.Pass {
		n.toMove = m.Color.Opponent()
		n.lastPlay = false
		n.history = append(n.history, naivePos{copyGrid(n.board), n.toMove, false, countStones(n.board)})
		return nil
	}
	x, y := m.Point.X, m.Point.Y
	if x < 0 || y < 0 || x >= n.size || y >= n.size {
		return ErrOffBoard
	}
	if n.board[y][x] != Empty {
		return ErrOccupied
	}
	g := copyGrid(n.board)
	g[y][x] = m.Color
	opp := m.Color.Opponent()
	caps := 0
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		qx, qy := x+d[0], y+d[1]
		if qx < 0 || qy < 0 || qx >= n.size || qy >= n.size || g[qy][qx] != opp {
			continue
		}
		if st, libs := n.group(g, qx, qy); libs == 0 {
			for _, s := range st {
				g[s[1]][s[0]] = Empty
			}
			caps += len(st)
		}
	}
	selfCaps := 0
	if st, libs := n.group(g, x, y); libs == 0 {
		if !n.rules.MultiStoneSuicide || len(st) < 2 {
			return ErrSuicide
		}
		for _, s := range st {
			g[s[1]][s[0]] = Empty
		}
		selfCaps = len(st)
	}
	if n.lastPlay && sameGrid(g, n.history[len(n.history)-2].board) {
		return ErrKo
	}
	next := opp
	stones := countStones(g)
	if n.rules.Ko != KoSimple {
		for _, h := range n.history {
			if h.stones == stones && sameGrid(h.board, g) && (n.rules.Ko == KoPositional || h.toMove == next) {
				return ErrSuperko
			}
		}
	} else {
		seen := 0
		for _, h := range n.history {
			if h.byPlay && h.toMove == next && h.stones == stones && sameGrid(h.board, g) {
				seen++
			}
		}
		if seen+1 >= cycleOccurrences {
			n.cycle = true
		}
	}
	n.board = g
	n.captured[m.Color] += caps
	n.captured[opp] += selfCaps
	n.toMove = next
	n.lastPlay = true
	n.history = append(n.history, naivePos{copyGrid(g), next, true, countStones(g)})
	return nil
}

func sentinel(err error) error {
	for e := range reasonCodes {
		if errors.Is(err, e) {
			return e
		}
	}
	return err
}

// TestEngineAgreesWithNaive plays random games (random points, some
// passes, some off-board and wrong-colour tries) on small boards, where
// captures, kos and repetitions are frequent, under every ko rule and
// both suicide rules, and checks legality, reason, position, captures and
// the cycle end against the naive implementation after every move.
func TestEngineAgreesWithNaive(t *testing.T) {
	rulesets := map[string]Ruleset{
		"simple": QQ(), "positional": func() Ruleset { r := Chinese(); r.Ko = KoPositional; return r }(),
		"situational": Chinese(), "ing": Ing(), "japanese": Japanese(),
	}
	games := 60
	if testing.Short() {
		games = 20
	}
	for name, rules := range rulesets {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(1, uint64(len(name))))
			moves, cycles, illegal := 0, 0, map[string]int{}
			for gi := 0; gi < games; gi++ {
				size := 5 + rng.IntN(3)
				g, err := NewGame(size, rules, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				n := newNaive(size, rules)
				refused := 0 // in a row; a full board refuses most points
				for step := 0; step < 400 && !n.cycle; step++ {
					m := Move{Color: n.toMove}
					switch r := rng.IntN(100); {
					case r < 4 || refused > 8:
						m.Pass = true
					case r < 5:
						m.Point = Point{size, rng.IntN(size)}
					case r < 6:
						m.Color = m.Color.Opponent()
						m.Point = Point{rng.IntN(size), rng.IntN(size)}
					case r < 20:
						m.Point = Point{rng.IntN(size), rng.IntN(size)}
					default: // an empty point, so games get long and dense
						var empty []Point
						for y := 0; y < size; y++ {
							for x := 0; x < size; x++ {
								if n.board[y][x] == Empty {
									empty = append(empty, Point{x, y})
								}
							}
						}
						if len(empty) == 0 {
							m.Pass = true
						} else {
							m.Point = empty[rng.IntN(len(empty))]
						}
					}
					want := n.play(m)
					got := g.Play(m)
					if sentinel(got) != want {
						t.Fatalf("game %d move %d %v: engine says %v, naive %v\n%s", gi, g.MoveCount()+1, m, got, want, g.board.String())
					}
					if got != nil {
						refused++
						illegal[ReasonCode(got)]++
						var me *MoveError
						if !errors.As(got, &me) || me.Number != g.MoveCount()+1 || me.Move != m {
							t.Fatalf("error %#v does not name move %d %v", got, g.MoveCount()+1, m)
						}
						continue
					}
					moves++
					refused = 0
					for y := 0; y < size; y++ {
						for x := 0; x < size; x++ {
							if g.At(Point{x, y}) != n.board[y][x] {
								t.Fatalf("game %d after move %d: positions differ at %v\nengine\n%snaive %v", gi, g.MoveCount(), Point{x, y}, g.board.String(), n.board)
							}
						}
					}
					if g.Captures(Black) != n.captured[Black] || g.Captures(White) != n.captured[White] {
						t.Fatalf("captures differ: engine %d/%d naive %v", g.Captures(Black), g.Captures(White), n.captured)
					}
					if _, cyc := g.Cycle(); cyc != n.cycle {
						t.Fatalf("cycle: engine %v naive %v", cyc, n.cycle)
					}
					checkInvariants(t, &g.board)
				}
				if n.cycle {
					cycles++
				}
			}
			t.Logf("%d legal moves, %d cycles; illegal tries by reason: %v", moves, cycles, illegal)
			for _, want := range []string{"occupied", "suicide", "ko", "off_board", "wrong_turn"} {
				if illegal[want] == 0 {
					t.Errorf("random games never tried a %s move; the test lost its reach", want)
				}
			}
			if rules.Ko != KoSimple && illegal["superko"] == 0 {
				t.Errorf("random games never met superko")
			}
		})
	}
}

// checkInvariants: every chain has a liberty, the chain bookkeeping
// matches a recount, and the hash matches the stones.
func checkInvariants(t *testing.T, b *Board) {
	t.Helper()
	var h uint64
	stones := [3]int{}
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			c := b.color[i]
			if !isStone(c) {
				continue
			}
			stones[c]++
			h ^= zobrist[c][i]
			if b.Liberties(Point{x, y}) == 0 {
				t.Fatalf("stone on %v has no liberty\n%s", Point{x, y}, b)
			}
			if n := len(b.Chain(Point{x, y})); n != int(b.count[b.head[i]]) {
				t.Fatalf("chain on %v: %d stones listed, count says %d", Point{x, y}, n, b.count[b.head[i]])
			}
		}
	}
	if h != b.hash {
		t.Fatalf("hash %x, stones hash to %x", b.hash, h)
	}
	if stones != b.stones {
		t.Fatalf("stone counts %v, board says %v", stones, b.stones)
	}
}
