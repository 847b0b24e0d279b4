package rating_test

import (
	"sync/atomic"
	"testing"

	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// LevelOf answers from what this process last wrote, without a read; a
// player it has not written is read from the store, and one with no
// state starts where a new player does.
func TestLevelOfReadsOnlyWhatItDidNotWrite(t *testing.T) {
	store := ratingtest.NewMemory()
	var latest atomic.Int32
	store.Fail = func(method string) error {
		if method == "Latest" {
			latest.Add(1)
		}
		return nil
	}
	svc := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
	r, err := svc.Apply(bg, game("g1", "alice", "bob", rating.SideBlack))
	if err != nil {
		t.Fatal(err)
	}
	latest.Store(0)
	st, err := svc.LevelOf(bg, "alice")
	if err != nil || st != r.Black.PlayerState || latest.Load() != 0 {
		t.Fatalf("LevelOf(alice) = %+v, %v after %d reads; want %+v and no read", st, err, latest.Load(), r.Black.PlayerState)
	}
	other := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
	if st, err := other.LevelOf(bg, "bob"); err != nil || st.Score != r.White.Score || latest.Load() != 1 {
		t.Fatalf("another process's LevelOf(bob) = %+v, %v after %d reads; want score %d from one read", st, err, latest.Load(), r.White.Score)
	}
	if st, err := other.LevelOf(bg, "carol"); err != nil || st.Version != 0 || st.Score != rating.StartScore {
		t.Fatalf("LevelOf(carol) = %+v, %v; want a new player's state", st, err)
	}
}
