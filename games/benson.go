package games

// Benson's algorithm (D. B. Benson, "Life in the game of Go", 1976) finds
// the chains of one colour that no sequence of opposing moves can capture,
// even if their owner always passes: the pass-alive chains.
//
// For colour c, let X be c's chains and R the c-enclosed regions: maximal
// connected sets of points that are not c's stones (empty points and the
// opponent's stones). A region is vital to a chain when every empty point
// of the region is a liberty of that chain. Repeat until nothing changes:
// remove from X every chain with fewer than two vital regions in R, and
// remove from R every region bordered by a chain not in X. The chains left
// are pass-alive; the regions left that are vital to one of them are their
// vital regions: the opponent can never make an eye there, so its stones
// inside are dead.

// PassAlive reports, for every point of the board in row-major order from
// the top left (index y*size+x), whether it is settled by Benson's
// algorithm and for whom: the colour of a pass-alive chain on its stones,
// the owner on the points of a vital region of pass-alive chains (empty
// points and the dead opponent stones there), Empty elsewhere.
func (b *Board) PassAlive() []Color {
	var s bensonResult
	s.run(b)
	out := make([]Color, b.size*b.size)
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			out[y*b.size+x] = s.owner[b.index(x, y)]
		}
	}
	return out
}

// bensonResult is the outcome for both colours: owner[i] is the colour
// that owns index i for sure (a pass-alive stone or a point of one of its
// vital regions), Empty where Benson says nothing.
type bensonResult struct {
	owner [maxIndex]Color
	work  bensonWork
}

func (s *bensonResult) run(b *Board) {
	for i := range s.owner {
		s.owner[i] = Empty
	}
	s.work.run(b, Black, &s.owner)
	s.work.run(b, White, &s.owner)
}

// bensonEdge says that a chain (head) borders a region and whether the
// region is vital to it.
type bensonEdge struct {
	region int16
	head   int16
	vital  bool
}

// bensonWork is the scratch space of one colour's run, reused between runs.
type bensonWork struct {
	region      [maxIndex]int16 // region id + 1 of each point not of colour c
	stamp       [maxIndex]int16 // per chain head: the region last counted
	adjEmpty    [maxIndex]int16 // per chain head: empty points of that region it touches
	chainAlive  [maxIndex]bool  // per chain head
	vitalCount  [maxIndex]int16 // per chain head
	stack       [maxIndex]int16
	edges       []bensonEdge // grouped by region, in region order
	edgeStart   []int32      // edges of region r: edgeStart[r]..edgeStart[r+1]
	regionAlive []bool
}

// run marks in owner the pass-alive chains of c and their vital regions.
func (w *bensonWork) run(b *Board, c Color, owner *[maxIndex]Color) {
	d := b.dirs()
	w.edges, w.edgeStart, w.regionAlive = w.edges[:0], w.edgeStart[:0], w.regionAlive[:0]
	for i := range w.region {
		w.region[i], w.stamp[i], w.chainAlive[i] = 0, 0, false
	}
	// Label the c-enclosed regions; record each bordering chain of c and
	// how many of the region's empty points it touches.
	nRegions := int16(0)
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			start := b.index(x, y)
			col := b.color[start]
			if col == c {
				w.chainAlive[b.head[start]] = true
				continue
			}
			if w.region[start] != 0 {
				continue
			}
			nRegions++
			id := nRegions
			first := len(w.edges)
			w.edgeStart = append(w.edgeStart, int32(first))
			empties := int16(0)
			w.region[start] = id
			sp := 0
			w.stack[sp] = start
			sp++
			for sp > 0 {
				sp--
				i := w.stack[sp]
				empty := b.color[i] == Empty
				if empty {
					empties++
				}
				var seen [4]int16
				for k := 0; k < 4; k++ {
					q := i + d[k]
					switch b.color[q] {
					case border:
					case c:
						h := b.head[q]
						if w.stamp[h] != id {
							w.stamp[h], w.adjEmpty[h] = id, 0
							w.edges = append(w.edges, bensonEdge{region: id - 1, head: h})
						}
						if empty && h != seen[0] && h != seen[1] && h != seen[2] {
							seen[k] = h
							w.adjEmpty[h]++
						}
					default:
						if w.region[q] == 0 {
							w.region[q] = id
							w.stack[sp] = q
							sp++
						}
					}
				}
			}
			for e := first; e < len(w.edges); e++ {
				w.edges[e].vital = w.adjEmpty[w.edges[e].head] == empties
			}
		}
	}
	w.edgeStart = append(w.edgeStart, int32(len(w.edges)))
	for range nRegions {
		w.regionAlive = append(w.regionAlive, true)
	}

	for changed := true; changed; {
		changed = false
		for i := range w.vitalCount {
			w.vitalCount[i] = 0
		}
		for _, e := range w.edges {
			if e.vital && w.regionAlive[e.region] {
				w.vitalCount[e.head]++
			}
		}
		for _, e := range w.edges {
			if w.chainAlive[e.head] && w.vitalCount[e.head] < 2 {
				w.chainAlive[e.head] = false
				changed = true
			}
		}
		for r := range w.regionAlive {
			if !w.regionAlive[r] {
				continue
			}
			for _, e := range w.edges[w.edgeStart[r]:w.edgeStart[r+1]] {
				if !w.chainAlive[e.head] {
					w.regionAlive[r] = false
					changed = true
					break
				}
			}
		}
	}

	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			if b.color[i] == c {
				if w.chainAlive[b.head[i]] {
					owner[i] = c
				}
				continue
			}
			r := w.region[i] - 1
			if !w.regionAlive[r] {
				continue
			}
			for _, e := range w.edges[w.edgeStart[r]:w.edgeStart[r+1]] {
				if e.vital {
					owner[i] = c
					break
				}
			}
		}
	}
}
