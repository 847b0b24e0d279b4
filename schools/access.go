package schools

import "github.com/weiqi-platform/rank/players"

// Access is what a caller may do with a school or a class: the one place
// "only one's own" is decided (platform.md: a teacher sees only their own
// classes). Each level includes the ones below it.
type Access int

// The levels.
const (
	// AccessNone: nothing (another school's teacher, a student of
	// another class).
	AccessNone Access = iota
	// AccessMember: a student of the class: the class, its teachers and
	// classmates' public ranks; their own progress.
	AccessMember
	// AccessTeacher: a teacher of the class (of its school still): the
	// table, progress, placements, students, codes. At a school: one of
	// its teachers, who sees the school and makes classes.
	AccessTeacher
	// AccessHead: a head teacher of the school: every class of it, and
	// the school's teachers.
	AccessHead
	// AccessAdmin: an admin: everything, and schools themselves.
	AccessAdmin
)

var accessNames = [...]string{"none", "member", "teacher", "head", "admin"}

func (a Access) String() string {
	if a < 0 || int(a) >= len(accessNames) {
		return "access?"
	}
	return accessNames[a]
}

// SchoolAccess decides what the caller may do with the school.
func SchoolAccess(p players.Principal, s School) Access {
	if p.Is(players.RoleAdmin) {
		return AccessAdmin
	}
	if p.Is(players.RoleTeacher) {
		if t, ok := s.Teacher(p.Username); ok {
			if t.Head {
				return AccessHead
			}
			return AccessTeacher
		}
	}
	return AccessNone
}

// ClassAccess decides what the caller may do with the class of school s.
// A teacher of the class must still be a teacher of the school: one
// removed from the school loses its classes.
func ClassAccess(p players.Principal, s School, c Class) Access {
	switch a := SchoolAccess(p, s); a {
	case AccessAdmin, AccessHead:
		return a
	case AccessTeacher:
		if c.Teaches(p.Username) {
			return AccessTeacher
		}
	}
	if _, ok := c.Member(p.Username); ok {
		return AccessMember
	}
	return AccessNone
}

// need refuses unless have reaches want, saying who may.
func need(have, want Access, what string) error {
	if have >= want {
		return nil
	}
	who := map[Access]string{
		AccessMember:  "a student or teacher of this class",
		AccessTeacher: "a teacher of this " + what,
		AccessHead:    "a head teacher of this school",
		AccessAdmin:   "an admin",
	}[want]
	return &DeniedError{Need: who}
}
