package ratingdb

import (
	"fmt"
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

// TestEntryDocForms: an entry is stored as its queried fields and one
// JSON text and reads back as it was; one stored field by field (before
// the compact form) reads as it did.
func TestEntryDocForms(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 123000000, time.UTC)
	d := entryDoc{ID: EntryID("ann", 3), K: kindEntry, Username: "ann", Seq: 3, Cause: "exam", CauseID: "g9", SourceID: "src",
		Actor: "root", Opponent: "bob", ScoreBefore: 1200, ScoreAfter: 1216, RankBefore: "2k", RankAfter: "1k", Delta: 16,
		Glicko: glickoDoc{Rating: 1512.0000000001, RD: 60.5, Volatility: 0.06}, Reason: `passed "x"`, At: at, Prev: "p", Hash: "h",
		CertifiedBefore: "2k", CertifiedAfter: "1d", Evidence: []string{"g1", "g2"}, Result: "win", GameHash: "gh", MAC: "m"}
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var raw bson.M
	if err := bson.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw) != 7 || raw["username"] != "ann" || raw["seq"] != int64(3) || raw["cause"] != "exam" || raw["at"] == nil || raw["s"] == nil {
		t.Fatalf("an entry stored as %v, want _id, k, username, seq, cause, at and s", raw)
	}
	var got entryDoc
	if err := bson.Unmarshal(b, &got); err != nil || got.entry().Hash != "h" || fmt.Sprint(got) != fmt.Sprint(d) {
		t.Fatalf("the entry read back: %+v, %v\nwant %+v", got, err, d)
	}
	type plain entryDoc
	if b, err = bson.Marshal(plain(d)); err != nil {
		t.Fatal(err)
	}
	got = entryDoc{}
	if err := bson.Unmarshal(b, &got); err != nil || fmt.Sprint(got) != fmt.Sprint(d) {
		t.Fatalf("an old entry read back: %+v, %v\nwant %+v", got, err, d)
	}
}

// TestOpDocForms: an operation is stored as _id, k and one JSON text and
// reads back as it was; one stored field by field reads as it did.
func TestOpDocForms(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 123000000, time.UTC)
	d := opDoc{ID: OpID("g1"), K: kindOp, Black: "ann", White: "bob", Winner: "black", Moves: 120, Handicap: 2, Outcome: "count",
		Escape: true, SourceID: "src", GameHash: "gh", Actor: "server", At: at, Kind: "annul", Player: "ann", Change: `{"delta":5}`, Tracked: true}
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var raw bson.M
	if err := bson.Unmarshal(b, &raw); err != nil || len(raw) != 3 || raw["k"] != kindOp || raw["s"] == nil {
		t.Fatalf("an operation stored as %v (%v), want _id, k and s", raw, err)
	}
	var got opDoc
	if err := bson.Unmarshal(b, &got); err != nil || got != d {
		t.Fatalf("the operation read back: %+v, %v\nwant %+v", got, err, d)
	}
	type plain opDoc
	if b, err = bson.Marshal(plain(d)); err != nil {
		t.Fatal(err)
	}
	got = opDoc{}
	if err := bson.Unmarshal(b, &got); err != nil || got != d {
		t.Fatalf("an old operation read back: %+v, %v\nwant %+v", got, err, d)
	}
}
