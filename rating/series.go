package rating

import (
	"context"
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/ranks"
)

// SeriesStep is the length of one point of a series.
type SeriesStep string

// The steps of a series.
const (
	StepDay  SeriesStep = "day"
	StepWeek SeriesStep = "week" // ISO weeks, Monday to Sunday
)

// Steps lists the steps, for errors and documentation.
var Steps = []SeriesStep{StepDay, StepWeek}

// DateLayout is how a point's day is written: 2026-09-01, in the
// series' time zone.
const DateLayout = "2006-01-02"

// MaxSeriesDays bounds a series' range, decided: five years, the longest
// span a teacher asks about (schools.MaxSpanYears), 1,827 points a day.
const MaxSeriesDays = 5*366 + 1

// A series' days are decided to lie between FirstSeriesDay (older than
// any archive's dated game worth rating) and a year after today in the
// series' zone (a view of this month or this year asked early is fine;
// points stop at today): a range beyond only names a typo.
var FirstSeriesDay = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)

// SeriesDaysAhead is how many days after today a series may end.
const SeriesDaysAhead = 366

// HistoryPoint is a player's rating at the end of one day or week (a day
// with no entry carries the last value), and the rated games they played
// in it.
type HistoryPoint struct {
	Date   string     // the last day of the step, YYYY-MM-DD
	End    time.Time  // the first instant after the step
	Score  int        // the ladder score
	Rank   ranks.Rank // the ladder rank (the score's)
	Glicko Glicko     // the Glicko-2 rating after the step's last entry
	Games  int        // rated games played in the step
}

// ShownRank is the point's ladder rank as pages show it: with a "?"
// while the deviation is above UnsettledRD (the point does not know
// whether the player was still placing; PlayerState.ShownRank does).
func (p HistoryPoint) ShownRank() string {
	if p.Glicko.RD > UnsettledRD {
		return p.Rank.String() + "?"
	}
	return p.Rank.String()
}

// Mark is one ledger entry of the range worth marking on a graph: a
// change of the ladder or certified rank, or an entry that is no game (an
// exam, a placement, an adjustment, an annulment, a revocation).
type Mark struct {
	At                              time.Time
	Seq                             int64
	Cause, CauseID, Actor, Reason   string
	ScoreBefore, ScoreAfter         int
	RankBefore, RankAfter           string
	CertifiedBefore, CertifiedAfter string
}

// RankChanged reports whether the entry moved the ladder or the
// certified rank.
func (m Mark) RankChanged() bool {
	return m.RankBefore != m.RankAfter || m.CertifiedBefore != m.CertifiedAfter
}

// Series is a player's rating over a range: the score when the range
// begins, one point per step, and the marks of the range, oldest first.
type Series struct {
	Username string
	Start    int
	Points   []HistoryPoint
	Marks    []Mark
}

// CheckStep reads a step: "" is StepDay.
func CheckStep(s string) (SeriesStep, error) {
	switch SeriesStep(s) {
	case "":
		return StepDay, nil
	case StepDay, StepWeek:
		return SeriesStep(s), nil
	}
	return "", fmt.Errorf("%q is not %s or %s", s, StepDay, StepWeek)
}

// Midnight is the start of t's day in loc.
func Midnight(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc)
}

// WeekStart is the Monday midnight of t's week in loc (ISO weeks).
func WeekStart(t time.Time, loc *time.Location) time.Time {
	d := Midnight(t, loc)
	back := (int(d.Weekday()) + 6) % 7 // Monday 0 … Sunday 6
	return d.AddDate(0, 0, -back)
}

// StepEnds lists the first instant after each step of the days from
// (a midnight) to to (the last day's midnight), in from's location, up to
// the end of the range or of today, whichever is first: days carry no
// value beyond today. A week's first and last steps may be cut by the
// range.
func StepEnds(from, to time.Time, step SeriesStep, today time.Time) []time.Time {
	loc := from.Location()
	last := to
	if today.Before(last) {
		last = today
	}
	var out []time.Time
	for d := from; !d.After(last); {
		next := d.AddDate(0, 0, 1)
		if step == StepWeek {
			next = WeekStart(d, loc).AddDate(0, 0, 7)
			if end := last.AddDate(0, 0, 1); next.After(end) {
				next = end
			}
		}
		out = append(out, next)
		d = next
	}
	return out
}

// Series is the run's series over the steps ending at ends, from from on:
// each point the score, rank and Glicko-2 after the last entry before its
// end, the rated games of the step, and every mark of the range.
func (h Run) Series(from time.Time, ends []time.Time) Series {
	out := Series{Username: h.State.Username, Start: h.ScoreAt(from), Points: make([]HistoryPoint, 0, len(ends))}
	score, gl, i := h.ScoreBefore(), h.glickoBefore(), 0
	es := h.Entries
	for _, end := range ends {
		games := 0
		for i < len(es) && es[i].At.Before(end) {
			e := es[i]
			score, gl = e.ScoreAfter, e.Glicko
			if !e.At.Before(from) {
				if e.Cause == CauseGame {
					games++
				}
				m := Mark{At: e.At, Seq: e.Seq, Cause: e.Cause, CauseID: e.CauseID, Actor: e.Actor,
					Reason: e.Reason, ScoreBefore: e.ScoreBefore, ScoreAfter: e.ScoreAfter, RankBefore: e.RankBefore,
					RankAfter: e.RankAfter, CertifiedBefore: e.CertifiedBefore, CertifiedAfter: e.CertifiedAfter}
				if e.Cause != CauseGame || m.RankChanged() {
					out.Marks = append(out.Marks, m)
				}
			}
			i++
		}
		out.Points = append(out.Points, HistoryPoint{Date: end.AddDate(0, 0, -1).Format(DateLayout), End: end,
			Score: score, Rank: ranks.FromScore(score), Glicko: gl, Games: games})
	}
	return out
}

// RangeError is a series' range refused, naming the field at fault.
type RangeError struct {
	Field, Reason string
}

func (e *RangeError) Error() string { return e.Field + ": " + e.Reason }

// Unwrap gives ErrInvalidRange.
func (e *RangeError) Unwrap() error { return ErrInvalidRange }

// ErrInvalidRange matches *RangeError.
var ErrInvalidRange = fmt.Errorf("invalid range")

// CheckRange checks the days of a series: from and to are midnights in
// one location, to not before from, at most MaxSeriesDays days.
func CheckRange(from, to time.Time) error {
	if to.Before(from) {
		return &RangeError{"to", fmt.Sprintf("%s ends before from (%s)", to.Format(DateLayout), from.Format(DateLayout))}
	}
	if to.After(from.AddDate(0, 0, MaxSeriesDays-1)) {
		return &RangeError{"to", fmt.Sprintf("the range %s to %s spans more than %d days", from.Format(DateLayout), to.Format(DateLayout), MaxSeriesDays)}
	}
	return nil
}

// RatingHistory is the player's rating history from the day from to the day to
// (midnights in the time zone the days are counted in, to included), by
// step, from their ledger: score, ladder rank and Glicko-2 at the end of
// each step up to today (by the service's clock), and the marks (exams,
// placements, adjustments, rank changes) of the range. A *RangeError
// refuses the range.
func (s *Service) RatingHistory(ctx context.Context, username string, from, to time.Time, step SeriesStep) (Series, error) {
	if _, err := CheckStep(string(step)); err != nil {
		return Series{}, &RangeError{"step", err.Error()}
	}
	if step == "" {
		step = StepDay
	}
	if err := CheckRange(from, to); err != nil {
		return Series{}, err
	}
	first := time.Date(FirstSeriesDay.Year(), FirstSeriesDay.Month(), FirstSeriesDay.Day(), 0, 0, 0, 0, from.Location())
	if from.Before(first) {
		return Series{}, &RangeError{"from", fmt.Sprintf("%s is before %s", from.Format(DateLayout), first.Format(DateLayout))}
	}
	if last := Midnight(s.now(), to.Location()).AddDate(0, 0, SeriesDaysAhead); to.After(last) {
		return Series{}, &RangeError{"to", fmt.Sprintf("%s is after %s (%d days after today)", to.Format(DateLayout), last.Format(DateLayout), SeriesDaysAhead)}
	}
	h, err := s.RunOf(ctx, username, from, false)
	if err != nil {
		return Series{}, err
	}
	ends := StepEnds(from, to, step, Midnight(s.now(), from.Location()))
	out := h.Series(from, ends)
	out.Username = username
	return out, nil
}
