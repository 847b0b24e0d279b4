package schools_test

import (
	"errors"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/schools"
)

// The one place "only one's own" is decided, every case.
func TestAccess(t *testing.T) {
	sch := schools.School{ID: "s", Teachers: []schools.Teacher{{Username: "head", Head: true}, {Username: "tea"}, {Username: "co"}}}
	c := schools.Class{ID: "c", SchoolID: "s", Teachers: []string{"tea", "gone"}, Students: []schools.Member{{Username: "kid"}}}
	p := func(name string, role players.Role) players.Principal {
		return players.Principal{Username: name, Role: role}
	}
	for _, tc := range []struct {
		who           players.Principal
		school, class schools.Access
	}{
		{p("root", players.RoleAdmin), schools.AccessAdmin, schools.AccessAdmin},
		{p("head", players.RoleTeacher), schools.AccessHead, schools.AccessHead},
		{p("tea", players.RoleTeacher), schools.AccessTeacher, schools.AccessTeacher},
		{p("co", players.RoleTeacher), schools.AccessTeacher, schools.AccessNone},    // a teacher of the school, not of the class
		{p("gone", players.RoleTeacher), schools.AccessNone, schools.AccessNone},     // named by the class, no longer of the school
		{p("far", players.RoleTeacher), schools.AccessNone, schools.AccessNone},      // another school's
		{p("kid", players.RolePlayer), schools.AccessNone, schools.AccessMember},     // a student
		{p("other", players.RolePlayer), schools.AccessNone, schools.AccessNone},     // a student of another class
		{p("tea", players.RolePlayer), schools.AccessNone, schools.AccessNone},       // the name without the role
		{p("go-server", players.RoleServer), schools.AccessNone, schools.AccessNone}, // a game server
	} {
		if got := schools.SchoolAccess(tc.who, sch); got != tc.school {
			t.Errorf("%+v at the school: %s, want %s", tc.who, got, tc.school)
		}
		if got := schools.ClassAccess(tc.who, sch, c); got != tc.class {
			t.Errorf("%+v at the class: %s, want %s", tc.who, got, tc.class)
		}
	}
}

func TestInviteCodes(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		c := schools.NewCode()
		if len(c) != schools.CodeLength {
			t.Fatalf("code %q", c)
		}
		for _, r := range c {
			if r == '0' || r == 'O' || r == '1' || r == 'I' || r == 'L' {
				t.Fatalf("code %q has an ambiguous character", c)
			}
		}
		if n, ok := schools.NormalizeCode(c); !ok || n != c {
			t.Fatalf("code %q does not read back", c)
		}
		seen[c] = true
	}
	if len(seen) < 199 {
		t.Errorf("200 codes, %d different", len(seen))
	}
	for in, want := range map[string]string{"abcd-2345": "ABCD2345", " ab cd 23 45 ": "ABCD2345"} {
		if got, ok := schools.NormalizeCode(in); !ok || got != want {
			t.Errorf("NormalizeCode(%q) = %q, %v", in, got, ok)
		}
	}
	for _, bad := range []string{"", "ABCD234", "ABCD23456", "ABCD1234", "ABCDO234", "ABCD234é"} {
		if _, ok := schools.NormalizeCode(bad); ok {
			t.Errorf("NormalizeCode(%q) accepted", bad)
		}
	}
}

// TestSameSchoolTeacherOnlyOwnClasses: a teacher of the same school who
// does not teach the class may not place, reset the password of or move
// its students, and does not teach them; the class's own teacher may.
func TestSameSchoolTeacherOnlyOwnClasses(t *testing.T) {
	r := newRig(t)
	c := r.class("mine", 10)
	r.join(c, "ann")
	other, theirs := r.sameSchoolTeacher(t)
	if _, err := r.svc.Place(bg, other, c.ID, "ann", schools.Placement{Rank: "5k", Reason: "test"}); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("another teacher places ann: %v", err)
	}
	if _, err := r.svc.ResetPassword(bg, other, c.ID, "ann"); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("another teacher resets ann's password: %v", err)
	}
	if _, _, err := r.svc.Move(bg, other, c.ID, "ann", theirs.ID); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("another teacher moves ann into their class: %v", err)
	}
	if ok, err := r.svc.Teaches(bg, other, "ann"); err != nil || ok {
		t.Errorf("another teacher teaches ann: %v %v", ok, err)
	}
	if ok, err := r.svc.Teaches(bg, r.tea, "ann"); err != nil || !ok {
		t.Errorf("the class's teacher does not teach ann: %v %v", ok, err)
	}
}

// TestAddedByUsernameIsOnlyFollowed: a player a teacher adds by username
// (any teacher may add any player) is shown in the class but may not be
// placed or registered for exams by the teacher, also after a move; once
// the player joins with the class's code (their consent) they may.
func TestAddedByUsernameIsOnlyFollowed(t *testing.T) {
	r := newRig(t)
	r.player("ann")
	c := r.class("mine", 10)
	d := r.class("other", 10)
	if _, err := r.svc.AddStudents(bg, r.tea, c.ID, []string{"ann"}); err != nil {
		t.Fatal(err)
	}
	place := schools.Placement{Rank: "5k", Reason: "club 5k"}
	if _, err := r.svc.Place(bg, r.tea, c.ID, "ann", place); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("placing a player added by username: %v", err)
	}
	if ok, err := r.svc.Teaches(bg, r.tea, "ann"); err != nil || ok {
		t.Errorf("teaches a player added by username: %v %v", ok, err)
	}
	// A move does not make the addition a consent.
	if _, _, err := r.svc.Move(bg, r.tea, c.ID, "ann", d.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Place(bg, r.tea, d.ID, "ann", place); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("placing a moved player added by username: %v", err)
	}
	// Joining with the code is the consent: the same membership, by code.
	dv, err := r.svc.Class(bg, r.tea, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	got, m, err := r.svc.Join(bg, players.Principal{Username: "ann", Role: players.RolePlayer}, dv.Code)
	if err != nil || m.Via != schools.ViaCode || len(got.Students) != 1 {
		t.Fatalf("join after being added: %+v %+v %v", m, got.Students, err)
	}
	if _, _, err := r.svc.Join(bg, players.Principal{Username: "ann", Role: players.RolePlayer}, dv.Code); !errors.Is(err, schools.ErrAlreadyMember) {
		t.Errorf("joining twice: %v", err)
	}
	if ok, err := r.svc.Teaches(bg, r.tea, "ann"); err != nil || !ok {
		t.Errorf("does not teach ann after her join: %v %v", ok, err)
	}
	if _, err := r.svc.Place(bg, r.tea, d.ID, "ann", place); err != nil {
		t.Errorf("placing ann after her join: %v", err)
	}
}

// TestFollowedCannotConsentToAnEndedClass: joining with the code of a
// class that has ended is refused also for a player added by username,
// who stays followed.
func TestFollowedCannotConsentToAnEndedClass(t *testing.T) {
	r := newRig(t)
	r.player("ann")
	ends := r.clock.Now().In(time.FixedZone("CST", 8*3600)).Format(schools.DateLayout)
	c, err := r.svc.CreateClass(bg, r.tea, "sch", schools.ClassDraft{Name: "one day", EndsOn: ends})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.AddStudents(bg, r.tea, c.ID, []string{"ann"}); err != nil {
		t.Fatal(err)
	}
	r.advance(24 * time.Hour)
	if _, _, err := r.svc.Join(bg, players.Principal{Username: "ann", Role: players.RolePlayer}, c.Code); !errors.Is(err, schools.ErrClassClosed) {
		t.Errorf("consenting to an ended class: %v", err)
	}
	if ok, err := r.svc.Teaches(bg, r.tea, "ann"); err != nil || ok {
		t.Errorf("teaches ann after a refused join: %v %v", ok, err)
	}
}

// TestManagedChildOfAnotherClassIsNotTheirs: a teacher who adds the
// school's managed child to their own class by username may not reset
// the child's password (and so act as the child) nor place them; the
// teacher of the child's class may reset it. A join of the added class
// keeps the membership's managed mark.
func TestManagedChildOfAnotherClassIsNotTheirs(t *testing.T) {
	r := newRig(t)
	c := r.class("mine", 10)
	_, kids, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"小明"}, "")
	if err != nil {
		t.Fatal(err)
	}
	kid := kids[0].Username
	other, theirs := r.sameSchoolTeacher(t)
	if _, err := r.svc.AddStudents(bg, other, theirs.ID, []string{kid}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.ResetPassword(bg, other, theirs.ID, kid); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("another teacher resets the managed child's password: %v", err)
	}
	if _, err := r.svc.Place(bg, other, theirs.ID, kid, schools.Placement{Rank: "20k", Reason: "x"}); !errors.Is(err, schools.ErrDenied) {
		t.Errorf("another teacher places the managed child: %v", err)
	}
	if _, err := r.svc.ResetPassword(bg, r.tea, c.ID, kid); err != nil {
		t.Errorf("the child's own teacher resets the password: %v", err)
	}
	tv, err := r.svc.Class(bg, other, theirs.ID)
	if err != nil {
		t.Fatal(err)
	}
	got, m, err := r.svc.Join(bg, players.Principal{Username: kid, Role: players.RolePlayer}, tv.Code)
	if mm, _ := got.Member(kid); err != nil || m.Via != schools.ViaCode || !mm.Managed {
		t.Errorf("the child joins the class it was added to: %+v %v", mm, err)
	}
}

// sameSchoolTeacher makes "tea2", a plain teacher of school "sch", with a
// class of their own.
func (r *rig) sameSchoolTeacher(t *testing.T) (players.Principal, schools.Class) {
	t.Helper()
	other := r.teacher("tea2")
	if _, err := r.svc.AddTeacher(bg, r.head, "sch", schools.TeacherDraft{Username: "tea2"}); err != nil {
		t.Fatal(err)
	}
	theirs, err := r.svc.CreateClass(bg, other, "sch", schools.ClassDraft{Name: "theirs"})
	if err != nil {
		t.Fatal(err)
	}
	return other, theirs
}
