package schools_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

var bg = context.Background()

// start is a Tuesday, 10:00 in Shanghai.
var start = time.Date(2026, 9, 1, 2, 0, 0, 0, time.UTC)

const pw = "correct horse battery"

// rig is the application on the memory stores (opts may wrap them) with
// a fake clock, an admin, and a school "sch" with head teacher "head" and
// teacher "tea"; "far" teaches at another school "oth".
type rig struct {
	t      testing.TB
	st     *apptest.Stack
	svc    *schools.Service
	clock  *clockwork.FakeClock
	admin  players.Principal
	head   players.Principal
	tea    players.Principal
	far    players.Principal
	school schools.School
	games  int
}

func newRig(t testing.TB, opts ...apptest.Option) *rig {
	t.Helper()
	clock := clockwork.NewFakeClockAt(start)
	opts = append([]apptest.Option{apptest.Clock(clock), apptest.Config(app.Config{Players: players.Config{RegisterLimitAddress: 1 << 30}})}, opts...)
	st := apptest.Memory(t, opts...)
	r := &rig{t: t, st: st, svc: st.Schools, clock: clock, admin: players.Principal{Username: "root", Role: players.RoleAdmin}}
	r.head, r.tea, r.far = r.teacher("head"), r.teacher("tea"), r.teacher("far")
	var err error
	if r.school, err = r.svc.CreateSchool(bg, r.admin, schools.SchoolDraft{ID: "sch", Name: "弈林围棋", TimeZone: "Asia/Shanghai", Scale: "chinese", HeadTeachers: []string{"head"}}); err != nil {
		t.Fatal(err)
	}
	if r.school, err = r.svc.AddTeacher(bg, r.head, "sch", schools.TeacherDraft{Username: "tea"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.CreateSchool(bg, r.admin, schools.SchoolDraft{ID: "oth", Name: "Other", HeadTeachers: []string{"far"}}); err != nil {
		t.Fatal(err)
	}
	return r
}

// teacher makes a teacher account.
func (r *rig) teacher(name string) players.Principal {
	r.t.Helper()
	if _, err := r.st.Players.CreateAccount(bg, r.admin, name, pw, players.RoleTeacher); err != nil {
		r.t.Fatal(err)
	}
	return players.Principal{Username: name, Role: players.RoleTeacher}
}

// player registers a player account.
func (r *rig) player(name string) players.Principal {
	r.t.Helper()
	if _, _, err := r.st.Players.Register(bg, name, pw, "192.0.2.1"); err != nil {
		r.t.Fatal(err)
	}
	return players.Principal{Username: name, Role: players.RolePlayer}
}

// class makes a class taught by tea.
func (r *rig) class(name string, capacity int) schools.Class {
	r.t.Helper()
	c, err := r.svc.CreateClass(bg, r.tea, "sch", schools.ClassDraft{Name: name, Capacity: capacity})
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// join makes the players and has them join by the class's code.
func (r *rig) join(c schools.Class, names ...string) {
	r.t.Helper()
	for _, n := range names {
		if _, _, err := r.svc.Join(bg, r.player(n), c.Code); err != nil {
			r.t.Fatal(err)
		}
	}
}

// game rates a game now: winner beats loser (moves 150), or a draw.
func (r *rig) game(winner, loser string, draw bool) rating.GameResult {
	r.t.Helper()
	r.games++
	g := rating.GameInput{ID: fmt.Sprintf("g%03d", r.games), Black: winner, White: loser, Winner: rating.SideBlack,
		Game: rating.Game{Moves: 150}, Actor: "go-server", At: r.clock.Now()}
	if draw {
		g.Winner, g.Game.Outcome = rating.SideNone, rating.Draw
	}
	res, err := r.st.Ratings.Apply(bg, g)
	if err != nil {
		r.t.Fatal(err)
	}
	return res
}

func (r *rig) advance(d time.Duration) { r.clock.Advance(d) }

func playerP(name string) players.Principal {
	return players.Principal{Username: name, Role: players.RolePlayer}
}

func fmtInts(xs []int) string { return fmt.Sprint(xs) }
