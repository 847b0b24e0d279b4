package ratingdb_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

// TestMigrateLegacyCollections: a store written before Log (each kind in
// a collection of its own, _ids without their kind) is read after New
// exactly as it was written: every player, ledger and operation, and it
// verifies; the old collections are gone. A second New finds nothing to
// do.
func TestMigrateLegacyCollections(t *testing.T) {
	svc, db := history(t)
	want := map[string]rating.PlayerState{}
	wantLedger := map[string][]rating.LedgerEntry{}
	for _, n := range []string{"alice", "bob", "carol"} {
		st, err := svc.Player(bg, n)
		if err != nil {
			t.Fatal(err)
		}
		want[n] = st
		if wantLedger[n], err = svc.History(bg, n, 0, 100); err != nil {
			t.Fatal(err)
		}
	}
	// Back to the old layout, as a store of before was.
	old := map[string]string{"op": "rating_ops", "hold": "rating_holds", "plan": "rating_plans", "entry": "rating_ledger", "state": "rating_states"}
	cur, err := db.Collection(ratingdb.Log).Find(bg, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var docs []bson.D
	if err := cur.All(bg, &docs); err != nil {
		t.Fatal(err)
	}
	moved := map[string]int{}
	for _, d := range docs {
		var kind string
		out := bson.D{}
		for _, e := range d {
			switch e.Key {
			case "k":
				kind = e.Value.(string)
				continue
			case "_id":
				_, e.Value, _ = strings.Cut(e.Value.(string), ":")
			}
			out = append(out, e)
		}
		if _, err := db.Collection(old[kind]).InsertOne(bg, out); err != nil {
			t.Fatal(err)
		}
		moved[kind]++
	}
	if len(moved) != 5 {
		t.Fatalf("the history has documents of kinds %v, want all five", moved)
	}
	if err := db.Collection(ratingdb.Log).Drop(bg); err != nil {
		t.Fatal(err)
	}

	for range 2 {
		store, err := ratingdb.New(bg, db)
		if err != nil {
			t.Fatal(err)
		}
		svc := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
		for n, w := range want {
			st, err := svc.Player(bg, n)
			if err != nil || st != w {
				t.Errorf("%s after migration: %+v, %v; want %+v", n, st, err, w)
			}
			h, err := svc.History(bg, n, 0, 100)
			if err != nil || len(h) != len(wantLedger[n]) {
				t.Errorf("%s's ledger after migration: %d entries, %v; want %d", n, len(h), err, len(wantLedger[n]))
			}
		}
		rep, err := svc.VerifyAll(bg, "migrated")
		if err != nil || !rep.OK() || rep.Games != 4 {
			t.Errorf("verification after migration: %+v, %v", rep, err)
		}
		names, err := db.ListCollectionNames(bg, bson.D{{Key: "name", Value: bson.D{{Key: "$in", Value: bson.A{"rating_ops", "rating_holds", "rating_plans", "rating_ledger", "rating_states"}}}}})
		if err != nil || len(names) > 0 {
			t.Errorf("old collections left: %v, %v", names, err)
		}
	}
}
