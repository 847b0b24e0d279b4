package gamedb

import (
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestGameDocForms: a game is stored as its queried fields and one JSON
// text (its record and verdict as JSON in it, not strings), and reads
// back as it was; one stored field by field reads as it did.
func TestGameDocForms(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 123000000, time.UTC)
	later := at.Add(time.Hour)
	d := gameDoc{ID: "g1", SourceID: "src", Status: "finished", Black: "ann", White: "bob", Rated: true, TimeControl: "10m",
		Record: `{"size":9,"moves":["B cc"],"comment":"a \"quoted\" note"}`, Verdict: `{"winner":"B"}`, Hash: "h", SubmittedBy: "server",
		CreatedAt: at, FinishedAt: &later, PlayedAt: &at, Batch: "b:1"}
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var raw bson.M
	if err := bson.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if raw["source_id"] != "src" || raw["black"] != "ann" || raw["status"] != "finished" || raw["batch"] != "b:1" || raw["record"] != nil || raw["s"] == nil {
		t.Fatalf("a game stored as %v", raw)
	}
	var got gameDoc
	if err := bson.Unmarshal(b, &got); err != nil || !same(got, d) {
		t.Fatalf("the game read back: %+v, %v\nwant %+v", got, err, d)
	}
	type plain gameDoc
	if b, err = bson.Marshal(plain(d)); err != nil {
		t.Fatal(err)
	}
	got = gameDoc{}
	if err := bson.Unmarshal(b, &got); err != nil || !same(got, d) {
		t.Fatalf("an old game read back: %+v, %v\nwant %+v", got, err, d)
	}
}

func same(a, b gameDoc) bool {
	eq := func(x, y *time.Time) bool { return (x == nil) == (y == nil) && (x == nil || x.Equal(*y)) }
	ok := eq(a.FinishedAt, b.FinishedAt) && eq(a.PlayedAt, b.PlayedAt) && eq(a.ExpiresAt, b.ExpiresAt) && a.CreatedAt.Equal(b.CreatedAt)
	a.FinishedAt, a.PlayedAt, a.ExpiresAt, b.FinishedAt, b.PlayedAt, b.ExpiresAt = nil, nil, nil, nil, nil, nil
	a.CreatedAt, b.CreatedAt = time.Time{}, time.Time{}
	return ok && a == b
}
