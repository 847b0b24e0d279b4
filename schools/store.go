package schools

import (
	"context"
	"time"
)

// Store keeps schools, classes and invite codes. A school or a class is a
// chain of versions: every write stores the next version as a new
// document under a deterministic key (id and version), so the first of
// two concurrent writers wins and the other learns it (ErrVersionTaken)
// and starts again from the latest. Nothing is decided by a filtered
// update, which embedded FerretDB v1 does not apply atomically.
// Implementations map driver errors to the sentinels and connection
// trouble to an outage (internal/outage).
type Store interface {
	// PutSchool stores s as version s.Version of its school. Version 0
	// creates the school (ErrExists when the id is taken); a later
	// version follows the latest (ErrVersionTaken when that version is
	// stored by another change, told by Change.Op; the same write again
	// is no error).
	PutSchool(ctx context.Context, s School) error
	// School returns the school's latest version; ErrNotFound if none.
	School(ctx context.Context, id string) (School, error)
	// SchoolVersions returns every version, oldest first.
	SchoolVersions(ctx context.Context, id string) ([]School, error)
	// Schools returns the latest version of each school (of those naming
	// q.Teacher, when set), by id.
	Schools(ctx context.Context, q SchoolQuery) ([]School, error)

	// PutClass, Class, ClassVersions and Classes are the same for classes.
	PutClass(ctx context.Context, c Class) error
	Class(ctx context.Context, id string) (Class, error)
	ClassVersions(ctx context.Context, id string) ([]Class, error)
	Classes(ctx context.Context, q ClassQuery) ([]Class, error)

	// CreateCode stores an invite code; ErrExists if the code is taken.
	CreateCode(ctx context.Context, c Code) error
	// Code returns the invite code; ErrNotFound if there is none.
	Code(ctx context.Context, code string) (Code, error)

	// CreateManagedKey stores r as record r.Seq of r.ID; ErrExists if
	// that is taken (the first wins). Seq 0 first, then each one more.
	CreateManagedKey(ctx context.Context, r ManagedKey) error
	// ManagedKey returns the latest record of the id (the highest Seq);
	// ErrNotFound if none.
	ManagedKey(ctx context.Context, id string) (ManagedKey, error)

	// MarkRepaired records that the named one-off repair ran to its end;
	// marking it again is no error (the first mark stays).
	MarkRepaired(ctx context.Context, name string, at time.Time) error
	// Repaired reports whether the named repair was marked.
	Repaired(ctx context.Context, name string) (bool, error)
}

// SchoolQuery selects schools: every one, or those with Teacher among
// their teachers.
type SchoolQuery struct {
	Teacher string
}

// ClassQuery selects classes by what their latest version holds: of
// School, taught by Teacher, with Student among the students (each when
// set). At least one must be set.
type ClassQuery struct {
	School  string
	Teacher string
	Student string
}

// Matches reports whether the class is one q selects.
func (q ClassQuery) Matches(c Class) bool {
	if q.School != "" && c.SchoolID != q.School {
		return false
	}
	if q.Teacher != "" && !c.Teaches(q.Teacher) {
		return false
	}
	if q.Student != "" {
		if _, ok := c.Member(q.Student); !ok {
			return false
		}
	}
	return true
}

// Matches reports whether the school is one q selects.
func (q SchoolQuery) Matches(s School) bool {
	if q.Teacher == "" {
		return true
	}
	_, ok := s.Teacher(q.Teacher)
	return ok
}
