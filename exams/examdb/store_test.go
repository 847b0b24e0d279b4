package examdb_test

import (
	"context"
	"testing"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/exams/examdb"
	"github.com/weiqi-platform/rank/exams/examtest"
	"github.com/weiqi-platform/rank/internal/testsvc"
)

func openOf(t *testing.T, kind string) exams.Store {
	s, err := examdb.Open(context.Background(), testsvc.MongoOf(t, kind))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStoreContract runs the contract on every kind of store
// (testsvc.MongoKinds).
func TestStoreContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			examtest.StoreContract(t, func(t *testing.T) exams.Store { return openOf(t, kind) })
		})
	}
}

// TestOpenTwice: every replica opens the store at start; the indexes
// exist the second time (FerretDB v1 drops the connection on a
// createIndexes of several existing ones, so they are made one by one).
func TestOpenTwice(t *testing.T) {
	db := testsvc.Mongo(t)
	for i := range 2 {
		if _, err := examdb.Open(context.Background(), db); err != nil {
			t.Fatalf("Open #%d: %v", i+1, err)
		}
	}
}
