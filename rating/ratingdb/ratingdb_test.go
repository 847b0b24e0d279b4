package ratingdb_test

import (
	"context"
	"testing"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

func TestContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			ratingtest.RunBatch(t, func(t *testing.T) rating.BatchStore {
				s, err := ratingdb.New(context.Background(), testsvc.MongoOf(t, kind))
				if err != nil {
					t.Fatal(err)
				}
				return s
			})
		})
	}
}

// TestNewIsIdempotent: every rankd start calls New on the same database.
func TestNewIsIdempotent(t *testing.T) {
	db := testsvc.Mongo(t)
	for i := range 2 {
		if _, err := ratingdb.New(context.Background(), db); err != nil {
			t.Fatalf("New #%d: %v", i+1, err)
		}
	}
}
