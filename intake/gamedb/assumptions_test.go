package gamedb_test

import (
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weiqi-platform/rank/intake/gamedb"
	"github.com/weiqi-platform/rank/intake/intaketest"
	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestAssumptionsInTheRecord: the assumptions are kept in the stored
// record's JSON, and only when there are some; a game document written
// before they were kept (its record without the field) reads with none
// and its hash as stored.
func TestAssumptionsInTheRecord(t *testing.T) {
	ctx := t.Context()
	db := testsvc.Mongo(t)
	s, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	with := intaketest.Finished("g1", "src-1", "ann", "bob", time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	with.Record.Assumptions = intaketest.Assumed
	without := intaketest.Finished("g2", "src-2", "ann", "bob", with.CreatedAt)
	for _, g := range []struct {
		id   string
		keep bool
	}{{"g1", true}, {"g2", false}} {
		game := with
		if !g.keep {
			game = without
		}
		if err := s.Create(ctx, game); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			S string `bson:"s"` // the record's JSON is in it
		}
		if err := db.Collection(gamedb.Games).FindOne(ctx, bson.D{{Key: "_id", Value: g.id}}).Decode(&doc); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(doc.S, `"assumptions":[`); got != g.keep {
			t.Errorf("%s: assumptions in the stored record %v, want %v: %s", g.id, got, g.keep, doc.S)
		}
	}

	// As written before: the record's JSON of those days, no assumptions.
	old := bson.D{
		{Key: "_id", Value: "old"}, {Key: "source_id", Value: "src-old"}, {Key: "status", Value: "finished"},
		{Key: "black", Value: "ann"}, {Key: "white", Value: "bob"}, {Key: "rated", Value: true},
		{Key: "record", Value: `{"size":9,"rules":"chinese","komi":7,"handicap":0,"moves":["B cc","W gg","B pass"],"end":"resign","end_by":"W","result":"B+R","black":{"name":"ann"},"white":{"name":"bob"},"penalties":{}}`},
		{Key: "verdict", Value: `{"winner":"B","margin":0,"result":"B+R","end":"resign","moves":3}`},
		{Key: "hash", Value: "stored-hash"}, {Key: "created_at", Value: with.CreatedAt},
	}
	if _, err := db.Collection(gamedb.Games).InsertOne(ctx, old); err != nil {
		t.Fatal(err)
	}
	g, err := s.Game(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if g.Record.Assumptions != nil || g.Hash != "stored-hash" || len(g.Record.Moves) != 3 || g.Verdict == nil || g.Verdict.Result != "B+R" {
		t.Errorf("the old game read as %+v, record %+v", g, g.Record)
	}
}
