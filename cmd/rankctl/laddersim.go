package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

func init() {
	commands["ladder-sim"] = command{summary: "simulate a ladder with true strengths: how soon newcomers reach their rank, with and without placement", run: runLadderSim}
}

const ladderSimUsage = `usage: rankctl ladder-sim [flags]

Plays a population of players with true strengths through the real
pairing policy (matchmaking.DefaultPolicy), the real formula
(rating.Default.Apply: the ladder and Glicko-2) and the placement rule
(rating.PlacementRule.Step: by default the platform's %d placement
games, then the Glicko-2 suggestion, at most %d (%s)), in pure
code, and reports how soon newcomers reach their true rank and what
happens to the whole ladder.

The model:
  strength  every player has a true strength on the ladder's scale (0 is
            the bottom of 1k, 100 points a rank); a wins against b with
            probability 1/(1+10^(−(ta−tb)/400)), so one rank up wins 64%%.
            No draws; every game is even, long enough to count (150 moves).
  settled   --players players whose strengths are drawn from a normal
            distribution (--mean, --sd, the same as rankctl matchsim's) have
            played long: ladder score = strength + noise (--settled-sd; 30 is
            the spread the formula's ±5 steps keep around the truth), Glicko-2
            rating = 1500 + strength + noise, RD 60.
  newcomers --per-rank newcomers at each rank of --ranks (strength uniform
            within the rank), and --arrivals more drawn from the settled
            players' distribution, arrive at uniform random times within
            --arrive-over. They start as the service starts them: score 0
            (1k), Glicko-2 1500/350/0.06, placing unless --placement=false.
  time      every --pass the pairing policy pairs the pool (the real
            Matcher: windows widen with the wait, the 30-minute cooldown
            holds). An idle player queues with probability --queue per
            pass; a game takes --game-time, then both players are idle.
            Tickets carry the ladder score and Glicko-2, as rankd's do;
            with --pair-placing=glicko a placing newcomer's carries
            rating.PlayerState.PairingScore, their Glicko-2 suggestion.
  the end   when every newcomer has played the largest of --k games, or
            after --max-time.

Reported: for each newcomer rank, the games until a newcomer's ladder rank
is first within one rank of their true rank (median, 90th percentile, how
many never got there), and the share within one rank after each of --k
games; the same shares for the arrivals (the population's newcomers);
the share of everyone within one rank at the end; what settled players'
scores did in games against newcomers in their first placement games
(the mean delta, and the mean distance from the fair delta, the
formula's had the newcomer's score been their strength; without
placement, the same first games); and the drift of the ladder: mean(score − strength)
of the settled players every --every (inflation above 0, deflation
below). --compare runs the same seed with and without placement and
prints both.

flags:
`

type ladderConfig struct {
	players, arrivals, perRank int
	ranks                      []ranks.Rank
	mean, sd, settledSD        float64
	pass, gameTime, arriveOver time.Duration
	maxTime, every             time.Duration
	queue                      float64
	ks                         []int
	placement, compare, json   bool
	rule                       rating.PlacementRule
	pairByGlicko               bool // placing newcomers queue at their Glicko-2 suggestion
	seed                       uint64
}

func runLadderSim(_ context.Context, args []string, stdout, stderr io.Writer) int {
	c, code := parseLadderSim(args, stderr)
	if code >= 0 {
		return code
	}
	var reps []ladderReport
	if c.compare {
		on, off := c, c
		on.placement, off.placement = true, false
		reps = []ladderReport{simulateLadder(on), simulateLadder(off)}
	} else {
		reps = []ladderReport{simulateLadder(c)}
	}
	if c.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		var v any = reps[0]
		if c.compare {
			v = reps
		}
		_ = enc.Encode(v)
		return exitOK
	}
	for i, r := range reps {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		r.print(stdout)
	}
	return exitOK
}

// parseLadderSim reads the flags; code is -1 when the run may go on.
func parseLadderSim(args []string, stderr io.Writer) (ladderConfig, int) {
	fs := flag.NewFlagSet("rankctl ladder-sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, ladderSimUsage, rating.PlacementGames, rating.PlacementCeiling, ranks.FromScore(rating.PlacementCeiling))
		fs.PrintDefaults()
	}
	c := ladderConfig{}
	var ranksFlag, ksFlag string
	fs.IntVar(&c.players, "players", 2000, "settled players")
	fs.IntVar(&c.arrivals, "arrivals", 400, "newcomers drawn from the settled players' distribution")
	fs.IntVar(&c.perRank, "per-rank", 50, "newcomers at each rank of --ranks")
	fs.StringVar(&ranksFlag, "ranks", "9k,6k,3k,1k,2d,4d,5d,7d", "comma-separated true ranks of the newcomer cohorts")
	fs.Float64Var(&c.mean, "mean", -250, "mean strength of the settled players (0 is 1k, -100 2k, 100 1d)")
	fs.Float64Var(&c.sd, "sd", 325, "standard deviation of the settled players' strengths")
	fs.Float64Var(&c.settledSD, "settled-sd", 30, "spread of a settled player's score (and rating) around their strength")
	fs.DurationVar(&c.pass, "pass", 5*time.Second, "how often the pairing policy runs")
	fs.Float64Var(&c.queue, "queue", 0.01, "chance that an idle player queues in a pass")
	fs.DurationVar(&c.gameTime, "game-time", 20*time.Minute, "how long a game keeps its players busy")
	fs.DurationVar(&c.arriveOver, "arrive-over", 14*24*time.Hour, "newcomers arrive at uniform random times within this")
	fs.DurationVar(&c.maxTime, "max-time", 60*24*time.Hour, "simulated time at most")
	fs.DurationVar(&c.every, "every", 72*time.Hour, "how often the drift is sampled")
	fs.StringVar(&ksFlag, "k", "10,20,50,100", "comma-separated game counts at which newcomers' accuracy is reported")
	fs.BoolVar(&c.placement, "placement", true, "newcomers play placement games (false: the formula alone, as before issue 16)")
	fs.BoolVar(&c.compare, "compare", false, "run with and without placement on the same seed")
	fs.IntVar(&c.rule.Games, "placement-games", rating.PlacementGames, "placement games, to try another rule than the platform's")
	fs.IntVar(&c.rule.Ceiling, "ceiling", rating.PlacementCeiling, "the placement's ceiling (a ladder score), to try another rule than the platform's")
	var pairPlacing string
	fs.StringVar(&pairPlacing, "pair-placing", "ladder", "the score a placing newcomer's ticket carries: ladder (their ladder score, as rankd does) or glicko (their Glicko-2 suggestion), to compare")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the population, the arrivals and the results")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, exitOK
		}
		return c, exitUsage
	}
	bad := func(format string, a ...any) (ladderConfig, int) {
		fmt.Fprintf(stderr, "rankctl ladder-sim: "+format+"\n", a...)
		return c, exitUsage
	}
	switch {
	case fs.NArg() > 0:
		return bad("unexpected argument %q", fs.Arg(0))
	case c.players < 2 || c.players > 1_000_000:
		return bad("--players must be between 2 and 1000000, not %d", c.players)
	case c.arrivals < 0 || c.arrivals > 1_000_000:
		return bad("--arrivals must be between 0 and 1000000, not %d", c.arrivals)
	case c.perRank < 0 || c.perRank > 100_000:
		return bad("--per-rank must be between 0 and 100000, not %d", c.perRank)
	case math.IsNaN(c.mean) || math.Abs(c.mean) > 1000:
		return bad("--mean must be a strength within ±1000, not %v", c.mean)
	case !(c.sd >= 0) || c.sd > 1000:
		return bad("--sd must be between 0 and 1000, not %v", c.sd)
	case !(c.settledSD >= 0) || c.settledSD > 1000:
		return bad("--settled-sd must be between 0 and 1000, not %v", c.settledSD)
	case c.pass <= 0:
		return bad("--pass must be above 0")
	case !(c.queue > 0 && c.queue <= 1):
		return bad("--queue must be above 0 and at most 1, not %v", c.queue)
	case c.gameTime < 0:
		return bad("--game-time must not be negative")
	case c.arriveOver < 0:
		return bad("--arrive-over must not be negative")
	case c.maxTime <= 0 || c.maxTime/c.pass > 10_000_000:
		return bad("--max-time must be above 0 and at most 10000000 passes")
	case c.every <= 0:
		return bad("--every must be above 0")
	case pairPlacing != "ladder" && pairPlacing != "glicko":
		return bad("--pair-placing must be ladder or glicko, not %q", pairPlacing)
	case c.rule.Games < 1 || c.rule.Games > 1000:
		return bad("--placement-games must be between 1 and 1000, not %d", c.rule.Games)
	case c.rule.Ceiling < -rating.ScoreLimit || c.rule.Ceiling > rating.ScoreLimit:
		return bad("--ceiling must be a score within ±%d", rating.ScoreLimit)
	}
	c.pairByGlicko = pairPlacing == "glicko"
	for _, f := range strings.Split(ranksFlag, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		r, err := ranks.Parse(f)
		if err != nil {
			return bad("--ranks: %v", err)
		}
		if _, err := r.LowestScore(); err != nil {
			return bad("--ranks: %s is not on the ladder", r)
		}
		c.ranks = append(c.ranks, r)
	}
	for _, f := range strings.Split(ksFlag, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 || k > 100_000 {
			return bad("--k: %q is not a game count between 1 and 100000", f)
		}
		c.ks = append(c.ks, k)
	}
	if len(c.ks) == 0 {
		return bad("--k names no game count")
	}
	slices.Sort(c.ks)
	c.ks = slices.Compact(c.ks)
	if len(c.ranks)*c.perRank+c.arrivals == 0 {
		return bad("no newcomers: give --ranks with --per-rank, or --arrivals")
	}
	return c, -1
}

// Kinds of simulated player.
const (
	ladderSettled    = iota
	ladderCohortKind // a newcomer of a --ranks cohort
	ladderArrival    // a newcomer from the population's distribution
)

type ladderPlayer struct {
	name     string
	strength float64
	kind     int
	cohort   int // index into ladderConfig.ranks, for ladderCohortKind
	st       rating.PlayerState
	arrive   time.Time
	busy     time.Time // in a game until then
	since    time.Time // when the ticket was made
	met      []meeting // opponents within the cooldown
	// What is measured of a newcomer: the games until first within one
	// rank (-1: not yet), and whether they were within after each k.
	firstWithin int
	withinAt    []int8 // per k: -1 not reached, 0 outside, 1 within
}

type meeting struct {
	opponent int
	at       time.Time
}

// rankIndex is a score's rank as a number, one per rank: 9k −8 … 1k 0 …
// 9d 9 (the ladder table's ends hold every score beyond them).
func rankIndex(score float64) int {
	low, _ := ranks.FromScore(int(math.Floor(score))).LowestScore()
	return low / 100
}

// within says whether the player's ladder rank is within one rank of
// their true rank.
func (p *ladderPlayer) within() bool {
	d := rankIndex(float64(p.st.Score)) - rankIndex(p.strength)
	return d >= -1 && d <= 1
}

// ladderReport is what a run measured.
type ladderReport struct {
	Placement      bool           `json:"placement"`
	PlacementGames int            `json:"placement_games"`
	Ceiling        int            `json:"placement_ceiling"`
	PairPlacing    string         `json:"pair_placing"`
	Seed           uint64         `json:"seed"`
	Players        int            `json:"settled_players"`
	Hours          float64        `json:"simulated_hours"`
	Games          int            `json:"games"`
	Ks             []int          `json:"k"`
	Cohorts        []ladderCohort `json:"cohorts"`
	Arrivals       ladderCohort   `json:"arrivals"`
	WithinAtEnd    float64        `json:"everyone_within_one_rank_at_end"`
	// What settled players' ladder scores did in games against
	// newcomers in their first placement-games games (placing, or in a
	// run without placement the games they would be), and against each
	// other: the cost of newcomers to their opponents.
	VsPlacing ladderDeltas     `json:"settled_vs_newcomers_first_games"`
	VsSettled ladderDeltas     `json:"settled_vs_settled"`
	Drift     []ladderDriftRow `json:"drift"`
}

// ladderCohort is one group of newcomers.
type ladderCohort struct {
	Rank  string `json:"true_rank,omitempty"`
	Count int    `json:"count"`
	// Games until first within one rank, over those who got there, and
	// how many never did.
	Median int `json:"median_games_to_within_one_rank"`
	P90    int `json:"p90_games_to_within_one_rank"`
	Never  int `json:"never_within_one_rank"`
	// Per k: the share within one rank after k games (of Reached, those
	// who played k games).
	WithinAfter []float64 `json:"within_one_rank_after_k"`
	Reached     []int     `json:"played_k"`
}

// ladderDeltas sums settled players' ladder deltas over games, and how
// far each was from the fair delta: the formula's had the opponent's
// score been their strength.
type ladderDeltas struct {
	Games int     `json:"games"`
	Mean  float64 `json:"mean_delta"`
	// Mean of (delta − fair) and of |delta − fair|.
	Excess    float64 `json:"mean_excess"`
	AbsExcess float64 `json:"mean_abs_excess"`
	sum, exc  int
	abs       int
}

func (d *ladderDeltas) add(delta, fair int) {
	d.Games++
	d.sum += delta
	d.exc += delta - fair
	d.abs += max(delta-fair, fair-delta)
	n := float64(d.Games)
	d.Mean, d.Excess, d.AbsExcess = float64(d.sum)/n, float64(d.exc)/n, float64(d.abs)/n
}

// ladderDriftRow is one sample of the whole ladder.
type ladderDriftRow struct {
	Hours float64 `json:"hours"`
	Games int     `json:"games"`
	// mean(score − strength) of the settled players, and of everyone
	// active (settled and arrived newcomers).
	SettledDrift float64 `json:"settled_mean_error"`
	AllDrift     float64 `json:"everyone_mean_error"`
	Within       float64 `json:"everyone_within_one_rank"`
}

// simulateLadder runs one simulation; it is deterministic for a config.
func simulateLadder(c ladderConfig) ladderReport {
	rng := rand.New(rand.NewPCG(c.seed, 0x1adde5))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ps []*ladderPlayer
	add := func(p *ladderPlayer) {
		p.name = strconv.Itoa(len(ps))
		p.firstWithin = -1
		p.withinAt = make([]int8, len(c.ks))
		for i := range p.withinAt {
			p.withinAt[i] = -1
		}
		ps = append(ps, p)
	}
	population := func() float64 { return min(max(c.mean+c.sd*rng.NormFloat64(), -900), 1000) }
	for range c.players {
		s := population()
		p := &ladderPlayer{strength: s, kind: ladderSettled, arrive: t0}
		p.st = rating.NewPlayer("")
		p.st.Score = int(math.Round(s + c.settledSD*rng.NormFloat64()))
		p.st.Glicko = rating.Glicko{Rating: rating.NewRating + s + c.settledSD*rng.NormFloat64(), RD: 60, Volatility: rating.NewVolatility}
		add(p)
	}
	newcomer := func(p *ladderPlayer) {
		p.st = rating.NewPlayer("")
		p.st.Placing = c.placement
		p.arrive = t0.Add(time.Duration(rng.Int64N(int64(c.arriveOver) + 1)))
		add(p)
	}
	for i, r := range c.ranks {
		low, _ := r.LowestScore()
		for range c.perRank {
			newcomer(&ladderPlayer{strength: float64(low) + 100*rng.Float64(), kind: ladderCohortKind, cohort: i})
		}
	}
	for range c.arrivals {
		newcomer(&ladderPlayer{strength: population(), kind: ladderArrival})
	}
	for _, p := range ps {
		p.st.Username = p.name
		if p.kind != ladderSettled && p.within() {
			p.firstWithin = 0
		}
	}

	policy := matchmaking.DefaultPolicy()
	m := matchmaking.Matcher{Policy: policy}
	kmax := c.ks[len(c.ks)-1]
	// Each player queues at a pass drawn when they become idle (on
	// arrival, after a game): the first success of a --queue chance per
	// pass. wake holds them by pass number.
	passOf := func(t time.Time) int64 { return int64((t.Sub(t0) + c.pass - 1) / c.pass) }
	wake := map[int64][]int{}
	idle := func(i int, from time.Time) {
		k := int64(0)
		if c.queue < 1 {
			k = int64(math.Floor(math.Log(1-rng.Float64()) / math.Log(1-c.queue)))
		}
		n := passOf(from) + k
		wake[n] = append(wake[n], i)
	}
	for i, p := range ps {
		idle(i, p.arrive)
	}
	newcomers := len(ps) - c.players
	done := 0 // newcomers who played kmax games
	rep := ladderReport{Placement: c.placement, PlacementGames: c.rule.Games, Ceiling: c.rule.Ceiling, PairPlacing: map[bool]string{false: "ladder score", true: "Glicko-2 suggestion"}[c.pairByGlicko],
		Seed: c.seed, Players: c.players, Ks: c.ks}
	var next time.Time
	var pool []int
	var cands []matchmaking.Candidate
	recent := matchmaking.Recent{}
	sample := func(now time.Time) {
		var settled, all, within float64
		var ns, na int
		for _, p := range ps {
			if p.arrive.After(now) {
				continue
			}
			e := float64(p.st.Score) - p.strength
			if p.kind == ladderSettled {
				settled += e
				ns++
			}
			all += e
			na++
			if p.within() {
				within++
			}
		}
		rep.Drift = append(rep.Drift, ladderDriftRow{Hours: now.Sub(t0).Hours(), Games: rep.Games,
			SettledDrift: settled / float64(max(ns, 1)), AllDrift: all / float64(max(na, 1)), Within: within / float64(max(na, 1))})
	}
	sample(t0)
	nextSample := t0.Add(c.every)
	now := t0
	for n := int64(0); now.Sub(t0) < c.maxTime; n, now = n+1, next {
		next = now.Add(c.pass)
		for _, i := range wake[n] {
			ps[i].since = now
			pool = append(pool, i)
		}
		delete(wake, n)
		cands = cands[:0]
		clear(recent)
		for _, i := range pool {
			p := ps[i]
			cands = append(cands, matchmaking.Candidate{Ticket: p.name, Player: p.name, Since: p.since, Range: matchmaking.AnyScore,
				Level: matchmaking.Level{Score: c.ticketScore(p), Rating: p.st.Glicko.Rating, RD: p.st.Glicko.RD}})
			p.met = slices.DeleteFunc(p.met, func(mt meeting) bool { return now.Sub(mt.at) >= policy.Cooldown })
			if len(p.met) > 0 {
				opps := make([]string, len(p.met))
				for j, mt := range p.met {
					opps[j] = ps[mt.opponent].name
				}
				recent[p.name] = opps
			}
		}
		paired := make(map[int]bool)
		for _, pr := range m.Pair(now, cands, recent) {
			a, b := pool[pr.A], pool[pr.B]
			paired[a], paired[b] = true, true
			rep.Games++
			for _, i := range []int{a, b} {
				if ps[i].kind != ladderSettled && ps[i].st.Games == kmax-1 {
					done++
				}
			}
			playLadderGame(c, rng, ps, a, b, now, &rep)
			idle(a, ps[a].busy)
			idle(b, ps[b].busy)
		}
		pool = slices.DeleteFunc(pool, func(i int) bool { return paired[i] })
		for !nextSample.After(next) {
			sample(nextSample)
			nextSample = nextSample.Add(c.every)
		}
		if done == newcomers {
			now = next
			break
		}
	}
	if last := rep.Drift[len(rep.Drift)-1]; now.Sub(t0).Hours() > last.Hours {
		sample(now)
	}
	rep.Hours = now.Sub(t0).Hours()
	rep.WithinAtEnd = rep.Drift[len(rep.Drift)-1].Within
	for i, r := range c.ranks {
		rep.Cohorts = append(rep.Cohorts, cohortOf(c, ps, func(p *ladderPlayer) bool { return p.kind == ladderCohortKind && p.cohort == i }, r.String()))
	}
	rep.Arrivals = cohortOf(c, ps, func(p *ladderPlayer) bool { return p.kind == ladderArrival }, "")
	return rep
}

// ticketScore is the score a player's ticket carries.
func (c ladderConfig) ticketScore(p *ladderPlayer) int {
	if c.pairByGlicko {
		return p.st.PairingScore()
	}
	return p.st.Score
}

// playLadderGame plays one game between players a and b and applies it
// as the rating service would: the formula, then the placement rule.
func playLadderGame(c ladderConfig, rng *rand.Rand, ps []*ladderPlayer, a, b int, now time.Time, rep *ladderReport) {
	pa, pb := ps[a], ps[b]
	w, l := pa, pb
	if rng.Float64() >= 1/(1+math.Pow(10, -(pa.strength-pb.strength)/400)) {
		w, l = pb, pa
	}
	out, err := rating.Default.Apply(w.st.State, l.st.State, rating.Game{Moves: 150})
	if err != nil {
		panic("ladder-sim: the formula refused a simulated game: " + err.Error()) // scores stay far inside its bounds
	}
	for _, s := range []struct {
		p, o   *ladderPlayer
		winner bool
		delta  int
	}{{w, l, true, out.Deltas.Winner}, {l, w, false, out.Deltas.Loser}} {
		var into *ladderDeltas
		switch {
		case s.p.kind != ladderSettled:
			continue
		case s.o.kind != ladderSettled && s.o.st.Games < c.rule.Games:
			into = &rep.VsPlacing // placing, or in the games they would be
		case s.o.kind == ladderSettled:
			into = &rep.VsSettled
		default:
			continue // a newcomer past those games
		}
		// The fair delta: the opponent at their strength.
		o := int(math.Round(s.o.strength))
		var d rating.Deltas
		if s.winner {
			d, _ = rating.Ladder(s.p.st.Score, o, rating.Game{Moves: 150})
		} else {
			d, _ = rating.Ladder(o, s.p.st.Score, rating.Game{Moves: 150})
		}
		into.add(s.delta, map[bool]int{true: d.Winner, false: d.Loser}[s.winner])
	}
	w.st.State, l.st.State = out.Winner, out.Loser
	for _, p := range []*ladderPlayer{w, l} {
		if p.st, _, err = c.rule.Step(p.st); err != nil {
			panic("ladder-sim: the placement rule refused a rating: " + err.Error())
		}
		p.st.Games++
		p.busy = now.Add(c.gameTime)
		if p.kind == ladderSettled {
			continue
		}
		in := p.within()
		if in && p.firstWithin < 0 {
			p.firstWithin = p.st.Games
		}
		for i, k := range c.ks {
			if p.st.Games == k {
				p.withinAt[i] = map[bool]int8{false: 0, true: 1}[in]
			}
		}
	}
	pa.met = append(pa.met, meeting{b, now})
	pb.met = append(pb.met, meeting{a, now})
}

// cohortOf measures the newcomers that match.
func cohortOf(c ladderConfig, ps []*ladderPlayer, match func(*ladderPlayer) bool, name string) ladderCohort {
	out := ladderCohort{Rank: name, WithinAfter: make([]float64, len(c.ks)), Reached: make([]int, len(c.ks))}
	var firsts []int
	within := make([]int, len(c.ks))
	for _, p := range ps {
		if !match(p) {
			continue
		}
		out.Count++
		if p.firstWithin < 0 {
			out.Never++
		} else {
			firsts = append(firsts, p.firstWithin)
		}
		for i, w := range p.withinAt {
			if w >= 0 {
				out.Reached[i]++
				within[i] += int(w)
			}
		}
	}
	slices.Sort(firsts)
	if len(firsts) > 0 {
		out.Median = firsts[len(firsts)/2]
		out.P90 = firsts[min(len(firsts)-1, len(firsts)*9/10)]
	}
	for i := range within {
		if out.Reached[i] > 0 {
			out.WithinAfter[i] = float64(within[i]) / float64(out.Reached[i])
		}
	}
	return out
}

func (r ladderReport) print(w io.Writer) {
	mode := "without placement (the formula alone)"
	if r.Placement {
		mode = fmt.Sprintf("with placement (%d games, ceiling %d = %s, paired at their %s)", r.PlacementGames, r.Ceiling, ranks.FromScore(r.Ceiling), r.PairPlacing)
	}
	fmt.Fprintf(w, "ladder-sim %s, seed %d: %d settled players, %.0f simulated hours, %d games\n", mode, r.Seed, r.Players, r.Hours, r.Games)
	var ks strings.Builder
	for _, k := range r.Ks {
		fmt.Fprintf(&ks, "  @%-4d", k)
	}
	fmt.Fprintf(w, "\nnewcomers: games until within one rank of their true rank, and the share within one rank after k games\n")
	fmt.Fprintf(w, "  %-9s %5s %7s %5s %6s%s\n", "true rank", "n", "median", "p90", "never", ks.String())
	row := func(name string, c ladderCohort) {
		if c.Never == c.Count {
			fmt.Fprintf(w, "  %-9s %5d %7s %5s %6d", name, c.Count, "-", "-", c.Never)
		} else {
			fmt.Fprintf(w, "  %-9s %5d %7d %5d %6d", name, c.Count, c.Median, c.P90, c.Never)
		}
		for i := range r.Ks {
			if c.Reached[i] == 0 {
				fmt.Fprintf(w, "  %-5s", "-")
			} else {
				fmt.Fprintf(w, "  %4.0f%%", 100*c.WithinAfter[i])
			}
		}
		fmt.Fprintln(w)
	}
	for _, c := range r.Cohorts {
		row(c.Rank, c)
	}
	if r.Arrivals.Count > 0 {
		row("arrivals", r.Arrivals)
	}
	fmt.Fprintf(w, "\nsettled players' ladder delta a game, mean and mean |delta − fair| (fair: the opponent at their strength)\n")
	fmt.Fprintf(w, "  against newcomers in their first %d games %+.2f, %.2f (%d player-games); against each other %+.2f, %.2f (%d player-games)\n",
		r.PlacementGames, r.VsPlacing.Mean, r.VsPlacing.AbsExcess, r.VsPlacing.Games, r.VsSettled.Mean, r.VsSettled.AbsExcess, r.VsSettled.Games)
	fmt.Fprintf(w, "\nthe ladder: mean(score − strength) (drift: above 0 inflation, below deflation) and share within one rank\n")
	fmt.Fprintf(w, "  %7s %9s %9s %9s %8s\n", "hours", "games", "settled", "everyone", "within")
	for _, d := range r.Drift {
		fmt.Fprintf(w, "  %7.0f %9d %+9.1f %+9.1f %7.1f%%\n", d.Hours, d.Games, d.SettledDrift, d.AllDrift, 100*d.Within)
	}
}
