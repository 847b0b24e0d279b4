package integrity_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/weiqi-platform/rank/integrity"
	"github.com/weiqi-platform/rank/rating"
)

// The simulated population of TestDetectionRates. Honest players:
//
//   - strengths normal (mean −250, sd 325, the ladder's scale); settled
//     players start with score and Glicko-2 rating near their strength
//     (noise 30, RD 60); one in ten arrives during the period as a new
//     account (score 0, Glicko-2 1500/350/0.06); one in twenty improves by
//     two ranks over the period (Glicko-2 lags behind them);
//   - every day two rounds: each player plays with probability 0.7, paired
//     with a neighbour by ladder score (jittered by 40 points); the
//     stronger wins with the logistic probability of the strength
//     difference (one rank ≈ 64%);
//   - a loser resigns in the opening (before move 30) with their own rate:
//     1% of their losses for 70% of the players, 3% for 25%, 8% for 5%;
//     otherwise resigns later, is counted out or loses on time;
//   - 30 pairs of friends play each other besides (half a game a day), and
//     10 pairs play almost only each other (three a day): captives of each
//     other, with honest results;
//   - exam sessions every week, for four groups of 40 regular
//     candidates in turn (grouped by strength, so candidates meet again):
//     24 of them (and the planted who sit it), each checked for
//     eligibility three days before, play four exam games against other
//     candidates.
//
// Planted cheats (and their accomplices, counted in neither rate):
//
//   - 45 farmers: 15 with two or three new captive accounts who lose 6–12
//     games each, 15 with a swarm of 8–15 new accounts losing 2–3 games
//     each, 15 with an established accomplice who loses 8–12 games to them
//     among their ordinary ones; an accomplice resigns a given game in the
//     opening with probability 0.7;
//   - 45 sandbaggers (all above 6k, so that there is a rank to drop to):
//     15 who, in the week before each of their two eligibility checks,
//     throw (with probability 0.9) every game until they are in the
//     middle of the rank below the one they had; 15 one to two ranks
//     stronger than a rank boundary they stay under, throwing (0.8)
//     whenever a win would lift them across it (or they are above it);
//     15 who throw a share (25–50%) of all their games; a throw is
//     resigned in the opening with probability 0.7;
//   - 40 colluding pairs who meet in 2–4 exam games; the weaker (by up to
//     two ranks) wins every one, the partner resigning in the opening
//     with probability 0.85.
const (
	simHonest      = 1200
	simFarmers     = 45
	simSandbaggers = 45
	simCollusions  = 40
	simDays        = 60
	simRounds      = 2
	simPlayChance  = 0.7
)

type kind int

const (
	honest kind = iota
	farmer
	accomplice
	sandbagger
	colluder
)

// Sandbagging windows.
const (
	beforeChecks = iota
	nearRank
	always
)

type simPlayer struct {
	name      string
	kind      kind
	strength  float64 // at day 0
	growth    float64 // strength points a day
	st        rating.State
	games     int
	arrive    int     // day
	earlyRate float64 // honest opening resignations of their losses
	ordinary  bool    // plays ordinary games
	mode      int     // a farmer's kind of farm (0 captives, 1 swarm, 2 established)
	// sandbaggers
	window    int
	throwRate float64
	checks    []time.Time
	target    int // beforeChecks: the score to get below this week; nearRank: the boundary to stay under
}

func (p *simPlayer) strengthAt(day int) float64 { return p.strength + p.growth*float64(day) }

type world struct {
	rng     *rand.Rand
	players []*simPlayer
	games   []integrity.Game
	checks  []integrity.Check
	t0      time.Time
	day     int
	clock   time.Duration // within the day
	// planted: the cheats by kind, and the colluding pairs
	planted map[kind][]*simPlayer
}

func (w *world) now() time.Time {
	return w.t0.Add(time.Duration(w.day)*24*time.Hour + w.clock)
}

func (w *world) add(p *simPlayer) *simPlayer {
	p.name = fmt.Sprintf("p%04d", len(w.players))
	if p.arrive > 0 || p.kind == accomplice {
		p.st = rating.NewState()
	} else {
		p.st = rating.State{Score: int(math.Round(p.strength + 30*w.rng.NormFloat64())),
			Glicko: rating.Glicko{Rating: rating.NewRating + p.strength + 30*w.rng.NormFloat64(), RD: 60, Volatility: rating.NewVolatility}}
	}
	if p.earlyRate == 0 {
		switch r := w.rng.Float64(); {
		case r < 0.70:
			p.earlyRate = 0.01
		case r < 0.95:
			p.earlyRate = 0.03
		default:
			p.earlyRate = 0.08
		}
	}
	w.players = append(w.players, p)
	if p.kind != honest && p.kind != accomplice {
		w.planted[p.kind] = append(w.planted[p.kind], p)
	}
	return p
}

func (w *world) strength() float64 { return min(max(-250+325*w.rng.NormFloat64(), -900), 1000) }

// ending is how a game the loser lost ended: resigned in the opening
// with probability early, else resigned later, counted or timed out.
func (w *world) ending(early float64) (integrity.End, int) {
	clamp := func(x float64, lo, hi int) int { return min(max(int(math.Round(x)), lo), hi) }
	r := w.rng.Float64()
	switch {
	case r < early:
		return integrity.EndResign, 8 + w.rng.IntN(22)
	case r < early+(1-early)*0.55:
		return integrity.EndResign, clamp(170+50*w.rng.NormFloat64(), 30, 400)
	case r < early+(1-early)*0.95:
		return integrity.EndCount, clamp(240+30*w.rng.NormFloat64(), 120, 400)
	}
	return integrity.EndTimeout, clamp(180+60*w.rng.NormFloat64(), 30, 400)
}

// play plays a game between a and b (a is Black). A winner given is an
// arranged result, resigned in the opening by the loser with
// probability early; otherwise the strengths decide and the loser's own
// habits end it.
func (w *world) play(a, b *simPlayer, exam bool, arranged *simPlayer, early float64) {
	w.clock += time.Minute
	winner, loser := a, b
	if arranged != nil {
		if arranged == b {
			winner, loser = b, a
		}
	} else {
		if w.rng.Float64() >= 1/(1+math.Pow(10, -(a.strengthAt(w.day)-b.strengthAt(w.day))/400)) {
			winner, loser = b, a
		}
		early = loser.earlyRate
	}
	end, moves := w.ending(early)
	at := w.now()
	g := integrity.Game{ID: fmt.Sprintf("g%06d", len(w.games)), Winner: winner.name, Moves: moves, End: end, Exam: exam,
		Black:   integrity.Side{Player: a.name, Glicko: a.st.Glicko, Score: a.st.Score, Games: a.games},
		White:   integrity.Side{Player: b.name, Glicko: b.st.Glicko, Score: b.st.Score, Games: b.games},
		Started: at.Add(-time.Duration(moves) * 20 * time.Second), Ended: at}
	w.games = append(w.games, g)
	out, err := rating.Default.Apply(winner.st, loser.st, rating.Game{Moves: moves})
	if err != nil {
		panic(err)
	}
	winner.st, loser.st = out.Winner, out.Loser
	a.games++
	b.games++
}

// ordinaryGame plays one ladder game between a and b, which a
// sandbagger in their window may throw.
func (w *world) ordinaryGame(a, b *simPlayer) {
	for _, s := range []*simPlayer{a, b} {
		if s.kind == sandbagger && w.throws(s) {
			other := a
			if s == a {
				other = b
			}
			w.play(a, b, false, other, 0.7)
			return
		}
	}
	w.play(a, b, false, nil, 0)
}

// throws decides whether the sandbagger throws their next game.
func (w *world) throws(s *simPlayer) bool {
	switch s.window {
	case nearRank:
		return s.st.Score+10 >= s.target && w.rng.Float64() < 0.8
	case beforeChecks:
		now := w.now()
		for _, c := range s.checks {
			if c.After(now) && c.Sub(now) <= 7*24*time.Hour {
				if s.target == 0 {
					s.target = 100*rankOf(s.st.Score) - 50 // the middle of the rank below
				}
				return s.st.Score > s.target && w.rng.Float64() < 0.9
			}
		}
		s.target = 0
		return false
	}
	return w.rng.Float64() < s.throwRate
}

func rankOf(score int) int { return int(math.Floor(float64(max(min(score, 900), -800)) / 100)) }

// simulate builds and plays the population of the seed.
func simulate(seed uint64) *world {
	w := &world{rng: rand.New(rand.NewPCG(seed, 16)), t0: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), planted: map[kind][]*simPlayer{}}
	for range simHonest {
		p := &simPlayer{kind: honest, strength: w.strength(), ordinary: true}
		switch r := w.rng.Float64(); {
		case r < 0.1:
			p.arrive = 1 + w.rng.IntN(simDays-10)
		case r < 0.15:
			p.growth = 200.0 / simDays
		}
		w.add(p)
	}
	honestPlayers := append([]*simPlayer(nil), w.players...)
	pick := func() *simPlayer { return honestPlayers[w.rng.IntN(len(honestPlayers))] }
	// Four exam groups of 40 regular candidates, by strength, so that
	// candidates meet again in the next session of their group.
	var regulars []*simPlayer
	for _, i := range w.rng.Perm(len(honestPlayers)) {
		if p := honestPlayers[i]; p.arrive == 0 && len(regulars) < 160 {
			regulars = append(regulars, p)
		}
	}
	slices.SortFunc(regulars, func(a, b *simPlayer) int { return cmp.Compare(a.strength, b.strength) })
	groups := [][]*simPlayer{regulars[:40], regulars[40:80], regulars[80:120], regulars[120:]}

	type friends struct {
		a, b    *simPlayer
		perDay  float64
		captive bool
	}
	var pairs []friends
	for i := range 40 {
		a, b := pick(), pick()
		if a == b || a.arrive > 0 || b.arrive > 0 {
			continue
		}
		f := friends{a: a, b: b, perDay: 0.5}
		if i >= 30 {
			f.perDay, f.captive = 3, true
			a.ordinary, b.ordinary = w.rng.Float64() < 0.3, w.rng.Float64() < 0.3
		}
		pairs = append(pairs, f)
	}

	// Farmers and their accomplices: each farm is a list of (day, victim)
	// arranged games.
	type arranged struct {
		day    int
		farmer *simPlayer
		victim *simPlayer
	}
	var farms []arranged
	for i := range simFarmers {
		f := w.add(&simPlayer{kind: farmer, strength: w.strength(), ordinary: true, mode: i % 3})
		start := w.rng.IntN(simDays - 15)
		switch i % 3 {
		case 0: // captives
			for range 2 + w.rng.IntN(2) {
				v := w.add(&simPlayer{kind: accomplice, arrive: start})
				for range 6 + w.rng.IntN(7) {
					farms = append(farms, arranged{start + w.rng.IntN(10), f, v})
				}
			}
		case 1: // a swarm of new accounts
			for range 8 + w.rng.IntN(8) {
				v := w.add(&simPlayer{kind: accomplice, arrive: start})
				for range 2 + w.rng.IntN(2) {
					farms = append(farms, arranged{start + w.rng.IntN(10), f, v})
				}
			}
		case 2: // an established accomplice
			v := w.add(&simPlayer{kind: accomplice, strength: w.strength(), ordinary: true})
			v.st = rating.State{Score: int(math.Round(v.strength)), Glicko: rating.Glicko{Rating: rating.NewRating + v.strength, RD: 60, Volatility: rating.NewVolatility}}
			for range 8 + w.rng.IntN(5) {
				farms = append(farms, arranged{w.rng.IntN(simDays), f, v})
			}
		}
	}

	// Sandbaggers; those of the checks sit two sessions.
	sessions := []int{}
	for d := 5; d < simDays; d += 7 {
		sessions = append(sessions, d)
	}
	type seat struct {
		session int
		p       *simPlayer
	}
	var seats []seat
	for i := range simSandbaggers {
		// A rank below them to drop to, a band above the bottom to stay in.
		s := w.add(&simPlayer{kind: sandbagger, strength: max(w.strength(), -600), ordinary: true, window: i % 3, throwRate: 0.25 + 0.25*w.rng.Float64()})
		if s.window == nearRank {
			// One to two ranks stronger than the band they stay in: just
			// below a rank boundary that their strength is well above.
			edge := 100 * (rankOf(int(s.strength)) + 1)
			s.strength = float64(edge) + 100 + 100*w.rng.Float64()
			s.st.Score = edge - 10 - w.rng.IntN(30)
			s.target = edge
		}
		if s.window == beforeChecks {
			a := 1 + w.rng.IntN(len(sessions)-1)
			b := 1 + w.rng.IntN(len(sessions)-1)
			for b == a {
				b = 1 + w.rng.IntN(len(sessions)-1)
			}
			for _, k := range []int{a, b} {
				seats = append(seats, seat{k, s})
				at := w.t0.Add(time.Duration(sessions[k]-3) * 24 * time.Hour)
				s.checks = append(s.checks, at)
				w.checks = append(w.checks, integrity.Check{Player: s.name, At: at, Exam: fmt.Sprint("session", k)})
			}
		}
	}
	// Colluders: pairs meeting in k sessions.
	type collusion struct {
		beneficiary, partner *simPlayer
		sessions             []int
	}
	var collusions []collusion
	for range simCollusions {
		b := w.add(&simPlayer{kind: colluder, strength: w.strength(), ordinary: true})
		p := w.add(&simPlayer{kind: colluder, strength: b.strength + 200*w.rng.Float64(), ordinary: true})
		c := collusion{beneficiary: b, partner: p, sessions: w.rng.Perm(len(sessions))[:2+w.rng.IntN(3)]}
		collusions = append(collusions, c)
	}

	for w.day = 0; w.day < simDays; w.day++ {
		w.clock = 0
		active := func(p *simPlayer) bool { return p.arrive <= w.day }
		for range simRounds {
			var pool []*simPlayer
			for _, p := range w.players {
				if p.ordinary && active(p) && w.rng.Float64() < simPlayChance {
					pool = append(pool, p)
				}
			}
			key := make(map[*simPlayer]float64, len(pool))
			for _, p := range pool {
				key[p] = float64(p.st.Score) + 40*w.rng.NormFloat64()
			}
			sortBy(pool, key)
			for i := 0; i+1 < len(pool); i += 2 {
				w.ordinaryGame(pool[i], pool[i+1])
			}
		}
		for _, f := range pairs {
			for n := poisson(w.rng, f.perDay); n > 0; n-- {
				w.play(f.a, f.b, false, nil, 0)
			}
		}
		for _, a := range farms {
			if a.day == w.day {
				w.play(a.farmer, a.victim, false, a.farmer, 0.7)
			}
		}
		for k, d := range sessions {
			if d != w.day {
				continue
			}
			w.session(k, groups[k%len(groups)], func(yield func(*simPlayer) bool) {
				for _, s := range seats {
					if s.session == k && !yield(s.p) {
						return
					}
				}
			}, func() [][2]*simPlayer {
				var out [][2]*simPlayer
				for _, c := range collusions {
					for _, ck := range c.sessions {
						if ck == k {
							out = append(out, [2]*simPlayer{c.beneficiary, c.partner})
						}
					}
				}
				return out
			}())
		}
	}
	return w
}

// session k: the seated, the colluders and 24 regulars of the session's
// group, checked three days before, four rounds of exam
// games against distinct opponents; each colluding pair meets once, the
// beneficiary winning.
func (w *world) session(k int, group []*simPlayer, seated func(func(*simPlayer) bool), colluding [][2]*simPlayer) {
	in := map[*simPlayer]bool{}
	var cands []*simPlayer
	seat := func(p *simPlayer) {
		if !in[p] && p.arrive <= w.day {
			in[p] = true
			cands = append(cands, p)
		}
	}
	for p := range seated {
		seat(p)
	}
	for _, c := range colluding {
		seat(c[0])
		seat(c[1])
	}
	for n := len(cands) + 24; len(cands) < n; {
		seat(group[w.rng.IntN(len(group))])
	}
	check := w.t0.Add(time.Duration(w.day-3) * 24 * time.Hour)
	for _, p := range cands {
		if p.kind != sandbagger || p.window != beforeChecks { // those were checked when seated
			w.checks = append(w.checks, integrity.Check{Player: p.name, At: check, Exam: fmt.Sprint("session", k)})
		}
	}
	met := map[[2]*simPlayer]bool{}
	for round := range 4 {
		busy := map[*simPlayer]bool{}
		if round == 0 {
			for _, c := range colluding {
				busy[c[0]], busy[c[1]] = true, true
				met[[2]*simPlayer{c[0], c[1]}], met[[2]*simPlayer{c[1], c[0]}] = true, true
				w.play(c[1], c[0], true, c[0], 0.85)
			}
		}
		order := w.rng.Perm(len(cands))
		for i, x := range order {
			a := cands[x]
			if busy[a] {
				continue
			}
			for _, y := range order[i+1:] {
				b := cands[y]
				if busy[b] || met[[2]*simPlayer{a, b}] {
					continue
				}
				busy[a], busy[b] = true, true
				met[[2]*simPlayer{a, b}], met[[2]*simPlayer{b, a}] = true, true
				w.play(a, b, true, nil, 0)
				break
			}
		}
	}
}

func sortBy(ps []*simPlayer, key map[*simPlayer]float64) {
	slices.SortStableFunc(ps, func(a, b *simPlayer) int { return cmp.Compare(key[a], key[b]) })
}

func poisson(rng *rand.Rand, mean float64) int {
	l, k, p := math.Exp(-mean), 0, 1.0
	for {
		p *= rng.Float64()
		if p <= l {
			return k
		}
		k++
	}
}
