package schools

import (
	"slices"
	"time"

	"github.com/weiqi-platform/rank/ranks"
)

// School is one version of a school: what it is called, the time zone
// its days and weeks are counted in, the scale its ranks are shown in,
// and its teachers. Versions are never changed: each change is a new
// version (Version + 1) saying what changed, who changed it and when
// (Change), so the versions are the school's audit trail.
type School struct {
	ID       string
	Name     string
	TimeZone string      // IANA name, e.g. Asia/Shanghai
	Scale    ranks.Scale // how the school shows ranks; the ladder rank is always given too
	Teachers []Teacher   // by username
	Archived bool        // read only; nothing of its players or their ledgers is touched
	Created  time.Time
	Version  int64
	Change   Change
}

// Teacher is a teacher of a school. Head teachers may add and remove the
// school's teachers and see every class of the school.
type Teacher struct {
	Username string
	Head     bool
	Since    time.Time
	By       string // who named them
}

// Teacher returns the school's teacher with the username.
func (s School) Teacher(username string) (Teacher, bool) {
	i := slices.IndexFunc(s.Teachers, func(t Teacher) bool { return t.Username == username })
	if i < 0 {
		return Teacher{}, false
	}
	return s.Teachers[i], true
}

// Heads counts the head teachers.
func (s School) Heads() int {
	n := 0
	for _, t := range s.Teachers {
		if t.Head {
			n++
		}
	}
	return n
}

// Class is one version of a class of a school: its name, optional
// capacity and end date, its teachers (the first made it; the others are
// co-teachers), its students, its current invite code, and whether it is
// archived. Like a school, each change is a new version with its Change.
type Class struct {
	ID          string
	SchoolID    string
	Name        string
	Capacity    int    // 0: no limit
	EndsOn      string // the last day (YYYY-MM-DD, in the school's time zone); "": none
	Teachers    []string
	Students    []Member // by username
	Code        string   // the invite code that joins the class now
	CodeExpires time.Time
	Archived    bool
	Created     time.Time
	Version     int64
	Change      Change
}

// Member is a student of a class.
type Member struct {
	Username string
	Name     string // the child's name as the teacher gave it (managed accounts); "" otherwise
	Since    time.Time
	Via      string // how they came: ViaCode, ViaTeacher, ViaManaged, ViaMoved
	By       string // who added them (themselves for a code)
	Managed  bool   // an account the school manages
}

// Consented reports whether the player agreed to be taught: they joined
// with the class's code, were made in the class as a managed account, or
// were moved after either. A player a teacher added by username (a
// managed child of the school too) is only followed (the class's tables
// show them) until they join with the code: the teacher may not place
// them, reset their password or register them for exams (Place,
// ResetPassword, Teaches), since any teacher may add any player.
func (m Member) Consented() bool { return m.Via != ViaTeacher }

// How a student came into a class.
const (
	ViaCode    = "code"
	ViaTeacher = "teacher"
	ViaManaged = "managed"
	ViaMoved   = "moved"
)

// Member returns the class's student with the username.
func (c Class) Member(username string) (Member, bool) {
	i := slices.IndexFunc(c.Students, func(m Member) bool { return m.Username == username })
	if i < 0 {
		return Member{}, false
	}
	return c.Students[i], true
}

// Teaches reports whether the username is one of the class's teachers.
func (c Class) Teaches(username string) bool { return slices.Contains(c.Teachers, username) }

// Usernames lists the students' usernames.
func (c Class) Usernames() []string {
	out := make([]string, len(c.Students))
	for i, m := range c.Students {
		out[i] = m.Username
	}
	return out
}

// clone is c with slices of its own, to be changed into the next version.
func (c Class) clone() Class {
	c.Teachers = slices.Clone(c.Teachers)
	c.Students = slices.Clone(c.Students)
	return c
}

func (s School) clone() School {
	s.Teachers = slices.Clone(s.Teachers)
	return s
}

// Change says what made a version: what was done (one of the What
// constants), to whom (Subject: a username, a class id), by whom, when
// and why. Op is a random id of the write, so a retry of a write finds
// its own version.
type Change struct {
	What    string
	Subject string
	By      string
	At      time.Time
	Reason  string
	Op      string
}

// What changed.
const (
	WhatCreated        = "created"
	WhatUpdated        = "updated"
	WhatArchived       = "archived"
	WhatTeacherAdded   = "teacher_added"
	WhatTeacherRemoved = "teacher_removed"
	WhatCodeRotated    = "code_rotated"
	WhatJoined         = "joined"
	WhatLeft           = "left"
	WhatAdded          = "added"
	WhatRemoved        = "removed"
	WhatMovedIn        = "moved_in"
	WhatMovedOut       = "moved_out"
	// WhatConsentCorrected: a student a move had marked consented is only
	// followed again (RepairMovedConsent).
	WhatConsentCorrected = "consent_corrected"
)

// Code is an invite code: it names its class and may expire. A class has
// one current code (Class.Code); a code no longer current (rotated) or
// past its expiry joins nobody.
type Code struct {
	Code    string
	ClassID string
	Created time.Time
	Expires time.Time // zero: never
}

// ManagedKey records a request for managed accounts made with an
// Idempotency-Key, stored before any account is made (the first insert
// wins), so that its retry makes the same accounts and no others, also
// after a crash halfway. A key used again after Expires starts a new
// record, Seq one more, under the same ID.
type ManagedKey struct {
	ID        string // of the class, the teacher and the key (managedKeyID)
	Seq       int64
	ClassID   string
	By        string   // the teacher
	Names     string   // hash of the children's names, in order
	Usernames []string // chosen by the server, one per name
	Created   time.Time
	Expires   time.Time
}
