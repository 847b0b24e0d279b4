package rating_test

import (
	"errors"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// A rating history by day carries the last value over days without a
// game, counts the games of each day, gives the Glicko-2 after each day,
// marks a placement (no game) and stops at today; by week the points are
// the week's ends.
func TestRatingHistory(t *testing.T) {
	var now time.Time // the ledger's times are the service clock's
	svc := rating.NewService(ratingtest.NewMemory(), rating.ServiceConfig{Now: func() time.Time { return now }})
	day := func(d int) time.Time { return time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC) }
	play := func(id string, d int) {
		t.Helper()
		g := game(id, "ann", "bob", rating.SideBlack)
		now = day(d).Add(10 * time.Hour)
		g.At = now
		if _, err := svc.Apply(bg, g); err != nil {
			t.Fatal(err)
		}
	}
	play("g1", 2) // before the range: the start
	play("g2", 4)
	play("g3", 4)
	play("g4", 9)
	score := 300
	now = day(10).Add(time.Hour)
	if _, err := svc.Change(bg, rating.ChangeInput{Key: "adj1", Player: "ann", Cause: rating.CauseAdjustment, Score: &score,
		Actor: "admin", Reason: "test", At: day(10).Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	now = time.Date(2026, 3, 12, 15, 0, 0, 0, time.UTC) // a Thursday
	ledger, _ := svc.History(bg, "ann", 0, 10)
	if len(ledger) != 5 {
		t.Fatalf("ann's ledger: %+v", ledger)
	}
	s, err := svc.RatingHistory(bg, "ann", day(3), day(20), rating.StepDay)
	if err != nil {
		t.Fatal(err)
	}
	if s.Start != 5 || len(s.Points) != 10 { // 3rd to 12th (today)
		t.Fatalf("start %d, %d points: %+v", s.Start, len(s.Points), s.Points)
	}
	byDate := map[string]rating.HistoryPoint{}
	for _, p := range s.Points {
		byDate[p.Date] = p
	}
	g3 := ledger[2] // newest first: adj1, g4, g3, g2, g1
	for _, c := range []struct {
		date         string
		score, games int
		glicko       rating.Glicko
	}{
		{"2026-03-03", 5, 0, ledger[4].Glicko}, {"2026-03-04", g3.ScoreAfter, 2, g3.Glicko},
		{"2026-03-08", g3.ScoreAfter, 0, g3.Glicko}, {"2026-03-09", ledger[1].ScoreAfter, 1, ledger[1].Glicko},
		{"2026-03-10", 300, 0, ledger[0].Glicko}, {"2026-03-12", 300, 0, ledger[0].Glicko},
	} {
		p := byDate[c.date]
		if p.Score != c.score || p.Games != c.games || p.Glicko != c.glicko || p.Rank != ranks.FromScore(c.score) {
			t.Errorf("%s: %+v, want score %d games %d glicko %+v", c.date, p, c.score, c.games, c.glicko)
		}
	}
	if len(s.Marks) != 1 || s.Marks[0].Cause != rating.CauseAdjustment || s.Marks[0].ScoreAfter != 300 {
		t.Errorf("marks %+v, want the adjustment", s.Marks)
	}
	w, err := svc.RatingHistory(bg, "ann", day(3), day(20), rating.StepWeek)
	if err != nil {
		t.Fatal(err)
	}
	// Tue 3rd to Sun 8th, Mon 9th to today (Thu 12th).
	if len(w.Points) != 2 || w.Points[0].Date != "2026-03-08" || w.Points[0].Games != 2 || w.Points[1].Date != "2026-03-12" || w.Points[1].Games != 1 {
		t.Errorf("weeks %+v", w.Points)
	}
	// Someone never rated: the start everywhere.
	n, err := svc.RatingHistory(bg, "nobody", day(10), day(12), rating.StepDay)
	if err != nil || len(n.Points) != 3 || n.Points[2].Score != rating.StartScore || n.Points[2].Glicko != rating.NewGlicko() {
		t.Errorf("a new player: %+v, %v", n, err)
	}
}

// A range is refused naming the field: a step that is none, to before
// from, more than MaxSeriesDays, before FirstSeriesDay, more than
// SeriesDaysAhead after today.
func TestRatingHistoryRefusesRanges(t *testing.T) {
	svc := rating.NewService(ratingtest.NewMemory(), rating.ServiceConfig{Now: fixedClock})
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		from, to time.Time
		step     rating.SeriesStep
		field    string
	}{
		{day, day, "month", "step"},
		{day, day.AddDate(0, 0, -1), rating.StepDay, "to"},
		{day.AddDate(-5, 0, 0), day.AddDate(-5, 0, rating.MaxSeriesDays), rating.StepWeek, "to"},
		{time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(1900, 1, 2, 0, 0, 0, 0, time.UTC), rating.StepDay, "from"},
		{day, day.AddDate(0, 0, rating.SeriesDaysAhead+1), rating.StepDay, "to"},
		{time.Date(9999, 12, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), rating.StepDay, "to"},
	} {
		_, err := svc.RatingHistory(bg, "ann", c.from, c.to, c.step)
		var re *rating.RangeError
		if !errors.As(err, &re) || re.Field != c.field || !errors.Is(err, rating.ErrInvalidRange) {
			t.Errorf("%v to %v by %q: %v, want a RangeError on %s", c.from, c.to, c.step, err, c.field)
		}
	}
	if _, err := svc.RatingHistory(bg, "ann", day.AddDate(0, 0, rating.SeriesDaysAhead+1-rating.MaxSeriesDays), day.AddDate(0, 0, rating.SeriesDaysAhead), rating.StepDay); err != nil {
		t.Errorf("the longest range, to the last day allowed: %v", err)
	}
	old := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := svc.RatingHistory(bg, "ann", old, old.AddDate(0, 0, 10), rating.StepDay); err != nil {
		t.Errorf("the first day: %v", err)
	}
}
