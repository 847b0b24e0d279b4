package integrity

import (
	"math"
	"testing"
)

// TestTails: the Poisson and binomial tails against values computed by
// hand (and their edges).
func TestTails(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	for _, tc := range []struct {
		k      int
		lambda float64
		want   float64
	}{
		{0, 2, 1},
		{1, 2, 1 - math.Exp(-2)},
		{3, 0.5, 1 - math.Exp(-0.5)*(1+0.5+0.125)},
		{5, 0, 0},
		{0, 0, 1},
	} {
		if got := poissonTail(tc.k, tc.lambda); !near(got, tc.want) {
			t.Errorf("poissonTail(%d, %v) = %v, want %v", tc.k, tc.lambda, got, tc.want)
		}
	}
	for _, tc := range []struct {
		k, n int
		p    float64
		want float64
	}{
		{0, 10, 0.1, 1},
		{1, 1, 0.3, 0.3},
		{2, 3, 0.5, 0.5},
		{3, 4, 0.1, 4*0.001*0.9 + 0.0001},
		{5, 4, 0.5, 0},
		{1, 5, 0, 0},
		{2, 5, 1, 1},
	} {
		if got := binomialTail(tc.k, tc.n, tc.p); !near(got, tc.want) {
			t.Errorf("binomialTail(%d, %d, %v) = %v, want %v", tc.k, tc.n, tc.p, got, tc.want)
		}
	}
}
