package games

import "math/rand/v2"

// RandomRecord plays a random legal game for load tools and tests: up to
// moves plays on a size×size board under Chinese rules, never filling a
// point all of whose neighbours are the mover's own stones (so groups
// live and games look like games), passing when no such play is legal.
// It ends by the resignation of a random side, or, when both passed or
// counted is true, by counting with the result the count gives. The
// record is judged legal by construction; rng makes it reproducible.
func RandomRecord(rng *rand.Rand, size, moves int, counted bool) *Record {
	rules := Chinese()
	g, err := NewGame(size, rules, 0, nil)
	if err != nil {
		panic(err) // size is the caller's constant
	}
	g.Reserve(moves + 2)
	points := make([]Point, 0, size*size)
	for y := range size {
		for x := range size {
			points = append(points, Point{X: x, Y: y})
		}
	}
	for g.MoveCount() < moves && !g.PlayEnded() {
		c := g.ToMove()
		rng.Shuffle(len(points), func(i, j int) { points[i], points[j] = points[j], points[i] })
		played := false
		for _, p := range points {
			if ownEye(g, c, p) {
				continue
			}
			if g.Play(Play(c, p)) == nil {
				played = true
				break
			}
		}
		if !played {
			_ = g.Play(PassMove(c)) // a pass is always legal in a running game
		}
	}
	r := &Record{Size: size, Rules: rules, Komi: rules.Komi, Moves: g.Moves()}
	if counted || g.PlayEnded() {
		r.End = EndScore
		s, err := ScorePosition(&g.board, ScoreParams{Rules: rules, Komi: r.Komi})
		if err != nil {
			panic(err) // a legal position always counts
		}
		r.Result = s.Result.String()
		return r
	}
	r.End, r.EndBy = EndResign, Black
	if rng.IntN(2) == 0 {
		r.EndBy = White
	}
	r.Result = Result{Winner: r.EndBy.Opponent(), End: EndResign}.String()
	return r
}

// ownEye reports whether every neighbour of the empty point p on the
// board is c's stone.
func ownEye(g *Game, c Color, p Point) bool {
	if g.At(p) != Empty {
		return false
	}
	size := g.Size()
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		q := Point{X: p.X + d[0], Y: p.Y + d[1]}
		if q.On(size) && g.At(q) != c {
			return false
		}
	}
	return true
}
