package schools

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// MaxCodeLife bounds how long an invite code may be made to last
// (decided: a school year; a code without an expiry lasts until rotated).
const MaxCodeLife = 366 * 24 * time.Hour

// ClassDraft is a new class. Teachers are the co-teachers (teachers of
// the school); a teacher who makes a class teaches it, and an admin
// making one names at least one teacher.
type ClassDraft struct {
	Name        string
	Capacity    int    // 0: no limit
	EndsOn      string // YYYY-MM-DD or ""
	CoTeachers  []string
	CodeExpires time.Time // zero: the code lasts until rotated
	// Key is the client's Idempotency-Key ("" for none): the same caller
	// creating with the same key in the same school makes one class.
	Key string
}

// checkCapacity checks a capacity for a class of n students.
func checkCapacity(c, n int) error {
	switch {
	case c < 0 || c > CapacityMax:
		return &FieldError{"capacity", fmt.Sprintf("must be 0 (no limit) to %d, got %d", CapacityMax, c)}
	case c > 0 && c < n:
		return &FieldError{"capacity", fmt.Sprintf("%d is below the %d students the class has", c, n)}
	}
	return nil
}

// checkEnds checks an end date: a day from today, at most MaxSpanYears on.
func (s *Service) checkEnds(sch School, ends string) (string, error) {
	if ends == "" {
		return "", nil
	}
	loc := location(sch)
	d, err := ParseDate("ends_on", ends, loc)
	if err != nil {
		return "", err
	}
	today := rating.Midnight(s.clock.Now(), loc)
	if _, err := checkRange("today", "ends_on", Range{From: today, To: d}); err != nil {
		return "", err
	}
	return d.Format(DateLayout), nil
}

// checkCodeExpiry checks when a new code is to expire.
func (s *Service) checkCodeExpiry(at time.Time) (time.Time, error) {
	if at.IsZero() {
		return time.Time{}, nil
	}
	now := s.clock.Now()
	if !at.After(now) || at.After(now.Add(MaxCodeLife)) {
		return time.Time{}, &FieldError{"expires_at", fmt.Sprintf("must be after now and within %d days", int(MaxCodeLife.Hours()/24))}
	}
	return at.UTC().Truncate(time.Millisecond), nil
}

// newCode stores a fresh invite code for the class.
func (s *Service) newCode(ctx context.Context, classID string, expires time.Time) (Code, error) {
	for range codeTries {
		c := Code{Code: NewCode(), ClassID: classID, Created: s.now(), Expires: expires}
		err := s.store.CreateCode(ctx, c)
		if errors.Is(err, ErrExists) {
			continue
		}
		return c, err
	}
	return Code{}, fmt.Errorf("%w: no free invite code after %d tries", ErrBusy, codeTries)
}

// CreateClass makes a class in the school with a fresh invite code: a
// teacher of the school (who then teaches it), a head teacher or an
// admin may.
func (s *Service) CreateClass(ctx context.Context, by players.Principal, schoolID string, d ClassDraft) (Class, error) {
	sch, _, err := s.School(ctx, by, schoolID)
	if err != nil {
		return Class{}, err
	}
	if err := writable(sch); err != nil {
		return Class{}, err
	}
	name, err := cleanName("name", d.Name)
	if err != nil {
		return Class{}, err
	}
	if err := checkCapacity(d.Capacity, 0); err != nil {
		return Class{}, err
	}
	ends, err := s.checkEnds(sch, d.EndsOn)
	if err != nil {
		return Class{}, err
	}
	expires, err := s.checkCodeExpiry(d.CodeExpires)
	if err != nil {
		return Class{}, err
	}
	var teachers []string
	if _, ok := sch.Teacher(by.Username); ok {
		teachers = append(teachers, by.Username)
	}
	co, err := schoolTeachers(sch, "co_teachers", d.CoTeachers)
	if err != nil {
		return Class{}, err
	}
	for _, t := range co {
		if !slices.Contains(teachers, t) {
			teachers = append(teachers, t)
		}
	}
	if len(teachers) == 0 {
		return Class{}, &FieldError{"co_teachers", "name at least one teacher of the school to teach the class"}
	}
	id := newID(10)
	if d.Key != "" {
		// A retry answers the class the first try made; the key naming
		// another class is rating.ErrKeyReused (the API's one 409 for it).
		id = classKeyID(sch.ID, by.Username, d.Key)
		switch old, err := s.store.Class(ctx, id); {
		case err == nil:
			return sameClass(old, name, d.Capacity, ends)
		case !errors.Is(err, ErrNotFound):
			return Class{}, err
		}
	}
	code, err := s.newCode(ctx, id, expires)
	if err != nil {
		return Class{}, err
	}
	now := s.now()
	c := Class{ID: id, SchoolID: sch.ID, Name: name, Capacity: d.Capacity, EndsOn: ends, Teachers: teachers,
		Code: code.Code, CodeExpires: code.Expires, Created: now,
		Change: Change{What: WhatCreated, By: by.Username, At: now, Op: newID(12)}}
	err = s.store.PutClass(ctx, c)
	if errors.Is(err, ErrExists) && d.Key != "" {
		// The same retry ran at once: its class stands (the code made
		// here names a class with another code, so it lets no one in).
		old, gerr := s.store.Class(ctx, id)
		if gerr != nil {
			return Class{}, gerr
		}
		return sameClass(old, name, d.Capacity, ends)
	}
	if err != nil {
		return Class{}, err
	}
	return c, nil
}

// classKeyID is the id of the class a caller creates in a school with an
// Idempotency-Key: the same three give the same id, in the alphabet and
// length of newID.
func classKeyID(schoolID, by, key string) string {
	sum := sha256.Sum256([]byte(schoolID + "\x00" + by + "\x00" + key))
	alphabet := strings.ToLower(CodeAlphabet)
	b := make([]byte, 10)
	for i := range b {
		b[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return string(b)
}

// sameClass answers a retried create: the class made before when it is
// the one asked for again, else the key is reused for another.
func sameClass(old Class, name string, capacity int, ends string) (Class, error) {
	if old.Name != name || old.Capacity != capacity || old.EndsOn != ends {
		return Class{}, fmt.Errorf("%w: class %s was made with this key", rating.ErrKeyReused, old.ID)
	}
	return old, nil
}

// schoolTeachers checks that each username is a teacher of the school.
func schoolTeachers(sch School, field string, names []string) ([]string, error) {
	if err := checkTeacherCount(field, names); err != nil {
		return nil, err
	}
	var bad []EntryError
	var out []string
	for i, n := range names {
		name := strings.ToLower(strings.TrimSpace(n))
		switch {
		case slices.Contains(out, name):
			bad = append(bad, EntryError{i, n, "named twice"})
		default:
			if _, ok := sch.Teacher(name); !ok {
				bad = append(bad, EntryError{i, n, "not a teacher of the school"})
				continue
			}
			out = append(out, name)
		}
	}
	if len(bad) > 0 {
		return nil, &ListError{Field: field, Entries: bad}
	}
	return out, nil
}

// ClassPatch changes a class's settings; nil fields stay. An empty
// EndsOn clears the end date; a Capacity of 0 lifts the limit.
type ClassPatch struct {
	Name     *string
	Capacity *int
	EndsOn   *string
}

// UpdateClass changes a class's name, capacity or end date: a teacher of
// the class may.
func (s *Service) UpdateClass(ctx context.Context, by players.Principal, id string, p ClassPatch) (Class, error) {
	c, sch, _, err := s.classFor(ctx, by, id, AccessTeacher)
	if err != nil {
		return Class{}, err
	}
	if err := writable(sch); err != nil {
		return Class{}, err
	}
	var name, ends string
	if p.Name != nil {
		if name, err = cleanName("name", *p.Name); err != nil {
			return Class{}, err
		}
	}
	if p.EndsOn != nil {
		if ends, err = s.checkEnds(sch, *p.EndsOn); err != nil {
			return Class{}, err
		}
	}
	if p.Capacity != nil {
		if err := checkCapacity(*p.Capacity, 0); err != nil {
			return Class{}, err
		}
	}
	if p.Name == nil && p.Capacity == nil && p.EndsOn == nil {
		return c, nil
	}
	return s.changeClass(ctx, id, Change{What: WhatUpdated, By: by.Username}, func(x *Class) error {
		if p.Capacity != nil {
			if err := checkCapacity(*p.Capacity, len(x.Students)); err != nil {
				return err
			}
			x.Capacity = *p.Capacity
		}
		if p.Name != nil {
			x.Name = name
		}
		if p.EndsOn != nil {
			x.EndsOn = ends
		}
		return nil
	})
}

// ArchiveClass archives a class: a teacher of the class may. Its history
// (versions, students, their ledgers) stays readable; it takes no more
// students or changes, and its code joins nobody.
func (s *Service) ArchiveClass(ctx context.Context, by players.Principal, id, reason string) (Class, error) {
	if _, _, _, err := s.classFor(ctx, by, id, AccessTeacher); err != nil {
		return Class{}, err
	}
	reason, err := cleanReason(reason)
	if err != nil {
		return Class{}, err
	}
	return s.changeClass(ctx, id, Change{What: WhatArchived, By: by.Username, Reason: reason}, func(x *Class) error {
		x.Archived = true
		return nil
	})
}

// AddCoTeacher adds a teacher of the school to the class: a teacher of
// the class may. Adding one it has changes nothing.
func (s *Service) AddCoTeacher(ctx context.Context, by players.Principal, id, username string) (Class, error) {
	c, sch, _, err := s.classFor(ctx, by, id, AccessTeacher)
	if err != nil {
		return Class{}, err
	}
	if err := writable(sch); err != nil {
		return Class{}, err
	}
	names, err := schoolTeachers(sch, "username", []string{username})
	if err != nil {
		return Class{}, &FieldError{"username", err.(*ListError).Entries[0].Reason}
	}
	name := names[0]
	if c.Teaches(name) {
		return c, nil
	}
	return s.changeClass(ctx, id, Change{What: WhatTeacherAdded, Subject: name, By: by.Username}, func(x *Class) error {
		if !x.Teaches(name) {
			x.Teachers = append(x.Teachers, name)
		}
		return nil
	})
}

// RemoveCoTeacher takes a teacher off the class, not the last one: a
// teacher of the class may.
func (s *Service) RemoveCoTeacher(ctx context.Context, by players.Principal, id, username string) (Class, error) {
	_, sch, _, err := s.classFor(ctx, by, id, AccessTeacher)
	if err != nil {
		return Class{}, err
	}
	if err := writable(sch); err != nil {
		return Class{}, err
	}
	name := strings.ToLower(username)
	return s.changeClass(ctx, id, Change{What: WhatTeacherRemoved, Subject: name, By: by.Username}, func(x *Class) error {
		i := slices.Index(x.Teachers, name)
		switch {
		case i < 0:
			return fmt.Errorf("%w: %s does not teach the class", ErrNotFound, username)
		case len(x.Teachers) == 1:
			return fmt.Errorf("%w: %s", ErrLastTeacher, name)
		}
		x.Teachers = slices.Delete(x.Teachers, i, i+1)
		return nil
	})
}

// RotateCode gives the class a fresh invite code (the old one joins
// nobody from now), expiring at expires (zero: never): a teacher of the
// class may.
func (s *Service) RotateCode(ctx context.Context, by players.Principal, id string, expires time.Time) (Class, error) {
	_, sch, _, err := s.classFor(ctx, by, id, AccessTeacher)
	if err != nil {
		return Class{}, err
	}
	if err := writable(sch); err != nil {
		return Class{}, err
	}
	if expires, err = s.checkCodeExpiry(expires); err != nil {
		return Class{}, err
	}
	code, err := s.newCode(ctx, id, expires)
	if err != nil {
		return Class{}, err
	}
	return s.changeClass(ctx, id, Change{What: WhatCodeRotated, By: by.Username}, func(x *Class) error {
		x.Code, x.CodeExpires = code.Code, code.Expires
		return nil
	})
}

// ClassView is a class as its caller may see it: a teacher everything; a
// student the class without its code and the children's names. Both see
// each student's public ranks (Classmates, in the order of Students).
type ClassView struct {
	Class
	School     School
	Access     Access
	Classmates []Classmate
}

// Classmate is a student's public ranks: what any player may read of
// another (the ladder rank, its school scale form, the certified rank).
type Classmate struct {
	Username       string
	Rank, Shown    ranks.Rank
	Certified      ranks.Rank
	ShownCertified ranks.Rank
	Unsettled      bool // the ranks are shown with "?" (Row.Unsettled)
}

// loadWorkers bounds the students read at once for one list.
const loadWorkers = 8

// classmates reads the students' public ranks, loadWorkers at a time.
func (s *Service) classmates(ctx context.Context, sch School, c Class) ([]Classmate, error) {
	out := make([]Classmate, len(c.Students))
	errs := make([]error, len(c.Students))
	sem := make(chan struct{}, loadWorkers)
	var wg sync.WaitGroup
	for i, m := range c.Students {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			st, err := s.ratings.Latest(ctx, m.Username)
			errs[i] = err
			out[i] = Classmate{Username: m.Username, Rank: st.Rank(), Shown: sch.Scale.Show(st.Rank()), Certified: st.Certified, ShownCertified: sch.Scale.Show(st.Certified),
				Unsettled: !st.Settled()}
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// Class returns a class to its teachers, head teachers, admins and
// students; a student's view hides the invite code and the children's
// names.
func (s *Service) Class(ctx context.Context, by players.Principal, id string) (ClassView, error) {
	c, sch, a, err := s.classFor(ctx, by, id, AccessMember)
	if err != nil {
		return ClassView{}, err
	}
	if a == AccessMember {
		c = memberView(c)
	}
	mates, err := s.classmates(ctx, sch, c)
	if err != nil {
		return ClassView{}, err
	}
	return ClassView{Class: c, School: sch, Access: a, Classmates: mates}, nil
}

// memberView is what a student sees of a class.
func memberView(c Class) Class {
	c.Code, c.CodeExpires = "", time.Time{}
	c.Students = slices.Clone(c.Students)
	for i := range c.Students {
		c.Students[i] = Member{Username: c.Students[i].Username, Since: c.Students[i].Since}
	}
	return c
}

// Classes lists the school's classes the caller sees: all of them for a
// head teacher or an admin, their own for a teacher.
func (s *Service) Classes(ctx context.Context, by players.Principal, schoolID string) ([]Class, error) {
	_, a, err := s.School(ctx, by, schoolID)
	if err != nil {
		return nil, err
	}
	q := ClassQuery{School: schoolID}
	if a == AccessTeacher {
		q.Teacher = by.Username
	}
	return s.store.Classes(ctx, q)
}

// MyClasses lists the classes the caller is a student of, and those they
// teach (in schools that still have them as a teacher).
func (s *Service) MyClasses(ctx context.Context, by players.Principal) (student, teaching []ClassView, err error) {
	cs, err := s.store.Classes(ctx, ClassQuery{Student: by.Username})
	if err != nil {
		return nil, nil, err
	}
	for _, c := range cs {
		sch, err := s.store.School(ctx, c.SchoolID)
		if err != nil {
			return nil, nil, err
		}
		student = append(student, ClassView{Class: memberView(c), School: sch, Access: AccessMember})
	}
	if !by.Is(players.RoleTeacher) {
		return student, nil, nil
	}
	cs, err = s.store.Classes(ctx, ClassQuery{Teacher: by.Username})
	if err != nil {
		return nil, nil, err
	}
	for _, c := range cs {
		sch, err := s.store.School(ctx, c.SchoolID)
		if err != nil {
			return nil, nil, err
		}
		if a := ClassAccess(by, sch, c); a >= AccessTeacher {
			teaching = append(teaching, ClassView{Class: c, School: sch, Access: a})
		}
	}
	return student, teaching, nil
}

// ClassHistory returns every version of the class, oldest first: who
// joined, left, was moved, what changed, by whom and when. A teacher of
// the class may read it.
func (s *Service) ClassHistory(ctx context.Context, by players.Principal, id string) ([]Class, error) {
	if _, _, _, err := s.classFor(ctx, by, id, AccessTeacher); err != nil {
		return nil, err
	}
	return s.store.ClassVersions(ctx, id)
}

// ended reports whether the class's end date has passed.
func ended(c Class, sch School, now time.Time) bool {
	if c.EndsOn == "" {
		return false
	}
	d, err := time.ParseInLocation(DateLayout, c.EndsOn, location(sch))
	return err == nil && !now.Before(d.AddDate(0, 0, 1))
}
