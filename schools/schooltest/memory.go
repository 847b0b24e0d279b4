package schooltest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/schools"
)

// Memory is a schools.Store in memory that answers as schooldb does: the
// same sentinels, times in UTC to the millisecond, empty lists as nil,
// copies in and out. It is safe for concurrent use.
type Memory struct {
	// Fail, when set, is asked at the start of every method with the
	// method's name; an error it returns is the method's answer and
	// nothing is done.
	Fail func(method string) error

	mu      sync.Mutex
	schools map[string][]schools.School
	classes map[string][]schools.Class
	codes   map[string]schools.Code
	keys    map[string][]schools.ManagedKey
	repairs map[string]time.Time
}

var _ schools.Store = (*Memory)(nil)

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	return &Memory{schools: map[string][]schools.School{}, classes: map[string][]schools.Class{}, codes: map[string]schools.Code{}, keys: map[string][]schools.ManagedKey{}, repairs: map[string]time.Time{}}
}

func (m *Memory) enter(ctx context.Context, method string) error {
	if m.Fail != nil {
		if err := m.Fail(method); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return outage.Wrap("memory", "schooltest: "+method, err)
		}
		return fmt.Errorf("schooltest: %s: %w", method, err)
	}
	return nil
}

func stored(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC().Truncate(time.Millisecond)
}

// StoredSchool is s as a store gives it back.
func StoredSchool(s schools.School) schools.School {
	s.Created = stored(s.Created)
	s.Change.At = stored(s.Change.At)
	if len(s.Teachers) == 0 {
		s.Teachers = nil
	} else {
		s.Teachers = slices.Clone(s.Teachers)
		for i := range s.Teachers {
			s.Teachers[i].Since = stored(s.Teachers[i].Since)
		}
	}
	return s
}

// StoredClass is c as a store gives it back.
func StoredClass(c schools.Class) schools.Class {
	c.Created, c.CodeExpires, c.Change.At = stored(c.Created), stored(c.CodeExpires), stored(c.Change.At)
	if len(c.Teachers) == 0 {
		c.Teachers = nil
	} else {
		c.Teachers = slices.Clone(c.Teachers)
	}
	if len(c.Students) == 0 {
		c.Students = nil
	} else {
		c.Students = slices.Clone(c.Students)
		for i := range c.Students {
			c.Students[i].Since = stored(c.Students[i].Since)
		}
	}
	return c
}

// putVersion is the chain rule both kinds follow.
func putVersion[T any](chain []T, v int64, op string, opOf func(T) string, x T, what string) ([]T, error) {
	switch {
	case v < int64(len(chain)):
		if opOf(chain[v]) == op {
			return chain, nil // the same write again
		}
		if v == 0 {
			return chain, fmt.Errorf("%w: %s", schools.ErrExists, what)
		}
		return chain, fmt.Errorf("%w: %s version %d", schools.ErrVersionTaken, what, v)
	case v > int64(len(chain)):
		return chain, fmt.Errorf("schooltest: %s version %d follows no version %d", what, v, v-1)
	}
	return append(chain, x), nil
}

// PutSchool implements schools.Store.
func (m *Memory) PutSchool(ctx context.Context, s schools.School) error {
	if err := m.enter(ctx, "PutSchool"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	chain, err := putVersion(m.schools[s.ID], s.Version, s.Change.Op, func(x schools.School) string { return x.Change.Op }, StoredSchool(s), "school "+s.ID)
	m.schools[s.ID] = chain
	return err
}

// School implements schools.Store.
func (m *Memory) School(ctx context.Context, id string) (schools.School, error) {
	if err := m.enter(ctx, "School"); err != nil {
		return schools.School{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	chain := m.schools[id]
	if len(chain) == 0 {
		return schools.School{}, fmt.Errorf("school %s: %w", id, schools.ErrNotFound)
	}
	return StoredSchool(chain[len(chain)-1]), nil
}

// SchoolVersions implements schools.Store.
func (m *Memory) SchoolVersions(ctx context.Context, id string) ([]schools.School, error) {
	if err := m.enter(ctx, "SchoolVersions"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	chain := m.schools[id]
	if len(chain) == 0 {
		return nil, fmt.Errorf("school %s: %w", id, schools.ErrNotFound)
	}
	out := make([]schools.School, len(chain))
	for i, s := range chain {
		out[i] = StoredSchool(s)
	}
	return out, nil
}

// Schools implements schools.Store.
func (m *Memory) Schools(ctx context.Context, q schools.SchoolQuery) ([]schools.School, error) {
	if err := m.enter(ctx, "Schools"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []schools.School
	for _, chain := range m.schools {
		if s := chain[len(chain)-1]; q.Matches(s) {
			out = append(out, StoredSchool(s))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// PutClass implements schools.Store.
func (m *Memory) PutClass(ctx context.Context, c schools.Class) error {
	if err := m.enter(ctx, "PutClass"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	chain, err := putVersion(m.classes[c.ID], c.Version, c.Change.Op, func(x schools.Class) string { return x.Change.Op }, StoredClass(c), "class "+c.ID)
	m.classes[c.ID] = chain
	return err
}

// Class implements schools.Store.
func (m *Memory) Class(ctx context.Context, id string) (schools.Class, error) {
	if err := m.enter(ctx, "Class"); err != nil {
		return schools.Class{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	chain := m.classes[id]
	if len(chain) == 0 {
		return schools.Class{}, fmt.Errorf("class %s: %w", id, schools.ErrNotFound)
	}
	return StoredClass(chain[len(chain)-1]), nil
}

// ClassVersions implements schools.Store.
func (m *Memory) ClassVersions(ctx context.Context, id string) ([]schools.Class, error) {
	if err := m.enter(ctx, "ClassVersions"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	chain := m.classes[id]
	if len(chain) == 0 {
		return nil, fmt.Errorf("class %s: %w", id, schools.ErrNotFound)
	}
	out := make([]schools.Class, len(chain))
	for i, c := range chain {
		out[i] = StoredClass(c)
	}
	return out, nil
}

// Classes implements schools.Store.
func (m *Memory) Classes(ctx context.Context, q schools.ClassQuery) ([]schools.Class, error) {
	if err := m.enter(ctx, "Classes"); err != nil {
		return nil, err
	}
	if q == (schools.ClassQuery{}) {
		return nil, errors.New("schooltest: a class query needs a school, a teacher or a student")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []schools.Class
	for _, chain := range m.classes {
		if c := chain[len(chain)-1]; q.Matches(c) {
			out = append(out, StoredClass(c))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// CreateCode implements schools.Store.
func (m *Memory) CreateCode(ctx context.Context, c schools.Code) error {
	if err := m.enter(ctx, "CreateCode"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.codes[c.Code]; ok {
		return fmt.Errorf("%w: code %s", schools.ErrExists, c.Code)
	}
	c.Created, c.Expires = stored(c.Created), stored(c.Expires)
	m.codes[c.Code] = c
	return nil
}

// Code implements schools.Store.
func (m *Memory) Code(ctx context.Context, code string) (schools.Code, error) {
	if err := m.enter(ctx, "Code"); err != nil {
		return schools.Code{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.codes[code]
	if !ok {
		return schools.Code{}, fmt.Errorf("code %s: %w", code, schools.ErrNotFound)
	}
	return c, nil
}

// StoredManagedKey is r as a store gives it back.
func StoredManagedKey(r schools.ManagedKey) schools.ManagedKey {
	r.Created, r.Expires = stored(r.Created), stored(r.Expires)
	if len(r.Usernames) == 0 {
		r.Usernames = nil
	} else {
		r.Usernames = slices.Clone(r.Usernames)
	}
	return r
}

// CreateManagedKey implements schools.Store.
func (m *Memory) CreateManagedKey(ctx context.Context, r schools.ManagedKey) error {
	if err := m.enter(ctx, "CreateManagedKey"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	chain := m.keys[r.ID]
	switch {
	case r.Seq < int64(len(chain)):
		return fmt.Errorf("%w: managed key %s#%d", schools.ErrExists, r.ID, r.Seq)
	case r.Seq > int64(len(chain)):
		return fmt.Errorf("schooltest: managed key %s#%d follows no #%d", r.ID, r.Seq, r.Seq-1)
	}
	m.keys[r.ID] = append(chain, StoredManagedKey(r))
	return nil
}

// ManagedKey implements schools.Store.
func (m *Memory) ManagedKey(ctx context.Context, id string) (schools.ManagedKey, error) {
	if err := m.enter(ctx, "ManagedKey"); err != nil {
		return schools.ManagedKey{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	chain := m.keys[id]
	if len(chain) == 0 {
		return schools.ManagedKey{}, fmt.Errorf("managed key %s: %w", id, schools.ErrNotFound)
	}
	return StoredManagedKey(chain[len(chain)-1]), nil
}

// MarkRepaired implements schools.Store.
func (m *Memory) MarkRepaired(ctx context.Context, name string, at time.Time) error {
	if err := m.enter(ctx, "MarkRepaired"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.repairs[name]; !ok {
		m.repairs[name] = stored(at)
	}
	return nil
}

// Repaired implements schools.Store.
func (m *Memory) Repaired(ctx context.Context, name string) (bool, error) {
	if err := m.enter(ctx, "Repaired"); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.repairs[name]
	return ok, nil
}
