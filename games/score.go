package games

import "slices"

// Penalties are the penalised events of a game, per side (rules.md §6.1
// warnings, §6.3 Ing overtime periods).
type Penalties struct {
	BlackWarnings int `json:"black_warnings,omitempty"`
	WhiteWarnings int `json:"white_warnings,omitempty"`
	BlackOvertime int `json:"black_overtime,omitempty"` // overtime periods taken
	WhiteOvertime int `json:"white_overtime,omitempty"`
}

// ScoreParams is what counting needs besides the position.
type ScoreParams struct {
	Rules     Ruleset
	Komi      float64
	Handicap  int
	Dead      []Point // agreed dead stones; a chain lives or dies whole
	Penalties Penalties
	// ToMove is the player to move in the position. Area scoring then
	// plays the dame out from it (playDame) instead of splitting them
	// half and half: the side to move takes the odd one, and a dame that
	// forces an answer gains its player a tempo. Empty: split.
	ToMove Color
}

// SideScore is one side's part of a count.
type SideScore struct {
	Stones    int `json:"stones"`    // live stones on the board
	Territory int `json:"territory"` // empty points (also under dead stones) surrounded only by this side; under territory scoring, not in seki nor needing a fill
	// Fills: territory scoring: points of this side's territory it must
	// fill itself once the dame are filled (a chain left with one
	// liberty there), which count for no one.
	Fills     int     `json:"fills,omitempty"`
	Prisoners int     `json:"prisoners"` // stones captured in play plus dead stones removed at the end
	Dame      float64 `json:"dame"`      // area scoring: this side's part of the dame (half, or as they are played out from ScoreParams.ToMove)
	Penalty   float64 `json:"penalty"`   // points lost to penalties
	Score     float64 `json:"score"`     // area: stones+territory+dame; territory: territory+prisoners
}

// Score is a counted position.
type Score struct {
	Scoring      Scoring   `json:"-"`
	Black        SideScore `json:"black"`
	White        SideScore `json:"white"`
	Dame         int       `json:"dame"` // empty points that are no one's territory (seki liberties included)
	Seki         int       `json:"seki"` // territory scoring: eye points of groups in seki, counted for no one
	Dead         []Point   `json:"dead"` // every dead stone removed, in board order
	Komi         float64   `json:"komi"`
	Compensation float64   `json:"compensation"` // points to White for the handicap stones
	// Margin is Black's lead in points after komi, compensation and
	// penalties; negative when White leads.
	Margin float64 `json:"margin"`
	Result Result  `json:"-"`
}

// MarginStones is the margin in stones (area scoring: one stone is two
// points, so ¾ stone is 1.5 points).
func (s *Score) MarginStones() float64 { return s.Margin / 2 }

// bigEyeSpace is decided: in seki detection, a single surrounded area of
// at least this many points is enough room for two eyes, so a group owning
// it is not in seki. Seki eyes are one or two points in practice.
const bigEyeSpace = 7

// ScorePosition counts the position b with the agreed dead stones removed.
// Area scoring (Chinese, Ing, QQ) counts live stones and surrounded points,
// dame split half and half; territory scoring counts surrounded points not
// in seki plus prisoners. Komi, handicap compensation and penalties go
// into Margin; the result follows the ruleset (a tie is a draw or goes to
// Rules.TieWinner; warnings up to Rules.WarningsToLose lose by forfeit).
func ScorePosition(b *Board, sp ScoreParams) (*Score, error) {
	if err := sp.Rules.Validate(); err != nil {
		return nil, err
	}
	if !halfPoints(sp.Komi) {
		return nil, invalid("komi", "komi %v is not a whole or half point", sp.Komi)
	}
	s := &Score{Scoring: sp.Rules.Scoring, Komi: sp.Komi, Compensation: compensation(sp.Rules, sp.Handicap)}
	col := b.color
	for _, p := range sp.Dead {
		i := b.idx(p)
		if i == 0 || !isStone(b.color[i]) {
			return nil, invalid("dead", "no stone on %s to mark dead", p)
		}
		if col[i] == Empty {
			continue // its chain is already marked
		}
		h := b.head[i]
		for st := h; ; {
			col[st] = Empty
			if st = b.next[st]; st == h {
				break
			}
		}
		dead := int(b.count[h])
		if b.color[h] == Black {
			s.White.Prisoners += dead
		} else {
			s.Black.Prisoners += dead
		}
	}
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			if isStone(b.color[i]) && col[i] == Empty {
				s.Dead = append(s.Dead, Point{x, y})
			}
		}
	}

	var rg regions
	rg.find(b, &col)
	var seki []bool
	if sp.Rules.Scoring == ScoringTerritory {
		seki = rg.sekiRegions(b, &col)
		s.Black.Fills = rg.defensiveFills(b, &col, seki, Black)
		s.White.Fills = rg.defensiveFills(b, &col, seki, White)
	}
	for r := range rg.n {
		switch rg.touch[r] {
		case touchBlack, touchWhite:
			if seki != nil && seki[r] {
				s.Seki += rg.size[r]
				continue
			}
			if rg.touch[r] == touchBlack {
				s.Black.Territory += rg.size[r]
			} else {
				s.White.Territory += rg.size[r]
			}
		default:
			s.Dame += rg.size[r]
		}
	}
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			if c := col[b.index(x, y)]; isStone(c) {
				s.side(c).Stones++
			}
		}
	}
	s.Black.Prisoners += b.captured[Black]
	s.White.Prisoners += b.captured[White]
	s.Black.Penalty = float64(sp.Penalties.BlackWarnings)*sp.Rules.WarningPenalty + float64(sp.Penalties.BlackOvertime)*sp.Rules.OvertimePenalty
	s.White.Penalty = float64(sp.Penalties.WhiteWarnings)*sp.Rules.WarningPenalty + float64(sp.Penalties.WhiteOvertime)*sp.Rules.OvertimePenalty
	s.Black.Territory -= s.Black.Fills
	s.White.Territory -= s.White.Fills
	var played [3]float64 // each side's area once the dame are played out
	playOut := sp.Rules.Scoring == ScoringArea && s.Dame > 0 && isStone(sp.ToMove)
	if playOut {
		played[Black], played[White] = playDame(b, &col, sp.ToMove)
	}
	for _, c := range []Color{Black, White} {
		side := s.side(c)
		switch {
		case sp.Rules.Scoring != ScoringArea:
			side.Score = float64(side.Territory + side.Prisoners)
			continue
		case playOut:
			side.Dame = played[c] - float64(side.Stones+side.Territory)
		default:
			side.Dame = float64(s.Dame) / 2
		}
		side.Score = float64(side.Stones+side.Territory) + side.Dame
	}
	s.settle(sp.Rules, sp.Penalties)
	return s, nil
}

// settle turns the two counts into the margin and the result: Black's
// count less White's, less komi and handicap compensation, with penalties
// taken from each side.
func (s *Score) settle(r Ruleset, pen Penalties) {
	s.Margin = s.Black.Score - s.White.Score - s.Komi - s.Compensation - s.Black.Penalty + s.White.Penalty
	s.Result = outcome(r, s.Margin, pen)
}

func (s *Score) side(c Color) *SideScore {
	if c == Black {
		return &s.Black
	}
	return &s.White
}

// outcome turns Black's margin into a result under r.
func outcome(r Ruleset, margin float64, pen Penalties) Result {
	if r.WarningsToLose > 0 {
		bl, wl := pen.BlackWarnings >= r.WarningsToLose, pen.WhiteWarnings >= r.WarningsToLose
		switch {
		case bl && wl:
			return Result{End: EndVoid}
		case bl:
			return Result{Winner: White, End: EndForfeit}
		case wl:
			return Result{Winner: Black, End: EndForfeit}
		}
	}
	res := Result{End: EndScore}
	switch {
	case margin > 0:
		res.Winner, res.Margin = Black, margin
	case margin < 0:
		res.Winner, res.Margin = White, -margin
	default:
		res.Winner = r.TieWinner
	}
	return res
}

// Who borders an empty region.
const (
	touchBlack = 1 << iota
	touchWhite
)

// regions are the connected empty areas of a position (dead stones
// already lifted): region[i] is the region of empty index i, minus one.
type regions struct {
	region [maxIndex]int16
	n      int
	size   []int
	touch  []uint8
}

func (rg *regions) find(b *Board, col *[maxIndex]Color) {
	var stack [maxIndex]int16
	d := b.dirs()
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			start := b.index(x, y)
			if col[start] != Empty || rg.region[start] != 0 {
				continue
			}
			id := int16(rg.n + 1)
			rg.n++
			rg.size = append(rg.size, 0)
			rg.touch = append(rg.touch, 0)
			rg.region[start] = id
			sp := 0
			stack[sp] = start
			sp++
			for sp > 0 {
				sp--
				i := stack[sp]
				rg.size[id-1]++
				for k := 0; k < 4; k++ {
					q := i + d[k]
					switch col[q] {
					case Empty:
						if rg.region[q] == 0 {
							rg.region[q] = id
							stack[sp] = q
							sp++
						}
					case Black:
						rg.touch[id-1] |= touchBlack
					case White:
						rg.touch[id-1] |= touchWhite
					}
				}
			}
		}
	}
}

// sekiRegions marks the one-colour regions that are eyes of groups in
// seki. Live chains are joined into groups when they border the same
// one-colour region or share a liberty (playing there would connect
// them). A group has as many eyes as one-colour regions it borders, a
// region of bigEyeSpace points or more counting as two. Two groups of
// opposite colours, each with fewer than two eyes, that share a liberty
// are in seki: they live only because neither side can approach. This
// covers the usual shapes (two shared liberties and no eyes; one eye each
// and shared liberties); exotic ones (hanezeki, cycles) are not seen.
func (rg *regions) sekiRegions(b *Board, col *[maxIndex]Color) []bool {
	var parent [maxIndex]int16
	find := func(i int16) int16 {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, c int16) {
		if ra, rc := find(a), find(c); ra != rc {
			parent[ra] = rc
		}
	}
	live := func(i int16) bool { return isStone(col[i]) }
	for i := range parent {
		parent[i] = int16(i)
	}
	d := b.dirs()
	regionHead := make([]int16, rg.n) // a live chain bordering each region
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			if col[i] != Empty {
				continue
			}
			r := rg.region[i] - 1
			var around [3]int16 // a chain of each colour met around i
			for k := 0; k < 4; k++ {
				q := i + d[k]
				if !live(q) {
					continue
				}
				h := b.head[q]
				c := col[q]
				if around[c] != 0 {
					union(around[c], h)
				}
				around[c] = h
				if rg.touch[r] != touchBlack|touchWhite {
					if regionHead[r] != 0 {
						union(regionHead[r], h)
					}
					regionHead[r] = h
				}
			}
		}
	}
	eyes := make(map[int16]int)
	for r := range rg.n {
		if h := regionHead[r]; h != 0 && rg.touch[r] != touchBlack|touchWhite {
			e := 1
			if rg.size[r] >= bigEyeSpace {
				e = 2
			}
			eyes[find(h)] += e
		}
	}
	inSeki := make(map[int16]bool)
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			if col[i] != Empty || rg.touch[rg.region[i]-1] != touchBlack|touchWhite {
				continue
			}
			var weak [3][]int16
			for k := 0; k < 4; k++ {
				if q := i + d[k]; live(q) {
					if u := find(b.head[q]); eyes[u] < 2 {
						weak[col[q]] = append(weak[col[q]], u)
					}
				}
			}
			if len(weak[Black]) > 0 && len(weak[White]) > 0 {
				for _, u := range append(weak[Black], weak[White]...) {
					inSeki[u] = true
				}
			}
		}
	}
	seki := make([]bool, rg.n)
	for r := range rg.n {
		if h := regionHead[r]; h != 0 && inSeki[find(h)] {
			seki[r] = true
		}
	}
	return seki
}

// defensiveFills counts the points of c's territory that c must fill
// itself before the count. Suppose the opponent has filled every dame
// (the worst for c): a chain of c left with a single liberty, inside c's
// territory, is in atari, and c must fill that liberty, which is then no
// territory; the fill may leave the joined chain short of liberties
// again. The opponent's dead stones stay on the board until c takes
// them: a chain the dame leave in atari next to a dead chain in atari
// must take it, a stone played in c's territory too. Records ended by
// agreement leave such points open (professional game records end
// before the dame and the fills are played); in a game
// played out, they are already filled and none are found. Area counting
// needs none of this: a fill is a point either way.
func (rg *regions) defensiveFills(b *Board, col *[maxIndex]Color, seki []bool, c Color) int {
	opp := c.Opponent()
	w := *col
	terr := func(i int16) bool {
		r := rg.region[i] - 1
		return w[i] == Empty && (rg.touch[r] == touchBlack && c == Black || rg.touch[r] == touchWhite && c == White) && (seki == nil || !seki[r])
	}
	// The opponent's dead stones stay on the board until c captures them:
	// until then they take liberties from c's chains around them.
	var deadStone, dame [maxIndex]bool
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			switch {
			case w[i] != Empty:
			case b.color[i] == opp:
				w[i], deadStone[i] = opp, true
			case rg.touch[rg.region[i]-1] == touchBlack|touchWhite:
				w[i], dame[i] = opp, true
			}
		}
	}
	d := b.dirs()
	var mark [maxIndex]int32
	var stack [maxIndex]int16
	var noFill [maxIndex]bool
	fills, pass := 0, int32(0)
	for changed := true; changed; {
		changed = false
		pass++
		for y := 0; y < b.size && !changed; y++ {
			for x := 0; x < b.size && !changed; x++ {
				start := b.index(x, y)
				if w[start] != c || mark[start] == pass {
					continue
				}
				// Flood the chain; note its liberties (at most two) and a
				// dead stone of the opponent's it touches.
				var libs [2]int16
				n := 0
				var nearDead [4]int16
				nd, nearDame := 0, false
				var dameNear [8]int16
				nq := 0
				sp := 0
				stack[sp] = start
				sp++
				mark[start] = pass
				for sp > 0 {
					sp--
					i := stack[sp]
					for k := 0; k < 4; k++ {
						q := i + d[k]
						switch {
						case w[q] == c && mark[q] != pass:
							mark[q] = pass
							stack[sp] = q
							sp++
						case w[q] == Empty:
							if n >= 1 && libs[0] == q || n >= 2 && libs[1] == q {
								continue
							}
							if n < 2 {
								libs[n] = q
							}
							n++
						case deadStone[q] && w[q] == opp && nd < len(nearDead):
							nearDead[nd] = q
							nd++
						case dame[q]:
							nearDame = true
							if nq < len(dameNear) && !slices.Contains(dameNear[:nq], q) {
								dameNear[nq] = q
								nq++
							}
						}
					}
				}
				switch {
				case n != 1:
				case rescued(&w, d, start, c, dameNear[:nq]):
					// c takes a dame that joins the chain to liberties
					// (the opponent cannot fill two such dame at once).
					changed = true
				case nd > 0 && !nearDame:
					// In atari inside its territory already: the dead
					// stones around are no threat, or the players would
					// not have stopped.
				case nd > 0:
					// Put in atari by the dame, next to dead stones: c
					// takes a dead chain that is itself in atari (a stone
					// played in c's territory); otherwise taking them
					// later gives the chain its liberties, and nothing is
					// forced yet.
					for _, q := range nearDead[:nd] {
						if at := onlyLiberty(&w, d, q, opp); at != 0 && terr(at) {
							w[at] = c
							captureDead(&w, d, at, opp, &deadStone)
							fills++
							changed = true
							break
						}
					}
				case terr(libs[0]) && !noFill[libs[0]]:
					w[libs[0]] = c
					if captureDead(&w, d, libs[0], opp, &deadStone) || hasLiberty(&w, d, libs[0], c) {
						fills++
						changed = true
					} else {
						// Filling would be suicide: the chain is dead,
						// which the dead stones say, not the count.
						w[libs[0]] = Empty
						noFill[libs[0]] = true
					}
				}
			}
		}
	}
	return fills
}

// rescued reports whether at least two of the dame (filled by the
// opponent in w) next to c's chain through i would each give it two
// liberties or more if c had played there; if so, c plays the first.
func rescued(w *[maxIndex]Color, d [4]int16, i int16, c Color, dame []int16) bool {
	var first int16
	n := 0
	for _, q := range dame {
		t := *w
		t[q] = c
		if liberties2(&t, d, i) >= 2 {
			if first == 0 {
				first = q
			}
			n++
		}
	}
	if n < 2 {
		return false
	}
	w[first] = c
	return true
}

// captureDead lifts the chains of opp next to i that have no liberty left
// in w and are all dead stones, and reports whether there were any.
func captureDead(w *[maxIndex]Color, d [4]int16, i int16, opp Color, dead *[maxIndex]bool) bool {
	took := false
	for k := 0; k < 4; k++ {
		q := i + d[k]
		if w[q] != opp || hasLiberty(w, d, q, opp) {
			continue
		}
		chain := []int16{q}
		seen := map[int16]bool{q: true}
		all := true
		for j := 0; j < len(chain); j++ {
			all = all && dead[chain[j]]
			for m := 0; m < 4; m++ {
				if r := chain[j] + d[m]; w[r] == opp && !seen[r] {
					seen[r] = true
					chain = append(chain, r)
				}
			}
		}
		if !all {
			continue
		}
		for _, r := range chain {
			w[r] = Empty
		}
		took = true
	}
	return took
}

// onlyLiberty returns the liberty in w of the chain of col through i when
// it has exactly one, else 0.
func onlyLiberty(w *[maxIndex]Color, d [4]int16, i int16, col Color) int16 {
	if lib, more := firstLiberties(w, d, i, col); !more {
		return lib
	}
	return 0
}

// firstLiberties walks the chain of col through i in w until it has seen
// two liberties: the first one (0 if none) and whether there is another.
func firstLiberties(w *[maxIndex]Color, d [4]int16, i int16, col Color) (first int16, more bool) {
	var seen [maxIndex]bool
	stack := []int16{i}
	seen[i] = true
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for k := 0; k < 4; k++ {
			q := p + d[k]
			switch {
			case w[q] == Empty && q != first:
				if first != 0 {
					return first, true
				}
				first = q
			case w[q] == col && !seen[q]:
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return first, false
}

// hasLiberty reports whether the chain of c through i has an empty
// neighbour in w.
func hasLiberty(w *[maxIndex]Color, d [4]int16, i int16, c Color) bool {
	var seen [maxIndex]bool
	stack := []int16{i}
	seen[i] = true
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for k := 0; k < 4; k++ {
			q := p + d[k]
			switch {
			case w[q] == Empty:
				return true
			case w[q] == c && !seen[q]:
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return false
}

// playDame plays the dame of a counted position out, from the side to
// move, and returns each side's area after it (stones and the points only
// it borders; what is still open, seki liberties, split half and half).
// Each player in turn saves its own chain in atari (a point of its own
// territory, maybe: a tempo lost); else fills a dame, one that puts an
// opponent chain in atari first; else passes. No move leaves its chain
// with a single liberty, and none captures. This is how the
// end is played before an area count (GNU Go's final_score does it too),
// and it settles what splitting would leave half: the odd dame, and the
// dame that a forced answer hands to the forcing side.
func playDame(b *Board, col *[maxIndex]Color, toMove Color) (black, white float64) {
	w := *col
	d := b.dirs()
	points := make([]int16, 0, b.size*b.size)
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			points = append(points, b.index(x, y))
		}
	}
	// Only the dame proper are played: open regions of bigEyeSpace points
	// or more (an unfinished boundary) stay split, and a chain in atari
	// before the play-out is not saved (no one may take it).
	var start regions
	start.find(b, &w)
	var pl playable
	for _, i := range points {
		if w[i] == Empty {
			r := start.region[i] - 1
			pl.dame[i] = start.touch[r] == touchBlack|touchWhite && start.size[r] < bigEyeSpace
		} else if isStone(w[i]) && !pl.seen[i] {
			var seen [maxIndex]bool
			if chainLiberty(&w, d, i, &seen) != 0 {
				for j := range seen {
					pl.inAtari[j] = pl.inAtari[j] || seen[j]
				}
			}
			for j := range seen {
				pl.seen[j] = pl.seen[j] || seen[j]
			}
		}
	}
	p := toMove
	for moves, passes := 0, 0; passes < 2 && moves < 2*len(points); moves++ {
		if i := dameMove(b, &w, points, p, &pl); i != 0 {
			place(&w, d, i, p)
			passes = 0
		} else {
			passes++
		}
		p = p.Opponent()
	}
	var rg regions
	rg.find(b, &w)
	var area [3]float64
	for _, i := range points {
		switch c := w[i]; {
		case isStone(c):
			area[c]++
		default:
			switch rg.touch[rg.region[i]-1] {
			case touchBlack:
				area[Black]++
			case touchWhite:
				area[White]++
			default:
				area[Black] += 0.5
				area[White] += 0.5
			}
		}
	}
	return area[Black], area[White]
}

// playable says where playDame plays: dame points of small regions, and
// not to take or save chains that were in atari before it.
type playable struct {
	dame, inAtari, seen [maxIndex]bool
}

// dameMove chooses p's next move of playDame, 0 to pass.
func dameMove(b *Board, w *[maxIndex]Color, points []int16, p Color, pl *playable) int16 {
	d := b.dirs()
	var seen [maxIndex]bool
	for _, i := range points {
		if w[i] != p || seen[i] || pl.inAtari[i] {
			continue
		}
		if lib := chainLiberty(w, d, i, &seen); lib != 0 && tryPlace(w, d, lib, p) >= 2 {
			return lib
		}
	}
	var rg regions
	rg.find(b, w)
	var fill int16
	for _, i := range points {
		if w[i] != Empty || !pl.dame[i] || rg.touch[rg.region[i]-1] != touchBlack|touchWhite || tryPlace(w, d, i, p) < 2 {
			continue
		}
		if fill == 0 {
			fill = i
		}
		if forcing(w, d, i, p) {
			return i
		}
	}
	return fill
}

// chainLiberty marks the chain of w through i in seen and returns its
// liberty when it has exactly one, else 0.
func chainLiberty(w *[maxIndex]Color, d [4]int16, i int16, seen *[maxIndex]bool) int16 {
	c := w[i]
	stack := []int16{i}
	seen[i] = true
	var lib int16
	many := false
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for k := 0; k < 4; k++ {
			q := p + d[k]
			switch {
			case w[q] == Empty && q != lib:
				if lib != 0 {
					many = true
				}
				lib = q
			case w[q] == c && !seen[q]:
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	if many {
		return 0
	}
	return lib
}

// place plays p at the empty point i of w and returns the liberties of
// p's chain there (at most 2 counted). It takes nothing: the stones on
// the board are alive unless marked dead, so a move that would capture
// is not played (0, as for suicide; the caller undoes it).
func place(w *[maxIndex]Color, d [4]int16, i int16, p Color) int {
	w[i] = p
	opp := p.Opponent()
	for k := 0; k < 4; k++ {
		if q := i + d[k]; w[q] == opp && !hasLiberty(w, d, q, opp) {
			return 0
		}
	}
	return liberties2(w, d, i)
}

// tryPlace is place on a copy of w: w is unchanged.
func tryPlace(w *[maxIndex]Color, d [4]int16, i int16, p Color) int {
	if w[i] != Empty {
		return 0
	}
	t := *w
	return place(&t, d, i, p)
}

// forcing reports whether p at i (legal, checked) leaves an opponent chain
// next to it with a single liberty.
func forcing(w *[maxIndex]Color, d [4]int16, i int16, p Color) bool {
	t := *w
	place(&t, d, i, p)
	opp := p.Opponent()
	var seen [maxIndex]bool
	for k := 0; k < 4; k++ {
		if q := i + d[k]; t[q] == opp && !seen[q] && chainLiberty(&t, d, q, &seen) != 0 {
			return true
		}
	}
	return false
}

// liberties2 counts the liberties of the chain of w through i, up to 2.
func liberties2(w *[maxIndex]Color, d [4]int16, i int16) int {
	switch first, more := firstLiberties(w, d, i, w[i]); {
	case more:
		return 2
	case first != 0:
		return 1
	}
	return 0
}
