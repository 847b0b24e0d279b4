package ratingdb

import (
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// stored is v as the store keeps it: its top-level fields, and v read
// back as a T.
func stored[T any](t *testing.T, v any) (bson.M, T) {
	t.Helper()
	b, err := bson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var raw bson.M
	if err := bson.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	var got T
	if err := bson.Unmarshal(b, &got); err != nil {
		t.Fatalf("%T read back: %v", got, err)
	}
	return raw, got
}

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

	raw, got := stored[stateDoc](t, d)
	if len(raw) != 5 || raw["username"] != "ann" || raw["version"] != int64(7) || raw["k"] != kindState || raw["s"] == nil {
		t.Fatalf("a version stored as %v, want _id, k, username, version and s", raw)
	}
	if got != want {
		t.Fatalf("the version read back: %+v\nwant %+v", got, want)
	}

	raw, got = stored[stateDoc](t, asProjection(d))
	if raw["score"] != int32(1234) || raw["s"] != nil {
		t.Fatalf("a projection stored as %v, want its fields", raw)
	}
	if wantProj := asProjection(want); got != wantProj {
		t.Fatalf("the projection read back: %+v\nwant %+v", got, wantProj)
	}

	// As a version was stored before: field by field.
	type plain stateDoc
	if _, got = stored[stateDoc](t, plain(d)); got != want {
		t.Fatalf("an old version read back: %+v\nwant %+v", got, want)
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
	raw, got := stored[entryDoc](t, d)
	if len(raw) != 7 || raw["username"] != "ann" || raw["seq"] != int64(3) || raw["cause"] != "exam" || raw["at"] == nil || raw["s"] == nil {
		t.Fatalf("an entry stored as %v, want _id, k, username, seq, cause, at and s", raw)
	}
	if got.entry().Hash != "h" || fmt.Sprint(got) != fmt.Sprint(d) {
		t.Fatalf("the entry read back: %+v\nwant %+v", got, d)
	}
	type plain entryDoc
	if _, got = stored[entryDoc](t, plain(d)); fmt.Sprint(got) != fmt.Sprint(d) {
		t.Fatalf("an old entry read back: %+v\nwant %+v", got, d)
	}
}

// TestOpDocForms: an operation is stored as _id, k and one JSON text and
// reads back as it was; one stored field by field reads as it did.
func TestOpDocForms(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 123000000, time.UTC)
	d := opDoc{ID: OpID("g1"), K: kindOp, Black: "ann", White: "bob", Winner: "black", Moves: 120, Handicap: 2, Outcome: "count",
		Escape: true, SourceID: "src", GameHash: "gh", Actor: "server", At: at, Kind: "annul", Player: "ann", Change: `{"delta":5}`, Tracked: true}
	raw, got := stored[opDoc](t, d)
	if len(raw) != 3 || raw["k"] != kindOp || raw["s"] == nil {
		t.Fatalf("an operation stored as %v, want _id, k and s", raw)
	}
	if got != d {
		t.Fatalf("the operation read back: %+v\nwant %+v", got, d)
	}
	type plain opDoc
	if _, got = stored[opDoc](t, plain(d)); got != d {
		t.Fatalf("an old operation read back: %+v\nwant %+v", got, d)
	}
}
