package ratingdb

import (
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestStateDocForms: a version is stored as its queried fields and one
// JSON text, a projection field by field, and either reads back as it
// was; a version stored field by field (before the compact form) reads as
// it did.
func TestStateDocForms(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)
	d := stateDoc{ID: StateID("ann", 7), K: kindState, Username: "ann", Version: 7, Op: "g1", Score: 1234,
		Glicko: glickoDoc{Rating: 1612.345678901234, RD: 71.25, Volatility: 0.0600001}, Games: 9, Wins: 5, Losses: 3, Draws: 1,
		Placement: 1100, Certified: "3d", Placing: true, PlacingGames: 4, Seq: 11, Head: "abc", UpdatedAt: at}
	want := d
	want.UpdatedAt = at.Truncate(time.Millisecond) // as a BSON date keeps it

	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var raw bson.M
	if err := bson.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw) != 5 || raw["username"] != "ann" || raw["version"] != int64(7) || raw["k"] != kindState || raw["s"] == nil {
		t.Fatalf("a version stored as %v, want _id, k, username, version and s", raw)
	}
	var got stateDoc
	if err := bson.Unmarshal(b, &got); err != nil || got != want {
		t.Fatalf("the version read back: %+v, %v\nwant %+v", got, err, want)
	}

	proj := asProjection(d)
	if b, err = bson.Marshal(proj); err != nil {
		t.Fatal(err)
	}
	raw = bson.M{}
	if err := bson.Unmarshal(b, &raw); err != nil || raw["score"] != int32(1234) || raw["s"] != nil {
		t.Fatalf("a projection stored as %v (%v), want its fields", raw, err)
	}
	got = stateDoc{}
	wantProj := asProjection(want)
	if err := bson.Unmarshal(b, &got); err != nil || got != wantProj {
		t.Fatalf("the projection read back: %+v, %v\nwant %+v", got, err, wantProj)
	}

	// As a version was stored before: field by field.
	type plain stateDoc
	if b, err = bson.Marshal(plain(d)); err != nil {
		t.Fatal(err)
	}
	got = stateDoc{}
	if err := bson.Unmarshal(b, &got); err != nil || got != want {
		t.Fatalf("an old version read back: %+v, %v\nwant %+v", got, err, want)
	}
}
