package rating

import (
	"errors"
	"math"
	"testing"
)

// Glickman's worked example: a 1500/200/0.06 player beats 1400/30 and
// loses to 1550/100 and 1700/300 in one period, τ = 0.5.
var (
	glickmanPlayer  = Glicko{Rating: 1500, RD: 200, Volatility: 0.06}
	glickmanResults = []Result{
		{Opponent: Glicko{Rating: 1400, RD: 30, Volatility: 0.06}, Score: Win},
		{Opponent: Glicko{Rating: 1550, RD: 100, Volatility: 0.06}, Score: Loss},
		{Opponent: Glicko{Rating: 1700, RD: 300, Volatility: 0.06}, Score: Loss},
	}
)

func TestGlickmanExample(t *testing.T) {
	got, err := System{Tau: 0.5}.Update(glickmanPlayer, glickmanResults)
	if err != nil {
		t.Fatal(err)
	}
	// The figures the paper and issue 3 give.
	near(t, "r′", got.Rating, 1464.05, 1e-2)
	near(t, "RD′", got.RD, 151.52, 1e-2)
	near(t, "σ′", got.Volatility, 0.05999, 1e-5)

	// Tighter: against the same period computed independently, with σ′
	// found by plain bisection to machine precision rather than by the
	// Illinois iteration.
	want := referenceUpdate(0.5, glickmanPlayer, glickmanResults)
	near(t, "r′ exact", got.Rating, want.Rating, 1e-6)
	near(t, "RD′ exact", got.RD, want.RD, 1e-6)
	near(t, "σ′ exact", got.Volatility, want.Volatility, 1e-9)
}

func TestGlickmanIntermediates(t *testing.T) {
	// Step 3 and 4 of the paper: v = 1.7785, Δ = −0.4834; step 7:
	// μ′ = −0.2069, φ′ = 0.8722. The paper computes v and Δ from g and E
	// rounded to four places, hence the looser tolerance there.
	mu := 0.0
	var vInv, sum float64
	for _, r := range glickmanResults {
		gJ := g(r.Opponent.RD / glickoScale)
		e := expected(mu, (r.Opponent.Rating-NewRating)/glickoScale, gJ)
		vInv += gJ * gJ * e * (1 - e)
		sum += gJ * (r.Score - e)
	}
	near(t, "v", 1/vInv, 1.7785, 1e-3)
	near(t, "Δ", sum/vInv, -0.4834, 1e-3)
	got, _ := Default.Update(glickmanPlayer, glickmanResults)
	near(t, "μ′", (got.Rating-NewRating)/glickoScale, -0.2069, 1e-4)
	near(t, "φ′", got.RD/glickoScale, 0.8722, 1e-4)
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.10g, want %.10g ± %g", what, got, want, tol)
	}
}

// referenceUpdate is Glickman's algorithm written out separately. Step 5
// is solved differently: f can have more than one root after a big upset
// (the Illinois bracket then holds three), and Glickman's iteration,
// starting from a = ln σ², settles on the one nearest a. The reference
// walks from a in small steps to the first sign change and bisects it
// until the bracket cannot shrink: that root, to machine precision.
func referenceUpdate(tau float64, p Glicko, results []Result) Glicko {
	const scale = 173.7178
	mu, phi, sigma := (p.Rating-1500)/scale, p.RD/scale, p.Volatility
	var vInv, sum float64
	for _, r := range results {
		phiJ := r.Opponent.RD / scale
		gJ := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-gJ*(mu-(r.Opponent.Rating-1500)/scale)))
		vInv += gJ * gJ * e * (1 - e)
		sum += gJ * (r.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		return ex*(delta*delta-phi*phi-v-ex)/(2*(phi*phi+v+ex)*(phi*phi+v+ex)) - (x-a)/(tau*tau)
	}
	// Walk from a, away from the side f's sign at a rules out, to the
	// first x where the sign flips; then bisect [in, out].
	positive := f(a) >= 0
	step := 1e-3
	if !positive {
		step = -step
	}
	in, out := a, a
	for (f(out) >= 0) == positive {
		in, out = out, out+step
	}
	for {
		mid := in + (out-in)/2
		if mid == in || mid == out {
			break
		}
		if (f(mid) >= 0) == positive {
			in = mid
		} else {
			out = mid
		}
	}
	lo := in
	sigma = math.Exp(lo / 2)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phi = 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu += phi * phi * sum
	return Glicko{Rating: scale*mu + 1500, RD: scale * phi, Volatility: sigma}
}

// One game against every kind of opponent, over the ratings the ladder
// spans and beyond, agrees with the reference: also after big upsets,
// where f has several roots.
func TestUpdateMatchesReference(t *testing.T) {
	n := 0
	for _, tau := range []float64{0.3, DefaultTau, 1.2} {
		for r := 0.0; r <= 3000; r += 300 {
			for _, rd := range []float64{20, 80, 200, 350} {
				for _, vol := range []float64{0.02, 0.06, 0.3} {
					for or := 0.0; or <= 3000; or += 375 {
						for _, ord := range []float64{20, 150, 350} {
							for _, s := range []float64{Win, Tie, Loss} {
								p, res := Glicko{r, rd, vol}, []Result{{Glicko{or, ord, 0.06}, s}}
								got, err := System{Tau: tau}.Update(p, res)
								if err != nil {
									t.Fatal(err)
								}
								want := referenceUpdate(tau, p, res)
								n++
								// Glickman's ε = 1e-6 on ln σ² bounds σ′'s relative
								// error by 5e-7; rating and RD follow.
								if math.Abs(got.Rating-want.Rating) > 1e-4 || math.Abs(got.RD-want.RD) > 1e-4 ||
									math.Abs(got.Volatility-want.Volatility) > 1e-6*want.Volatility {
									t.Errorf("τ %v, %+v vs %+v scoring %v: %+v, reference %+v", tau, p, res[0].Opponent, s, got, want)
								}
							}
						}
					}
				}
			}
		}
	}
	if n < 10000 {
		t.Fatalf("only %d cases", n)
	}
}

func TestNewPlayerAndDefaults(t *testing.T) {
	if n := NewGlicko(); n != (Glicko{1500, 350, 0.06}) {
		t.Errorf("NewGlicko() = %+v", n)
	}
	if Default.Tau != 0.5 || DefaultTau != 0.5 {
		t.Errorf("default τ %v", Default.Tau)
	}
	// The zero System is the default one.
	a, _ := System{}.Update(glickmanPlayer, glickmanResults)
	b, _ := Default.Update(glickmanPlayer, glickmanResults)
	if a != b {
		t.Errorf("zero System %+v, Default %+v", a, b)
	}
	// τ matters when results surprise.
	c, _ := System{Tau: 1.2}.Update(glickmanPlayer, glickmanResults[1:2])
	d, _ := System{Tau: 0.3}.Update(glickmanPlayer, glickmanResults[1:2])
	if c.Volatility == d.Volatility {
		t.Errorf("τ 0.3 and 1.2 give the same volatility %v", c.Volatility)
	}
}

func TestIdlePeriodGrowsOnlyTheDeviation(t *testing.T) {
	p := Glicko{Rating: 1700, RD: 80, Volatility: 0.06}
	got, err := Default.Update(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Sqrt(80*80 + 0.06*0.06*glickoScale*glickoScale)
	if got.Rating != 1700 || got.Volatility != 0.06 || math.Abs(got.RD-want) > 1e-9 {
		t.Errorf("idle period: %+v, want RD %v", got, want)
	}
}

func TestUpdateRejects(t *testing.T) {
	ok := Glicko{1500, 200, 0.06}
	tests := []struct {
		sys     System
		p       Glicko
		results []Result
		field   string
	}{
		{System{Tau: -1}, ok, nil, "tau"},
		{System{Tau: math.NaN()}, ok, nil, "tau"},
		{System{Tau: 11}, ok, nil, "tau"},
		{Default, Glicko{math.NaN(), 200, 0.06}, nil, "player rating"},
		{Default, Glicko{math.Inf(1), 200, 0.06}, nil, "player rating"},
		{Default, Glicko{20000, 200, 0.06}, nil, "player rating"},
		{Default, Glicko{1500, 0, 0.06}, nil, "player rd"},
		{Default, Glicko{1500, -3, 0.06}, nil, "player rd"},
		{Default, Glicko{1500, 200, 0}, nil, "player volatility"},
		{Default, Glicko{1500, 200, math.NaN()}, nil, "player volatility"},
		{Default, ok, []Result{{ok, Win}, {Glicko{1500, 0, 0.06}, Win}}, "opponent 2 rd"},
		{Default, ok, []Result{{ok, 1.5}}, "score 1"},
		{Default, ok, []Result{{ok, Win}, {ok, math.NaN()}}, "score 2"},
	}
	for _, tt := range tests {
		got, err := tt.sys.Update(tt.p, tt.results)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != tt.field || !errors.Is(err, ErrInvalidGame) {
			t.Errorf("Update(%+v, %+v, %v): error %v, want one naming %q", tt.sys, tt.p, tt.results, err, tt.field)
		}
		if got != (Glicko{}) {
			t.Errorf("Update returned %+v with its error", got)
		}
	}
}

func TestExpected(t *testing.T) {
	a := Glicko{1600, 1e-9, 0.06}
	b := Glicko{1500, 1e-9, 0.06}
	// With no uncertainty this is the Elo curve: 1/(1+10^(−100/400)).
	near(t, "E(100 up, certain)", Expected(a, b), 1/(1+math.Pow(10, -0.25)), 1e-6)
	near(t, "E(equal)", Expected(b, b), 0.5, 1e-15)
	for _, p := range []Glicko{a, b, NewGlicko(), {2400, 60, 0.05}, {700, 300, 0.1}} {
		for _, q := range []Glicko{a, b, NewGlicko(), {2000, 30, 0.05}} {
			near(t, "E(p,q)+E(q,p)", Expected(p, q)+Expected(q, p), 1, 1e-12)
		}
	}
	// Uncertainty pulls the expectation towards ½.
	unsure := Glicko{1600, 300, 0.06}
	if !(Expected(unsure, b) < Expected(a, b) && Expected(unsure, b) > 0.5) {
		t.Errorf("E(unsure) = %v, certain %v", Expected(unsure, b), Expected(a, b))
	}
}

// checkGlickoProperties: for valid inputs one game gives finite values, a
// win never lowers the rating, a loss never raises it, and a game never
// leaves the deviation above φ* (the pre-game deviation grown by σ′).
func checkGlickoProperties(t *testing.T, sys System, p, o Glicko, score float64) {
	t.Helper()
	got, err := sys.Update(p, []Result{{Opponent: o, Score: score}})
	if err != nil {
		if !errors.Is(err, ErrInvalidGame) {
			t.Fatalf("error %v is not ErrInvalidGame", err)
		}
		return
	}
	if math.IsNaN(got.Rating) || math.IsInf(got.Rating, 0) || !(got.RD > 0) || math.IsInf(got.RD, 0) ||
		!(got.Volatility > 0) || math.IsInf(got.Volatility, 0) {
		t.Fatalf("Update(%+v vs %+v, %v, τ %v) = %+v", p, o, score, sys.Tau, got)
	}
	if score == Win && got.Rating < p.Rating || score == Loss && got.Rating > p.Rating {
		t.Fatalf("score %v moved %v to %v", score, p.Rating, got.Rating)
	}
	phiStar := math.Hypot(p.RD, got.Volatility*glickoScale)
	if got.RD > phiStar*(1+1e-12) {
		t.Fatalf("RD′ %v above φ* %v", got.RD, phiStar)
	}
}

func TestGlickoProperties(t *testing.T) {
	ps := []Glicko{NewGlicko(), {1500, 30, 0.06}, {2500, 50, 0.03}, {200, 350, 0.2}, {-3000, 900, 1},
		{MaxAbsRating, MaxRD, MaxVolatility}, {-MaxAbsRating, 1e-6, 1e-6}}
	for _, tau := range []float64{MinTau, 0.5, MaxTau} {
		for _, p := range ps {
			for _, o := range ps {
				for _, s := range []float64{Win, Tie, Loss, 0.3} {
					checkGlickoProperties(t, System{Tau: tau}, p, o, s)
				}
			}
		}
	}
}

func FuzzGlicko2(f *testing.F) {
	f.Add(0.5, 1500.0, 200.0, 0.06, 1400.0, 30.0, 1.0)
	f.Add(0.3, 1500.0, 350.0, 0.06, 1500.0, 350.0, 0.5)
	f.Add(1.2, 2400.0, 40.0, 0.05, 700.0, 300.0, 0.0)
	f.Fuzz(func(t *testing.T, tau, r, rd, vol, or, ord, score float64) {
		checkGlickoProperties(t, System{Tau: tau}, Glicko{r, rd, vol}, Glicko{or, ord, 0.06}, score)
	})
}
