package intake_test

import (
	"context"
	"errors"
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
