package ratingdb_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

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

// Projections held back (as rankd holds them, ratingdb.DeferProjections)
// answer as written ones through the Store that holds them, on every
// kind of store and on a sole writer.
func TestContractDeferredProjections(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		for _, sole := range []bool{false, true} {
			if sole && kind != testsvc.KindFerretDB {
				continue
			}
			t.Run(fmt.Sprintf("%s/sole=%v", kind, sole), func(t *testing.T) {
				ratingtest.RunBatch(t, func(t *testing.T) rating.BatchStore {
					opts := []ratingdb.Option{ratingdb.DeferProjections(time.Hour)}
					if sole {
						opts = append(opts, ratingdb.SoleWriter())
					}
					s, err := ratingdb.New(context.Background(), testsvc.MongoOf(t, kind), opts...)
					if err != nil {
						t.Fatal(err)
					}
					return s
				})
			})
		}
	}
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

// TestFlushManyProjections: the projections of many players held back
// are written by one flush, readable through another Store afterwards,
// on every kind of store. On FerretDB v1 over PostgreSQL an update command
// of more statements than its connection pool stops the server for good
// (projBatch): the flush must come back.
func TestFlushManyProjections(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), testsvc.Ceiling)
			defer cancel()
			db := testsvc.MongoOf(t, kind)
			held, err := ratingdb.New(ctx, db, ratingdb.DeferProjections(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			const players = 120
			for round := range 2 { // created, then replaced
				for i := 0; i < players; i += 2 {
					a, b := fmt.Sprintf("p%03d", i), fmt.Sprintf("p%03d", i+1)
					from := map[string]rating.PlayerState{}
					for _, n := range []string{a, b} {
						st, err := held.Player(ctx, n)
						if err != nil {
							st = rating.NewPlayer(n)
						}
						from[n] = st
					}
					op := ratingtest.PlannedGame(fmt.Sprintf("g%d-%d", round, i), a, b, from)
					if ok, err := held.ApplyOp(ctx, op); !ok || err != nil {
						t.Fatalf("ApplyOp %s: %v, %v", op.ID, ok, err)
					}
				}
				if err := held.FlushProjections(ctx); err != nil {
					t.Fatalf("flush of round %d: %v", round, err)
				}
				other, err := ratingdb.New(ctx, db)
				if err != nil {
					t.Fatal(err)
				}
				page, err := other.Leaderboard(ctx, rating.LeaderQuery{Limit: 2 * players})
				if err != nil {
					t.Fatal(err)
				}
				if len(page) != players {
					t.Fatalf("round %d: %d players on the leaderboard, want %d", round, len(page), players)
				}
				for _, p := range page {
					if p.Version != int64(round+1) {
						t.Fatalf("round %d: %s at version %d, want %d", round, p.Username, p.Version, round+1)
					}
				}
			}
		})
	}
}
