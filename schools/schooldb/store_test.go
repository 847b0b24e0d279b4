package schooldb_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/schools"
	"github.com/weiqi-platform/rank/schools/schooldb"
	"github.com/weiqi-platform/rank/schools/schooltest"
)

func open(t *testing.T, kind string) *schooldb.Store {
	t.Helper()
	s, err := schooldb.New(context.Background(), testsvc.MongoOf(t, kind))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			schooltest.Run(t, func(t *testing.T) schools.Store { return open(t, kind) })
		})
	}
}

// TestNewIsIdempotent: every rankd start calls New on the same database.
func TestNewIsIdempotent(t *testing.T) {
	db := testsvc.Mongo(t)
	for i := range 2 {
		if _, err := schooldb.New(context.Background(), db); err != nil {
			t.Fatalf("New #%d: %v", i+1, err)
		}
	}
}

// A head left behind (a crash between a version and its head, or two
// writers crossing) never shows an old version: readers probe past it
// and repair it; a missing head is found from version 0.
func TestStaleHeadIsPassedAndRepaired(t *testing.T) {
	ctx := context.Background()
	db := testsvc.Mongo(t)
	s, err := schooldb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	v0 := schooltest.NewClass("c1", "s1", "ann")
	if err := s.PutClass(ctx, v0); err != nil {
		t.Fatal(err)
	}
	heads := db.Collection(schooldb.ClassHeads)
	var old bson.Raw
	if err := heads.FindOne(ctx, bson.D{{Key: "_id", Value: "c1"}}).Decode(&old); err != nil {
		t.Fatal(err)
	}
	v1 := schooltest.NewClass("c1", "s1", "ann", "bob")
	v1.Version, v1.Change.Op = 1, "c1-1"
	if err := s.PutClass(ctx, v1); err != nil {
		t.Fatal(err)
	}
	if _, err := heads.ReplaceOne(ctx, bson.D{{Key: "_id", Value: "c1"}}, old); err != nil {
		t.Fatal(err)
	}
	got, err := s.Classes(ctx, schools.ClassQuery{Student: "ann"})
	if err != nil || len(got) != 1 || got[0].Version != 1 || len(got[0].Students) != 2 {
		t.Fatalf("query past a stale head = %+v, %v", got, err)
	}
	var head struct {
		Version int64 `bson:"version"`
	}
	if err := heads.FindOne(ctx, bson.D{{Key: "_id", Value: "c1"}}).Decode(&head); err != nil || head.Version != 1 {
		t.Fatalf("head after the read: version %d, %v; want repaired to 1", head.Version, err)
	}
	if _, err := heads.DeleteOne(ctx, bson.D{{Key: "_id", Value: "c1"}}); err != nil {
		t.Fatal(err)
	}
	c, err := s.Class(ctx, "c1")
	if err != nil || c.Version != 1 {
		t.Fatalf("class without a head = %+v, %v", c, err)
	}
	if err := heads.FindOne(ctx, bson.D{{Key: "_id", Value: "c1"}}).Decode(&head); err != nil || head.Version != 1 {
		t.Fatalf("head after reading past a missing one: %d, %v", head.Version, err)
	}
}

// Two replicas (two services, each with its own in-process locks) on one
// store, many joiners of a class with few places: exactly the capacity
// get in. Only the inserts under <class>#<version> decide.
func TestReplicasFillAClassExactly(t *testing.T) {
	ctx := context.Background()
	s := open(t, testsvc.KindFerretDB)
	clock := clockwork.NewFakeClockAt(schooltest.T0)
	a, b := schools.New(s, nil, nil, nil, clock), schools.New(s, nil, nil, nil, clock)
	if err := s.PutSchool(ctx, schooltest.NewSchool("s1")); err != nil {
		t.Fatal(err)
	}
	c := schooltest.NewClass("c1", "s1")
	c.Capacity, c.CodeExpires, c.EndsOn = 6, time.Time{}, ""
	if err := s.PutClass(ctx, c); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateCode(ctx, schools.Code{Code: c.Code, ClassID: c.ID, Created: schooltest.T0}); err != nil {
		t.Fatal(err)
	}
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		svc := a
		if i%2 == 1 {
			svc = b
		}
		wg.Go(func() {
			_, _, errs[i] = svc.Join(ctx, players.Principal{Username: fmt.Sprintf("kid%02d", i), Role: players.RolePlayer}, c.Code)
		})
	}
	wg.Wait()
	in := 0
	for i, err := range errs {
		switch {
		case err == nil:
			in++
		case !errors.Is(err, schools.ErrClassFull):
			t.Errorf("joiner %d: %v", i, err)
		}
	}
	got, err := s.Class(ctx, "c1")
	if err != nil || in != 6 || len(got.Students) != 6 {
		t.Fatalf("%d joined, the class has %d (%v); want 6 and 6", in, len(got.Students), err)
	}
	versions, err := s.ClassVersions(ctx, "c1")
	if err != nil || len(versions) != 7 {
		t.Fatalf("%d versions, %v; want the class and 6 joins", len(versions), err)
	}
}
