package apptest

import (
	"context"
	"encoding/json"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

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
	update = inText(t, s.DB.Collection(collection), id, update)
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
	// A compact document's text read out as the fields it holds (JSON in
	// it as its text, as such a field was stored before), for Tamper.
	if text, ok := doc["s"].(string); ok {
		var body map[string]any
		if err := json.Unmarshal([]byte(text), &body); err != nil {
			t.Fatalf("apptest: %s's s: %v", id, err)
		}
		for f, v := range body {
			switch v.(type) {
			case map[string]any, []any:
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				v = string(b)
			}
			doc[f] = v
		}
		delete(doc, "s")
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

// inText turns the update of a document kept compact (ratingdb's versions
// and entries: the queried fields, the rest in one JSON text s) into one
// of its text for the fields that are in it ($set and $inc), as the
// edit of those fields would be on a document stored field by field.
func inText(t testing.TB, c *mongo.Collection, id string, update map[string]map[string]any) map[string]map[string]any {
	t.Helper()
	var raw bson.M
	if err := c.FindOne(context.Background(), bson.D{{Key: "_id", Value: id}}).Decode(&raw); err != nil {
		return update // Tamper says it is missing
	}
	text, ok := raw["s"].(string)
	if !ok {
		return update
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(text), &body); err != nil {
		t.Fatalf("apptest: %s's s: %v", id, err)
	}
	out := map[string]map[string]any{}
	for op, fields := range update {
		for f, v := range fields {
			if _, top := raw[f]; top || (op != "$set" && op != "$inc") {
				if out[op] == nil {
					out[op] = map[string]any{}
				}
				out[op][f] = v
				continue
			}
			switch old := body[f].(type) {
			case map[string]any, []any:
				// Kept as JSON in the text (a game's record and verdict),
				// given as its JSON's text, as the field held it before.
				if text, ok := v.(string); ok {
					var parsed any
					if err := json.Unmarshal([]byte(text), &parsed); err != nil {
						t.Fatalf("apptest: %s is JSON in %s: %v", f, id, err)
					}
					v = parsed
				}
			default:
				if op == "$inc" {
					n, _ := old.(float64)
					d, ok := asFloat(v)
					if !ok {
						t.Fatalf("apptest: $inc of %s by %v", f, v)
					}
					v = n + d
				}
			}
			body[f] = v
		}
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	if out["$set"] == nil {
		out["$set"] = map[string]any{}
	}
	out["$set"]["s"] = string(b)
	return out
}

func asFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
