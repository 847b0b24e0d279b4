package schools_test

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/schools"
)

// benchClass: a class of 40 students with 2,000 games among them over
// 400 days (100 ledger entries each), on the memory stores: what a table
// and a series cost besides the store (rankctl schoolbench measures them
// on the embedded store).
func benchClass(b *testing.B) (*rig, schools.Class, schools.ProgressQuery) {
	r := newRig(b)
	c := r.class("big", 0)
	var names []string
	for i := range 40 {
		names = append(names, fmt.Sprintf("kid%02d", i))
	}
	r.join(c, names...)
	for g := range 2000 {
		r.game(names[g%40], names[(g*7+1)%40], g%50 == 0)
		r.advance(200 * time.Minute)
	}
	today := r.clock.Now().In(shanghai)
	return r, c, schools.ProgressQuery{From: today.AddDate(-1, 0, 0).Format(schools.DateLayout), To: today.Format(schools.DateLayout), Step: schools.StepWeek}
}

func BenchmarkClassTable(b *testing.B) {
	r, c, _ := benchClass(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Sort: schools.ColScore, Desc: true, Limit: 50}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWeeklyProgress(b *testing.B) {
	r, c, rg := benchClass(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.svc.Progress(bg, r.tea, c.ID, rg); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTableCSV(b *testing.B) {
	r, c, _ := benchClass(b)
	t, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := schools.WriteTableCSV(io.Discard, t, schools.LangZH); err != nil {
			b.Fatal(err)
		}
	}
}
