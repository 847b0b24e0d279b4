package schools_test

import (
	"testing"

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
