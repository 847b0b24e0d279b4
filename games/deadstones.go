package games

import (
	"math/rand/v2"
	"runtime"
	"sync"
)

// DefaultPlayouts is decided: the number of random playouts EstimateDead
// runs when the options give none. Ownership estimates settle to within a
// few hundredths by then, and 19×19 takes a few tens of milliseconds.
const DefaultPlayouts = 1000

// deadOwnership is decided: a chain that is not pass-alive is dead when
// the mean ownership of its points, seen from its own colour, is below
// this: the opponent ends up owning them more often than its owner does.
const deadOwnership = 0.0

// EstimateOptions tune EstimateDead.
type EstimateOptions struct {
	Playouts int    // random playouts; 0: DefaultPlayouts
	Seed     uint64 // the same seed and position give the same estimate
	// Workers run playouts in parallel; 0: GOMAXPROCS. The result does not
	// depend on it: each playout has its own random stream.
	Workers int
}

// Estimate is a proposal of the dead stones of a final position.
type Estimate struct {
	Size int `json:"size"`
	// Dead holds the proposed dead stones in board order (rows from the
	// top), whole chains: ready for ScoreParams.Dead.
	Dead []Point `json:"dead"`
	// Ownership is, for each point in row-major order from the top left
	// (index y*Size+x), how surely it ends as Black's (+1) or White's (-1)
	// area: the mean over the playouts, 0 for points no one owns.
	Ownership []float64 `json:"ownership"`
	// Settled holds, in the same order, the owner Benson's algorithm proves
	// (pass-alive chains and their vital regions), Empty elsewhere.
	Settled  []Color `json:"-"`
	Playouts int     `json:"playouts"`
}

// OwnerAt returns the ownership of p (+1 Black … -1 White; 0 off the board).
func (e *Estimate) OwnerAt(p Point) float64 {
	if !p.On(e.Size) {
		return 0
	}
	return e.Ownership[p.Y*e.Size+p.X]
}

// EstimateDead proposes which stones of a final position are dead, for
// both players to confirm. Stones of pass-alive chains (Benson) are never
// dead, and opponent stones inside their vital regions always are. For
// the rest it estimates ownership by random playouts from the position:
// both players play uniformly random legal moves that neither fill their
// own eye nor put a chain of two or more stones into atari (that would
// break sekis), under simple ko, never suicide, until both pass; half the
// playouts start with Black, half with White. A chain whose points end up
// owned by the opponent more often than by its own colour is dead.
// The ruleset does not enter: life and death are the same under all of
// ours, and the caller scores the result under its own rules.
func EstimateDead(b *Board, opt EstimateOptions) *Estimate {
	n := opt.Playouts
	if n <= 0 {
		n = DefaultPlayouts
	}
	var settled bensonResult
	settled.run(b)

	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n/64))
	sums := make([][maxIndex]int32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p playout
			p.init(b, &settled.owner)
			for k := w; k < n; k += workers {
				p.run(opt.Seed, uint64(k))
				p.tally(&sums[w])
			}
		}()
	}
	wg.Wait()

	e := &Estimate{Size: b.size, Playouts: n, Ownership: make([]float64, b.size*b.size), Settled: make([]Color, b.size*b.size)}
	var own [maxIndex]float64
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			var s int32
			for w := range sums {
				s += sums[w][i]
			}
			own[i] = float64(s) / float64(n)
			switch settled.owner[i] {
			case Black:
				own[i] = 1
			case White:
				own[i] = -1
			}
			e.Ownership[y*b.size+x] = own[i]
			e.Settled[y*b.size+x] = settled.owner[i]
		}
	}
	e.Dead = deadChains(b, &own, &settled.owner)
	return e
}

// deadChains applies the decision rule to every chain: not pass-alive and
// mean ownership (from its own side) below deadOwnership, or lying in a
// vital region of the opponent's pass-alive chains.
func deadChains(b *Board, own *[maxIndex]float64, settled *[maxIndex]Color) []Point {
	var dead [maxIndex]bool
	var done [maxIndex]bool
	var out []Point
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			c := b.color[i]
			if !isStone(c) {
				continue
			}
			h := b.head[i]
			if !done[h] {
				done[h] = true
				switch settled[h] {
				case c:
				case c.Opponent():
					dead[h] = true
				default:
					sum := 0.0
					for s := h; ; {
						sum += own[s]
						if s = b.next[s]; s == h {
							break
						}
					}
					mean := sum / float64(b.count[h])
					if c == White {
						mean = -mean
					}
					dead[h] = mean < deadOwnership
				}
			}
			if dead[h] {
				out = append(out, Point{x, y})
			}
		}
	}
	return out
}

// playoutMoveFactor bounds a playout at this many moves per board point,
// so that a long cycle of kos cannot run on for ever.
const playoutMoveFactor = 3

// playout is one worker's playing board and its list of candidate points.
// It is set up once and reused for every playout: a playout allocates
// nothing.
type playout struct {
	start Board
	b     Board
	fixed *[maxIndex]Color // settled points: no one plays there
	// free[:nFree] are the empty points outside settled regions; at[i] is
	// the position of index i in free, -1 when it is not there.
	free  [maxIndex]int16
	at    [maxIndex]int16
	nFree int
	rng   rand.PCG
	moves int // plays made in all playouts so far, for benchmarks
}

func (p *playout) init(b *Board, fixed *[maxIndex]Color) {
	p.start = *b
	p.start.multiSuicide = false
	p.fixed = fixed
}

// run plays one playout from the start position, with the random stream
// (seed, k); even k start with Black, odd k with White.
func (p *playout) run(seed, k uint64) {
	p.b = p.start
	p.rng.Seed(seed, k)
	b := &p.b
	p.nFree = 0
	for i := range p.at {
		p.at[i] = -1
	}
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			if i := b.index(x, y); b.color[i] == Empty && p.fixed[i] == Empty {
				p.add(i)
			}
		}
	}
	c := Black
	if k%2 == 1 {
		c = White
	}
	limit := playoutMoveFactor * b.size * b.size
	for moves, passes := 0, 0; passes < 2 && moves < limit; moves++ {
		if p.move(c) {
			passes = 0
			p.moves++
		} else {
			b.Pass()
			passes++
		}
		c = c.Opponent()
	}
}

func (p *playout) add(i int16) {
	p.at[i] = int16(p.nFree)
	p.free[p.nFree] = i
	p.nFree++
}

func (p *playout) del(i int16) {
	j := p.at[i]
	p.nFree--
	last := p.free[p.nFree]
	p.free[j], p.at[last] = last, j
	p.at[i] = -1
}

func (p *playout) swap(j, k int) {
	a, c := p.free[j], p.free[k]
	p.free[j], p.free[k] = c, a
	p.at[a], p.at[c] = int16(k), int16(j)
}

// move plays a random acceptable move for c and reports whether there
// was one. Candidates are drawn without replacement: a rejected one is
// moved past the end of the window still to draw from.
func (p *playout) move(c Color) bool {
	b := &p.b
	for n := p.nFree; n > 0; n-- {
		j := int(uint64(uint32(p.rng.Uint64())) * uint64(n) >> 32)
		i := p.free[j]
		if b.ownEye(c, i) {
			p.swap(j, n-1)
			continue
		}
		pl, err := b.check(c, i)
		if err != nil || p.selfAtari(c, &pl) {
			p.swap(j, n-1)
			continue
		}
		b.apply(c, &pl)
		p.del(i)
		for k := 0; k < pl.nCaps; k++ {
			h := pl.caps[k]
			for s := h; ; { // remove keeps the ring of the removed chain
				p.add(s)
				if s = b.next[s]; s == h {
					break
				}
			}
		}
		return true
	}
	return false
}

// ownEye reports whether the empty point i is c's own eye: all its
// neighbours are c's (or the edge) and the opponent does not hold enough
// diagonals to make it false (two in the open, one on the edge).
func (b *Board) ownEye(c Color, i int16) bool {
	s := int16(b.stride)
	edge := false
	for _, q := range [4]int16{i - 1, i + 1, i - s, i + s} {
		switch b.color[q] {
		case border:
			edge = true
		case c:
		default:
			return false
		}
	}
	opp, bad := c.Opponent(), 0
	for _, q := range [4]int16{i - s - 1, i - s + 1, i + s - 1, i + s + 1} {
		if q >= 0 && b.color[q] == opp { // the top-left corner's diagonal is index -1
			bad++
		}
	}
	if edge {
		return bad == 0
	}
	return bad < 2
}

// selfAtari reports whether the planned move leaves a chain of two or
// more of c's stones with a single liberty without capturing anything.
func (p *playout) selfAtari(c Color, pl *plan) bool {
	if pl.nOwn == 0 || pl.captures > 0 {
		return false
	}
	b := &p.b
	i := pl.at
	d := b.dirs()
	var lib int16 // the one liberty found so far
	note := func(q int16) bool {
		if q == i || q == lib {
			return false
		}
		if lib != 0 {
			return true // a second liberty
		}
		lib = q
		return false
	}
	for k := 0; k < 4; k++ {
		if q := i + d[k]; b.color[q] == Empty && note(q) {
			return false
		}
	}
	for k := 0; k < pl.nOwn; k++ {
		h := pl.own[k]
		for s := h; ; {
			for j := 0; j < 4; j++ {
				if q := s + d[j]; b.color[q] == Empty && note(q) {
					return false
				}
			}
			if s = b.next[s]; s == h {
				break
			}
		}
	}
	return true
}

// tally adds the final position's ownership to sum: +1 for Black's
// stones and for empty points whose neighbours are all black, -1 likewise
// for White, the settled owner on settled points.
func (p *playout) tally(sum *[maxIndex]int32) {
	b := &p.b
	d := b.dirs()
	for y := 0; y < b.size; y++ {
		i := b.index(0, y)
		for x := 0; x < b.size; x++ {
			c := b.color[i]
			if f := p.fixed[i]; f != Empty {
				c = f
			} else if c == Empty {
				var seen uint8
				for k := 0; k < 4; k++ {
					seen |= 1 << b.color[i+d[k]]
				}
				switch seen &^ (1 << border) {
				case 1 << Black:
					c = Black
				case 1 << White:
					c = White
				}
			}
			switch c {
			case Black:
				sum[i]++
			case White:
				sum[i]--
			}
			i++
		}
	}
}
