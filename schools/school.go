package schools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
)

// DefaultTimeZone is a school's time zone when none is given (decided:
// the platform's schools are in China).
const DefaultTimeZone = "Asia/Shanghai"

// SchoolDraft is a new school as an admin asks for it.
type SchoolDraft struct {
	ID           string // "" for a fresh one (an Idempotency-Key may give it)
	Name         string
	TimeZone     string   // "" is DefaultTimeZone
	Scale        string   // "" is ranks.DefaultScale
	HeadTeachers []string // existing teacher accounts; at least one
}

// checkZone reads an IANA time zone name.
func checkZone(tz string) (string, error) {
	if tz == "" {
		return DefaultTimeZone, nil
	}
	if _, err := time.LoadLocation(tz); err != nil || tz == "Local" {
		return "", &FieldError{"time_zone", fmt.Sprintf("%q is not an IANA time zone such as Asia/Shanghai", tz)}
	}
	return tz, nil
}

func checkScale(sc string) (ranks.Scale, error) {
	s, err := ranks.ParseScale(sc)
	if err != nil {
		return "", &FieldError{"scale", fmt.Sprintf("%q is not one of %v", sc, ranks.Scales)}
	}
	return s, nil
}

// validID: ids given by a caller are what an Idempotency-Key allows.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	return !strings.ContainsFunc(id, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
	})
}

// teachersOf checks a list of usernames that must be teacher accounts,
// refusing the whole list with each bad entry named.
func (s *Service) teachersOf(ctx context.Context, field string, names []string) ([]string, error) {
	if err := checkTeacherCount(field, names); err != nil {
		return nil, err
	}
	var bad []EntryError
	var out []string
	seen := map[string]int{}
	for i, n := range names {
		name, err := players.NormalizeUsername(n)
		if err != nil {
			bad = append(bad, EntryError{i, n, "not a username: " + err.(*players.FieldError).Reason})
			continue
		}
		if j, dup := seen[name]; dup {
			bad = append(bad, EntryError{i, n, fmt.Sprintf("the same as entry %d", j)})
			continue
		}
		seen[name] = i
		a, err := s.accounts.Account(ctx, name)
		switch {
		case errors.Is(err, players.ErrNotFound):
			bad = append(bad, EntryError{i, n, "no such account"})
			continue
		case err != nil:
			return nil, err
		case a.Role != players.RoleTeacher:
			bad = append(bad, EntryError{i, n, fmt.Sprintf("a %s account, not a teacher's", a.Role)})
			continue
		}
		out = append(out, name)
	}
	if len(bad) > 0 {
		return nil, &ListError{Field: field, Entries: bad}
	}
	return out, nil
}

func sortTeachers(ts []Teacher) {
	slices.SortFunc(ts, func(a, b Teacher) int { return strings.Compare(a.Username, b.Username) })
}

// CreateSchool makes a school; only an admin may. A draft with the ID of
// an existing school answers that school when it is the same (a retry),
// ErrExists otherwise.
func (s *Service) CreateSchool(ctx context.Context, by players.Principal, d SchoolDraft) (School, error) {
	if !by.Is(players.RoleAdmin) {
		return School{}, &DeniedError{Need: "an admin"}
	}
	name, err := cleanName("name", d.Name)
	if err != nil {
		return School{}, err
	}
	tz, err := checkZone(d.TimeZone)
	if err != nil {
		return School{}, err
	}
	scale, err := checkScale(d.Scale)
	if err != nil {
		return School{}, err
	}
	if len(d.HeadTeachers) == 0 {
		return School{}, &FieldError{"head_teachers", "a school needs at least one head teacher"}
	}
	heads, err := s.teachersOf(ctx, "head_teachers", d.HeadTeachers)
	if err != nil {
		return School{}, err
	}
	id := d.ID
	switch {
	case id == "":
		id = newID(10)
	case !validID(id):
		return School{}, &FieldError{"id", "must be 1 to 64 of A-Z a-z 0-9 . _ -"}
	}
	now := s.now()
	sch := School{ID: id, Name: name, TimeZone: tz, Scale: scale, Created: now,
		Change: Change{What: WhatCreated, By: by.Username, At: now, Op: newID(12)}}
	for _, h := range heads {
		sch.Teachers = append(sch.Teachers, Teacher{Username: h, Head: true, Since: now, By: by.Username})
	}
	sortTeachers(sch.Teachers)
	err = s.store.PutSchool(ctx, sch)
	if errors.Is(err, ErrExists) && d.ID != "" {
		if old, gerr := s.store.School(ctx, id); gerr == nil && old.Name == sch.Name && old.TimeZone == tz && old.Scale == scale {
			return old, nil
		}
		return School{}, fmt.Errorf("%w: school %s", ErrExists, id)
	}
	if err != nil {
		return School{}, err
	}
	return sch, nil
}

// School returns a school to an admin or one of its teachers, with the
// caller's access.
func (s *Service) School(ctx context.Context, by players.Principal, id string) (School, Access, error) {
	sch, err := s.store.School(ctx, id)
	if err != nil {
		return School{}, AccessNone, err
	}
	a := SchoolAccess(by, sch)
	if err := need(a, AccessTeacher, "school"); err != nil {
		return School{}, a, err
	}
	return sch, a, nil
}

// Schools lists the schools the caller sees: every one for an admin,
// a teacher's own for a teacher.
func (s *Service) Schools(ctx context.Context, by players.Principal) ([]School, error) {
	switch {
	case by.Is(players.RoleAdmin):
		return s.store.Schools(ctx, SchoolQuery{})
	case by.Is(players.RoleTeacher):
		return s.store.Schools(ctx, SchoolQuery{Teacher: by.Username})
	}
	return nil, &DeniedError{Need: "an admin or a teacher"}
}

// SchoolPatch changes a school's settings; nil fields stay.
type SchoolPatch struct {
	Name     *string
	TimeZone *string
	Scale    *string
}

// UpdateSchool changes a school's name, time zone or scale: an admin or a
// head teacher may.
func (s *Service) UpdateSchool(ctx context.Context, by players.Principal, id string, p SchoolPatch) (School, error) {
	sch, a, err := s.School(ctx, by, id)
	if err != nil {
		return School{}, err
	}
	if err := need(a, AccessHead, "school"); err != nil {
		return School{}, err
	}
	var name, tz string
	var scale ranks.Scale
	if p.Name != nil {
		if name, err = cleanName("name", *p.Name); err != nil {
			return School{}, err
		}
	}
	if p.TimeZone != nil {
		if tz, err = checkZone(*p.TimeZone); err != nil {
			return School{}, err
		}
	}
	if p.Scale != nil {
		if scale, err = checkScale(*p.Scale); err != nil {
			return School{}, err
		}
	}
	if p.Name == nil && p.TimeZone == nil && p.Scale == nil {
		return sch, nil
	}
	return s.changeSchool(ctx, id, Change{What: WhatUpdated, By: by.Username}, func(x *School) error {
		if p.Name != nil {
			x.Name = name
		}
		if p.TimeZone != nil {
			x.TimeZone = tz
		}
		if p.Scale != nil {
			x.Scale = scale
		}
		return nil
	})
}

// ArchiveSchool archives a school: an admin may. Its classes stay
// readable and take no more changes; no account, state or ledger entry
// of its players is touched (archiving deletes nothing).
func (s *Service) ArchiveSchool(ctx context.Context, by players.Principal, id, reason string) (School, error) {
	if !by.Is(players.RoleAdmin) {
		return School{}, &DeniedError{Need: "an admin"}
	}
	reason, err := cleanReason(reason)
	if err != nil {
		return School{}, err
	}
	return s.changeSchool(ctx, id, Change{What: WhatArchived, By: by.Username, Reason: reason}, func(x *School) error {
		x.Archived = true
		return nil
	})
}

// TeacherDraft names a teacher of a school. With a password (an admin
// only), a teacher account is created first.
type TeacherDraft struct {
	Username string
	Head     bool
	Password string
}

// AddTeacher names a teacher of the school, or changes whether they are
// a head teacher: an admin or a head teacher may. Naming a teacher the
// school has, as it has them, changes nothing.
func (s *Service) AddTeacher(ctx context.Context, by players.Principal, schoolID string, d TeacherDraft) (School, error) {
	sch, a, err := s.School(ctx, by, schoolID)
	if err != nil {
		return School{}, err
	}
	if err := need(a, AccessHead, "school"); err != nil {
		return School{}, err
	}
	if err := writable(sch); err != nil {
		return School{}, err
	}
	if d.Password != "" {
		if !by.Is(players.RoleAdmin) {
			return School{}, &DeniedError{Need: "an admin (to create an account)"}
		}
		if _, err := s.accounts.CreateAccount(ctx, by, d.Username, d.Password, players.RoleTeacher); err != nil && !errors.Is(err, players.ErrUsernameTaken) {
			return School{}, err
		}
	}
	names, err := s.teachersOf(ctx, "username", []string{d.Username})
	if err != nil {
		var le *ListError
		if errors.As(err, &le) {
			return School{}, &FieldError{"username", le.Entries[0].Reason}
		}
		return School{}, err
	}
	name := names[0]
	if t, ok := sch.Teacher(name); ok && t.Head == d.Head {
		return sch, nil
	}
	return s.changeSchool(ctx, schoolID, Change{What: WhatTeacherAdded, Subject: name, By: by.Username}, func(x *School) error {
		i := slices.IndexFunc(x.Teachers, func(t Teacher) bool { return t.Username == name })
		if i >= 0 {
			if x.Teachers[i].Head && !d.Head && x.Heads() == 1 {
				return fmt.Errorf("%w: %s", ErrLastHead, name)
			}
			x.Teachers[i].Head = d.Head
			return nil
		}
		x.Teachers = append(x.Teachers, Teacher{Username: name, Head: d.Head, Since: s.now(), By: by.Username})
		sortTeachers(x.Teachers)
		return nil
	})
}

// RemoveTeacher takes a teacher off the school (they lose its classes at
// once): an admin or a head teacher may, but not the last head teacher.
func (s *Service) RemoveTeacher(ctx context.Context, by players.Principal, schoolID, username, reason string) (School, error) {
	sch, a, err := s.School(ctx, by, schoolID)
	if err != nil {
		return School{}, err
	}
	if err := need(a, AccessHead, "school"); err != nil {
		return School{}, err
	}
	if err := writable(sch); err != nil {
		return School{}, err
	}
	if reason, err = cleanReason(reason); err != nil {
		return School{}, err
	}
	name := strings.ToLower(username)
	if _, ok := sch.Teacher(name); !ok {
		return School{}, fmt.Errorf("%w: %s is not a teacher of the school", ErrNotFound, username)
	}
	return s.changeSchool(ctx, schoolID, Change{What: WhatTeacherRemoved, Subject: name, By: by.Username, Reason: reason}, func(x *School) error {
		i := slices.IndexFunc(x.Teachers, func(t Teacher) bool { return t.Username == name })
		if i < 0 {
			return fmt.Errorf("%w: %s is not a teacher of the school", ErrNotFound, name)
		}
		if x.Teachers[i].Head && x.Heads() == 1 {
			return fmt.Errorf("%w: %s", ErrLastHead, name)
		}
		x.Teachers = slices.Delete(x.Teachers, i, i+1)
		return nil
	})
}

// SchoolHistory returns every version of the school, oldest first (what
// changed, who, when, why): an admin or a head teacher may read it.
func (s *Service) SchoolHistory(ctx context.Context, by players.Principal, id string) ([]School, error) {
	_, a, err := s.School(ctx, by, id)
	if err != nil {
		return nil, err
	}
	if err := need(a, AccessHead, "school"); err != nil {
		return nil, err
	}
	return s.store.SchoolVersions(ctx, id)
}
