package exams

import (
	"cmp"
	"slices"
)

// PairGap is the widest ladder-score gap (two ranks) at which two
// candidates are paired while a volunteer examiner could play instead;
// beyond it, a candidate meets an examiner first, and another candidate
// only when no examiner is left. Decided.
const PairGap = 200

// Entrant is a player in an exam session: a candidate, or a volunteer
// examiner who plays up to Capacity games (candidates ignore Capacity).
type Entrant struct {
	Player   string
	Score    int // ladder score when the session opens
	Capacity int
}

// Pair is one exam game: who plays Black and who plays White. Exam games
// are even games; colours are assigned, not drawn, so that each player's
// colours balance.
type Pair struct {
	Black, White string
}

// Pairing is the pairing of one session.
type Pairing struct {
	Games []Pair
	// Short maps each candidate who could not get every game (too few
	// distinct opponents) to the number of games missing.
	Short map[string]int
}

// PairEntrants pairs the candidates so that each plays `games` games against
// different opponents of similar level: other candidates, nearest in
// score first, then volunteer examiners, then farther candidates. Every
// player's Black and White games differ by at most one. It is
// deterministic: the same entrants in any order give the same pairing.
//
// How: candidates sorted by score take their nearest partners while both
// need games (gap ≤ PairGap); an augmenting step then reroutes
// existing games (remove c–d, add a–c and d–b) to give still-short
// candidates their games without leaving the gap; examiners fill what is
// left, nearest first; and an Euler-tour orientation gives the colours.
func PairEntrants(candidates, examiners []Entrant, games int) Pairing {
	p := newPairer(candidates, examiners, games)
	p.greedy(true)
	p.augment()
	p.fillFromExaminers()
	p.greedy(false) // farther candidates only when nothing nearer is left
	p.augment()
	return p.result()
}

type pairer struct {
	ents  []Entrant // candidates (sorted) then examiners (sorted)
	nc    int       // number of candidates
	games int
	need  []int // games still wanted (candidates) or capacity left (examiners)
	adj   []map[int]bool
	gapOK bool // while true, candidate pairs keep within PairGap
}

func byLevel(a, b Entrant) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return cmp.Compare(a.Player, b.Player)
}

func newPairer(candidates, examiners []Entrant, games int) *pairer {
	c := slices.SortedFunc(slices.Values(candidates), byLevel)
	c = slices.CompactFunc(c, func(a, b Entrant) bool { return a.Player == b.Player })
	seen := map[string]bool{}
	for _, e := range c {
		seen[e.Player] = true
	}
	var ex []Entrant
	for _, e := range slices.SortedFunc(slices.Values(examiners), byLevel) {
		if !seen[e.Player] && e.Capacity > 0 { // a candidate cannot examine in their own session
			seen[e.Player] = true
			ex = append(ex, e)
		}
	}
	p := &pairer{ents: append(c, ex...), nc: len(c), games: max(games, 0), gapOK: true}
	p.need = make([]int, len(p.ents))
	p.adj = make([]map[int]bool, len(p.ents))
	for i := range p.ents {
		p.adj[i] = map[int]bool{}
		if i < p.nc {
			p.need[i] = p.games
		} else {
			p.need[i] = p.ents[i].Capacity
		}
	}
	return p
}

func (p *pairer) gap(i, j int) int {
	d := p.ents[i].Score - p.ents[j].Score
	if d < 0 {
		return -d
	}
	return d
}

// allowed reports whether candidates i and j may meet now.
func (p *pairer) allowed(i, j int) bool {
	return i != j && !p.adj[i][j] && (!p.gapOK || p.gap(i, j) <= PairGap)
}

func (p *pairer) link(i, j int) {
	p.adj[i][j], p.adj[j][i] = true, true
	p.need[i]--
	p.need[j]--
}

func (p *pairer) unlink(i, j int) {
	delete(p.adj[i], j)
	delete(p.adj[j], i)
	p.need[i]++
	p.need[j]++
}

// greedy links candidate pairs nearest in score first while both need
// games.
func (p *pairer) greedy(withinGap bool) {
	p.gapOK = withinGap
	type cand struct{ i, j, gap int }
	var pairs []cand
	for i := 0; i < p.nc; i++ {
		for j := i + 1; j < p.nc; j++ {
			if p.allowed(i, j) {
				pairs = append(pairs, cand{i, j, p.gap(i, j)})
			}
		}
	}
	slices.SortStableFunc(pairs, func(a, b cand) int { return cmp.Compare(a.gap, b.gap) })
	for _, c := range pairs {
		if p.need[c.i] > 0 && p.need[c.j] > 0 && !p.adj[c.i][c.j] {
			p.link(c.i, c.j)
		}
	}
}

// augment gives short candidates games by rerouting: a breadth-first
// search from a short candidate a over "x needs a game" states, each step
// adding x–w and, when w is full, removing one of w's games w–y so that y
// needs one; it ends at a w that still needs a game. Each path found adds
// one game to both of its ends and changes no one else's count.
func (p *pairer) augment() {
	for progress := true; progress; {
		progress = false
		for a := 0; a < p.nc; a++ {
			for p.need[a] > 0 && p.augmentFrom(a) {
				progress = true
			}
		}
	}
}

type step struct{ from, via int } // reached y by adding from–via and removing via–y

func (p *pairer) augmentFrom(a int) bool {
	parent := map[int]step{a: {-1, -1}}
	queue := []int{a}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for w := 0; w < p.nc; w++ {
			if !p.allowed(x, w) {
				continue
			}
			if p.need[w] > 0 && (w != a || p.need[a] > 1) {
				if p.apply(parent, x, w) {
					return true
				}
				continue
			}
			for _, y := range sortedKeys(p.adj[w]) {
				if y >= p.nc || y == x {
					continue
				}
				if _, seen := parent[y]; !seen {
					parent[y] = step{x, w}
					queue = append(queue, y)
				}
			}
		}
	}
	return false
}

// apply replays the path ending with x–w on the graph, checking each
// step (the search ignored how earlier steps change the graph); an
// invalid path is undone and reported false.
func (p *pairer) apply(parent map[int]step, x, w int) bool {
	type op struct {
		add  bool
		i, j int
	}
	ops := []op{{true, x, w}}
	for y := x; parent[y].from >= 0; y = parent[y].from {
		s := parent[y]
		ops = append(ops, op{false, s.via, y}, op{true, s.from, s.via})
	}
	slices.Reverse(ops)
	var done []op
	undo := func() bool {
		for k := len(done) - 1; k >= 0; k-- {
			if done[k].add {
				p.unlink(done[k].i, done[k].j)
			} else {
				p.link(done[k].i, done[k].j)
			}
		}
		return false
	}
	for _, o := range ops {
		if o.add {
			if o.i == o.j || p.adj[o.i][o.j] {
				return undo()
			}
			p.link(o.i, o.j)
		} else {
			if !p.adj[o.i][o.j] {
				return undo()
			}
			p.unlink(o.i, o.j)
		}
		done = append(done, o)
	}
	for _, o := range done {
		if p.need[o.i] < 0 || p.need[o.j] < 0 {
			return undo()
		}
	}
	return true
}

// fillFromExaminers gives each short candidate, strongest first, the
// nearest examiners with games left that it has not met.
func (p *pairer) fillFromExaminers() {
	for i := 0; i < p.nc; i++ {
		for p.need[i] > 0 {
			best := -1
			for e := p.nc; e < len(p.ents); e++ {
				if p.need[e] > 0 && !p.adj[i][e] && (best < 0 || p.gap(i, e) < p.gap(i, best)) {
					best = e
				}
			}
			if best < 0 {
				break
			}
			p.link(i, best)
		}
	}
}

func sortedKeys(m map[int]bool) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// result orients every game so that each player's Black and White counts
// differ by at most one: odd-degree players are joined to a virtual
// player, making every degree even, and each edge is oriented along an
// Euler circuit (in = out at every vertex); dropping the virtual edges
// leaves |Black − White| ≤ 1.
func (p *pairer) result() Pairing {
	n := len(p.ents)
	virtual := n
	type edge struct{ a, b int }
	var es []edge
	for i := range n {
		for _, j := range sortedKeys(p.adj[i]) {
			if i < j {
				es = append(es, edge{i, j})
			}
		}
	}
	for i := range n {
		if len(p.adj[i])%2 == 1 {
			es = append(es, edge{i, virtual})
		}
	}
	inc := make([][]int, n+1) // vertex → edge indices
	for k, e := range es {
		inc[e.a] = append(inc[e.a], k)
		inc[e.b] = append(inc[e.b], k)
	}
	used := make([]bool, len(es))
	next := make([]int, n+1)
	var games []Pair
	// Hierholzer, iteratively: walking an unused edge from v orients it
	// v → other end. Every vertex has even degree, so each walk closes.
	for s := 0; s <= n; s++ {
		stack := []int{s}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			for next[v] < len(inc[v]) && used[inc[v][next[v]]] {
				next[v]++
			}
			if next[v] == len(inc[v]) {
				stack = stack[:len(stack)-1]
				continue
			}
			k := inc[v][next[v]]
			used[k] = true
			e := es[k]
			to := e.a
			if to == v {
				to = e.b
			}
			if v != virtual && to != virtual {
				games = append(games, Pair{Black: p.ents[v].Player, White: p.ents[to].Player})
			}
			stack = append(stack, to)
		}
	}
	slices.SortFunc(games, func(x, y Pair) int {
		return cmp.Or(cmp.Compare(x.Black, y.Black), cmp.Compare(x.White, y.White))
	})
	out := Pairing{Games: games}
	for i := 0; i < p.nc; i++ {
		if p.need[i] > 0 {
			if out.Short == nil {
				out.Short = map[string]int{}
			}
			out.Short[p.ents[i].Player] = p.need[i]
		}
	}
	return out
}
