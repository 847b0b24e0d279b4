package schools

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// Clock tells the service the time.
type Clock interface{ Now() time.Time }

// Decided limits of the inputs (one place).
const (
	// NameMax bounds a school's, a class's and a child's name, in
	// characters.
	NameMax = 100
	// CapacityMax bounds a class's capacity.
	CapacityMax = 500
	// ListMax bounds a list of usernames added at once.
	ListMax = 200
	// TeachersMax bounds a list of teachers named at once (a school's
	// head teachers, each an account read; a class's co-teachers).
	TeachersMax = 50
	// ReasonMax bounds a reason, in characters.
	ReasonMax = 500
	// changeAttempts bounds how often a change is tried again after
	// another writer stored the version it wanted (each try reads the
	// latest): far more than concurrent joiners of one class meet.
	changeAttempts = 200
	// lockStripes spreads the classes and schools over in-process locks,
	// so that one process's changes of one class queue instead of
	// colliding on versions.
	lockStripes = 64
)

// Service is the schools domain: schools and their teachers, classes and
// their students, invite codes, managed accounts, and what teachers see
// (class tables, progress). It calls the players, rating and exams
// services directly. Every method takes the caller and decides, with
// SchoolAccess and ClassAccess, whether they may.
type Service struct {
	store    Store
	accounts *players.Service
	ratings  *rating.Service
	exams    *exams.Service
	clock    Clock

	locks     [lockStripes]sync.Mutex
	examCache examCache
}

// New returns the service on its store and the services it calls.
func New(store Store, accounts *players.Service, ratings *rating.Service, ex *exams.Service, clock Clock) *Service {
	return &Service{store: store, accounts: accounts, ratings: ratings, exams: ex, clock: clock}
}

// now is the clock in UTC to the millisecond, the precision stores keep.
func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Millisecond) }

func (s *Service) lock(id string) func() {
	h := fnv.New32a()
	h.Write([]byte(id))
	m := &s.locks[h.Sum32()%lockStripes]
	m.Lock()
	return m.Unlock
}

// changeSchool stores the next version of the school made by f from the
// latest; f errs to refuse. Another writer's version in the way makes it
// read the latest and try again.
func (s *Service) changeSchool(ctx context.Context, id string, ch Change, f func(*School) error) (School, error) {
	defer s.lock("school:" + id)()
	ch.Op, ch.At = newID(12), s.now()
	for range changeAttempts {
		cur, err := s.store.School(ctx, id)
		if err != nil {
			return School{}, err
		}
		if cur.Archived {
			return School{}, fmt.Errorf("%w: school %s", ErrArchived, id)
		}
		next := cur.clone()
		if err := f(&next); err != nil {
			return School{}, err
		}
		next.Version, next.Change = cur.Version+1, ch
		err = s.store.PutSchool(ctx, next)
		if errors.Is(err, ErrVersionTaken) {
			continue
		}
		return next, err
	}
	return School{}, fmt.Errorf("%w: school %s", ErrBusy, id)
}

// changeClass is changeSchool for a class. An archived class, or one of
// an archived school, takes no change.
func (s *Service) changeClass(ctx context.Context, id string, ch Change, f func(*Class) error) (Class, error) {
	defer s.lock("class:" + id)()
	ch.Op, ch.At = newID(12), s.now()
	for range changeAttempts {
		cur, err := s.store.Class(ctx, id)
		if err != nil {
			return Class{}, err
		}
		if cur.Archived {
			return Class{}, fmt.Errorf("%w: class %s", ErrArchived, id)
		}
		next := cur.clone()
		if err := f(&next); err != nil {
			return Class{}, err
		}
		next.Version, next.Change = cur.Version+1, ch
		err = s.store.PutClass(ctx, next)
		if errors.Is(err, ErrVersionTaken) {
			continue
		}
		return next, err
	}
	return Class{}, fmt.Errorf("%w: class %s", ErrBusy, id)
}

// classAndSchool reads a class, its school and the caller's access.
func (s *Service) classAndSchool(ctx context.Context, by players.Principal, classID string) (Class, School, Access, error) {
	c, err := s.store.Class(ctx, classID)
	if err != nil {
		return Class{}, School{}, AccessNone, err
	}
	sch, err := s.store.School(ctx, c.SchoolID)
	if err != nil {
		return Class{}, School{}, AccessNone, err
	}
	return c, sch, ClassAccess(by, sch, c), nil
}

// classFor reads a class the caller has at least want on.
func (s *Service) classFor(ctx context.Context, by players.Principal, classID string, want Access) (Class, School, Access, error) {
	c, sch, a, err := s.classAndSchool(ctx, by, classID)
	if err != nil {
		return Class{}, School{}, AccessNone, err
	}
	if err := need(a, want, "class"); err != nil {
		return Class{}, School{}, a, err
	}
	return c, sch, a, nil
}

// writable refuses changes in an archived school.
func writable(sch School) error {
	if sch.Archived {
		return fmt.Errorf("%w: school %s", ErrArchived, sch.ID)
	}
	return nil
}

// cleanName checks a name: trimmed, 1 to NameMax characters, printable.
func cleanName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	switch n := utf8.RuneCountInString(s); {
	case !utf8.ValidString(s):
		return "", &FieldError{field, "must be valid UTF-8"}
	case n == 0:
		return "", &FieldError{field, "is required"}
	case n > NameMax:
		return "", &FieldError{field, fmt.Sprintf("must be at most %d characters, got %d", NameMax, n)}
	case strings.ContainsFunc(s, unicode.IsControl):
		return "", &FieldError{field, "must not hold control characters"}
	// Format characters are invisible: a name of only U+200B shows as
	// nothing, and U+202E turns the text after it around in every table,
	// page and CSV the name appears in.
	case strings.ContainsFunc(s, isFormat):
		r, _ := utf8.DecodeRuneInString(s[strings.IndexFunc(s, isFormat):])
		return "", &FieldError{field, fmt.Sprintf("must not hold invisible or direction characters such as %U", r)}
	}
	return s, nil
}

func isFormat(r rune) bool { return unicode.Is(unicode.Cf, r) }

// cleanReason checks an optional reason.
func cleanReason(s string) (string, error) {
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n > ReasonMax {
		return "", &FieldError{"reason", fmt.Sprintf("must be at most %d characters, got %d", ReasonMax, n)}
	}
	return s, nil
}

// location is a school's time zone (UTC when it cannot be loaded, which
// only a zone database removed after the school was made causes).
func location(sch School) *time.Location {
	loc, err := time.LoadLocation(sch.TimeZone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// checkTeacherCount refuses a list of more than TeachersMax teachers.
func checkTeacherCount(field string, names []string) error {
	if len(names) > TeachersMax {
		return &FieldError{field, fmt.Sprintf("at most %d teachers at once, got %d", TeachersMax, len(names))}
	}
	return nil
}
