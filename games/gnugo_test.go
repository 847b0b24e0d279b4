package games

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The cross-check against an independent implementation: random legal
// games played on this engine's Board and, move by move, on GNU Go over
// GTP. After every move both must agree on the position, on the captures
// and on the legality of probe moves (the ko point, suicide points,
// occupied points, random empty points) under simple ko. GNU Go is not a
// reference for superko nor for scoring seki, so neither is compared.
//
// Agreement on the position after every move is checked by induction,
// which keeps the traffic small: both start from the same position; a
// move that captures nothing changes one point on both (GNU Go accepted
// the same move, and its capture count did not move either); after a
// move that captures, the captured colour's stones are compared in full.
// The whole position is also compared at the end of every game.

// crossCheckGames is how many random games each board size plays: a few
// thousand in all, sized to take about a minute on two cores under -race.
var crossCheckGames = []struct {
	size, games int
	args        []string
	multi       bool // Ing's multi-stone suicide
}{
	{9, 1500, nil, false},
	{9, 300, []string{"--allow-suicide"}, true},
	{13, 400, nil, false},
	{19, 150, nil, false},
}

func TestGnugoCrossCheck(t *testing.T) {
	needGnugo(t)
	for _, cc := range crossCheckGames {
		name := fmt.Sprintf("%dx%d", cc.size, cc.size)
		if cc.multi {
			name += "-multisuicide"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := startGnugo(t, cc.args...)
			e.must(t, "boardsize "+strconv.Itoa(cc.size))
			games := cc.games
			if testing.Short() {
				games /= 10
			}
			var st crossStats
			for g := range games {
				crossCheckGame(t, e, cc.size, cc.multi, uint64(g), &st)
				if t.Failed() {
					return
				}
			}
			t.Logf("%d games agree with GNU Go: %+v", games, st)
			// The random games must reach the cases the check is for.
			if st.KoProbes == 0 || st.SuicideProbes == 0 || st.Captures == 0 || cc.multi && st.MultiSuicides == 0 {
				t.Errorf("the random games missed a case: %+v", st)
			}
		})
	}
}

// gtpCheck is one command and the reply this engine expects to it.
type gtpCheck struct {
	cmd, want string
	move      int  // the move after which it is asked
	set       bool // compare as sets of vertices
}

// crossStats counts what the cross-check compared.
type crossStats struct {
	Moves, Captures, MultiSuicides        int
	Probes, KoProbes, SuicideProbes, Full int // Full: whole-colour stone lists compared
}

// crossCheckGame plays one random game with seed g and compares every
// step with GNU Go.
func crossCheckGame(t *testing.T, e *gtpEngine, size int, multi bool, g uint64, st *crossStats) {
	t.Helper()
	moves := 0
	rng := rand.New(rand.NewPCG(uint64(size), g))
	b, err := NewBoard(size)
	if err != nil {
		t.Fatal(err)
	}
	b.multiSuicide = multi
	checks := []gtpCheck{{cmd: "clear_board"}}
	stones := func(c Color, move int) gtpCheck {
		var vs []string
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				if b.At(Point{x, y}) == c {
					vs = append(vs, Point{x, y}.Vertex(size))
				}
			}
		}
		st.Full++
		return gtpCheck{cmd: "list_stones " + gtpColor(c), want: strings.Join(vs, " "), move: move, set: true}
	}
	legal := func(c Color, p Point, move int) gtpCheck {
		want := "1"
		if b.Legal(c, p) != nil {
			want = "0"
		}
		st.Probes++
		return gtpCheck{cmd: "is_legal " + gtpColor(c) + " " + p.Vertex(size), want: want, move: move}
	}

	pts := make([]Point, 0, size*size)
	c := Black
	limit := playoutMoveFactor * size * size
	for passes := 0; passes < 2 && moves < limit; c = c.Opponent() {
		moves++
		st.Moves++
		before := b.Captures(c) + b.Captures(c.Opponent())
		own := b.Captures(c.Opponent())
		m, ok := randomMove(b, c, rng, multi, &pts)
		if !ok {
			b.Pass()
			passes++
			checks = append(checks, gtpCheck{cmd: "play " + gtpColor(c) + " pass", move: moves})
		} else {
			passes = 0
			if _, err := b.Play(c, m); err != nil {
				t.Fatalf("size %d game %d move %d: our engine refuses its own legal move %s: %v", size, g, moves, m, err)
			}
			checks = append(checks,
				gtpCheck{cmd: "play " + gtpColor(c) + " " + m.Vertex(size), move: moves},
				gtpCheck{cmd: "captures " + gtpColor(c), want: strconv.Itoa(b.Captures(c)), move: moves},
				gtpCheck{cmd: "captures " + gtpColor(c.Opponent()), want: strconv.Itoa(b.Captures(c.Opponent())), move: moves})
			if b.Captures(c.Opponent()) != own {
				st.MultiSuicides++
			}
			if b.Captures(c)+b.Captures(c.Opponent()) != before {
				st.Captures++
				checks = append(checks, stones(c.Opponent(), moves))
				if multi {
					checks = append(checks, stones(c, moves))
				}
			}
		}
		// Probe the next player's moves: the ko point, a suicide point,
		// an occupied point and two random empty points.
		n := c.Opponent()
		if k, ok := b.Ko(); ok {
			st.KoProbes++
			checks = append(checks, legal(n, k, moves))
		}
		if p, ok := findSuicide(b, n, rng); ok {
			st.SuicideProbes++
			checks = append(checks, legal(n, p, moves))
		}
		for tries := 0; tries < 4; tries++ {
			p := Point{rng.IntN(size), rng.IntN(size)}
			if b.At(p) != Empty || tries >= 2 {
				checks = append(checks, legal(n, p, moves))
			}
		}
	}
	checks = append(checks, stones(Black, moves), stones(White, moves))

	cmds := make([]string, len(checks))
	for i, ch := range checks {
		cmds[i] = ch.cmd
	}
	replies, err := e.do(cmds...)
	if err != nil {
		t.Fatalf("size %d game %d: %v", size, g, err)
	}
	for i, ch := range checks {
		r := replies[i]
		got := r.text
		if ch.set {
			got = sortedFields(got)
			ch.want = sortedFields(ch.want)
		}
		if !r.ok || got != ch.want {
			status := "="
			if !r.ok {
				status = "?"
			}
			t.Errorf("size %d game %d after move %d: %q: GNU Go says %s %q, we say %q\nour position:\n%s",
				size, g, ch.move, ch.cmd, status, r.text, ch.want, positionAt(size, multi, checks, ch.move))
			return
		}
	}
}

func sortedFields(s string) string {
	f := strings.Fields(s)
	slices.Sort(f)
	return strings.Join(f, " ")
}

// positionAt replays the plays of the checks up to move m, for a report.
func positionAt(size int, multi bool, checks []gtpCheck, m int) string {
	b, _ := NewBoard(size)
	b.multiSuicide = multi
	for _, ch := range checks {
		if ch.move > m {
			break
		}
		f := strings.Fields(ch.cmd)
		if f[0] != "play" {
			continue
		}
		c := Black
		if f[1] == "white" {
			c = White
		}
		if f[2] == "pass" {
			b.Pass()
			continue
		}
		p, _ := ParseVertex(f[2], size)
		_, _ = b.Play(c, p)
	}
	return b.String()
}

// randomMove picks a uniformly random legal move for c that does not fill
// c's own eye (so random games end); ok is false when there is none.
// With multi, Ing's multi-stone suicides are legal and so chosen too.
func randomMove(b *Board, c Color, rng *rand.Rand, multi bool, pts *[]Point) (Point, bool) {
	*pts = (*pts)[:0]
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			if b.color[b.index(x, y)] == Empty {
				*pts = append(*pts, Point{x, y})
			}
		}
	}
	ps := *pts
	for n := len(ps); n > 0; n-- {
		j := rng.IntN(n)
		p := ps[j]
		ps[j] = ps[n-1]
		if b.ownEye(c, b.idx(p)) || b.Legal(c, p) != nil {
			continue
		}
		return p, true
	}
	return Point{}, false
}

// findSuicide returns a point where c's move would be suicide, if any. A
// suicide point has no empty neighbour, which is a cheap first filter.
func findSuicide(b *Board, c Color, rng *rand.Rand) (Point, bool) {
	n := b.size * b.size
	off := rng.IntN(n)
	d := b.dirs()
	for k := 0; k < n; k++ {
		j := (off + k) % n
		p := Point{j % b.size, j / b.size}
		i := b.idx(p)
		if b.color[i] != Empty {
			continue
		}
		open := false
		for _, dd := range d {
			open = open || b.color[i+dd] == Empty
		}
		if !open && b.Legal(c, p) == ErrSuicide {
			return p, true
		}
	}
	return Point{}, false
}

// TestPassAliveAgreesWithGnugo compares Benson's algorithm with GNU Go's
// own unconditional life analysis (unconditional_status), which finds the
// same and more: every stone of a pass-alive chain must be "alive" to GNU
// Go, every opponent stone in its vital regions "dead".
func TestPassAliveAgreesWithGnugo(t *testing.T) {
	t.Parallel()
	e := startGnugo(t)
	settledStones, gnugoMore := 0, 0
	for seed := range uint64(40) {
		size := []int{9, 13}[seed%2]
		b := randomPosition(size, seed, size*size*(6+int(seed%5))/10)
		cmds := []string{"boardsize " + strconv.Itoa(size), "clear_board"}
		var stones []Point
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				if c := b.At(Point{x, y}); c != Empty {
					cmds = append(cmds, "play "+gtpColor(c)+" "+Point{x, y}.Vertex(size))
					stones = append(stones, Point{x, y})
				}
			}
		}
		for _, p := range stones {
			cmds = append(cmds, "unconditional_status "+p.Vertex(size))
		}
		rs := e.must(t, cmds...)
		rs = rs[len(rs)-len(stones):]
		settled := b.PassAlive()
		for i, p := range stones {
			want := "undecided"
			switch settled[p.Y*size+p.X] {
			case b.At(p):
				want = "alive"
			case b.At(p).Opponent():
				want = "dead"
			}
			switch {
			case want == "undecided" && rs[i] != "undecided":
				gnugoMore++
			case want != "undecided":
				settledStones++
				if rs[i] != want {
					t.Errorf("seed %d: Benson says the stone on %s is %s, GNU Go says %s\n%s", seed, p, want, rs[i], b)
				}
			}
		}
	}
	if settledStones == 0 {
		t.Fatal("no stone was settled: the comparison proves nothing")
	}
	t.Logf("%d settled stones agree with GNU Go; GNU Go settles %d more", settledStones, gnugoMore)
}
