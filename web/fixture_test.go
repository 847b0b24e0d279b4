package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

// The exam of the admin journey: 1d, Saturdays 19:00 in Shanghai (11:00
// UTC), two games a candidate, two wins needed, three hours to play.
var (
	examFiring   = time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)
	examDeadline = examFiring.Add(3 * time.Hour)
)

const (
	adminName   = "root"
	teacherName = "sensei"
	password    = "correct horse battery"
	// evilName is a class name and a managed student's name that would
	// run script if the pages did not escape it.
	evilName = `<script>alert("x")</script>'"`
)

// world is the stack behind the pages' tests: an admin, a teacher heading
// a school with one class of students (the class named evilName), and a
// second school with its own teacher and class; games played between the
// students; the clock a fake one, an hour before the exam's firing.
type world struct {
	t        testing.TB
	st       *apptest.Stack
	clock    *clockwork.FakeClock
	base     string
	admin    players.Principal
	teacher  players.Principal
	other    players.Principal // the other school's teacher
	school   schools.School
	class    schools.Class
	otherCls schools.Class
	students []string
	gameID   string
	schedule string
}

func newWorld(t testing.TB, students int) *world { return newWorldOn(t, students, false) }

// newWorldOn builds the world on the in-memory stores, or on the real
// test stores (embedded FerretDB and the test redis-server) when real.
func newWorldOn(t testing.TB, students int, real bool) *world {
	t.Helper()
	ctx := context.Background()
	clock := clockwork.NewFakeClockAt(examFiring.Add(-time.Hour))
	var st *apptest.Stack
	if real {
		st = apptest.Real(t, apptest.Clock(clock))
	} else {
		st = apptest.Memory(t, apptest.Clock(clock))
	}
	srv := httptest.NewServer(st.HTTP)
	t.Cleanup(srv.Close)
	w := &world{t: t, st: st, clock: clock, base: srv.URL}
	if _, err := st.Players.EnsureAdmin(ctx, adminName, password); err != nil {
		t.Fatal(err)
	}
	w.admin = players.Principal{Username: adminName, Role: players.RoleAdmin}
	for _, name := range []string{teacherName, "other-teacher"} {
		if _, err := st.Players.CreateAccount(ctx, w.admin, name, password, players.RoleTeacher); err != nil {
			t.Fatal(err)
		}
	}
	w.teacher = players.Principal{Username: teacherName, Role: players.RoleTeacher}
	w.other = players.Principal{Username: "other-teacher", Role: players.RoleTeacher}
	var err error
	if w.school, err = st.Schools.CreateSchool(ctx, w.admin, schools.SchoolDraft{Name: "Dojo", TimeZone: "Asia/Shanghai", HeadTeachers: []string{teacherName}}); err != nil {
		t.Fatal(err)
	}
	if w.class, err = st.Schools.CreateClass(ctx, w.teacher, w.school.ID, schools.ClassDraft{Name: evilName}); err != nil {
		t.Fatal(err)
	}
	otherSchool, err := st.Schools.CreateSchool(ctx, w.admin, schools.SchoolDraft{Name: "Other", HeadTeachers: []string{"other-teacher"}})
	if err != nil {
		t.Fatal(err)
	}
	if w.otherCls, err = st.Schools.CreateClass(ctx, w.other, otherSchool.ID, schools.ClassDraft{Name: "elsewhere"}); err != nil {
		t.Fatal(err)
	}
	for i := range students {
		name := "kid" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		if _, _, err := st.Players.Register(ctx, name, password, fmt.Sprintf("10.0.%d.%d", i/200, i%200)); err != nil {
			t.Fatal(err)
		}
		w.students = append(w.students, name)
	}
	if len(w.students) > 0 {
		// Added by the teacher, then joined with the code (their consent).
		if w.class, err = st.Schools.AddStudents(ctx, w.teacher, w.class.ID, w.students); err != nil {
			t.Fatal(err)
		}
		for _, n := range w.students {
			if w.class, _, err = st.Schools.Join(ctx, players.Principal{Username: n, Role: players.RolePlayer}, w.class.Code); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := st.Schools.AddManaged(ctx, w.teacher, w.class.ID, []string{evilName}, ""); err != nil {
			t.Fatal(err)
		}
	}
	// Games among the students: each plays the next one.
	for i := 0; i+1 < len(w.students); i++ {
		w.gameID = w.play(w.students[i], w.students[i+1], i)
	}
	return w
}

// play submits a finished game between black and white that White wins
// by resignation after a capture.
func (w *world) play(black, white string, n int) string {
	w.t.Helper()
	sgf := "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[" + black + "]PW[" + white + "]RE[W+R];B[aa];W[ba];B[ee];W[ab];B[ff])"
	acc, err := w.st.Intake.Submit(context.Background(), intake.Submission{SourceID: "web-test-" + string(rune('a'+n%26)) + string(rune('a'+n/26)),
		SGF: []byte(sgf), By: adminName})
	if err != nil {
		w.t.Fatal(err)
	}
	return acc.Game.ID
}

// awaitingPromotions runs an exam that needs approval to its grading:
// ann and cat win every game against bob and dan, so two passes wait for
// an admin. It advances the clock past the deadline.
func (w *world) awaitingPromotions() []string {
	w.t.Helper()
	ctx := context.Background()
	sch, err := w.st.Exams.CreateSchedule(ctx, "weekly-1d", exams.Draft{TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		SessionLength: "3h", RegistrationOpens: "72h", GamesPerCandidate: new(2), WinsNeeded: new(2), NeedsApproval: true}, adminName)
	if err != nil {
		w.t.Fatal(err)
	}
	w.schedule = sch.ID
	for i, p := range []string{"ann", "bob", "cat", "dan"} {
		if _, _, err := w.st.Players.Register(ctx, p, password, "127.0.0.1"); err != nil {
			w.t.Fatal(err)
		}
		score := 90 - 10*i
		if _, err := w.st.Ratings.Change(ctx, rating.ChangeInput{Key: "place-" + p, Player: p, Cause: rating.CausePlacement,
			Score: &score, Actor: adminName, Reason: "test placement"}); err != nil {
			w.t.Fatal(err)
		}
		if _, _, err := w.st.Exams.Register(ctx, exams.RegisterRequest{ScheduleID: sch.ID, Player: p}); err != nil {
			w.t.Fatal(err)
		}
	}
	w.clock.Advance(examFiring.Sub(w.clock.Now()))
	if _, err := w.st.Jobs.RunNow(ctx, "exams", "open"); err != nil {
		w.t.Fatal(err)
	}
	sess, err := w.st.Exams.Sessions(ctx, sch.ID)
	if err != nil || len(sess) != 1 {
		w.t.Fatalf("sessions %v %v", sess, err)
	}
	fav := map[string]bool{"ann": true, "cat": true}
	for _, g := range sess[0].Pairing {
		loser := games.White
		if fav[g.White] && !fav[g.Black] {
			loser = games.Black
		}
		rec := &games.Record{Komi: 7.5, Moves: []games.Move{{Color: games.Black, Point: games.Point{X: 3, Y: 3}}}, End: games.EndResign, EndBy: loser}
		if _, err := w.st.Intake.Submit(ctx, intake.Submission{GameID: exams.GameID(g.ID), Record: rec, By: adminName}); err != nil {
			w.t.Fatal(err)
		}
	}
	w.clock.Advance(examDeadline.Sub(w.clock.Now()))
	if _, err := w.st.Jobs.RunNow(ctx, "exams", "grade"); err != nil {
		w.t.Fatal(err)
	}
	queue, err := w.st.Exams.Promotions(ctx, exams.ResultAwaiting)
	if err != nil || len(queue) < 2 {
		w.t.Fatalf("approval queue %v %v", queue, err)
	}
	var out []string
	for _, r := range queue {
		out = append(out, r.Player)
	}
	return out
}
