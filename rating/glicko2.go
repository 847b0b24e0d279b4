package rating

import (
	"fmt"
	"math"
	"strconv"
)

// Glicko is a Glicko-2 rating on Glickman's display scale (1500 centre).
type Glicko struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// Glicko-2 parameters, from Glickman's "Example of the Glicko-2 system".
const (
	// DefaultTau constrains how fast volatility moves; Glickman suggests
	// 0.3 … 1.2.
	DefaultTau = 0.5

	// A new player's rating, deviation and volatility.
	NewRating     = 1500
	NewRD         = 350
	NewVolatility = 0.06

	// glickoScale converts the display scale to Glicko-2's (Glickman's
	// rounding of 400/ln 10).
	glickoScale = 173.7178

	// convergence is Glickman's ε for the volatility iteration.
	convergence = 0.000001

	// maxIterations caps the volatility iteration; it converges in far
	// fewer, the cap only guards against a bug turning into a hang.
	maxIterations = 200
)

// Sanity bounds on inputs: far beyond any real rating, near enough that
// every step of the algorithm stays finite in float64.
const (
	MaxAbsRating  = 10000
	MaxRD         = 5000
	MaxVolatility = 5
	MinTau        = 0.01
	MaxTau        = 10
)

// NewGlicko returns a new player's rating: 1500 / 350 / 0.06.
func NewGlicko() Glicko {
	return Glicko{Rating: NewRating, RD: NewRD, Volatility: NewVolatility}
}

// Scores of one game for Result.Score.
const (
	Loss = 0.0
	Tie  = 0.5
	Win  = 1.0
)

// Result is one game of a rating period: the opponent's rating before the
// period (their volatility is not used) and the player's score.
type Result struct {
	Opponent Glicko
	Score    float64 // Win, Tie or Loss; anything in [0, 1] is accepted
}

// System is a Glicko-2 configuration. The zero System uses DefaultTau.
type System struct {
	Tau float64 `json:"tau"`
}

// Default is the platform's Glicko-2 configuration.
var Default = System{Tau: DefaultTau}

func (s System) tau() float64 {
	if s.Tau == 0 {
		return DefaultTau
	}
	return s.Tau
}

func (s System) check() error {
	if t := s.tau(); !(t >= MinTau && t <= MaxTau) {
		return &InputError{"tau", fmt.Sprintf("%v is outside %v…%v", t, MinTau, MaxTau)}
	}
	return nil
}

// check validates a rating; an opponent's volatility is not used, so it
// is checked only for the player (withVolatility). who names the rating
// in an error, with n appended when n > 0 ("opponent 2"); the name is
// built only on an error, so the happy path does not allocate.
func (g Glicko) check(who string, n int, withVolatility bool) error {
	field := func(what string) string {
		if n > 0 {
			return fmt.Sprintf("%s %d %s", who, n, what)
		}
		return who + " " + what
	}
	switch {
	case !(math.Abs(g.Rating) <= MaxAbsRating):
		return &InputError{field("rating"), fmt.Sprintf("%v is not a number within ±%d", g.Rating, MaxAbsRating)}
	case !(g.RD > 0 && g.RD <= MaxRD):
		return &InputError{field("rd"), fmt.Sprintf("%v is outside (0, %d]", g.RD, MaxRD)}
	case withVolatility && !(g.Volatility > 0 && g.Volatility <= MaxVolatility):
		return &InputError{field("volatility"), fmt.Sprintf("%v is outside (0, %d]", g.Volatility, MaxVolatility)}
	}
	return nil
}

// Update runs Glickman's algorithm for one rating period: the player's
// rating before it and the period's games give the rating after it. The
// platform makes every game its own period (Apply). With no games only
// the deviation grows, as the algorithm says for an idle period.
func (s System) Update(p Glicko, results []Result) (Glicko, error) {
	if err := s.check(); err != nil {
		return Glicko{}, err
	}
	if err := p.check("player", 0, true); err != nil {
		return Glicko{}, err
	}
	for i, r := range results {
		if err := r.Opponent.check("opponent", i+1, false); err != nil {
			return Glicko{}, err
		}
		if !(r.Score >= 0 && r.Score <= 1) {
			return Glicko{}, &InputError{"score " + strconv.Itoa(i+1), fmt.Sprintf("%v is outside [0, 1]", r.Score)}
		}
	}
	return s.update(p, results), nil
}

// update is Update on checked input. Step numbers are Glickman's.
func (s System) update(p Glicko, results []Result) Glicko {
	// Step 2: to the Glicko-2 scale.
	mu := (p.Rating - NewRating) / glickoScale
	phi := p.RD / glickoScale
	sigma := p.Volatility

	if len(results) == 0 {
		// Idle period: only φ grows.
		return Glicko{p.Rating, math.Sqrt(phi*phi+sigma*sigma) * glickoScale, sigma}
	}

	// Steps 3 and 4: estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, r := range results {
		muJ := (r.Opponent.Rating - NewRating) / glickoScale
		gJ := g(r.Opponent.RD / glickoScale)
		e := expected(mu, muJ, gJ)
		vInv += gJ * gJ * e * (1 - e)
		sum += gJ * (r.Score - e)
	}
	v := 1 / vInv
	delta := v * sum

	// Step 5: the new volatility.
	sigma = s.volatility(phi, sigma, v, delta)

	// Steps 6 and 7: new φ and μ.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)

	// Step 8: back to the display scale. μ′ = μ + φ′²·Σ is applied to the
	// display rating directly: the same value, but without the round trip
	// through μ a game that carries no information leaves the rating
	// exactly as it was, and a win can never lower it by a rounding.
	return Glicko{Rating: p.Rating + glickoScale*phi*phi*sum, RD: glickoScale * phi, Volatility: sigma}
}

// volatility is step 5: the Illinois algorithm on f, as in Glickman's
// paper as revised on 22 March 2022 (fC·fB ≤ 0, not < 0, in step
// 5.4b; with < an exact root made it halve fA for ever).
func (s System) volatility(phi, sigma, v, delta float64) float64 {
	tau := s.tau()
	a := math.Log(sigma * sigma)
	d2, p2 := delta*delta, phi*phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		den := p2 + v + ex
		return ex*(d2-p2-v-ex)/(2*den*den) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if d2 > p2+v {
		B = math.Log(d2 - p2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < maxIterations {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > convergence && i < maxIterations && fB != fA; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// g is Glickman's g(φ): how much an opponent's uncertainty damps a result.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected is Glickman's E(μ, μj, φj) with g(φj) given.
func expected(mu, muJ, gJ float64) float64 {
	return 1 / (1 + math.Exp(-gJ*(mu-muJ)))
}

// Expected is the expected score of a against b (a win 1, a draw ½),
// counting both players' deviations, as in Glickman's Glicko paper:
// 1 / (1 + exp(−g(√(φa² + φb²))·(μa − μb))). Expected(a, b) and
// Expected(b, a) add up to 1.
func Expected(a, b Glicko) float64 {
	phiA, phiB := a.RD/glickoScale, b.RD/glickoScale
	return expected((a.Rating-NewRating)/glickoScale, (b.Rating-NewRating)/glickoScale,
		g(math.Sqrt(phiA*phiA+phiB*phiB)))
}
