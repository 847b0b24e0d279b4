package schools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// Steps of a progress series.
const (
	StepDay  = string(rating.StepDay)
	StepWeek = string(rating.StepWeek) // ISO weeks, Monday to Sunday
)

// ProgressQuery asks for progress over time: by day or by week across a
// range of days (YYYY-MM-DD in the school's time zone; "" is the first of
// this month for From, today for To).
type ProgressQuery struct {
	From, To string
	Step     string // StepDay (default) or StepWeek
}

// Point is a student's ladder score and rank at the end of one day or
// week (a day with no game carries the last value), and the rated games
// they played in it.
type Point struct {
	Date  string // the last day of the step, YYYY-MM-DD
	Score int
	Rank  ranks.Rank
	Shown ranks.Rank // in the school's scale
	Games int
}

// RankChange is a change of a student's ladder rank or certified rank in
// the range, with its cause, read off their ledger entry.
type RankChange struct {
	At                              time.Time
	Seq                             int64
	Cause, CauseID, Actor, Reason   string
	ScoreBefore, ScoreAfter         int
	RankBefore, RankAfter           string
	CertifiedBefore, CertifiedAfter string
}

// Series is one student's progress.
type Series struct {
	Username, Name string
	Start          int // the score when the range begins
	Points         []Point
	Changes        []RankChange
}

// Progress is a class's (or one student's) progress over a range.
type Progress struct {
	ClassID  string
	Range    Range
	Step     string
	Scale    ranks.Scale
	TimeZone string
	Series   []Series
}

// Progress is every student's progress in a class: a teacher of the
// class may read it.
func (s *Service) Progress(ctx context.Context, by players.Principal, classID string, q ProgressQuery) (Progress, error) {
	c, sch, _, err := s.classFor(ctx, by, classID, AccessTeacher)
	if err != nil {
		return Progress{}, err
	}
	return s.progress(ctx, sch, c, c.Students, q)
}

// StudentProgress is one student's progress: a teacher of the class, or
// the student themselves, may read it.
func (s *Service) StudentProgress(ctx context.Context, by players.Principal, classID, username string, q ProgressQuery) (Progress, error) {
	c, sch, a, err := s.classFor(ctx, by, classID, AccessMember)
	if err != nil {
		return Progress{}, err
	}
	name := strings.ToLower(username)
	if a == AccessMember && name != by.Username {
		return Progress{}, &DeniedError{Need: "a teacher of this class, or the student"}
	}
	m, ok := c.Member(name)
	if !ok {
		return Progress{}, fmt.Errorf("%w: %s", ErrNotMember, username)
	}
	return s.progress(ctx, sch, c, []Member{m}, q)
}

func (s *Service) progress(ctx context.Context, sch School, c Class, ms []Member, q ProgressQuery) (Progress, error) {
	switch q.Step {
	case "":
		q.Step = StepDay
	case StepDay, StepWeek:
	default:
		return Progress{}, &FieldError{"by", fmt.Sprintf("%q is not %s or %s", q.Step, StepDay, StepWeek)}
	}
	loc := location(sch)
	rg, err := s.period(loc, q.From, q.To)
	if err != nil {
		return Progress{}, err
	}
	p := Progress{ClassID: c.ID, Range: rg, Step: q.Step, Scale: sch.Scale, TimeZone: sch.TimeZone}
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Username
	}
	hs, err := s.ratings.Runs(ctx, names, rg.From, false)
	if err != nil {
		return Progress{}, err
	}
	ends := rating.StepEnds(rg.From, rg.To, rating.SeriesStep(q.Step), rating.Midnight(s.clock.Now(), loc))
	for i, m := range ms {
		p.Series = append(p.Series, series(m, hs[i], rg, ends, sch.Scale))
	}
	return p, nil
}

func series(m Member, h rating.Run, r Range, ends []time.Time, scale ranks.Scale) Series {
	rs := h.Series(r.From, ends)
	out := Series{Username: m.Username, Name: m.Name, Start: rs.Start, Points: make([]Point, len(rs.Points))}
	for i, p := range rs.Points {
		out.Points[i] = Point{Date: p.Date, Score: p.Score, Rank: p.Rank, Shown: scale.Show(p.Rank), Games: p.Games}
	}
	for _, e := range rs.Marks {
		if e.RankChanged() {
			out.Changes = append(out.Changes, RankChange{At: e.At, Seq: e.Seq, Cause: e.Cause, CauseID: e.CauseID, Actor: e.Actor,
				Reason: e.Reason, ScoreBefore: e.ScoreBefore, ScoreAfter: e.ScoreAfter, RankBefore: e.RankBefore,
				RankAfter: e.RankAfter, CertifiedBefore: e.CertifiedBefore, CertifiedAfter: e.CertifiedAfter})
		}
	}
	return out
}
