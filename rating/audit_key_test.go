package rating_test

import (
	"context"
	"testing"

	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// TestEntriesBeforeTheKeyAreUnkeyedNotForged: a ledger written before the
// audit key was set verifies under the key, its entries counted as
// unkeyed; entries written after it are keyed and verify too; the same
// store read with another key reports every keyed entry as forged.
func TestEntriesBeforeTheKeyAreUnkeyedNotForged(t *testing.T) {
	ctx := context.Background()
	store := ratingtest.NewMemory()
	old := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
	if _, err := old.Apply(ctx, game("g1", "alice", "bob", rating.SideBlack)); err != nil {
		t.Fatal(err)
	}
	keyed := rating.NewService(store, rating.ServiceConfig{Now: fixedClock, AuditKey: []byte("the first audit key, 32 bytes or more")})
	if _, err := keyed.Apply(ctx, game("g2", "alice", "bob", rating.SideWhite)); err != nil {
		t.Fatal(err)
	}
	r, err := keyed.VerifyAll(ctx, "v")
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() || r.Unkeyed != 2 {
		t.Fatalf("report %+v, want OK with the 2 entries before the key unkeyed", r)
	}
	other := rating.NewService(store, rating.ServiceConfig{Now: fixedClock, AuditKey: []byte("another audit key, 32 bytes or more")})
	r, err = other.VerifyAll(ctx, "v")
	if err != nil {
		t.Fatal(err)
	}
	forged := 0
	for _, m := range r.Mismatches {
		if m.Check == rating.CheckKey && m.Seq == 2 {
			forged++
		}
	}
	if forged != 2 {
		t.Fatalf("under another key: %+v, want both entry 2 reported", r.Mismatches)
	}
}
