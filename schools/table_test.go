package schools_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

var shanghai, _ = time.LoadLocation("Asia/Shanghai")

// tableRig: class c with ann, bob, cat; cat placed at 3k; games on
// Tuesday 1 and Wednesday 2 September (ann beats bob twice, then a
// draw) and on Tuesday 8 September (bob beats ann); the clock ends
// there.
func tableRig(t *testing.T) (*rig, schools.Class) {
	r := newRig(t)
	c := r.class("c", 0)
	r.join(c, "ann", "bob", "cat")
	if _, err := r.svc.Place(bg, r.tea, c.ID, "cat", schools.Placement{Rank: "3k", Reason: "club 3k"}); err != nil {
		t.Fatal(err)
	}
	r.game("ann", "bob", false) // Sep 1: ann 5, bob -5 (2k)
	r.advance(24 * time.Hour)
	r.game("ann", "bob", false) // Sep 2: ann 10, bob -10
	r.game("ann", "bob", true)  // draw
	r.advance(6 * 24 * time.Hour)
	r.game("bob", "ann", false) // Sep 8: bob -5, ann 5
	return r, c
}

func TestClassTable(t *testing.T) {
	r, c := tableRig(t)
	// An exam registration and a grade for ann.
	sch, err := r.st.Exams.CreateSchedule(bg, "weekly-1k", exams.Draft{TargetRank: "1k", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT"}, "root")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.st.Exams.Register(bg, exams.RegisterRequest{ScheduleID: sch.ID, Player: "ann"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.st.Stores.Exams.AddResult(bg, exams.Result{ID: "weekly-1k@x/ann", SessionID: "weekly-1k@x", ScheduleID: sch.ID, Player: "ann",
		Target: ranks.MustParse("1k"), Tally: exams.Tally{Games: 4, Wins: 3}, WinsNeeded: 3, State: exams.ResultFailed, GradedAt: r.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	tb, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{From: "2026-09-01", To: "2026-09-02", Since: "2026-09-03", Sort: schools.ColScore, Desc: true})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Total != 3 || len(tb.Rows) != 3 || tb.Next != nil {
		t.Fatalf("table %+v", tb)
	}
	ann, bob, cat := tb.Rows[0], tb.Rows[1], tb.Rows[2]
	if ann.Username != "ann" || bob.Username != "bob" || cat.Username != "cat" {
		t.Fatalf("order by score down: %s %s %s", ann.Username, bob.Username, cat.Username)
	}
	for _, tc := range []struct {
		what      string
		got, want any
	}{
		{"ann score", ann.Score, 5}, {"ann rank", ann.Rank.String(), "1k"}, {"ann games", ann.Games, 4},
		{"ann week", ann.Week, schools.Count{Games: 1, Losses: 1}},
		{"ann month", ann.Month, schools.Count{Games: 4, Wins: 2, Losses: 1, Draws: 1}},
		{"ann period", ann.Period, schools.Count{Games: 3, Wins: 2, Draws: 1}},
		{"ann then", ann.ScoreThen, 10}, {"ann change", ann.Change, -5},
		{"ann last game", ann.LastGame.Opponent + " " + ann.LastGame.Result, "bob loss"},
		{"ann registration", ann.Registration != nil && ann.Registration.ScheduleID == "weekly-1k", true},
		{"ann result", ann.Result != nil && ann.Result.State == exams.ResultFailed && ann.Result.Wins == 3, true},
		{"bob rank", bob.Rank.String(), "2k"}, {"bob shown", bob.Shown.Chinese(), "2级"}, {"bob then", bob.ScoreThen, -10},
		{"bob month", bob.Month, schools.Count{Games: 4, Wins: 1, Losses: 2, Draws: 1}},
		{"bob rank steps", bob.RankSteps, 0},
		{"cat score", cat.Score, -200}, {"cat rank", cat.Rank.String(), "3k"}, {"cat last game", cat.LastGame == nil, true},
		{"cat week", cat.Week, schools.Count{}}, {"cat change", cat.Change, 0},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.what, tc.got, tc.want)
		}
	}
	// since is a day of the last MaxSpanYears, not after today.
	for _, bad := range []string{"2019-01-01", "2099-01-01"} {
		var fe *schools.FieldError
		if _, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Since: bad}); !errors.As(err, &fe) || fe.Field != "since" {
			t.Errorf("since %s: %v", bad, err)
		}
	}
	// Change since the start of the month: bob went down a rank.
	tb, _ = r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Since: "2026-09-01"})
	for _, row := range tb.Rows {
		want := map[string]int{"ann": 0, "bob": -1, "cat": -2}[row.Username]
		if row.RankSteps != want {
			t.Errorf("%s moved %d ranks since September 1, want %d", row.Username, row.RankSteps, want)
		}
	}
}

func TestTableSortsAndPages(t *testing.T) {
	r, c := tableRig(t)
	for _, tc := range []struct {
		sort string
		desc bool
		want string
	}{
		{"", false, "ann bob cat"}, {schools.ColUsername, true, "cat bob ann"},
		{schools.ColScore, false, "cat bob ann"}, {schools.ColWinsMonth, true, "ann bob cat"},
		{schools.ColGamesWeek, true, "ann bob cat"}, {schools.ColChange, false, "cat bob ann"},
		{schools.ColLastGame, false, "cat ann bob"}, {schools.ColCertified, false, "ann bob cat"},
	} {
		var got []string
		q := schools.TableQuery{Sort: tc.sort, Desc: tc.desc, Limit: 1}
		for range 5 {
			tb, err := r.svc.Table(bg, r.tea, c.ID, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range tb.Rows {
				got = append(got, row.Username)
			}
			if tb.Next == nil {
				break
			}
			q.After = tb.Next
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("sort %s desc %v, paged by one: %v, want %s", tc.sort, tc.desc, got, tc.want)
		}
	}
	byRating, _ := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Sort: schools.ColRating, Desc: true})
	for i := 1; i < len(byRating.Rows); i++ {
		if byRating.Rows[i-1].Rating < byRating.Rows[i].Rating {
			t.Errorf("by rating down: %v before %v", byRating.Rows[i-1].Rating, byRating.Rows[i].Rating)
		}
	}
	if _, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Sort: "shoe_size"}); !strings.Contains(errString(err), "sort") {
		t.Errorf("an unknown column: %v", err)
	}
	tb, _ := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Sort: schools.ColScore, Limit: 1})
	if _, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Sort: schools.ColName, After: tb.Next}); !strings.Contains(errString(err), "cursor") {
		t.Errorf("a cursor of another sort: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestProgress(t *testing.T) {
	r, c := tableRig(t)
	rg := schools.ProgressQuery{From: "2026-09-01", To: "2026-09-30"}
	p, err := r.svc.Progress(bg, r.tea, c.ID, schools.ProgressQuery{From: rg.From, To: rg.To, Step: schools.StepDay})
	if err != nil {
		t.Fatal(err)
	}
	series := map[string]schools.Series{}
	for _, s := range p.Series {
		series[s.Username] = s
	}
	ann := series["ann"]
	var scores []int
	for _, pt := range ann.Points {
		scores = append(scores, pt.Score)
	}
	// Up to today (the 8th): a day without a game carries the last value.
	if got := strings.Trim(strings.Join(strings.Fields(strings.Trim(fmtInts(scores), "[]")), " "), " "); got != "5 10 10 10 10 10 10 5" {
		t.Errorf("ann by day: %s", got)
	}
	if ann.Points[0].Date != "2026-09-01" || ann.Points[7].Date != "2026-09-08" || ann.Points[1].Games != 2 || ann.Start != 0 {
		t.Errorf("ann's points %+v start %d", ann.Points, ann.Start)
	}
	bob := series["bob"]
	if len(bob.Changes) != 1 || bob.Changes[0].Cause != rating.CauseGame || bob.Changes[0].RankAfter != "2k" || bob.Points[0].Shown.Chinese() != "2级" {
		t.Errorf("bob's rank changes %+v, first point %+v", bob.Changes, bob.Points[0])
	}
	cat := series["cat"]
	if len(cat.Changes) != 1 || cat.Changes[0].Cause != rating.CausePlacement || cat.Changes[0].Actor != "tea" || cat.Changes[0].Reason != "club 3k" {
		t.Errorf("cat's changes %+v", cat.Changes)
	}
	// By week: Tuesday to Sunday, then Monday to today.
	p, err = r.svc.Progress(bg, r.tea, c.ID, schools.ProgressQuery{From: rg.From, To: rg.To, Step: schools.StepWeek})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Series {
		if s.Username == "ann" && (len(s.Points) != 2 || s.Points[0].Date != "2026-09-06" || s.Points[0].Score != 10 || s.Points[0].Games != 3 ||
			s.Points[1].Date != "2026-09-08" || s.Points[1].Score != 5) {
			t.Errorf("ann by week: %+v", s.Points)
		}
	}
	// A student reads their own progress, not a classmate's.
	annP := playerP("ann")
	if _, err := r.svc.StudentProgress(bg, annP, c.ID, "ann", rg); err != nil {
		t.Errorf("ann's own progress: %v", err)
	}
	if _, err := r.svc.StudentProgress(bg, annP, c.ID, "bob", rg); err == nil {
		t.Error("ann read bob's progress")
	}
	if _, err := r.svc.Progress(bg, r.far, c.ID, rg); err == nil {
		t.Error("another school's teacher read the progress")
	}
	if _, err := r.svc.Progress(bg, r.tea, c.ID, schools.ProgressQuery{From: rg.From, To: rg.To, Step: "month"}); !strings.Contains(errString(err), "by") {
		t.Errorf("step month: %v", err)
	}
}

func TestCSV(t *testing.T) {
	r, c := tableRig(t)
	tb, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Sort: schools.ColScore, Desc: true})
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string][]string{
		schools.LangZH: {"用户名", "天梯段位", "段位（中国业余）", "1级", "2级", "3级", "负"},
		schools.LangEN: {"username", "ladder rank", "rank (Chinese amateur scale)", "1k", "2k", "3k", "loss"},
	} {
		var b bytes.Buffer
		if err := schools.WriteTableCSV(&b, tb, lang); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(b.String(), "\ufeff") {
			t.Errorf("%s: no byte order mark", lang)
		}
		recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(b.String(), "\ufeff"))).ReadAll()
		if err != nil || len(recs) != 4 || len(recs[0]) != len(recs[1]) {
			t.Fatalf("%s: %d records, %v", lang, len(recs), err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s CSV lacks %q:\n%s", lang, w, b.String())
			}
		}
		if recs[1][0] != "ann" || recs[1][4] != "5" {
			t.Errorf("%s first row %v", lang, recs[1])
		}
	}
	p, _ := r.svc.Progress(bg, r.tea, c.ID, schools.ProgressQuery{From: "2026-09-01", To: "2026-09-08"})
	var b bytes.Buffer
	if err := schools.WriteProgressCSV(&b, p, schools.LangZH); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(b.String(), "\ufeff"))).ReadAll()
	if err != nil || len(recs) != 1+3*8 || recs[0][0] != "日期" {
		t.Fatalf("progress CSV: %d records, %v\n%s", len(recs), err, b.String())
	}
}

// A table read keeps the entries it read; games after it, and an
// annulment, show in the next read.
func TestTableFollowsNewGamesAndAnnulments(t *testing.T) {
	r, c := tableRig(t)
	row := func(name string) schools.Row {
		tb, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range tb.Rows {
			if x.Username == name {
				return x
			}
		}
		t.Fatalf("no row %s", name)
		return schools.Row{}
	}
	if got := row("ann").Month.Games; got != 4 {
		t.Fatalf("ann's month: %d games", got)
	}
	r.game("ann", "cat", false)
	ann := row("ann")
	if ann.Month.Games != 5 || ann.LastGame.Opponent != "cat" || ann.Score != ann.LastGame.Delta+5 {
		t.Errorf("after a new game: %+v", ann)
	}
	if _, err := r.st.Ratings.Annul(bg, rating.AnnulInput{GameID: ann.LastGame.GameID, Actor: "root", Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	if ann = row("ann"); ann.Month.Games != 4 || ann.Score != 5 {
		t.Errorf("after the annulment: %+v", ann)
	}
	// The school table: every student once, with their classes; heads only.
	d := r.class("d", 0)
	if _, err := r.svc.AddStudents(bg, r.tea, d.ID, []string{"ann"}); err != nil {
		t.Fatal(err)
	}
	tb, err := r.svc.SchoolTable(bg, r.head, "sch", schools.TableQuery{})
	if err != nil || tb.Total != 3 || len(tb.Rows[0].Classes) != 2 {
		t.Fatalf("school table %+v, %v", tb, err)
	}
	if _, err := r.svc.SchoolTable(bg, r.tea, "sch", schools.TableQuery{}); err == nil {
		t.Error("a plain teacher read the school table")
	}
}

// Exam registrations and grades are read again once ExamsFresh has
// passed: a grade made meanwhile shows at most that late.
func TestTableExamsAtMostExamsFreshLate(t *testing.T) {
	r, c := tableRig(t)
	result := func() string {
		tb, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if res := tb.Rows[0].Result; res != nil {
			return res.State
		}
		return ""
	}
	if got := result(); got != "" {
		t.Fatalf("ann's exam before any: %q", got)
	}
	if _, err := r.st.Stores.Exams.AddResult(bg, exams.Result{ID: "s@1/ann", SessionID: "s@1", ScheduleID: "s", Player: "ann",
		Target: ranks.MustParse("1k"), State: exams.ResultCertified, GradedAt: r.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	if got := result(); got != "" {
		t.Fatalf("ann's exam within ExamsFresh: %q (read again sooner than decided)", got)
	}
	r.advance(schools.ExamsFresh)
	if got := result(); got != exams.ResultCertified {
		t.Fatalf("ann's exam after ExamsFresh: %q", got)
	}
}

// A school table of a thousand students reads their states in one query;
// its rows are the class tables' rows.
func TestSchoolTableInBulk(t *testing.T) {
	r := newRig(t)
	var cs []schools.Class
	for k := range 5 {
		c := r.class(fmt.Sprint("c", k), 0)
		var names []string
		for i := range 200 {
			n := fmt.Sprintf("kid%d-%03d", k, i)
			if err := r.st.Stores.Accounts.CreateAccount(bg, players.Account{Username: n, Role: players.RolePlayer, PasswordHash: "x", CreatedAt: start}); err != nil {
				t.Fatal(err)
			}
			names = append(names, n)
		}
		if _, err := r.svc.AddStudents(bg, r.tea, c.ID, names); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	r.game("kid0-000", "kid4-199", false)
	r.advance(time.Hour)
	r.game("kid4-199", "kid0-000", true)
	tb, err := r.svc.SchoolTable(bg, r.head, "sch", schools.TableQuery{Sort: schools.ColGamesMonth, Desc: true})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Total != 1000 || tb.Rows[0].Month.Games != 2 || tb.Rows[1].Month.Games != 2 || tb.Rows[2].Month.Games != 0 {
		t.Fatalf("school table: %d rows, first %+v %+v %+v", tb.Total, tb.Rows[0], tb.Rows[1], tb.Rows[2])
	}
	for _, c := range []schools.Class{cs[0], cs[4]} {
		ct, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Sort: schools.ColGamesMonth, Desc: true, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		want := ct.Rows[0]
		for _, got := range tb.Rows[:2] {
			if got.Username == want.Username {
				got.Classes = nil
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s in the school table:\n %+v\nin the class table:\n %+v", got.Username, got, want)
				}
			}
		}
	}
}

// TestTableShowsTheProfilesQuestionMark: a student's ranks carry the
// profile's "?" (rating.PlayerState.Settled) in the table, its API form
// (ShownRank) and its CSV; the table showed "1k" where the profile
// showed "1k?".
func TestTableShowsTheProfilesQuestionMark(t *testing.T) {
	r := newRig(t)
	c := r.class("c", 0)
	r.join(c, "ann", "bob", "new")
	// Enough games between ann and bob to settle both (RD under 160).
	for i := range 16 {
		if i%2 == 0 {
			r.game("ann", "bob", false)
		} else {
			r.game("bob", "ann", false)
		}
	}
	tb, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{Sort: schools.ColUsername})
	if err != nil {
		t.Fatal(err)
	}
	settled := map[string]bool{}
	for _, row := range tb.Rows {
		st, err := r.st.Ratings.Latest(bg, row.Username)
		if err != nil {
			t.Fatal(err)
		}
		settled[row.Username] = st.Settled()
		if row.Unsettled == st.Settled() || strings.HasSuffix(row.ShownRank(), "?") == st.Settled() {
			t.Errorf("%s: unsettled %v, shown %q; the profile shows %q", row.Username, row.Unsettled, row.ShownRank(), st.ShownRank())
		}
	}
	if !settled["ann"] || settled["new"] {
		t.Fatalf("the rig does not cover both: %v", settled)
	}
	for lang, want := range map[string]string{schools.LangZH: "1级?", schools.LangEN: "1k?"} {
		var b bytes.Buffer
		if err := schools.WriteTableCSV(&b, tb, lang); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(b.String(), "\ufeff"))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs[1:] {
			if q := strings.HasSuffix(rec[5], "?") && strings.HasSuffix(rec[6], "?"); q == settled[rec[0]] {
				t.Errorf("%s CSV %s: %q %q", lang, rec[0], rec[5], rec[6])
			}
			if rec[0] == "new" && rec[5] != want {
				t.Errorf("%s CSV: the newcomer's rank %q, want %q", lang, rec[5], want)
			}
		}
	}
}
