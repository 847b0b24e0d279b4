package schools_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

func listErr(t *testing.T, err error, field string, want map[int]string) {
	t.Helper()
	var le *schools.ListError
	if !errors.As(err, &le) || le.Field != field {
		t.Fatalf("err = %v, want a list error on %s", err, field)
	}
	got := map[int]string{}
	for _, e := range le.Entries {
		got[e.Index] = e.Reason
	}
	if len(got) != len(want) {
		t.Fatalf("bad entries %+v, want %v", le.Entries, want)
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("entry %d: %q, want it to say %q", i, got[i], w)
		}
	}
}

func TestSchoolsAndTeachers(t *testing.T) {
	r := newRig(t)
	r.player("pat")
	_, err := r.svc.CreateSchool(bg, r.admin, schools.SchoolDraft{Name: "x", HeadTeachers: []string{"tea", "nobody", "pat", "TEA", "b d"}})
	listErr(t, err, "head_teachers", map[int]string{1: "no such account", 2: "a player account", 3: "the same as entry 0", 4: "not a username"})
	if _, err := r.svc.CreateSchool(bg, r.head, schools.SchoolDraft{Name: "mine", HeadTeachers: []string{"head"}}); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("a teacher creates a school: %v", err)
	}
	for _, tc := range []struct {
		d     schools.SchoolDraft
		field string
	}{
		{schools.SchoolDraft{Name: " ", HeadTeachers: []string{"head"}}, "name"},
		{schools.SchoolDraft{Name: "x", TimeZone: "Mars/Olympus", HeadTeachers: []string{"head"}}, "time_zone"},
		{schools.SchoolDraft{Name: "x", Scale: "kgs", HeadTeachers: []string{"head"}}, "scale"},
		{schools.SchoolDraft{Name: "x"}, "head_teachers"},
		{schools.SchoolDraft{Name: strings.Repeat("围", 101), HeadTeachers: []string{"head"}}, "name"},
		{schools.SchoolDraft{Name: "x", HeadTeachers: slices.Repeat([]string{"head"}, schools.TeachersMax+1)}, "head_teachers"},
	} {
		var fe *schools.FieldError
		if _, err := r.svc.CreateSchool(bg, r.admin, tc.d); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v: %v, want field %s", tc.d, err, tc.field)
		}
	}
	// The same create again is the school; another under its id is refused.
	again, err := r.svc.CreateSchool(bg, r.admin, schools.SchoolDraft{ID: "sch", Name: "弈林围棋", TimeZone: "Asia/Shanghai", Scale: "chinese", HeadTeachers: []string{"head"}})
	if err != nil || again.ID != "sch" {
		t.Errorf("create again: %+v, %v", again, err)
	}
	if _, err := r.svc.CreateSchool(bg, r.admin, schools.SchoolDraft{ID: "sch", Name: "another", HeadTeachers: []string{"head"}}); !errors.Is(err, schools.ErrExists) {
		t.Errorf("another school under a taken id: %v", err)
	}
	// A plain teacher may not name teachers; a head may; the last head stays.
	if _, err := r.svc.AddTeacher(bg, r.tea, "sch", schools.TeacherDraft{Username: "far"}); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("a teacher names a teacher: %v", err)
	}
	if _, err := r.svc.RemoveTeacher(bg, r.head, "sch", "head", ""); !errors.Is(err, schools.ErrLastHead) {
		t.Errorf("removing the last head: %v", err)
	}
	if _, err := r.svc.AddTeacher(bg, r.head, "sch", schools.TeacherDraft{Username: "head", Head: false}); !errors.Is(err, schools.ErrLastHead) {
		t.Errorf("demoting the last head: %v", err)
	}
	// An admin creates a teacher account while naming it.
	sch, err := r.svc.AddTeacher(bg, r.admin, "sch", schools.TeacherDraft{Username: "New-Tea", Password: pw, Head: true})
	if err != nil {
		t.Fatal(err)
	}
	if tt, ok := sch.Teacher("new-tea"); !ok || !tt.Head || sch.Version != 2 || sch.Change.What != schools.WhatTeacherAdded {
		t.Fatalf("after adding new-tea: %+v", sch)
	}
	if _, err := r.svc.AddTeacher(bg, r.head, "sch", schools.TeacherDraft{Username: "other", Password: pw}); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("a head creates an account: %v", err)
	}
	// Schools a teacher sees; another school's teacher sees none of this.
	mine, err := r.svc.Schools(bg, r.tea)
	if err != nil || len(mine) != 1 || mine[0].ID != "sch" {
		t.Errorf("tea's schools: %+v, %v", mine, err)
	}
	if _, _, err := r.svc.School(bg, r.far, "sch"); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("another school's teacher reads the school: %v", err)
	}
	if _, err := r.svc.UpdateSchool(bg, r.tea, "sch", schools.SchoolPatch{Name: new("x")}); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("a teacher renames the school: %v", err)
	}
	sc := "server"
	if sch, err = r.svc.UpdateSchool(bg, r.head, "sch", schools.SchoolPatch{Scale: &sc}); err != nil || sch.Scale != "server" {
		t.Errorf("a head changes the scale: %+v, %v", sch, err)
	}
	hist, err := r.svc.SchoolHistory(bg, r.head, "sch")
	if err != nil || len(hist) != 4 || hist[0].Change.What != schools.WhatCreated || hist[3].Change.What != schools.WhatUpdated || hist[3].Change.By != "head" {
		t.Errorf("history %+v, %v", hist, err)
	}
	// A teacher removed from the school loses its classes at once.
	c := r.class("c1", 0)
	if _, err := r.svc.RemoveTeacher(bg, r.head, "sch", "tea", "left the school"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Table(bg, r.tea, c.ID, schools.TableQuery{}); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("a removed teacher reads their old class: %v", err)
	}
}

func TestJoinByCode(t *testing.T) {
	r := newRig(t)
	c := r.class("beginners", 2)
	if _, _, err := r.svc.Join(bg, r.player("ann"), strings.ToLower(c.Code[:4])+"-"+c.Code[4:]); err != nil {
		t.Fatalf("join with the code as typed: %v", err)
	}
	if _, _, err := r.svc.Join(bg, players.Principal{Username: "ann", Role: players.RolePlayer}, c.Code); !errors.Is(err, schools.ErrAlreadyMember) {
		t.Errorf("joining twice: %v", err)
	}
	if _, _, err := r.svc.Join(bg, r.tea, c.Code); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("a teacher joins as a student: %v", err)
	}
	for _, code := range []string{"ZZZZ2345", "nope"} {
		if _, _, err := r.svc.Join(bg, r.player("x"+strings.ToLower(code[:3])), code); !errors.Is(err, schools.ErrCodeUnknown) {
			t.Errorf("code %s: %v, want unknown", code, err)
		}
	}
	r.join(c, "bob")
	var full *schools.FullError
	if _, _, err := r.svc.Join(bg, r.player("cat"), c.Code); !errors.As(err, &full) || full.Capacity != 2 || !errors.Is(err, schools.ErrClassFull) {
		t.Errorf("a full class: %v", err)
	}
	// A rotated code joins nobody; the new one expires.
	c2, err := r.svc.RotateCode(bg, r.tea, c.ID, r.clock.Now().Add(time.Hour))
	if err != nil || c2.Code == c.Code || !c2.CodeExpires.Equal(r.clock.Now().Add(time.Hour)) {
		t.Fatalf("rotate: %+v, %v", c2, err)
	}
	cap3 := 3
	if _, err := r.svc.UpdateClass(bg, r.tea, c.ID, schools.ClassPatch{Capacity: &cap3}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.svc.Join(bg, players.Principal{Username: "cat", Role: players.RolePlayer}, c.Code); !errors.Is(err, schools.ErrCodeExpired) {
		t.Errorf("the old code after a rotation: %v", err)
	}
	r.advance(time.Hour)
	if _, _, err := r.svc.Join(bg, players.Principal{Username: "cat", Role: players.RolePlayer}, c2.Code); !errors.Is(err, schools.ErrCodeExpired) {
		t.Errorf("an expired code: %v", err)
	}
	if _, err := r.svc.RotateCode(bg, r.tea, c.ID, r.clock.Now().Add(-time.Minute)); !errors.Is(err, schools.ErrInvalid) {
		t.Errorf("a code expiring in the past: %v", err)
	}
	one := 1
	var fe *schools.FieldError
	if _, err := r.svc.UpdateClass(bg, r.tea, c.ID, schools.ClassPatch{Capacity: &one}); !errors.As(err, &fe) || fe.Field != "capacity" {
		t.Errorf("a capacity below the class: %v", err)
	}
	// Archived and ended classes take nobody.
	c3, _ := r.svc.RotateCode(bg, r.tea, c.ID, time.Time{})
	if _, err := r.svc.ArchiveClass(bg, r.tea, c.ID, "term over"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.svc.Join(bg, players.Principal{Username: "cat", Role: players.RolePlayer}, c3.Code); !errors.Is(err, schools.ErrClassClosed) {
		t.Errorf("an archived class: %v", err)
	}
	if _, err := r.svc.UpdateClass(bg, r.tea, c.ID, schools.ClassPatch{Name: new("x")}); !errors.Is(err, schools.ErrArchived) {
		t.Errorf("changing an archived class: %v", err)
	}
	view, err := r.svc.Class(bg, r.tea, c.ID)
	if err != nil || !view.Archived || len(view.Students) != 2 {
		t.Errorf("an archived class stays readable: %+v, %v", view, err)
	}
	ends := r.clock.Now().In(time.FixedZone("CST", 8*3600)).Format(schools.DateLayout)
	d, err := r.svc.CreateClass(bg, r.tea, "sch", schools.ClassDraft{Name: "one day", EndsOn: ends})
	if err != nil {
		t.Fatal(err)
	}
	r.advance(24 * time.Hour)
	if _, _, err := r.svc.Join(bg, players.Principal{Username: "cat", Role: players.RolePlayer}, d.Code); !errors.Is(err, schools.ErrClassClosed) {
		t.Errorf("an ended class: %v", err)
	}
	for _, bad := range []string{"2020-01-01", "2040-01-01", "soon"} {
		if _, err := r.svc.CreateClass(bg, r.tea, "sch", schools.ClassDraft{Name: "x", EndsOn: bad}); !errors.As(err, &fe) || fe.Field != "ends_on" {
			t.Errorf("ends_on %s: %v", bad, err)
		}
	}
	many := slices.Repeat([]string{"tea"}, schools.TeachersMax+1)
	if _, err := r.svc.CreateClass(bg, r.tea, "sch", schools.ClassDraft{Name: "x", CoTeachers: many}); !errors.As(err, &fe) || fe.Field != "co_teachers" || !strings.Contains(fe.Reason, "at most") {
		t.Errorf("%d co-teachers: %v", len(many), err)
	}
}

// Many players join a class with few places at once: exactly the
// capacity get in, the others are told it is full.
func TestConcurrentJoinsFillExactly(t *testing.T) {
	r := newRig(t)
	c := r.class("popular", 10)
	const n = 25
	ps := make([]players.Principal, n)
	for i := range ps {
		ps[i] = r.player(fmt.Sprintf("kid%02d", i))
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { _, _, errs[i] = r.svc.Join(bg, ps[i], c.Code) })
	}
	wg.Wait()
	in := 0
	for i, err := range errs {
		switch {
		case err == nil:
			in++
		case !errors.Is(err, schools.ErrClassFull):
			t.Errorf("joiner %d: %v", i, err)
		}
	}
	got, _ := r.svc.Class(bg, r.tea, c.ID)
	if in != 10 || len(got.Students) != 10 {
		t.Fatalf("%d joined, the class has %d; want 10 and 10", in, len(got.Students))
	}
}

func TestAddStudentsRefusesTheWholeList(t *testing.T) {
	r := newRig(t)
	c := r.class("c", 0)
	r.player("ann")
	r.player("bob")
	r.join(c, "cat")
	_, err := r.svc.AddStudents(bg, r.tea, c.ID, []string{"ann", "nobody", "ANN", "tea", "cat", "7up", "bob"})
	listErr(t, err, "usernames", map[int]string{1: "no such player", 2: "the same as entry 0", 3: "a teacher account", 4: "already in the class", 5: "not a username"})
	if got, _ := r.svc.Class(bg, r.tea, c.ID); len(got.Students) != 1 {
		t.Fatalf("a refused list added someone: %+v", got.Students)
	}
	got, err := r.svc.AddStudents(bg, r.tea, c.ID, []string{"Ann", "bob"})
	if err != nil || len(got.Students) != 3 || got.Students[0].Via != schools.ViaTeacher || got.Students[0].By != "tea" {
		t.Fatalf("add: %+v, %v", got.Students, err)
	}
	if _, err := r.svc.AddStudents(bg, r.far, c.ID, []string{"dan"}); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("another school's teacher adds: %v", err)
	}
	if _, err := r.svc.AddStudents(bg, r.tea, c.ID, nil); !errors.Is(err, schools.ErrInvalid) {
		t.Errorf("an empty list: %v", err)
	}
}

func TestManagedStudents(t *testing.T) {
	r := newRig(t)
	c := r.class("kids", 0)
	other := r.class("other", 0)
	_, _, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"张伟", " ", "张伟", strings.Repeat("x", 101)}, "")
	listErr(t, err, "names", map[int]string{1: "is required", 2: "the same as entry 0", 3: "at most 100"})
	c, made, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"张伟", "Li Na"}, "")
	if err != nil || len(made) != 2 || len(c.Students) != 2 {
		t.Fatalf("managed: %+v %+v, %v", made, c.Students, err)
	}
	kid := made[1]
	if !strings.HasPrefix(kid.Username, "lina-") || kid.Name != "Li Na" {
		t.Errorf("kid %+v", kid)
	}
	m, _ := c.Member(kid.Username)
	if !m.Managed || m.Name != "Li Na" || m.Via != schools.ViaManaged {
		t.Errorf("member %+v", m)
	}
	acct, err := r.st.Players.Account(bg, kid.Username)
	if err != nil || acct.ManagedBy != "sch" || acct.CreatedBy != "tea" {
		t.Errorf("account %+v, %v", acct, err)
	}
	// The child logs in, plays and queues like any player.
	if _, err := r.st.Players.Login(bg, kid.Username, kid.Password, "192.0.2.9"); err != nil {
		t.Fatalf("the first password: %v", err)
	}
	r.game(kid.Username, made[0].Username, false)
	// A teacher of the class resets it; a teacher of another class may not.
	if _, err := r.svc.ResetPassword(bg, r.far, c.ID, kid.Username); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("another school's teacher resets: %v", err)
	}
	if _, err := r.svc.ResetPassword(bg, r.tea, other.ID, kid.Username); !errors.Is(err, schools.ErrNotMember) {
		t.Errorf("a reset through a class the child is not in: %v", err)
	}
	pw2, err := r.svc.ResetPassword(bg, r.tea, c.ID, kid.Username)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.st.Players.Login(bg, kid.Username, pw2, "192.0.2.9"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	r.join(c, "selfmade")
	if _, err := r.svc.ResetPassword(bg, r.tea, c.ID, "selfmade"); !errors.Is(err, players.ErrNotManaged) {
		t.Errorf("reset of an account its owner holds: %v", err)
	}
}

// A student removed from a class, or moved, keeps their ladder history;
// archiving the school deletes no player and no ledger entry.
func TestRemoveMoveAndArchiveKeepTheLedger(t *testing.T) {
	r := newRig(t)
	a, b := r.class("a", 0), r.class("b", 1)
	r.join(a, "ann", "bob", "cat")
	r.game("ann", "bob", false)
	r.game("bob", "ann", false)
	before, _ := r.st.Ratings.History(bg, "ann", 0, 100)
	if _, err := r.svc.Remove(bg, r.tea, a.ID, "ann", "moved away"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Remove(bg, r.tea, a.ID, "ann", ""); !errors.Is(err, schools.ErrNotMember) {
		t.Errorf("removing twice: %v", err)
	}
	after, _ := r.st.Ratings.History(bg, "ann", 0, 100)
	if len(after) != 2 || fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("ann's ledger after her removal: %+v", after)
	}
	st, _ := r.st.Ratings.Player(bg, "ann")
	if st.Games != 2 {
		t.Errorf("ann's state after her removal: %+v", st)
	}
	// Move bob to b, then cat to b (full).
	from, to, err := r.svc.Move(bg, r.tea, a.ID, "bob", b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, in := from.Member("bob"); in {
		t.Error("bob is still in a")
	}
	if m, in := to.Member("bob"); !in || m.Via != schools.ViaMoved {
		t.Errorf("bob in b: %+v", to.Students)
	}
	if _, _, err := r.svc.Move(bg, r.tea, a.ID, "bob", b.ID); err != nil {
		t.Errorf("the same move again: %v", err)
	}
	if _, _, err := r.svc.Move(bg, r.tea, a.ID, "cat", b.ID); !errors.Is(err, schools.ErrClassFull) {
		t.Errorf("a move into a full class: %v", err)
	}
	x, _ := r.svc.CreateClass(bg, r.far, "oth", schools.ClassDraft{Name: "x"})
	var fe *schools.FieldError
	if _, _, err := r.svc.Move(bg, r.tea, a.ID, "cat", x.ID); !errors.As(err, &fe) || fe.Field != "to_class" {
		t.Errorf("a move to another school: %v", err)
	}
	// A student leaves by themselves.
	if _, err := r.svc.Leave(bg, players.Principal{Username: "cat", Role: players.RolePlayer}, a.ID); err != nil {
		t.Fatal(err)
	}
	// Archive the school: nothing of the players goes.
	if _, err := r.svc.ArchiveSchool(bg, r.head, "sch", ""); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("a head archives the school: %v", err)
	}
	if _, err := r.svc.ArchiveSchool(bg, r.admin, "sch", "closed"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ann", "bob", "cat"} {
		if _, err := r.st.Players.Account(bg, p); err != nil {
			t.Errorf("account %s after archiving: %v", p, err)
		}
	}
	if got, _ := r.st.Ratings.History(bg, "bob", 0, 100); len(got) != 2 {
		t.Errorf("bob's ledger after archiving: %+v", got)
	}
	if _, err := r.svc.AddStudents(bg, r.tea, b.ID, []string{"cat"}); !errors.Is(err, schools.ErrArchived) {
		t.Errorf("adding to a class of an archived school: %v", err)
	}
	if tb, err := r.svc.Table(bg, r.tea, b.ID, schools.TableQuery{}); err != nil || len(tb.Rows) != 1 {
		t.Errorf("the table of an archived school's class: %+v, %v", tb, err)
	}
	if err := r.st.Ratings.Verify(bg, "bob"); err != nil {
		t.Error(err)
	}
	hist, err := r.svc.ClassHistory(bg, r.tea, a.ID)
	whats := []string{}
	for _, v := range hist {
		whats = append(whats, v.Change.What)
	}
	if err != nil || strings.Join(whats, ",") != "created,joined,joined,joined,removed,moved_out,left" {
		t.Errorf("class history %v, %v", whats, err)
	}
}

func TestPlacement(t *testing.T) {
	r := newRig(t)
	c := r.class("c", 0)
	r.join(c, "ann", "bob")
	p := schools.Placement{Rank: "5k", Reason: "plays 5k at the club", Key: "k1"}
	ch, err := r.svc.Place(bg, r.tea, c.ID, "ann", p)
	if err != nil {
		t.Fatal(err)
	}
	e := ch.Entries[0]
	if e.Cause != rating.CausePlacement || e.Actor != "tea" || e.Reason != p.Reason || e.ScoreAfter != -400 || e.RankAfter != "5k" {
		t.Errorf("placement entry %+v", e)
	}
	if again, err := r.svc.Place(bg, r.tea, c.ID, "ann", p); err != nil || again.Op != ch.Op {
		t.Errorf("the same placement again: %+v, %v", again, err)
	}
	for _, tc := range []struct {
		who  players.Principal
		p    schools.Placement
		user string
		want error
	}{
		{r.far, p, "bob", schools.ErrDenied},
		{players.Principal{Username: "ann", Role: players.RolePlayer}, p, "bob", schools.ErrDenied},
		{r.tea, p, "nobody", schools.ErrNotMember},
		{r.tea, schools.Placement{Rank: "12k", Reason: "x"}, "bob", schools.ErrInvalid},
		{r.tea, schools.Placement{Rank: "3p", Reason: "x"}, "bob", schools.ErrInvalid},
		{r.tea, schools.Placement{Rank: "3k"}, "bob", schools.ErrInvalid},
	} {
		if _, err := r.svc.Place(bg, tc.who, c.ID, tc.user, tc.p); !errors.Is(err, tc.want) {
			t.Errorf("%s places %s %+v: %v, want %v", tc.who.Username, tc.user, tc.p, err, tc.want)
		}
	}
	r.game("bob", "ann", false)
	if _, err := r.svc.Place(bg, r.tea, c.ID, "bob", schools.Placement{Rank: "3k", Reason: "late"}); !errors.Is(err, rating.ErrPlayed) {
		t.Errorf("a placement after the first game: %v", err)
	}
}

func TestTeaches(t *testing.T) {
	r := newRig(t)
	c := r.class("c", 0)
	r.join(c, "ann")
	r.player("bob")
	for _, tc := range []struct {
		who     players.Principal
		student string
		want    bool
	}{
		{r.tea, "ann", true}, {r.head, "ann", true}, {r.far, "ann", false}, {r.tea, "bob", false},
	} {
		if got, err := r.svc.Teaches(bg, tc.who, tc.student); err != nil || got != tc.want {
			t.Errorf("%s teaches %s: %v, %v; want %v", tc.who.Username, tc.student, got, err, tc.want)
		}
	}
	student, teaching, err := r.svc.MyClasses(bg, players.Principal{Username: "ann", Role: players.RolePlayer})
	if err != nil || len(student) != 1 || student[0].Code != "" || len(teaching) != 0 {
		t.Errorf("ann's classes: %+v %+v, %v", student, teaching, err)
	}
	_, teaching, err = r.svc.MyClasses(bg, r.tea)
	if err != nil || len(teaching) != 1 || teaching[0].Code == "" {
		t.Errorf("tea's classes: %+v, %v", teaching, err)
	}
	view, err := r.svc.Class(bg, players.Principal{Username: "ann", Role: players.RolePlayer}, c.ID)
	if err != nil || view.Access != schools.AccessMember || view.Code != "" {
		t.Errorf("ann's view: %+v, %v", view, err)
	}
	if _, err := r.svc.Class(bg, players.Principal{Username: "bob", Role: players.RolePlayer}, c.ID); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("a student of no class reads it: %v", err)
	}
}
