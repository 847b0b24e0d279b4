package rating

import (
	"errors"
	"testing"

	"github.com/weiqi-platform/rank/ranks"
)

func TestSuggest(t *testing.T) {
	tests := []struct {
		g               Glicko
		score           int
		rank, low, high string
	}{
		{NewGlicko(), 0, "1k", "8k", "7d"},
		{Glicko{1600, 50, 0.06}, 100, "1d", "1k", "2d"},
		{Glicko{1599.5, 10, 0.06}, 100, "1d", "1k", "1d"},
		{Glicko{1599.4, 10, 0.06}, 99, "1k", "1k", "1d"},
		{Glicko{700, 30, 0.06}, -800, "9k", "9k", "9k"},
		{Glicko{2400, 30, 0.06}, 900, "9d", "8d", "9d"},
		{Glicko{3100, 30, 0.06}, 1600, "9d", "9d", "9d"},
		{Glicko{-200, 300, 0.06}, -1700, "9k", "9k", "9k"},
		{Glicko{1250, 100, 0.06}, -250, "4k", "6k", "2k"},
	}
	for _, tt := range tests {
		got, err := Suggest(tt.g)
		want := Suggestion{tt.score, ranks.MustParse(tt.rank), ranks.MustParse(tt.low), ranks.MustParse(tt.high)}
		if err != nil || got != want {
			t.Errorf("Suggest(%+v) = %+v, %v; want %+v", tt.g, got, err, want)
		}
	}
	if _, err := Suggest(Glicko{1500, -1, 0.06}); !errors.Is(err, ErrInvalidGame) {
		t.Errorf("Suggest with RD −1: error %v", err)
	}
}

// The calibration written in the package doc: 9k starts at 700, 1d at
// 1600, 9d at 2400, and one rank up is an expected score of about 0.64.
func TestCalibrationAsDocumented(t *testing.T) {
	for rating, want := range map[float64]string{700: "9k", 1500: "1k", 1600: "1d", 2400: "9d"} {
		if got := ranks.FromScore(LadderScore(rating)); got.String() != want {
			t.Errorf("rating %v → %s, doc says %s", rating, got, want)
		}
	}
	for _, r := range ranks.LadderRanks() {
		from, _ := r.LowestScore()
		if got := LadderScore(float64(from) + CalibrationRating); got != from {
			t.Errorf("%s: LadderScore(%d + 1500) = %d", r, from, got)
		}
	}
	e := Expected(Glicko{1600, 1e-9, 0.06}, Glicko{1500, 1e-9, 0.06})
	if e < 0.635 || e > 0.645 {
		t.Errorf("one rank up: expected score %v, doc says about 0.64", e)
	}
}
