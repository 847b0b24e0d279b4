package rating

import (
	"math"

	"github.com/weiqi-platform/rank/ranks"
)

// Calibration of Glicko-2 to the ladder (see the package doc): a rating
// of CalibrationRating sits at ladder score StartScore, and every
// GlickoPerLadderPoint rating points are one ladder point.
const (
	CalibrationRating    = NewRating
	GlickoPerLadderPoint = 1.0

	// IntervalRDs is the half-width of the "95% interval" in deviations:
	// rating ± 2·RD, as Glickman's paper reports it.
	IntervalRDs = 2
)

// LadderScore is the ladder score a Glicko-2 rating corresponds to under
// the calibration, rounded to the nearest point.
func LadderScore(rating float64) int {
	return StartScore + int(math.Round((rating-CalibrationRating)/GlickoPerLadderPoint))
}

// Suggestion is a ladder placement suggested by a Glicko-2 rating: the
// score and rank of the rating itself, and the ranks at the ends of its
// 95% interval. A wide interval says "not sure yet".
type Suggestion struct {
	Score int        `json:"score"`
	Rank  ranks.Rank `json:"rank"`
	Low   ranks.Rank `json:"low"`
	High  ranks.Rank `json:"high"`
}

// Suggest gives the ladder placement a Glicko-2 rating suggests, for
// teachers and admins placing a player and for flagging a ladder rank
// far from the player's results. It never changes a score by itself.
func Suggest(g Glicko) (Suggestion, error) {
	if err := g.check("player", 0, false); err != nil {
		return Suggestion{}, err
	}
	score := LadderScore(g.Rating)
	return Suggestion{
		Score: score,
		Rank:  ranks.FromScore(score),
		Low:   ranks.FromScore(LadderScore(g.Rating - IntervalRDs*g.RD)),
		High:  ranks.FromScore(LadderScore(g.Rating + IntervalRDs*g.RD)),
	}, nil
}
