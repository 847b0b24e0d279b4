package intake_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/intaketest"
)

// TestPlayerGamesLookAhead: a caller paging at the largest page may ask
// for one game more, to tell whether another page follows; a larger
// limit is cut to that.
func TestPlayerGamesLookAhead(t *testing.T) {
	ctx := context.Background()
	store := intaketest.NewMemory()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range intake.MaxGamesPage + 2 {
		if err := store.Create(ctx, intaketest.Finished(fmt.Sprint("g", i), fmt.Sprint("s", i), "ann", "bob", t0.Add(time.Duration(i)*time.Second))); err != nil {
			t.Fatal(err)
		}
	}
	in := intake.New(store, intaketest.NewMemoryPresence(), nil, nil, nil, intake.Config{})
	for _, c := range []struct{ limit, want int }{{intake.MaxGamesPage + 1, intake.MaxGamesPage + 1}, {10000, intake.MaxGamesPage + 1}, {0, intake.MaxGamesPage + 1}, {3, 3}} {
		gs, err := in.PlayerGames(ctx, intake.GamesQuery{Player: "ann", Limit: c.limit})
		if err != nil || len(gs) != c.want {
			t.Errorf("limit %d: %d games, %v; want %d", c.limit, len(gs), err, c.want)
		}
	}
}
