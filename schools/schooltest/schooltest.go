package schooltest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/schools"
)

// Run checks that stores made by newStore keep the schools.Store
// contract. Each subtest gets a fresh, empty store.
func Run(t *testing.T, newStore func(t *testing.T) schools.Store) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s schools.Store)
	}{
		{"SchoolChain", schoolChain},
		{"ClassChain", classChain},
		{"ConcurrentPutOneWins", concurrentPut},
		{"Queries", queries},
		{"Codes", codes},
		{"ManagedKeys", managedKeys},
		{"ManagedKeyOneWins", managedKeyOneWins},
		{"Repairs", repairs},
		{"NotFound", notFound},
		{"TimesInUTCToTheMillisecond", timesInUTC},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

var ctx = context.Background()

// T0 has sub-millisecond digits and a zone: stores keep UTC milliseconds.
var T0 = time.Date(2026, 9, 1, 8, 30, 0, 123_456_000, time.FixedZone("CST", 8*3600))

func change(what, op string) schools.Change {
	return schools.Change{What: what, By: "root", At: T0, Op: op, Subject: "x", Reason: "because"}
}

// NewSchool is a school's version 0 for the suites.
func NewSchool(id string) schools.School {
	return schools.School{ID: id, Name: "围棋学校 " + id, TimeZone: "Asia/Shanghai", Scale: ranks.ScaleChinese, Created: T0,
		Teachers: []schools.Teacher{{Username: "head", Head: true, Since: T0, By: "root"}, {Username: "tea", Since: T0, By: "head"}},
		Change:   change(schools.WhatCreated, id+"-0")}
}

// NewClass is a class's version 0 for the suites.
func NewClass(id, school string, students ...string) schools.Class {
	c := schools.Class{ID: id, SchoolID: school, Name: "班 " + id, Capacity: 30, EndsOn: "2027-06-30", Teachers: []string{"tea", "head"},
		Code: "ABCD2345", CodeExpires: T0.Add(48 * time.Hour), Created: T0, Change: change(schools.WhatCreated, id+"-0")}
	for _, s := range students {
		c.Students = append(c.Students, schools.Member{Username: s, Name: "孩子 " + s, Since: T0, Via: schools.ViaManaged, By: "tea", Managed: true})
	}
	return c
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func schoolChain(t *testing.T, s schools.Store) {
	v0 := NewSchool("s1")
	must(t, s.PutSchool(ctx, v0))
	must(t, s.PutSchool(ctx, v0)) // the same write again
	other := v0
	other.Change.Op = "another"
	if err := s.PutSchool(ctx, other); !errors.Is(err, schools.ErrExists) {
		t.Fatalf("another version 0: %v, want ErrExists", err)
	}
	v1 := v0
	v1.Version, v1.Name, v1.Archived, v1.Change = 1, "renamed", true, change(schools.WhatArchived, "s1-1")
	v1.Teachers = v1.Teachers[:1]
	must(t, s.PutSchool(ctx, v1))
	late := v1
	late.Name, late.Change.Op = "lost", "late"
	if err := s.PutSchool(ctx, late); !errors.Is(err, schools.ErrVersionTaken) {
		t.Fatalf("a second version 1: %v, want ErrVersionTaken", err)
	}
	got, err := s.School(ctx, "s1")
	must(t, err)
	check(t, "latest", got, StoredSchool(v1))
	all, err := s.SchoolVersions(ctx, "s1")
	must(t, err)
	check(t, "versions", all, []schools.School{StoredSchool(v0), StoredSchool(v1)})
}

func classChain(t *testing.T, s schools.Store) {
	v0 := NewClass("c1", "s1")
	must(t, s.PutClass(ctx, v0))
	v1 := v0
	v1.Version, v1.Change = 1, change(schools.WhatJoined, "c1-1")
	v1.Students = []schools.Member{{Username: "ann", Since: T0, Via: schools.ViaCode, By: "ann"}}
	must(t, s.PutClass(ctx, v1))
	v2 := v1
	v2.Version, v2.Change, v2.Students, v2.Archived, v2.Capacity, v2.EndsOn = 2, change(schools.WhatLeft, "c1-2"), nil, true, 0, ""
	must(t, s.PutClass(ctx, v2))
	must(t, s.PutClass(ctx, v2))
	got, err := s.Class(ctx, "c1")
	must(t, err)
	check(t, "latest", got, StoredClass(v2))
	all, err := s.ClassVersions(ctx, "c1")
	must(t, err)
	check(t, "versions", all, []schools.Class{StoredClass(v0), StoredClass(v1), StoredClass(v2)})
	other := NewClass("c1", "s2")
	other.Change.Op = "elsewhere"
	if err := s.PutClass(ctx, other); !errors.Is(err, schools.ErrExists) {
		t.Fatalf("another class c1: %v, want ErrExists", err)
	}
}

// Writers racing for one version: exactly one stores it.
func concurrentPut(t *testing.T, s schools.Store) {
	must(t, s.PutClass(ctx, NewClass("c1", "s1")))
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			c := NewClass("c1", "s1", fmt.Sprint("kid", i))
			c.Version, c.Change = 1, change(schools.WhatJoined, fmt.Sprint("op", i))
			errs[i] = s.PutClass(ctx, c)
		})
	}
	wg.Wait()
	won := oneWon(t, errs, schools.ErrVersionTaken, "version 1")
	got, err := s.Class(ctx, "c1")
	must(t, err)
	if won < 0 || len(got.Students) != 1 || got.Students[0].Username != fmt.Sprint("kid", won) {
		t.Fatalf("winner %d, stored %+v", won, got.Students)
	}
}

// Queries select by each class's and school's latest version.
func queries(t *testing.T, s schools.Store) {
	for _, id := range []string{"s2", "s1"} {
		must(t, s.PutSchool(ctx, NewSchool(id)))
	}
	s3 := NewSchool("s3")
	s3.Teachers = []schools.Teacher{{Username: "other", Head: true, Since: T0}}
	must(t, s.PutSchool(ctx, s3))
	a := NewClass("ca", "s1", "ann", "bob")
	b := NewClass("cb", "s1", "bob")
	b.Teachers = []string{"head"}
	c := NewClass("cc", "s2", "ann")
	for _, x := range []schools.Class{c, b, a} {
		must(t, s.PutClass(ctx, x))
	}
	// ann leaves ca; she was there in version 0 only.
	a1 := NewClass("ca", "s1", "bob")
	a1.Version, a1.Change = 1, change(schools.WhatLeft, "ca-1")
	must(t, s.PutClass(ctx, a1))
	ids := func(cs []schools.Class, err error) []string {
		t.Helper()
		must(t, err)
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	check(t, "of s1", ids(s.Classes(ctx, schools.ClassQuery{School: "s1"})), []string{"ca", "cb"})
	check(t, "of ann", ids(s.Classes(ctx, schools.ClassQuery{Student: "ann"})), []string{"cc"})
	check(t, "of bob", ids(s.Classes(ctx, schools.ClassQuery{Student: "bob"})), []string{"ca", "cb"})
	check(t, "taught by tea", ids(s.Classes(ctx, schools.ClassQuery{Teacher: "tea"})), []string{"ca", "cc"})
	check(t, "taught by tea in s1", ids(s.Classes(ctx, schools.ClassQuery{Teacher: "tea", School: "s1"})), []string{"ca"})
	check(t, "of nobody", ids(s.Classes(ctx, schools.ClassQuery{Student: "nobody"})), []string(nil))
	got, err := s.Classes(ctx, schools.ClassQuery{Student: "bob", School: "s1"})
	must(t, err)
	check(t, "bob's classes as stored", got, []schools.Class{StoredClass(a1), StoredClass(b)})
	sids := func(ss []schools.School, err error) []string {
		t.Helper()
		must(t, err)
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	check(t, "all schools", sids(s.Schools(ctx, schools.SchoolQuery{})), []string{"s1", "s2", "s3"})
	check(t, "tea's schools", sids(s.Schools(ctx, schools.SchoolQuery{Teacher: "tea"})), []string{"s1", "s2"})
	check(t, "other's schools", sids(s.Schools(ctx, schools.SchoolQuery{Teacher: "other"})), []string{"s3"})
}

func codes(t *testing.T, s schools.Store) {
	k := schools.Code{Code: "XYZW2345", ClassID: "c1", Created: T0, Expires: T0.Add(time.Hour)}
	must(t, s.CreateCode(ctx, k))
	if err := s.CreateCode(ctx, schools.Code{Code: "XYZW2345", ClassID: "c2", Created: T0}); !errors.Is(err, schools.ErrExists) {
		t.Fatalf("a taken code: %v, want ErrExists", err)
	}
	got, err := s.Code(ctx, "XYZW2345")
	must(t, err)
	k.Created, k.Expires = stored(k.Created), stored(k.Expires)
	check(t, "code", got, k)
	never := schools.Code{Code: "NEVER234", ClassID: "c1", Created: T0}
	must(t, s.CreateCode(ctx, never))
	got, err = s.Code(ctx, "NEVER234")
	must(t, err)
	if !got.Expires.IsZero() {
		t.Fatalf("a code without expiry came back expiring %v", got.Expires)
	}
}

// A repair is not done until marked; marking it twice is no error, and
// another name is another repair.
func repairs(t *testing.T, s schools.Store) {
	if done, err := s.Repaired(ctx, "r1"); err != nil || done {
		t.Fatalf("an unmarked repair: %v, %v", done, err)
	}
	must(t, s.MarkRepaired(ctx, "r1", T0))
	must(t, s.MarkRepaired(ctx, "r1", T0.Add(time.Hour)))
	if done, err := s.Repaired(ctx, "r1"); err != nil || !done {
		t.Fatalf("a marked repair: %v, %v", done, err)
	}
	if done, err := s.Repaired(ctx, "r2"); err != nil || done {
		t.Fatalf("another repair: %v, %v", done, err)
	}
}

// A managed key's records: the first insert of each number wins, the
// latest comes back as stored.
func managedKeys(t *testing.T, s schools.Store) {
	r0 := schools.ManagedKey{ID: "k1", ClassID: "c1", By: "tea", Names: "h0", Usernames: []string{"s-abcde", "lina-23456"}, Created: T0, Expires: T0.Add(24 * time.Hour)}
	must(t, s.CreateManagedKey(ctx, r0))
	got, err := s.ManagedKey(ctx, "k1")
	must(t, err)
	check(t, "record 0", got, StoredManagedKey(r0))
	other := r0
	other.Names, other.Usernames = "h1", []string{"x-zzzzz"}
	if err := s.CreateManagedKey(ctx, other); !errors.Is(err, schools.ErrExists) {
		t.Fatalf("a second record 0: %v, want ErrExists", err)
	}
	got, err = s.ManagedKey(ctx, "k1")
	must(t, err)
	check(t, "record 0 after a refused second", got, StoredManagedKey(r0))
	r1 := other
	r1.Seq, r1.Created, r1.Expires = 1, T0.Add(25*time.Hour), T0.Add(49*time.Hour)
	must(t, s.CreateManagedKey(ctx, r1))
	got, err = s.ManagedKey(ctx, "k1")
	must(t, err)
	check(t, "the latest record", got, StoredManagedKey(r1))
	if got.Created.Location() != time.UTC || got.Created.Nanosecond()%1e6 != 0 {
		t.Fatalf("created %v, want UTC to the millisecond", got.Created)
	}
	if _, err := s.ManagedKey(ctx, "k2"); !errors.Is(err, schools.ErrNotFound) {
		t.Fatalf("no record: %v, want ErrNotFound", err)
	}
}

// Requests racing with one key: exactly one record is stored.
func managedKeyOneWins(t *testing.T, s schools.Store) {
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = s.CreateManagedKey(ctx, schools.ManagedKey{ID: "k1", ClassID: "c1", By: "tea", Names: fmt.Sprint("h", i),
				Usernames: []string{fmt.Sprint("kid-", i)}, Created: T0, Expires: T0.Add(time.Hour)})
		})
	}
	wg.Wait()
	won := oneWon(t, errs, schools.ErrExists, "record 0")
	got, err := s.ManagedKey(ctx, "k1")
	must(t, err)
	if won < 0 || got.Names != fmt.Sprint("h", won) {
		t.Fatalf("winner %d, stored %+v", won, got)
	}
}

func notFound(t *testing.T, s schools.Store) {
	for what, err := range map[string]error{
		"school":          second(s.School(ctx, "nope")),
		"school versions": second(s.SchoolVersions(ctx, "nope")),
		"class":           second(s.Class(ctx, "nope")),
		"class versions":  second(s.ClassVersions(ctx, "nope")),
		"code":            second(s.Code(ctx, "NOPE2345")),
	} {
		if !errors.Is(err, schools.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", what, err)
		}
	}
	if ss, err := s.Schools(ctx, schools.SchoolQuery{}); err != nil || len(ss) != 0 {
		t.Errorf("schools of an empty store: %v, %v", ss, err)
	}
}

func second[T any](_ T, err error) error { return err }

func timesInUTC(t *testing.T, s schools.Store) {
	must(t, s.PutSchool(ctx, NewSchool("s1")))
	must(t, s.PutClass(ctx, NewClass("c1", "s1", "ann")))
	sch, err := s.School(ctx, "s1")
	must(t, err)
	c, err := s.Class(ctx, "c1")
	must(t, err)
	want := T0.UTC().Truncate(time.Millisecond)
	for what, got := range map[string]time.Time{
		"school created": sch.Created, "school change": sch.Change.At, "teacher since": sch.Teachers[0].Since,
		"class created": c.Created, "member since": c.Students[0].Since, "code expires": c.CodeExpires.Add(-48 * time.Hour),
	} {
		if got.Location() != time.UTC || !got.Equal(want) || got.Nanosecond()%1e6 != 0 {
			t.Errorf("%s = %v, want %v in UTC", what, got, want)
		}
	}
}

// oneWon is the writer of concurrent ones that stored what, the others
// having failed with lost; -1 when none did.
func oneWon(t *testing.T, errs []error, lost error, what string) int {
	t.Helper()
	won := -1
	for i, err := range errs {
		switch {
		case err == nil:
			if won >= 0 {
				t.Fatalf("writers %d and %d both stored %s", won, i, what)
			}
			won = i
		case !errors.Is(err, lost):
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	return won
}
