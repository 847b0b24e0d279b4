package apptest

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weiqi-platform/rank/intake/gamedb"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

// Where the rating store keeps the ledger (under ratingdb.EntryID) and
// each player's latest state, for tests that edit them behind the
// services' back.
const (
	LedgerCollection  = ratingdb.Log
	PlayersCollection = ratingdb.Players
	GamesCollection   = gamedb.Games
)

// LedgerID is the _id in LedgerCollection of the player's ledger entry.
func LedgerID(username string, seq int64) string { return ratingdb.EntryID(username, seq) }

// Tamper applies a raw update ($set, $inc, ...) to one document of a Real
// stack's store, through the driver and behind the services' back: what
// someone with write access to the database could do.
func (s *Stack) Tamper(t testing.TB, collection, id string, update map[string]map[string]any) {
	t.Helper()
	if s.DB == nil {
		t.Fatal("apptest: Tamper needs a Real stack")
	}
	s.Stores.Drain() // what the stores hold back is written first, as a process at rest has
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

// Raw reads one document of a Real stack's store as the driver gives it,
// for a test that forges it from what is there.
func (s *Stack) Raw(t testing.TB, collection, id string) map[string]any {
	t.Helper()
	if s.DB == nil {
		t.Fatal("apptest: Raw needs a Real stack")
	}
	doc := bson.M{}
	if err := s.DB.Collection(collection).FindOne(context.Background(), bson.D{{Key: "_id", Value: id}}).Decode(&doc); err != nil {
		t.Fatalf("apptest: %s in %s: %v", id, collection, err)
	}
	return doc
}

// Delete removes one document of a Real stack's store behind the services'
// back.
func (s *Stack) Delete(t testing.TB, collection, id string) {
	t.Helper()
	if s.DB == nil {
		t.Fatal("apptest: Delete needs a Real stack")
	}
	res, err := s.DB.Collection(collection).DeleteOne(context.Background(), bson.D{{Key: "_id", Value: id}})
	if err != nil || res.DeletedCount != 1 {
		t.Fatalf("apptest: delete %s from %s: %v", id, collection, err)
	}
}
