package integrity

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// Kind is what a flag suspects.
type Kind string

// Kinds of flag.
const (
	Farming       Kind = "farming"
	Sandbagging   Kind = "sandbagging"
	ExamCollusion Kind = "exam_collusion"
)

// Tests: which test of its kind raised a flag (Flag.Test).
const (
	TestCaptiveZ       = "captive_z"           // farming: z against captive opponents ≥ FarmZ
	TestPairZ          = "pair_z"              // farming: z against one opponent ≥ FarmZ
	TestCaptiveEarly   = "captive_early"       // farming: captives resign early against them beyond HonestEarlyRate
	TestOpponentsEarly = "opponents_early"     // farming: opponents resign early against them beyond their habit
	TestPairEarly      = "pair_early"          // farming: one opponent resigns early against them beyond their habit
	TestNewAccountsZ   = "new_accounts_z"      // farming: z against new accounts ≥ FarmZ
	TestLossZ          = "loss_z"              // sandbagging: z over all games ≤ −SandbagZ
	TestEarlyLosses    = "early_losses"        // sandbagging: early resignations of their losses beyond SandbagEarlyRate
	TestWindowZ        = "window_z"            // sandbagging: z near a rank boundary or before a check ≤ −WindowZ
	TestWindowEarly    = "window_early"        // sandbagging: early resignations there beyond SandbagEarlyRate
	TestExamImprobable = "exam_improbable"     // exam collusion: the pair's results' probability ≤ ExamImprobable
	TestExamEarly      = "exam_early_resigned" // exam collusion: the pair's early resignations ≥ ExamEarlyGames
)

// Flag is one suspicion about one player, with its evidence, for a
// person to review. It changes nothing by itself.
type Flag struct {
	Kind   Kind   `json:"kind"`
	Test   string `json:"test"`
	Player string `json:"player"`
	// Others are the other accounts involved: a farmer's captives or new
	// accounts beaten, a colluder's partner.
	Others []string `json:"others,omitempty"`
	// Statistic crossed Threshold (a z-score, a count or a probability:
	// Test says which, and Detail says it in words).
	Statistic float64    `json:"statistic"`
	Threshold float64    `json:"threshold"`
	Detail    string     `json:"detail"`
	Evidence  []Evidence `json:"evidence"`
}

// Key identifies the flag across runs over overlapping windows: its
// kind, test, player and the first and last game of its evidence.
func (f Flag) Key() string {
	first, last := "", ""
	if n := len(f.Evidence); n > 0 {
		first, last = f.Evidence[0].Game, f.Evidence[n-1].Game
	}
	return strings.Join([]string{string(f.Kind), f.Test, f.Player, first, last}, "/")
}

// Evidence is one game behind a flag, from the flagged player's side.
type Evidence struct {
	Game     string    `json:"game"`
	Opponent string    `json:"opponent"`
	Expected float64   `json:"expected"` // the player's expected score by Glicko-2
	Actual   float64   `json:"actual"`   // 1 a win, ½ a draw, 0 a loss
	Moves    int       `json:"moves"`
	End      End       `json:"end"`
	Exam     bool      `json:"exam,omitempty"`
	Ended    time.Time `json:"ended"`
}

// Detect runs every detector on the input with the thresholds and
// returns the flags by player, kind and test. A game it cannot read is
// an *InputError naming it; nothing is detected then.
func Detect(in Input, th Thresholds) ([]Flag, error) {
	for i := range in.Games {
		if err := in.Games[i].check(i); err != nil {
			return nil, err
		}
	}
	x := index(in)
	var flags []Flag
	flags = append(flags, x.farming(th)...)
	flags = append(flags, x.sandbagging(th)...)
	flags = append(flags, x.collusion(th)...)
	slices.SortStableFunc(flags, func(a, b Flag) int {
		return cmp.Or(cmp.Compare(a.Player, b.Player), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Test, b.Test))
	})
	return flags, nil
}

// indexed is the input sorted by time, with each player's games.
type indexed struct {
	games   []Game
	players []string         // sorted
	of      map[string][]int // player → their games, in time order
	checks  map[string][]time.Time
	pairs   map[[2]string]int // sorted pair → games between them
	expB    []float64         // per game: Black's expected score
}

func index(in Input) *indexed {
	x := &indexed{games: slices.Clone(in.Games), of: map[string][]int{}, checks: map[string][]time.Time{}, pairs: map[[2]string]int{}}
	slices.SortStableFunc(x.games, func(a, b Game) int { return cmp.Or(a.Ended.Compare(b.Ended), cmp.Compare(a.ID, b.ID)) })
	x.expB = make([]float64, len(x.games))
	for i := range x.games {
		g := &x.games[i]
		for _, p := range []string{g.Black.Player, g.White.Player} {
			x.of[p] = append(x.of[p], i)
		}
		x.pairs[pair(g.Black.Player, g.White.Player)]++
		x.expB[i] = rating.Expected(g.Black.Glicko, g.White.Glicko)
	}
	for p := range x.of {
		x.players = append(x.players, p)
	}
	slices.Sort(x.players)
	for _, c := range in.Checks {
		x.checks[c.Player] = append(x.checks[c.Player], c.At)
	}
	for _, ts := range x.checks {
		slices.SortFunc(ts, time.Time.Compare)
	}
	return x
}

func pair(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// The detectors keep sets of games as indices into x.games, each seen
// from one player's side; Evidence is made only for the flags.

// expected is the player's expected score in game i.
func (x *indexed) expected(i int, player string) float64 {
	if x.games[i].Black.Player == player {
		return x.expB[i]
	}
	return 1 - x.expB[i]
}

// opponent is the player's opponent in game i.
func (x *indexed) opponent(i int, player string) string {
	if g := &x.games[i]; g.Black.Player == player {
		return g.White.Player
	}
	return x.games[i].Black.Player
}

// evidence is game i from the player's side.
func (x *indexed) evidence(i int, player string) Evidence {
	g := &x.games[i]
	return Evidence{Game: g.ID, Opponent: x.opponent(i, player), Expected: x.expected(i, player), Actual: g.score(player),
		Moves: g.Moves, End: g.End, Exam: g.Exam, Ended: g.Ended}
}

// evidenceOf is the games from the player's side.
func (x *indexed) evidenceOf(player string, games []int) []Evidence {
	out := make([]Evidence, len(games))
	for j, i := range games {
		out[j] = x.evidence(i, player)
	}
	return out
}

// zScore is (Σ actual − Σ expected) / √Σ expected·(1 − expected) over
// the player's games, and the variance under the root: a z over games
// whose results were all but certain says little (the normal
// approximation needs a variance of a few games' worth), so the tests
// require MinVariance.
func (x *indexed) zScore(player string, games []int) (z, variance float64) {
	var s, e, v float64
	for _, i := range games {
		exp := x.expected(i, player)
		s += x.games[i].score(player)
		e += exp
		v += exp * (1 - exp)
	}
	if v == 0 {
		return 0, 0
	}
	return (s - e) / math.Sqrt(v), v
}

// earlyResigned reports whether the game was resigned in the opening.
func earlyResigned(g *Game, th Thresholds) bool { return g.End == EndResign && g.Moves < th.EarlyMoves }

// opponents are the player's opponents in the games, sorted, once each.
func (x *indexed) opponents(player string, games []int) []string {
	out := make([]string, 0, len(games))
	for _, i := range games {
		out = append(out, x.opponent(i, player))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// farming flags players who beat their captive opponents (who play
// almost only them) or new accounts far beyond Glicko-2's expectation,
// or whose opponents resign early against them far more often than
// against others.
func (x *indexed) farming(th Thresholds) []Flag {
	// Each player's losses and early resignations.
	losses, early := map[string]int{}, map[string]int{}
	for i := range x.games {
		g := &x.games[i]
		if g.Winner == "" {
			continue
		}
		l := other(g, g.Winner)
		losses[l]++
		if earlyResigned(g, th) {
			early[l]++
		}
	}
	var out []Flag
	for _, p := range x.players {
		var captive, fresh, earlyWins, captiveEarly []int
		captiveWins := 0
		// Per opponent: the games, their losses and early resignations
		// against p.
		lostTo, earlyTo := map[string]int{}, map[string]int{}
		against := map[string][]int{}
		for _, i := range x.of[p] {
			g := &x.games[i]
			_, opp, _ := g.side(p)
			n := x.pairs[pair(p, opp.Player)]
			if n >= th.CaptiveMinGames && float64(n) >= th.CaptiveShare*float64(len(x.of[opp.Player])) {
				captive = append(captive, i)
				if g.Winner == p {
					captiveWins++
					if earlyResigned(g, th) {
						captiveEarly = append(captiveEarly, i)
					}
				}
			}
			if opp.Games < th.NewAccountGames {
				fresh = append(fresh, i)
			}
			against[opp.Player] = append(against[opp.Player], i)
			if g.Winner == p {
				lostTo[opp.Player]++
				if earlyResigned(g, th) {
					earlyTo[opp.Player]++
					earlyWins = append(earlyWins, i)
				}
			}
		}
		if z, v := x.zScore(p, captive); len(captive) >= th.FarmMinGames && v >= th.MinVariance && z >= th.FarmZ {
			out = append(out, Flag{Kind: Farming, Test: TestCaptiveZ, Player: p, Others: x.opponents(p, captive), Statistic: z, Threshold: th.FarmZ,
				Detail:   fmt.Sprintf("%s scored %.1f of %.1f expected in %d games against opponents who play mostly them: z %.2f ≥ %.2f", p, x.sum(p, captive, true), x.sum(p, captive, false), len(captive), z, th.FarmZ),
				Evidence: x.evidenceOf(p, captive)})
		}
		if z, v := x.zScore(p, fresh); len(fresh) >= th.FarmMinGames && v >= th.MinVariance && z >= th.FarmZ {
			out = append(out, Flag{Kind: Farming, Test: TestNewAccountsZ, Player: p, Others: x.opponents(p, fresh), Statistic: z, Threshold: th.FarmZ,
				Detail:   fmt.Sprintf("%s scored %.1f of %.1f expected in %d games against accounts with fewer than %d rated games: z %.2f ≥ %.2f", p, x.sum(p, fresh, true), x.sum(p, fresh, false), len(fresh), th.NewAccountGames, z, th.FarmZ),
				Evidence: x.evidenceOf(p, fresh)})
		}
		if pr := binomialTail(len(captiveEarly), captiveWins, th.HonestEarlyRate); len(captiveEarly) >= th.FarmEarlyWins && pr <= th.FarmEarlyP {
			out = append(out, Flag{Kind: Farming, Test: TestCaptiveEarly, Player: p, Others: x.opponents(p, captiveEarly), Statistic: pr, Threshold: th.FarmEarlyP,
				Detail: fmt.Sprintf("%d of %s's %d wins against opponents who play mostly them were resigned before move %d: probability %.2g ≤ %.2g if they resign %.0f%% of their losses that early",
					len(captiveEarly), p, captiveWins, th.EarlyMoves, pr, th.FarmEarlyP, 100*th.HonestEarlyRate),
				Evidence: x.evidenceOf(p, captiveEarly)})
		}
		// Expected early resignations: each opponent's rate in their
		// other losses, shrunk toward the honest ceiling.
		rate := func(o string) float64 {
			return (float64(early[o]-earlyTo[o]) + th.HonestEarlyRate*th.EarlyPriorLosses) / (float64(losses[o]-lostTo[o]) + th.EarlyPriorLosses)
		}
		if len(earlyWins) >= th.FarmEarlyWins {
			lambda := 0.0
			for _, o := range slices.Sorted(maps.Keys(lostTo)) { // in order: the same sum every run
				lambda += rate(o) * float64(lostTo[o])
			}
			if pr := poissonTail(len(earlyWins), lambda); pr <= th.FarmEarlyP {
				out = append(out, Flag{Kind: Farming, Test: TestOpponentsEarly, Player: p, Others: x.opponents(p, earlyWins), Statistic: pr, Threshold: th.FarmEarlyP,
					Detail: fmt.Sprintf("%d of %s's wins were resigned before move %d, %.2f expected from their opponents' other losses: probability %.2g ≤ %.2g",
						len(earlyWins), p, th.EarlyMoves, lambda, pr, th.FarmEarlyP),
					Evidence: x.evidenceOf(p, earlyWins)})
			}
		}
		// The same few accounts: each opponent on their own.
		tested := 0
		for _, n := range lostTo {
			if n >= th.FarmEarlyWins {
				tested++
			}
		}
		for _, o := range slices.Sorted(maps.Keys(against)) {
			es := against[o]
			if z, v := x.zScore(p, es); len(es) >= th.FarmMinGames && v >= th.MinVariance && z >= th.FarmZ {
				out = append(out, Flag{Kind: Farming, Test: TestPairZ, Player: p, Others: []string{o}, Statistic: z, Threshold: th.FarmZ,
					Detail:   fmt.Sprintf("%s scored %.1f of %.1f expected in %d games against %s: z %.2f ≥ %.2f", p, x.sum(p, es, true), x.sum(p, es, false), len(es), o, z, th.FarmZ),
					Evidence: x.evidenceOf(p, es)})
			}
			if earlyTo[o] < th.FarmEarlyWins {
				continue
			}
			// One test per opponent who lost to p often enough to reach
			// the count: Bonferroni over those (the others cannot be
			// flagged, so they do not count: Tarone's refinement).
			lambda := rate(o) * float64(lostTo[o])
			if pr := min(1, poissonTail(earlyTo[o], lambda)*float64(tested)); pr <= th.FarmEarlyP {
				var ev []int
				for _, i := range earlyWins {
					if x.opponent(i, p) == o {
						ev = append(ev, i)
					}
				}
				out = append(out, Flag{Kind: Farming, Test: TestPairEarly, Player: p, Others: []string{o}, Statistic: pr, Threshold: th.FarmEarlyP,
					Detail: fmt.Sprintf("%s resigned %d of %d losses to %s before move %d, %.2f expected from their other losses: probability %.2g (times the %d opponents who lost %d or more games to %s) ≤ %.2g",
						o, earlyTo[o], lostTo[o], p, th.EarlyMoves, lambda, pr, tested, th.FarmEarlyWins, p, th.FarmEarlyP),
					Evidence: x.evidenceOf(p, ev)})
			}
		}
	}
	return out
}

// poissonTail is P(X ≥ k) for X ~ Poisson(lambda).
func poissonTail(k int, lambda float64) float64 {
	if lambda <= 0 {
		if k <= 0 {
			return 1
		}
		return 0
	}
	// 1 − P(X < k), summed in the direction that keeps precision: the
	// terms from k up while they matter.
	term := math.Exp(-lambda + float64(k)*math.Log(lambda) - lgamma(k+1))
	tail := 0.0
	for j := k; term > tail*1e-17 && j < k+10000; j++ {
		tail += term
		term *= lambda / float64(j+1)
	}
	return min(tail, 1)
}

// binomialTail is P(X ≥ k) for X ~ Binomial(n, p).
func binomialTail(k, n int, p float64) float64 {
	if k <= 0 {
		return 1
	}
	if k > n {
		return 0
	}
	if p <= 0 {
		return 0
	}
	if p >= 1 {
		return 1
	}
	tail := 0.0
	for j := k; j <= n; j++ {
		tail += math.Exp(lgamma(n+1) - lgamma(j+1) - lgamma(n-j+1) + float64(j)*math.Log(p) + float64(n-j)*math.Log1p(-p))
	}
	return min(tail, 1)
}

func lgamma(n int) float64 {
	v, _ := math.Lgamma(float64(n))
	return v
}

// sum adds the player's actual (or expected) scores in the games.
func (x *indexed) sum(player string, games []int, actual bool) float64 {
	s := 0.0
	for _, i := range games {
		if actual {
			s += x.games[i].score(player)
		} else {
			s += x.expected(i, player)
		}
	}
	return s
}

// sandbagging flags players who lose far below their Glicko-2 level:
// overall, by early resignations of games they were expected to win, or
// when a win would lift them across a rank boundary or before an exam's
// eligibility check.
func (x *indexed) sandbagging(th Thresholds) []Flag {
	var out []Flag
	for _, p := range x.players {
		var all, early, window, windowEarly []int
		lost, windowLost := 0, 0
		for _, i := range x.of[p] {
			g := &x.games[i]
			me, _, _ := g.side(p)
			all = append(all, i)
			if g.Winner != "" && g.Winner != p {
				lost++
				if earlyResigned(g, th) {
					early = append(early, i)
				}
			}
			if nearBoundary(me.Score, th.BandMargin) || x.beforeCheck(p, g.Ended, th.BeforeCheck) {
				window = append(window, i)
				if g.Winner != "" && g.Winner != p {
					windowLost++
					if earlyResigned(g, th) {
						windowEarly = append(windowEarly, i)
					}
				}
			}
		}
		if z, v := x.zScore(p, all); len(all) >= th.SandbagMinGames && v >= th.MinVariance && z <= -th.SandbagZ {
			out = append(out, Flag{Kind: Sandbagging, Test: TestLossZ, Player: p, Statistic: z, Threshold: -th.SandbagZ,
				Detail:   fmt.Sprintf("%s scored %.1f of %.1f expected in %d games: z %.2f ≤ %.2f", p, x.sum(p, all, true), x.sum(p, all, false), len(all), z, -th.SandbagZ),
				Evidence: x.evidenceOf(p, all)})
		}
		if pr := binomialTail(len(early), lost, th.HonestEarlyRate); len(early) >= th.SandbagEarlyLosses && pr <= th.SandbagEarlyP {
			out = append(out, Flag{Kind: Sandbagging, Test: TestEarlyLosses, Player: p, Others: x.opponents(p, early), Statistic: pr, Threshold: th.SandbagEarlyP,
				Detail: fmt.Sprintf("%s resigned %d of %d losses before move %d: probability %.2g ≤ %.2g for a player who resigns %.0f%% of their losses that early",
					p, len(early), lost, th.EarlyMoves, pr, th.SandbagEarlyP, 100*th.HonestEarlyRate),
				Evidence: x.evidenceOf(p, early)})
		}
		if z, v := x.zScore(p, window); len(window) >= th.WindowMinGames && v >= th.MinVariance && z <= -th.WindowZ {
			out = append(out, Flag{Kind: Sandbagging, Test: TestWindowZ, Player: p, Statistic: z, Threshold: -th.WindowZ,
				Detail: fmt.Sprintf("%s scored %.1f of %.1f expected in %d games played within %d points of the next rank or in the %v before an exam's eligibility check: z %.2f ≤ %.2f",
					p, x.sum(p, window, true), x.sum(p, window, false), len(window), th.BandMargin, th.BeforeCheck, z, -th.WindowZ),
				Evidence: x.evidenceOf(p, window)})
		}
		if pr := binomialTail(len(windowEarly), windowLost, th.HonestEarlyRate); len(windowEarly) >= th.SandbagEarlyLosses && pr <= th.SandbagEarlyP {
			out = append(out, Flag{Kind: Sandbagging, Test: TestWindowEarly, Player: p, Statistic: pr, Threshold: th.SandbagEarlyP,
				Detail: fmt.Sprintf("%s resigned %d of %d losses before move %d while within %d points of the next rank or in the %v before an exam's eligibility check: probability %.2g ≤ %.2g for a player who resigns %.0f%% of their losses that early",
					p, len(windowEarly), windowLost, th.EarlyMoves, th.BandMargin, th.BeforeCheck, pr, th.SandbagEarlyP, 100*th.HonestEarlyRate),
				Evidence: x.evidenceOf(p, windowEarly)})
		}
	}
	return out
}

// nearBoundary reports whether a win of margin points would lift the
// score into the next rank (9d has none).
func nearBoundary(score, margin int) bool {
	r := ranks.FromScore(score)
	return r != ranks.LadderTop && ranks.FromScore(score+margin) != r
}

// beforeCheck reports whether t lies within d before one of the player's
// eligibility checks.
func (x *indexed) beforeCheck(player string, t time.Time, d time.Duration) bool {
	ts := x.checks[player]
	i, _ := slices.BinarySearchFunc(ts, t, time.Time.Compare) // the first check at or after t
	return i < len(ts) && ts[i].Sub(t) <= d
}

// collusion flags both players of a pair who met in exam games whose
// results Glicko-2 finds improbable, or that were resigned early.
func (x *indexed) collusion(th Thresholds) []Flag {
	byPair := map[[2]string][]int{}
	var keys [][2]string
	for i := range x.games {
		g := &x.games[i]
		if !g.Exam {
			continue
		}
		k := pair(g.Black.Player, g.White.Player)
		if byPair[k] == nil {
			keys = append(keys, k)
		}
		byPair[k] = append(byPair[k], i)
	}
	var out []Flag
	for _, k := range keys {
		games := byPair[k]
		if len(games) < th.ExamPairGames {
			continue
		}
		p, early := 1.0, 0
		for _, i := range games {
			g := &x.games[i]
			if g.Winner != "" {
				p *= rating.Expected(sideOf(g, g.Winner).Glicko, sideOf(g, other(g, g.Winner)).Glicko)
			}
			if earlyResigned(g, th) {
				early++
			}
		}
		for _, me := range []string{k[0], k[1]} {
			partner := k[0]
			if me == k[0] {
				partner = k[1]
			}
			var es []Evidence
			for _, i := range games {
				es = append(es, x.evidence(i, me))
			}
			if p <= th.ExamImprobable {
				out = append(out, Flag{Kind: ExamCollusion, Test: TestExamImprobable, Player: me, Others: []string{partner}, Statistic: p, Threshold: th.ExamImprobable,
					Detail:   fmt.Sprintf("%s and %s met in %d exam games; Glicko-2 gives their results a probability of %.2g ≤ %.2g", me, partner, len(games), p, th.ExamImprobable),
					Evidence: es})
			}
			if early >= th.ExamEarlyGames {
				out = append(out, Flag{Kind: ExamCollusion, Test: TestExamEarly, Player: me, Others: []string{partner}, Statistic: float64(early), Threshold: float64(th.ExamEarlyGames),
					Detail:   fmt.Sprintf("%s and %s met in %d exam games, %d of them resigned before move %d (threshold %d)", me, partner, len(games), early, th.EarlyMoves, th.ExamEarlyGames),
					Evidence: es})
			}
		}
	}
	return out
}

func sideOf(g *Game, player string) Side {
	me, _, _ := g.side(player)
	return me
}

func other(g *Game, player string) string {
	_, opp, _ := g.side(player)
	return opp.Player
}
