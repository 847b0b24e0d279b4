package games

import (
	"cmp"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// DefaultPlayouts is decided: the number of random playouts EstimateDead
// runs when the options give none. The ownership of a point is then known
// to about ±0.03, well inside the margin deadOwnership leaves; on the
// GNU Go corpus 250 playouts already do as well (docs/benchmarks.md), and
// 1000 cost a few tens of milliseconds on 19×19.
const DefaultPlayouts = 1000

// deadOwnership is decided: a chain that is not pass-alive is dead when
// the mean ownership of its points, seen from its own colour (+1 always
// its own, -1 always the opponent's), is below this. Above zero because
// both players passed: a chain its owner keeps in barely more than half
// the random continuations is, in a finished game, usually one the
// opponent did not bother to capture. On the corpus every value from 0.1
// to 0.4 gives the same agreement; 0.25 is the middle.
const deadOwnership = 0.25

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
// both players play random legal moves that neither fill their own eye
// nor put a chain of two or more stones into atari (that would break
// sekis), under simple ko, never suicide, until both pass; a player first
// captures a chain the opponent's last move left in atari, or saves its
// own chain that move put in atari, else plays the vital point of an eye
// space the last move borders (vitalPoint); the first move of a playout takes
// the largest chain of the opponent's already in atari; half the playouts
// start with Black, half with White. A chain whose points its own colour keeps too rarely
// (mean ownership below deadOwnership) is dead, and so is one kept less
// than strongOwnership in an open area of the opponent's with no way to a
// strong chain of its own (strandedChains); unless it is in contact with
// a dead chain of the opponent's that is kept more rarely and that it
// encloses (reviveRivals). Whatever its ownership, a group whose only
// eye would be the space left by capturing a chain in atari inside it is
// dead, and that chain alive, when the space is one the vital point kills
// (killedByNakade).
//
// The ruleset does not enter: life and death are the same under all of
// ours, and the caller counts the proposal under its own rules.
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

// roomyChains marks the heads of chains that border an empty region of at
// least bigEyeSpace points that only their colour borders: room for two
// eyes that no opponent stone has entered. Random playouts defend such
// room badly (the opponent invades and the owner does not answer), so
// their ownership of it is no guide; players who passed leave it as
// territory.
func roomyChains(b *Board) *[maxIndex]bool {
	var rg regions
	col := b.color
	rg.find(b, &col)
	var roomy [maxIndex]bool
	d := b.dirs()
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			if b.color[i] != Empty {
				continue
			}
			r := rg.region[i] - 1
			t := rg.touch[r]
			if rg.size[r] < bigEyeSpace || t != touchBlack && t != touchWhite {
				continue
			}
			for k := 0; k < 4; k++ {
				if q := i + d[k]; isStone(b.color[q]) {
					roomy[b.head[q]] = true
				}
			}
		}
	}
	return &roomy
}

// deadChains applies the decision rule to every chain: not pass-alive, not
// bordering room for two eyes of its own (roomyChains), and mean ownership
// (from its own side) below deadOwnership; or lying in a vital region of
// the opponent's pass-alive chains; or stranded (strandedChains); or with
// a killing shape inside as its only eye (killedByNakade). Of two
// chains in contact that would both be dead, the one its colour keeps
// more often lives, if it encloses the other (reviveRivals).
func deadChains(b *Board, own *[maxIndex]float64, settled *[maxIndex]Color) []Point {
	var dead, done [maxIndex]bool
	var mean [maxIndex]float64 // of dead chains not settled dead, by head
	roomy := roomyChains(b)
	var heads []int16
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			c := b.color[i]
			if !isStone(c) || done[b.head[i]] {
				continue
			}
			h := b.head[i]
			done[h] = true
			switch settled[h] {
			case c:
			case c.Opponent():
				dead[h] = true
			default:
				if roomy[h] {
					break
				}
				sum := 0.0
				for s := h; ; {
					sum += own[s]
					if s = b.next[s]; s == h {
						break
					}
				}
				m := sum / float64(b.count[h])
				if c == White {
					m = -m
				}
				mean[h] = m
				if m < deadOwnership {
					dead[h] = true
					heads = append(heads, h)
				}
			}
		}
	}
	killedByNakade(b, &dead, &mean, settled, roomy)
	heads = append(heads, strandedChains(b, own, &dead, &mean, settled, roomy)...)
	reviveRivals(b, &dead, &mean, heads, settled)
	var out []Point
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			if i := b.index(x, y); isStone(b.color[i]) && dead[b.head[i]] {
				out = append(out, Point{x, y})
			}
		}
	}
	return out
}

// killedByNakade marks dead the chains whose only eye would be the space
// left by capturing a chain of 3 to maxEyeSpace stones in atari inside
// them, when that space is a killing shape (killingShape), and keeps the
// chain in atari alive: after the capture its colour plays the vital
// point, and the group has one eye at most. The playouts misread this:
// the kill goes on with sacrifices of two or more stones, which they
// never play (selfAtari), so the group lives in most of them
// (gnugo-13-500363: 23 white stones around five black ones in the
// corner, kept 0.5). Every other liberty of the group must be a point
// that only stones border, a strong stone of the chain's colour among
// them (no eye, no way out), and every other chain of that colour in
// contact strong: no race to win instead.
func killedByNakade(b *Board, dead *[maxIndex]bool, mean *[maxIndex]float64, settled *[maxIndex]Color, roomy *[maxIndex]bool) {
	strong := func(h int16) bool {
		return settled[h] == b.color[h] || roomy[h] || mean[h] >= strongOwnership
	}
	d := b.dirs()
	var group []int16
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			h := b.index(x, y)
			c := b.color[h]
			if !isStone(c) || b.head[h] != h || settled[h] != Empty || b.count[h] < 3 || b.count[h] > maxEyeSpace {
				continue
			}
			lib := b.atariLiberty(h)
			if lib == 0 || !killingShape(b, h) {
				continue
			}
			// The group: the opponent's chains around the chain and its
			// liberty, which must border nothing else.
			group = group[:0]
			ok := true
			around := func(q int16) {
				switch {
				case b.color[q] == c.Opponent():
					if !slices.Contains(group, b.head[q]) {
						group = append(group, b.head[q])
					}
				case b.color[q] == border || b.head[q] == h && b.color[q] == c || q == lib:
				default:
					ok = false
				}
			}
			for s := h; ; {
				for k := 0; k < 4; k++ {
					around(s + d[k])
				}
				if s = b.next[s]; s == h {
					break
				}
			}
			for k := 0; k < 4; k++ {
				around(lib + d[k])
			}
			for _, g := range group {
				if !ok {
					break
				}
				ok = settled[g] == Empty && !roomy[g] && b.onlyFalseLiberties(g, h, lib, group, strong)
			}
			if !ok {
				continue
			}
			for _, g := range group {
				dead[g] = true
			}
			dead[h] = false
		}
	}
}

// onlyFalseLiberties reports whether every liberty of the chain at head g
// but lib is a point that only stones border, among them a strong one of
// the opponent's and none of g's colour outside group, and every chain of
// the opponent's in contact with g but the one at head h is strong.
func (b *Board) onlyFalseLiberties(g, h, lib int16, group []int16, strong func(int16) bool) bool {
	d := b.dirs()
	c := b.color[g]
	for s := g; ; {
		for k := 0; k < 4; k++ {
			q := s + d[k]
			switch {
			case b.color[q] == c.Opponent() && b.head[q] != h && !strong(b.head[q]):
				return false
			case b.color[q] == Empty && q != lib && !b.falseLiberty(q, c, group, strong):
				return false
			}
		}
		if s = b.next[s]; s == g {
			break
		}
	}
	return true
}

// falseLiberty reports whether the empty point q, a liberty of group's
// colour c, is bordered only by stones: group's and strong ones of the
// opponent's, at least one of those (else it is an eye).
func (b *Board) falseLiberty(q int16, c Color, group []int16, strong func(int16) bool) bool {
	d := b.dirs()
	blocked := false
	for j := 0; j < 4; j++ {
		r := q + d[j]
		switch b.color[r] {
		case Empty:
			return false
		case c:
			if !slices.Contains(group, b.head[r]) {
				return false
			}
		case c.Opponent():
			if !strong(b.head[r]) {
				return false
			}
			blocked = true
		}
	}
	return blocked
}

// killingShape reports whether the points of the chain at head h, emptied,
// are an eye space that one move at its vital point kills: three points,
// the square and the pyramid four, the bulky and the crossed five, the
// rabbity six.
func killingShape(b *Board, h int16) bool {
	d := b.dirs()
	s := int16(b.stride)
	maxDeg, minDeg, block := 0, 4, false
	for p := h; ; {
		deg := 0
		for k := 0; k < 4; k++ {
			if q := p + d[k]; b.color[q] == b.color[h] && b.head[q] == h {
				deg++
			}
		}
		maxDeg, minDeg = max(maxDeg, deg), min(minDeg, deg)
		if in := func(q int16) bool { return b.color[q] == b.color[h] && b.head[q] == h }; in(p+1) && in(p+s) && in(p+s+1) {
			block = true
		}
		if p = b.next[p]; p == h {
			break
		}
	}
	switch b.count[h] {
	case 3:
		return true
	case 4:
		return maxDeg == 3 || minDeg == 2 // pyramid, square
	case 5:
		return maxDeg == 4 || block // crossed, bulky
	case 6:
		return maxDeg == 4 && block // rabbity
	}
	return false
}

// strongOwnership is the mean ownership above which a chain is a
// friend to lean on in strandedChains.
const strongOwnership = 0.5

// strandedChains marks dead, and returns, the chains kept only now and
// then (mean ownership below strongOwnership) that no empty path joins
// to a strong chain of their colour (pass-alive, roomy, or kept more
// often), in an open area (bigEyeSpace empty points or more) that strong
// (or dead) stones of the opponent's enclose, at least two for each stone
// inside, and that the opponent keeps more often than not:
// the playouts let such stones live a third of the time, and GNU Go
// counts them dead. A tight fight (a seki, a race of few liberties) is
// left to the playouts, and so is an area of the chain's own.
func strandedChains(b *Board, own *[maxIndex]float64, dead *[maxIndex]bool, mean *[maxIndex]float64, settled *[maxIndex]Color, roomy *[maxIndex]bool) []int16 {
	f := chainFacts{b: b, own: own, dead: dead, mean: mean, settled: settled, roomy: roomy}
	var out []int16
	for _, c := range []Color{Black, White} {
		f.comp, f.walls = [maxIndex]int16{}, [maxIndex]int16{}
		n := int16(0)
		for y := 0; y < b.size; y++ {
			for x := 0; x < b.size; x++ {
				i := b.index(x, y)
				if f.comp[i] != 0 || b.color[i] != Empty && b.color[i] != c {
					continue
				}
				n++
				if a := f.area(c, i, n); a.stranded() {
					for _, h := range a.weak {
						dead[h] = true
						out = append(out, h)
					}
				}
			}
		}
	}
	return out
}

// chainFacts is what deadChains knows of each chain (by head) and point,
// and strandedChains' scratch space.
type chainFacts struct {
	b       *Board
	own     *[maxIndex]float64 // ownership of each point
	dead    *[maxIndex]bool
	mean    *[maxIndex]float64 // mean ownership from the chain's side
	settled *[maxIndex]Color
	roomy   *[maxIndex]bool

	comp, walls [maxIndex]int16 // area number of each point; of each wall stone
	stack       []int16
}

// strong reports whether the chain at head h lives for sure or mostly.
func (f *chainFacts) strong(h int16) bool {
	return f.settled[h] == f.b.color[h] || f.roomy[h] || f.mean[h] >= strongOwnership
}

// openArea is one area of strandedChains: empty points and stones of one
// colour joined by adjacency, and the opponent's stones around it.
type openArea struct {
	strong bool    // it holds a strong chain of its colour
	open   bool    // a weak chain of the opponent's is among its walls
	empty  int     // empty points
	owned  float64 // their ownership summed, from the area's colour
	wall   int     // the opponent's stones around it
	stones int     // its colour's stones
	weak   []int16 // heads of its colour's chains neither strong, settled nor dead
}

// stranded reports whether the area's weak chains are dead: no strong
// friend, room enough that it is no tight fight, kept by the opponent
// more often than not, and walled in by twice as many stones as it holds.
func (a *openArea) stranded() bool {
	return !a.strong && !a.open && a.empty >= bigEyeSpace && a.owned < 0 && a.wall >= 2*a.stones
}

// area floods the area of colour c from point i, numbering it n.
func (f *chainFacts) area(c Color, i, n int16) openArea {
	b := f.b
	d := b.dirs()
	var a openArea
	f.comp[i] = n
	f.stack = append(f.stack[:0], i)
	for len(f.stack) > 0 {
		p := f.stack[len(f.stack)-1]
		f.stack = f.stack[:len(f.stack)-1]
		switch {
		case b.color[p] == Empty:
			a.empty++
			a.owned += f.own[p]
		case b.head[p] == p && f.strong(p):
			a.strong = true
		case b.head[p] == p && f.settled[p] == Empty && !f.dead[p]:
			a.weak = append(a.weak, p)
		}
		if b.color[p] == c {
			a.stones++
		}
		for k := 0; k < 4; k++ {
			q := p + d[k]
			switch h := b.head[q]; {
			case b.color[q] == c.Opponent():
				// The area is enclosed only by strong or dead stones
				// of the opponent's.
				if !f.strong(h) && !f.dead[h] {
					a.open = true
				}
				if f.walls[q] != n {
					f.walls[q] = n
					a.wall++
				}
			case f.comp[q] == 0 && (b.color[q] == Empty || b.color[q] == c):
				f.comp[q] = n
				f.stack = append(f.stack, q)
			}
		}
	}
	if c == White {
		a.owned = -a.owned
	}
	return a
}

// reviveRivals keeps alive, of two chains of opposite colours in contact
// that are both dead, the one its colour keeps more often, when the other
// lies enclosed (enclosedBy): one of them must live (the other is inside
// its area), and weak playouts lose both when a group makes its eyes by
// capturing the stones inside it. A rival that reaches a living friend
// is no such stone: in gnugo-13-500046 two black stones lie dead in
// White's corner next to a white stone that reaches White's living
// stones, and the black ones are kept a little more often (0.07 against
// -0.01). Chains are taken from the most often kept down, so a revived
// chain leaves its rivals dead.
func reviveRivals(b *Board, dead *[maxIndex]bool, mean *[maxIndex]float64, heads []int16, settled *[maxIndex]Color) {
	slices.SortStableFunc(heads, func(a, c int16) int { return cmp.Compare(mean[c], mean[a]) })
	d := b.dirs()
	var stack []int16
	for _, h := range heads {
		opp := b.color[h].Opponent()
		rival := false
		for s := h; !rival; {
			for k := 0; k < 4; k++ {
				q := s + d[k]
				if r := b.head[q]; b.color[q] == opp && dead[r] && settled[r] != b.color[h] && mean[r] < mean[h] && b.enclosedBy(r, dead, &stack) {
					rival = true
				}
			}
			if s = b.next[s]; s == h {
				break
			}
		}
		if rival {
			dead[h] = false
		}
	}
}

// enclosedBy reports whether the chain at head r reaches no living chain
// of its colour through empty points and dead chains of its colour: the
// opponent's stones enclose it.
func (b *Board) enclosedBy(r int16, dead *[maxIndex]bool, stack *[]int16) bool {
	var seen [maxIndex]bool
	c := b.color[r]
	d := b.dirs()
	st := append((*stack)[:0], r)
	seen[r] = true
	defer func() { *stack = st[:0] }()
	for len(st) > 0 {
		p := st[len(st)-1]
		st = st[:len(st)-1]
		for k := 0; k < 4; k++ {
			q := p + d[k]
			switch {
			case seen[q]:
			case b.color[q] == c && !dead[b.head[q]]:
				return false
			case b.color[q] == c || b.color[q] == Empty:
				seen[q] = true
				st = append(st, q)
			}
		}
	}
	return true
}

// maxEyeSpace is the largest eye space whose vital point the playouts
// play: six points (the rabbity six) is the largest that dies to one move
// inside; on the real records 6 measured better than 5 with every seed.
const maxEyeSpace = 6

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
	moves int   // plays made in all playouts so far, for benchmarks
	last  int16 // the last play of the playout, 0 after a pass
	// opening: the playout's first move is still to come.
	opening bool
	// mark[i] == stamp: i was seen by the current vitalPoint.
	mark  [maxIndex]uint32
	stamp uint32
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
	p.nFree = 0 // at[] of points not in free is never read: no reset needed
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			if i := b.index(x, y); b.color[i] == Empty && p.fixed[i] == Empty {
				p.add(i)
			}
		}
	}
	p.last, p.opening = 0, true
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
	if p.last != 0 {
		if i := p.tactical(c); i != 0 {
			if pl, err := b.check(c, i); err == nil && !p.selfAtari(c, &pl) {
				p.play(c, &pl)
				return true
			}
		}
		if i := p.vitalPoint(); i != 0 {
			if pl, err := b.check(c, i); err == nil && !p.selfAtari(c, &pl) {
				p.play(c, &pl)
				return true
			}
		}
	} else if p.opening {
		// The first move of a playout answers the position itself: a
		// chain of the opponent's already in atari is taken (no last
		// move points at it).
		p.opening = false
		if i := p.capturable(c); i != 0 {
			if pl, err := b.check(c, i); err == nil {
				p.play(c, &pl)
				return true
			}
		}
	}
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
		p.play(c, &pl)
		return true
	}
	p.last = 0
	return false
}

// play applies a checked move and updates the list of free points.
func (p *playout) play(c Color, pl *plan) {
	b := &p.b
	b.apply(c, pl)
	p.del(pl.at)
	p.last = pl.at
	for k := 0; k < pl.nCaps; k++ {
		h := pl.caps[k]
		for s := h; ; { // remove keeps the ring of the removed chain
			p.add(s)
			if s = b.next[s]; s == h {
				break
			}
		}
	}
}

// tactical answers the opponent's last move: capture a chain of the
// opponent's in atari next to it, else save c's chain that it put in atari
// (the caller checks the rescue is no self-atari). 0: nothing to do.
func (p *playout) tactical(c Color) int16 {
	b := &p.b
	d := b.dirs()
	last := p.last
	if b.color[last] != c.Opponent() {
		return 0
	}
	if lib := b.atariLiberty(b.head[last]); lib != 0 {
		return lib
	}
	for k := 0; k < 4; k++ {
		q := last + d[k]
		if b.color[q] == c.Opponent() {
			if lib := b.atariLiberty(b.head[q]); lib != 0 {
				return lib
			}
		}
	}
	for k := 0; k < 4; k++ {
		q := last + d[k]
		if b.color[q] == c {
			if lib := b.atariLiberty(b.head[q]); lib != 0 {
				return lib
			}
		}
	}
	return 0
}

// vitalPoint returns the vital point of an eye space of 3 to maxEyeSpace points
// next to the last move: an empty region bordered by one colour, and its
// one point with the most neighbours in the region. Whoever plays there
// first decides the group (nakade for the attacker, two eyes for the
// owner); random play leaves that to chance. 0: none.
func (p *playout) vitalPoint() int16 {
	b := &p.b
	d := b.dirs()
	p.stamp++
	for k := 0; k < 4; k++ {
		q := p.last + d[k]
		if b.color[q] != Empty || p.fixed[q] != Empty || p.mark[q] == p.stamp {
			continue
		}
		var region [maxEyeSpace]int16
		n := 0
		region[n] = q
		n++
		p.mark[q] = p.stamp
		var border uint8
		for j := 0; j < n && n <= maxEyeSpace && border != 1<<Black|1<<White; j++ {
			for m := 0; m < 4 && n <= maxEyeSpace; m++ {
				r := region[j] + d[m]
				switch b.color[r] {
				case Empty:
					if p.mark[r] != p.stamp {
						p.mark[r] = p.stamp
						if n < maxEyeSpace {
							region[n] = r
						}
						n++ // past maxEyeSpace: too big, stop
					}
				case Black, White:
					border |= 1 << b.color[r]
				}
			}
		}
		if n < 3 || n > maxEyeSpace || border != 1<<Black && border != 1<<White {
			continue
		}
		best, bestDeg, ties := int16(0), 0, 0
		for _, t := range region[:n] {
			deg := 0
			for m := 0; m < 4; m++ {
				if b.color[t+d[m]] == Empty {
					deg++
				}
			}
			switch {
			case deg > bestDeg:
				best, bestDeg, ties = t, deg, 1
			case deg == bestDeg:
				ties++
			}
		}
		if ties == 1 || n == 3 && bestDeg == 2 {
			return best
		}
	}
	return 0
}

// capturable returns the liberty of the largest chain of the opponent's
// in atari, 0 if none (or if that liberty is settled: no one plays there).
func (p *playout) capturable(c Color) int16 {
	b := &p.b
	opp := c.Opponent()
	var best int16
	size := int16(0)
	for y := 0; y < b.size; y++ {
		i := b.index(0, y)
		for x := 0; x < b.size; x, i = x+1, i+1 {
			if b.color[i] != opp || b.head[i] != i || b.count[i] <= size {
				continue
			}
			if lib := b.atariLiberty(i); lib != 0 && p.fixed[lib] == Empty {
				best, size = lib, b.count[i]
			}
		}
	}
	return best
}

// atariLiberty returns the only liberty of the chain with head h, or 0
// when it has more. One point is a liberty of at most four of the chain's
// stones, so a chain with more than four pseudo-liberties is not in atari.
func (b *Board) atariLiberty(h int16) int16 {
	if b.libs[h] > 4 {
		return 0
	}
	d := b.dirs()
	var lib int16
	for s := h; ; {
		for k := 0; k < 4; k++ {
			if q := s + d[k]; b.color[q] == Empty && q != lib {
				if lib != 0 {
					return 0
				}
				lib = q
			}
		}
		if s = b.next[s]; s == h {
			break
		}
	}
	return lib
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
