package matchmaking

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"time"
)

// Policy is the pairing policy. It is pure: the caller gives the time.
type Policy struct {
	// InitialWindow is the largest ladder gap accepted at once, in points.
	InitialWindow int
	// WidenPerMinute is how many points the window grows per minute waited.
	WidenPerMinute int
	// MaxWindow caps the window, in points.
	MaxWindow int
	// Cooldown is how long two players who met are kept apart.
	Cooldown time.Duration
	// Lookback is how many earlier players (in level order) the dynamic
	// programme keeps in its state; see doc.go for what it makes exact.
	// Its cost is n·2^Lookback.
	Lookback int
}

// Policy defaults (decided).
const (
	DefaultInitialWindow  = PointsPerRank / 2 // half a rank
	DefaultWidenPerMinute = 150               // the cap is reached after 100 s
	DefaultMaxWindow      = 3 * PointsPerRank // three ranks
	DefaultCooldown       = 30 * time.Minute
	DefaultLookback       = 6
	maxLookback           = 16
	// maxWindowLimit keeps the sum of a pass's gaps far inside the 32 bits
	// the programme's score gives it (a hundred ranks; the ladder has 18).
	maxWindowLimit = 100 * PointsPerRank
	// maxRatingGap caps one pair's Glicko-2 tie-break for the same reason.
	maxRatingGap = 1 << 20
)

// DefaultPolicy returns the decided defaults.
func DefaultPolicy() Policy {
	return Policy{
		InitialWindow:  DefaultInitialWindow,
		WidenPerMinute: DefaultWidenPerMinute,
		MaxWindow:      DefaultMaxWindow,
		Cooldown:       DefaultCooldown,
		Lookback:       DefaultLookback,
	}
}

// Check reports a policy that cannot work.
func (p Policy) Check() error {
	switch {
	case p.InitialWindow < 0 || p.MaxWindow < p.InitialWindow || p.MaxWindow > maxWindowLimit:
		return fmt.Errorf("matchmaking policy: need 0 <= initial window (%d) <= max window (%d) <= %d", p.InitialWindow, p.MaxWindow, maxWindowLimit)
	case p.WidenPerMinute < 0:
		return fmt.Errorf("matchmaking policy: negative widening rate %d", p.WidenPerMinute)
	case p.Cooldown < 0:
		return fmt.Errorf("matchmaking policy: negative cooldown %v", p.Cooldown)
	case p.Lookback < 1 || p.Lookback > maxLookback:
		return fmt.Errorf("matchmaking policy: lookback %d is not in 1..%d", p.Lookback, maxLookback)
	}
	return nil
}

// Window is the ladder gap a player who has waited this long accepts: it
// starts at InitialWindow and grows linearly up to MaxWindow.
func (p Policy) Window(waited time.Duration) int {
	if waited <= 0 {
		return p.InitialWindow
	}
	grow := float64(p.WidenPerMinute) * waited.Minutes()
	if float64(p.InitialWindow)+grow >= float64(p.MaxWindow) {
		return p.MaxWindow
	}
	return p.InitialWindow + int(grow)
}

// Candidate is a waiting ticket as the policy sees it.
type Candidate struct {
	Ticket string
	Player string
	Level  Level
	Range  ScoreRange
	Since  time.Time // when the ticket was made
}

// Accepts reports whether a and b may be paired now, cooldown aside: two
// different players, each inside the other's score range, and their gap
// within both players' windows (decided: both must accept, so a newcomer
// is never handed an opponent outside their own narrow window).
func (p Policy) Accepts(now time.Time, a, b Candidate) bool {
	return a.Player != b.Player &&
		a.Range.Contains(b.Level.Score) && b.Range.Contains(a.Level.Score) &&
		gap(a, b) <= min(p.Window(now.Sub(a.Since)), p.Window(now.Sub(b.Since)))
}

func gap(a, b Candidate) int {
	d := a.Level.Score - b.Level.Score
	if d < 0 {
		return -d
	}
	return d
}

// ratingGap is the Glicko-2 tie-breaker of a pair, in whole rating points
// so that sums are exact.
func ratingGap(a, b Candidate) int64 {
	return int64(math.Round(min(math.Abs(a.Level.Rating-b.Level.Rating), maxRatingGap)))
}

// Pair is one pairing the policy chose: indices into the candidates.
type Pair struct {
	A, B int
	Gap  int // ladder points between them
}

// Recent maps a player to the players they met within the cooldown.
type Recent map[string][]string

// Met reports whether a and b met within the cooldown (either side's list
// counts).
func (r Recent) Met(a, b string) bool {
	return slices.Contains(r[a], b) || slices.Contains(r[b], a)
}

// Pair runs one pass of the policy over a pool: see Matcher.Pair. It
// allocates a fresh Matcher; a service pairing often keeps one.
func (p Policy) Pair(now time.Time, cands []Candidate, recent Recent) []Pair {
	m := Matcher{Policy: p}
	return m.Pair(now, cands, recent)
}

// score is the value of a partial matching, compared lexicographically:
// more pairs, then less total ladder gap (both in a), then less total
// rating gap (b).
type score struct{ a, b int64 }

var unreachable = score{a: math.MinInt64}

func (s score) better(t score) bool { return s.a > t.a || s.a == t.a && s.b > t.b }

// Matcher computes optimal pairings and keeps its buffers between passes.
// It is not safe for concurrent use.
type Matcher struct {
	Policy Policy

	order   []int32   // candidate index by position in level order
	window  []int32   // window per position
	blocked [][]int32 // positions each position must not meet (cooldown)
	compat  []uint32  // per position: bit d set if it may pair with position-1-d
	gaps    []int32   // per position and d: ladder gap
	rgaps   []int32   // per position and d: rating gap
	choice  []uint8   // per position and state: how the state was reached
	cur     []score
	next    []score
	byName  map[string]int32
}

// Pair chooses the pairs of one pass: the most players paired, then the
// least total ladder gap, then the least total Glicko-2 gap, among the
// pairings the policy accepts (Accepts, and not Recent.Met). A player with
// two tickets in cands is considered once, with the oldest. The result is
// sorted by A.
//
// It is a dynamic programme over the candidates sorted by level whose state
// is which of the last Lookback players are still unpaired; doc.go says
// when that is exact. Time O(n log n + n·2^Lookback·Lookback).
func (m *Matcher) Pair(now time.Time, cands []Candidate, recent Recent) []Pair {
	k := m.Policy.Lookback
	if k < 1 {
		k = 1
	}
	k = min(k, maxLookback)
	m.sortCandidates(cands)
	n := len(m.order)
	if n < 2 {
		return nil
	}
	k = min(k, n-1)
	m.prepare(now, cands, recent, k)
	return m.solve(cands, k)
}

// sortCandidates fills m.order with one candidate per player, by level.
func (m *Matcher) sortCandidates(cands []Candidate) {
	if m.byName == nil {
		m.byName = make(map[string]int32, len(cands))
	}
	clear(m.byName)
	m.order = m.order[:0]
	for i := range cands {
		c := &cands[i]
		if j, dup := m.byName[c.Player]; dup {
			o := &cands[j]
			if c.Since.Before(o.Since) || c.Since.Equal(o.Since) && c.Ticket < o.Ticket {
				m.byName[c.Player] = int32(i)
			}
			continue
		}
		m.byName[c.Player] = int32(i)
	}
	for i := range cands {
		if m.byName[cands[i].Player] == int32(i) {
			m.order = append(m.order, int32(i))
		}
	}
	slices.SortFunc(m.order, func(x, y int32) int {
		a, b := &cands[x], &cands[y]
		return cmp.Or(
			cmp.Compare(a.Level.Score, b.Level.Score),
			cmp.Compare(a.Level.Rating, b.Level.Rating),
			a.Since.Compare(b.Since),
			cmp.Compare(a.Ticket, b.Ticket),
		)
	})
}

// prepare computes windows, cooldown blocks and the compatibility of each
// position with the k before it.
func (m *Matcher) prepare(now time.Time, cands []Candidate, recent Recent, k int) {
	n := len(m.order)
	m.window = resize(m.window, n)
	m.compat = resize(m.compat, n)
	m.gaps = resize(m.gaps, n*k)
	m.rgaps = resize(m.rgaps, n*k)
	m.blocked = resize(m.blocked, n)
	for p, ci := range m.order {
		m.window[p] = int32(m.Policy.Window(now.Sub(cands[ci].Since)))
		m.blocked[p] = m.blocked[p][:0]
	}
	if len(recent) > 0 {
		// byName now maps each kept player to its candidate; map it to
		// positions instead.
		for p, ci := range m.order {
			m.byName[cands[ci].Player] = int32(p)
		}
		for a, opps := range recent {
			pa, ok := m.byName[a]
			if !ok {
				continue
			}
			for _, b := range opps {
				if pb, ok := m.byName[b]; ok {
					m.blocked[pa] = append(m.blocked[pa], pb)
					m.blocked[pb] = append(m.blocked[pb], pa)
				}
			}
		}
	}
	for p := range n {
		a := &cands[m.order[p]]
		var bitsSet uint32
		for d := 0; d < k && p-1-d >= 0; d++ {
			q := p - 1 - d
			b := &cands[m.order[q]]
			g := a.Level.Score - b.Level.Score // >= 0: sorted
			if g > int(m.window[p]) {
				break // farther ones are farther still
			}
			if g > int(m.window[q]) || a.Player == b.Player ||
				!a.Range.Contains(b.Level.Score) || !b.Range.Contains(a.Level.Score) ||
				slices.Contains(m.blocked[p], int32(q)) {
				continue
			}
			bitsSet |= 1 << d
			m.gaps[p*k+d] = int32(g)
			m.rgaps[p*k+d] = int32(ratingGap(*a, *b))
		}
		m.compat[p] = bitsSet
	}
}

// solve runs the dynamic programme and reads the pairs back.
//
// State after position p: bit j set when position p-j is still unpaired
// and may take a partner later. At position p a player either stays
// unpaired (its bit is set) or pairs with an unpaired compatible player
// among the k before it. A player whose bit leaves the state unpaired ends
// the pass unpaired.
func (m *Matcher) solve(cands []Candidate, k int) []Pair {
	n := len(m.order)
	states := 1 << k
	full := states - 1
	top := k - 1
	m.cur = resize(m.cur, states)
	m.next = resize(m.next, states)
	m.choice = resize(m.choice, n*states)
	for s := range m.cur {
		m.cur[s] = unreachable
	}
	m.cur[0] = score{}
	const pairValue = 1 << 32
	for p := range n {
		for s := range m.next {
			m.next[s] = unreachable
		}
		ch := m.choice[p*states : (p+1)*states]
		compat := m.compat[p]
		gaps, rgaps := m.gaps[p*k:p*k+k], m.rgaps[p*k:p*k+k]
		for s, v := range m.cur {
			if v.a == math.MinInt64 {
				continue
			}
			// p stays unpaired for now; bit top of s falls out.
			ns := (s<<1 | 1) & full
			if v.better(m.next[ns]) {
				m.next[ns] = v
				ch[ns] = uint8(s>>top&1) << 7
			}
			for c := uint32(s) & compat; c != 0; c &= c - 1 {
				d := bits.TrailingZeros32(c)
				s2 := s &^ (1 << d)
				ns := s2 << 1 & full
				w := score{a: v.a + pairValue - int64(gaps[d]), b: v.b - int64(rgaps[d])}
				if w.better(m.next[ns]) {
					m.next[ns] = w
					ch[ns] = uint8(s2>>top&1)<<7 | uint8(d+1)
				}
			}
		}
		m.cur, m.next = m.next, m.cur
	}
	best := 0
	for s, v := range m.cur {
		if v.better(m.cur[best]) {
			best = s
		}
	}
	var pairs []Pair
	s := best
	for p := n - 1; p >= 0; p-- {
		c := m.choice[p*states+s]
		prev := s>>1 | int(c>>7)<<top
		if d := int(c & 0x7f); d > 0 {
			q := p - d
			prev |= 1 << (d - 1)
			a, b := int(m.order[q]), int(m.order[p])
			pairs = append(pairs, Pair{A: a, B: b, Gap: gap(cands[a], cands[b])})
		}
		s = prev
	}
	slices.SortFunc(pairs, func(x, y Pair) int { return cmp.Compare(x.A, y.A) })
	return pairs
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
