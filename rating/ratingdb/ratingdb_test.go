package ratingdb_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"go.mongodb.org/mongo-driver/v2/event"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

func TestContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			ratingtest.RunBatch(t, func(t *testing.T) rating.BatchStore {
				s, err := ratingdb.New(context.Background(), testsvc.MongoOf(t, kind))
				if err != nil {
					t.Fatal(err)
				}
				return s
			})
		})
	}
}

// The sole writer's projections in memory answer as the store would.
func TestContractSoleWriter(t *testing.T) {
	ratingtest.RunBatch(t, func(t *testing.T) rating.BatchStore {
		s, err := ratingdb.New(context.Background(), testsvc.Mongo(t), ratingdb.SoleWriter())
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestSoleWriterLeaderboard: the leaderboard a sole writer serves from
// memory is, page by page and under every filter, the one the store's
// query gives (read through a Store that is not one), also after players
// moved, and again after a restart that reads the projections back.
func TestSoleWriterLeaderboard(t *testing.T) {
	ctx := context.Background()
	var reads atomic.Int64 // finds of rating_players
	db := testsvc.MongoMonitored(t, testsvc.KindFerretDB, &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		if coll, _ := e.Command.Lookup(e.CommandName).StringValueOK(); e.CommandName == "find" && coll == ratingdb.Players {
			reads.Add(1)
		}
	}})
	sole, err := ratingdb.New(ctx, db, ratingdb.SoleWriter())
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ratingdb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 9))
	var all []rating.PlayerState
	for i := range 60 {
		p := rating.NewPlayer(fmt.Sprintf("p%02d", i))
		p.Score = 1000 + 50*r.IntN(8) // many ties: the name orders them
		if err := sole.Commit(ctx, p); err != nil {
			t.Fatal(err)
		}
		all = append(all, p)
	}
	for _, p := range all[:20] { // moved: the old score's place is gone
		p.Version, p.Op, p.Score = 1, "op-"+p.Username, p.Score+25*r.IntN(5)-50
		if err := sole.Commit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	ip := func(v int) *int { return &v }
	same := func(t *testing.T, mem *ratingdb.Store) {
		t.Helper()
		for _, q := range []rating.LeaderQuery{
			{Limit: 7}, {Limit: 100}, {MinScore: ip(1100), Limit: 9}, {MaxScore: ip(1200), Limit: 9},
			{MinScore: ip(1050), MaxScore: ip(1250), Limit: 4}, {MinScore: ip(5000), Limit: 3},
		} {
			for page := 0; page < 20; page++ {
				want, err := plain.Leaderboard(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				before := reads.Load()
				got, err := mem.Leaderboard(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if n := reads.Load() - before; n != 0 {
					t.Fatalf("the sole writer read the projections %d times for a page", n)
				}
				if len(got) != len(want) {
					t.Fatalf("query %+v page %d: %d rows from memory, %d from the store", q, page, len(got), len(want))
				}
				for i := range want {
					if got[i].Username != want[i].Username || got[i].Score != want[i].Score || got[i].Version != want[i].Version {
						t.Fatalf("query %+v page %d row %d: %s %d v%d from memory, %s %d v%d from the store", q, page, i,
							got[i].Username, got[i].Score, got[i].Version, want[i].Username, want[i].Score, want[i].Version)
					}
				}
				if len(want) < q.Limit {
					break
				}
				last := want[len(want)-1]
				q.After = &rating.LeaderCursor{Score: last.Score, Username: last.Username}
			}
		}
	}
	same(t, sole)
	restarted, err := ratingdb.New(ctx, db, ratingdb.SoleWriter())
	if err != nil {
		t.Fatal(err)
	}
	same(t, restarted)
}

// TestNewIsIdempotent: every rankd start calls New on the same database.
func TestNewIsIdempotent(t *testing.T) {
	db := testsvc.Mongo(t)
	for i := range 2 {
		if _, err := ratingdb.New(context.Background(), db); err != nil {
			t.Fatalf("New #%d: %v", i+1, err)
		}
	}
}
