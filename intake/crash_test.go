package intake_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

var errCrash = errors.New("injected crash")

// crashingGames dies at MarkRated: the game is stored and rated, but not
// marked.
type crashingGames struct{ intake.Store }

func (crashingGames) MarkRated(context.Context, string) error { return errCrash }

// crashingRatings dies before rating: the operation is never created.
type crashingRatings struct{ rating.Store }

func (crashingRatings) CreateOp(context.Context, rating.Operation) (rating.Operation, error) {
	return rating.Operation{}, errCrash
}

// TestIntakeCrashThenRecover: the process dies after storing a game and
// before rating it, or after rating it and before marking it; the restart
// recovery (games' Recover after rating's) completes it, once, and the
// source's retry gets the same answer as a first submission would have.
func TestIntakeCrashThenRecover(t *testing.T) {
	for _, where := range []string{"before rating", "before marking rated"} {
		for _, kind := range testsvc.MongoKinds() {
			t.Run(where+"/"+kind, func(t *testing.T) { intakeCrashThenRecover(t, where, kind) })
		}
	}
}

func intakeCrashThenRecover(t *testing.T, where, kind string) {
	ctx := context.Background()
	crashing := apptest.Real(t, apptest.DB(testsvc.MongoOf(t, kind)), apptest.Wrap(func(s app.Stores) app.Stores {
		if where == "before rating" {
			s.Ratings = crashingRatings{s.Ratings}
		} else {
			s.Games = crashingGames{s.Games}
		}
		return s
	}))
	for _, n := range []string{"alice", "bob"} {
		if err := crashing.Stores.Accounts.CreateAccount(ctx, players.Account{Username: n, Role: players.RolePlayer, PasswordHash: "x", CreatedAt: time.Unix(0, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	rec := games.RandomRecord(rand.New(rand.NewPCG(3, 3)), 9, 50, false)
	sub := intake.Submission{SourceID: "crash-1", Black: "alice", White: "bob", Record: rec, By: "srv"}
	if _, err := crashing.Intake.Submit(ctx, sub); !errors.Is(err, errCrash) {
		t.Fatalf("the crash was not injected: %v", err)
	}

	// The restart: the same stores, wired again.
	restarted := apptest.Real(t, apptest.DB(crashing.DB))
	if _, err := restarted.Ratings.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	n, err := restarted.Intake.Recover(ctx)
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want the one game", n, err)
	}
	if n, err := restarted.Intake.Recover(ctx); err != nil || n != 0 {
		t.Fatalf("second Recover = %d, %v; want nothing left", n, err)
	}
	again := sub
	again.Record = games.RandomRecord(rand.New(rand.NewPCG(3, 3)), 9, 50, false)
	a, err := restarted.Intake.Submit(ctx, again)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Retry || a.Game.Status != intake.StatusRated {
		t.Fatalf("the retry: %+v", a)
	}
	winner, loser := a.Rating.Black, a.Rating.White
	if rec.EndBy == games.Black {
		winner, loser = loser, winner
	}
	if winner.Delta != 5 || loser.Delta != -5 || winner.Score != 5 {
		t.Fatalf("rated %+v / %+v, want +5 / -5 once", winner, loser)
	}
	for _, name := range []string{"alice", "bob"} {
		h, err := restarted.Ratings.History(ctx, name, 0, 10)
		if err != nil || len(h) != 1 {
			t.Fatalf("%s's ledger: %v, %v; want one entry", name, h, err)
		}
		if err := restarted.Ratings.Verify(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCrashBeforeProjectionsWritten: the players' projections of rated
// games are held back (app.RatedMarkLinger) and the process dies before
// they are written. The restart reads the players as before those games
// (the leaderboard is their projections), but the games' unrated marks
// are still there, since they go only after the projections: the restart
// recovery brings every player's projection to their last game, once.
func TestCrashBeforeProjectionsWritten(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) { crashBeforeProjectionsWritten(t, kind) })
	}
}

func crashBeforeProjectionsWritten(t *testing.T, kind string) {
	ctx := context.Background()
	db := testsvc.MongoOf(t, kind)
	open := []app.OpenOption{app.RatedMarksLinger(time.Hour)} // nothing written before the "crash"
	if kind == testsvc.KindFerretDB {
		open = append(open, app.SoleWriter()) // as rankd opens its embedded store
	}
	first := apptest.Real(t, apptest.DB(db), apptest.Open(open...))
	for _, n := range []string{"alice", "bob", "carol"} {
		if err := first.Stores.Accounts.CreateAccount(ctx, players.Account{Username: n, Role: players.RolePlayer, PasswordHash: "x", CreatedAt: time.Unix(0, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	// A first game before, written for good: the heads the others move.
	sub := func(i int, black, white string) {
		t.Helper()
		rec := games.RandomRecord(rand.New(rand.NewPCG(uint64(i), 5)), 9, 50, false)
		if _, err := first.Intake.Submit(ctx, intake.Submission{SourceID: fmt.Sprint("held-", i), Black: black, White: white, Record: rec, By: "srv"}); err != nil {
			t.Fatal(err)
		}
	}
	sub(0, "alice", "bob")
	first.Stores.Drain()
	board := func(s *apptest.Stack) map[string]int {
		t.Helper()
		page, err := s.Ratings.Leaderboard(ctx, rating.LeaderQuery{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, p := range page {
			out[p.Username] = p.Score
		}
		return out
	}
	before := board(first)
	for i, pair := range [][2]string{{"bob", "alice"}, {"alice", "carol"}, {"carol", "bob"}} {
		sub(i+1, pair[0], pair[1])
	}
	want := map[string]int{}
	for _, n := range []string{"alice", "bob", "carol"} {
		h, err := first.Ratings.History(ctx, n, 0, 1)
		if err != nil || len(h) != 1 {
			t.Fatalf("%s's ledger: %v, %v", n, h, err)
		}
		want[n] = h[0].ScoreAfter
	}
	if got := board(first); !maps.Equal(got, want) && kind == testsvc.KindFerretDB {
		t.Fatalf("the sole writer's leaderboard before the crash: %v, want %v", got, want)
	}

	// The "crash": a second process on the same store, the first one's
	// held-back projections never written.
	restarted := apptest.Real(t, apptest.DB(db), apptest.Open(open[1:]...))
	if got := board(restarted); !maps.Equal(got, before) {
		t.Fatalf("the projections after the crash: %v, want as before the held games %v", got, before)
	}
	if _, err := restarted.Ratings.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := restarted.Intake.Recover(ctx); err != nil || n != 3 {
		t.Fatalf("Recover = %d, %v; want the three games whose marks stayed", n, err)
	}
	restarted.Stores.Drain()
	if got := board(restarted); !maps.Equal(got, want) {
		t.Fatalf("the leaderboard after recovery: %v, want %v", got, want)
	}
	again := apptest.Real(t, apptest.DB(db), apptest.Open(open[1:]...))
	if got := board(again); !maps.Equal(got, want) {
		t.Fatalf("the stored projections after recovery: %v, want %v", got, want)
	}
	for _, n := range []string{"alice", "bob", "carol"} {
		if err := again.Ratings.Verify(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConflictRatesTheStoredGame: a game is stored and its first
// submission dies before rating it; another submission under the same
// source_id with other content is refused as a conflict, and the stored
// game is rated by then, once (on a Mongo store the conflicting call's
// own mark stays beside the game until that rating, so that a rating in
// flight of the first submission is never left unmarked).
func TestConflictRatesTheStoredGame(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			db := testsvc.MongoOf(t, kind)
			crashing := apptest.Real(t, apptest.DB(db), apptest.Wrap(func(s app.Stores) app.Stores {
				s.Ratings = crashingRatings{s.Ratings}
				return s
			}))
			for _, n := range []string{"alice", "bob"} {
				if err := crashing.Stores.Accounts.CreateAccount(ctx, players.Account{Username: n, Role: players.RolePlayer, PasswordHash: "x", CreatedAt: time.Unix(0, 0)}); err != nil {
					t.Fatal(err)
				}
			}
			first := intake.Submission{SourceID: "dup-1", Black: "alice", White: "bob", Record: games.RandomRecord(rand.New(rand.NewPCG(4, 4)), 9, 50, false), By: "srv"}
			if _, err := crashing.Intake.Submit(ctx, first); !errors.Is(err, errCrash) {
				t.Fatalf("the crash was not injected: %v", err)
			}
			other := apptest.Real(t, apptest.DB(db))
			g, err := other.Intake.Game(ctx, intake.GameIDFor("dup-1"))
			if err != nil || g.Status != intake.StatusFinished {
				t.Fatalf("the stored game: %v, %v; want finished, not rated", g.Status, err)
			}
			conflicting := first
			conflicting.Record = games.RandomRecord(rand.New(rand.NewPCG(5, 5)), 9, 60, false)
			var ce *intake.ConflictError
			if _, err := other.Intake.Submit(ctx, conflicting); !errors.As(err, &ce) {
				t.Fatalf("the conflicting submission: %v, want a conflict", err)
			}
			if g, err := other.Intake.Game(ctx, intake.GameIDFor("dup-1")); err != nil || g.Status != intake.StatusRated {
				t.Fatalf("the stored game after the conflict: %v, %v; want rated", g.Status, err)
			}
			other.Stores.Drain()
			again := apptest.Real(t, apptest.DB(db))
			if n, err := again.Intake.Recover(ctx); err != nil || n != 0 {
				t.Fatalf("Recover after the conflict = %d, %v; want nothing left", n, err)
			}
			for _, n := range []string{"alice", "bob"} {
				h, err := again.Ratings.History(ctx, n, 0, 10)
				if err != nil || len(h) != 1 {
					t.Fatalf("%s's ledger: %v, %v; want the stored game once", n, h, err)
				}
			}
		})
	}
}
