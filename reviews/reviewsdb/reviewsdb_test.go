package reviewsdb_test

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weiqi-platform/rank/integrity"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/reviews"
	"github.com/weiqi-platform/rank/reviews/reviewsdb"
	"github.com/weiqi-platform/rank/reviews/reviewstest"
)

var bg = context.Background()

func TestContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			reviewstest.Run(t, func(t *testing.T) reviews.Store {
				s, err := reviewsdb.New(context.Background(), testsvc.MongoOf(t, kind))
				if err != nil {
					t.Fatal(err)
				}
				return s
			})
		})
	}
}

// TestNewIsIdempotent: every start calls New on the same database.
func TestNewIsIdempotent(t *testing.T) {
	db := testsvc.Mongo(t)
	for i := range 2 {
		if _, err := reviewsdb.New(context.Background(), db); err != nil {
			t.Fatalf("New #%d: %v", i+1, err)
		}
	}
}

// TestLaggingHintIsRepaired: a resolution whose status hint was never
// written (the process died between the two) is found by every read: the
// item is not listed as open, and the hint is repaired.
func TestLaggingHintIsRepaired(t *testing.T) {
	db := testsvc.Mongo(t)
	s, err := reviewsdb.New(bg, db)
	if err != nil {
		t.Fatal(err)
	}
	f := integrity.Flag{Kind: integrity.Farming, Test: "t", Player: "ann", Evidence: []integrity.Evidence{{Game: "g1"}}}
	it := reviews.Item{ID: reviews.ID(f), Found: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Flag: f}
	if _, err := s.Add(bg, []reviews.Item{it}); err != nil {
		t.Fatal(err)
	}
	// The resolution alone, as a crash after its insert leaves it.
	if _, err := db.Collection(reviewsdb.Resolutions).InsertOne(bg, bson.D{{Key: "_id", Value: it.ID}, {Key: "verdict", Value: reviews.StatusDismissed},
		{Key: "reason", Value: "r"}, {Key: "by", Value: "root"}, {Key: "at", Value: time.Now().UTC()}}); err != nil {
		t.Fatal(err)
	}
	open, err := s.List(bg, reviews.Query{Status: reviews.StatusOpen})
	if err != nil || len(open) != 0 {
		t.Fatalf("open: %+v, %v; want none", open, err)
	}
	var d struct {
		Status string `bson:"status"`
	}
	if err := db.Collection(reviewsdb.Flags).FindOne(bg, bson.D{{Key: "_id", Value: it.ID}}).Decode(&d); err != nil || d.Status != reviews.StatusDismissed {
		t.Fatalf("the hint is %q, %v; want it repaired to dismissed", d.Status, err)
	}
	if got, err := s.List(bg, reviews.Query{Status: reviews.StatusDismissed}); err != nil || len(got) != 1 {
		t.Fatalf("dismissed: %+v, %v", got, err)
	}
}
