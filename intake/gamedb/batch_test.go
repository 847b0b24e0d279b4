package gamedb_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/gamedb"
	"github.com/weiqi-platform/rank/intake/intaketest"
	"github.com/weiqi-platform/rank/internal/testsvc"
)

// batchOf is n finished games of ann and bob, a minute apart from t0,
// with ids from prefix.
func batchOf(prefix string, n int, t0 time.Time) []intake.StoredGame {
	gs := make([]intake.StoredGame, n)
	for i := range gs {
		gs[i] = intaketest.Finished(fmt.Sprintf("%s%d", prefix, i), fmt.Sprintf("src-%s%d", prefix, i), "ann", "bob", t0.Add(time.Duration(i)*time.Minute))
	}
	return gs
}

// TestImportedGamesListedAfterUpgrade: a store whose imported games were
// never listed by player (CreateAll before stop 33, the list marked
// backfilled) lists them once New has run again.
func TestImportedGamesListedAfterUpgrade(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	db := testsvc.Mongo(t)
	s, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateAll(ctx, batchOf("f", 3, t0)); err != nil {
		t.Fatal(err)
	}
	// As such a store stands: no entries, the old mark.
	if err := db.Collection(gamedb.ByPlayer).Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Collection(gamedb.ByPlayer).InsertOne(ctx, bson.D{{Key: "_id", Value: "!backfilled"}}); err != nil {
		t.Fatal(err)
	}
	if s, err = gamedb.New(ctx, db); err != nil {
		t.Fatal(err)
	}
	gs, err := s.PlayerGames(ctx, intake.GamesQuery{Player: "bob"})
	if err != nil || len(gs) != 3 {
		t.Fatalf("bob's games after the upgrade: %v, %v; want 3", len(gs), err)
	}
}
