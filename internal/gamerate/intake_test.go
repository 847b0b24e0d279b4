package gamerate_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/gamedb"
	"github.com/weiqi-platform/rank/internal/gamerate"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playerdb"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

var errCrash = errors.New("injected crash")

// crashingGames dies at MarkRated: the game is stored and rated, but not
// marked.
type crashingGames struct{ games.Store }

func (crashingGames) MarkRated(context.Context, string) error { return errCrash }

// crashingRater dies before rating.
type crashingRater struct{}

func (crashingRater) Rate(context.Context, games.StoredGame) (games.Rating, error) {
	return games.Rating{}, errCrash
}

// TestIntakeCrashThenRecover: the process dies after storing a game and
// before rating it, or after rating it and before marking it; the restart
// recovery (games' Recover after rating's) completes it, once, and the
// source's retry gets the same answer as a first submission would have.
func TestIntakeCrashThenRecover(t *testing.T) {
	for _, where := range []string{"before rating", "before marking rated"} {
		t.Run(where, func(t *testing.T) {
			ctx := context.Background()
			db := testsvc.Mongo(t)
			accounts, err := playerdb.New(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []string{"alice", "bob"} {
				if err := accounts.CreateAccount(ctx, players.Account{Username: n, Role: players.RolePlayer, PasswordHash: "x", CreatedAt: time.Unix(0, 0)}); err != nil {
					t.Fatal(err)
				}
			}
			gstore, err := gamedb.New(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			rstore, err := ratingdb.New(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			ratings := rating.NewService(rstore, rating.ServiceConfig{})
			rater := gamerate.Rater{Service: ratings}
			dir := gamerate.NewPlayers(accounts)

			var crashing *games.Intake
			if where == "before rating" {
				crashing = games.NewIntake(gstore, crashingRater{}, dir, nil, games.IntakeConfig{})
			} else {
				crashing = games.NewIntake(crashingGames{gstore}, rater, dir, nil, games.IntakeConfig{})
			}
			rec := games.RandomRecord(rand.New(rand.NewPCG(3, 3)), 9, 50, false)
			sub := games.Submission{SourceID: "crash-1", Black: "alice", White: "bob", Record: rec, By: "srv"}
			if _, err := crashing.Submit(ctx, sub); !errors.Is(err, errCrash) {
				t.Fatalf("the crash was not injected: %v", err)
			}

			// The restart.
			intake := games.NewIntake(gstore, rater, dir, nil, games.IntakeConfig{})
			if _, err := ratings.Recover(ctx); err != nil {
				t.Fatal(err)
			}
			n, err := intake.Recover(ctx)
			if err != nil || n != 1 {
				t.Fatalf("Recover = %d, %v; want the one game", n, err)
			}
			if n, err := intake.Recover(ctx); err != nil || n != 0 {
				t.Fatalf("second Recover = %d, %v; want nothing left", n, err)
			}
			again := sub
			again.Record = games.RandomRecord(rand.New(rand.NewPCG(3, 3)), 9, 50, false)
			a, err := intake.Submit(ctx, again)
			if err != nil {
				t.Fatal(err)
			}
			if !a.Retry || a.Game.Status != games.StatusRated {
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
				h, err := ratings.History(ctx, name, 0, 10)
				if err != nil || len(h) != 1 {
					t.Fatalf("%s's ledger: %v, %v; want one entry", name, h, err)
				}
				if err := ratings.Verify(ctx, name); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
