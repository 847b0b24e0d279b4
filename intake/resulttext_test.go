package intake_test

import (
	"testing"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
)

// TestResultTextNotHashed: the reader keeps an unknown result's text
// (RE[Unfinished]) for the SGF it writes; the game's hashes are those of
// the same game read before it did, so stored games keep theirs.
func TestResultTextNotHashed(t *testing.T) {
	r, err := games.ParseRecord([]byte("(;SZ[9]KM[7.5]RE[Unfinished];B[ee];W[cc];B[];W[])"))
	if err != nil || r.ResultText != "Unfinished" {
		t.Fatalf("%v %+v", err, r)
	}
	v, err := games.Judge(r)
	if err != nil {
		t.Fatal(err)
	}
	before := *r
	before.ResultText = "" // as read before the text was kept
	a := intake.StoredGame{Black: "alice", White: "bob", Rated: true, Record: r, Verdict: &v}
	b := a
	b.Record = &before
	if intake.ContentHash("alice", "bob", true, r, v) != intake.ContentHash("alice", "bob", true, &before, v) ||
		intake.BoundHash(a) != intake.BoundHash(b) {
		t.Error("keeping the result's text changes the game's hash")
	}
}
