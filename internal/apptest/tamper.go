package apptest

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weiqi-platform/rank/rating/ratingdb"
)

// Where the rating store keeps the ledger and each player's latest state,
// for tests that edit them behind the services' back.
const (
	LedgerCollection  = ratingdb.Ledger
	PlayersCollection = ratingdb.Players
)

// Tamper applies a raw update ($set, $inc, ...) to one document of a Real
// stack's store, through the driver and behind the services' back: what
// someone with write access to the database could do.
func (s *Stack) Tamper(t testing.TB, collection, id string, update map[string]map[string]any) {
	t.Helper()
	if s.DB == nil {
		t.Fatal("apptest: Tamper needs a Real stack")
	}
	doc := bson.M{}
	for op, fields := range update {
		doc[op] = bson.M(fields)
	}
	res, err := s.DB.Collection(collection).UpdateOne(context.Background(), bson.D{{Key: "_id", Value: id}}, doc)
	if err != nil {
		t.Fatal(err)
	}
	if res.MatchedCount != 1 {
		t.Fatalf("apptest: no document %s in %s to tamper with", id, collection)
	}
}
