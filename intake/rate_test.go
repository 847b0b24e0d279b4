package intake_test

import (
	"testing"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/rating"
)

// TestRatingInput: the verdict decides the winner and the outcome the ladder
// sees; escape, handicap and moves pass through.
func TestRatingInput(t *testing.T) {
	for _, tc := range []struct {
		name     string
		end      games.EndReason
		winner   games.Color
		handicap int
		want     rating.GameInput
	}{
		{"black wins", games.EndResign, games.Black, 0, rating.GameInput{Winner: rating.SideBlack, Game: rating.Game{Moves: 50}}},
		{"white wins by escape", games.EndEscape, games.White, 0, rating.GameInput{Winner: rating.SideWhite, Game: rating.Game{Moves: 50, Escape: true}}},
		{"counted draw", games.EndScore, games.Empty, 0, rating.GameInput{Game: rating.Game{Moves: 50, Outcome: rating.Draw}}},
		{"void", games.EndVoid, games.Empty, 0, rating.GameInput{Game: rating.Game{Moves: 50, Outcome: rating.Void}}},
		{"handicap", games.EndTime, games.White, 3, rating.GameInput{Winner: rating.SideWhite, Game: rating.Game{Moves: 50, Handicap: 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := intake.StoredGame{ID: "g", SourceID: "s", Black: "alice", White: "bob", SubmittedBy: "srv",
				Record: &games.Record{Handicap: tc.handicap}, Verdict: &games.Verdict{Winner: tc.winner, End: tc.end, Moves: 50}}
			got, err := intake.RatingInput(g)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			want.ID, want.Black, want.White, want.SourceID, want.Actor = "g", "alice", "bob", "s", "srv"
			want.GameHash = intake.BoundHash(g) // the stored game, bound into the ledger
			if got != want {
				t.Fatalf("RatingInput = %+v, want %+v", got, want)
			}
		})
	}
	if _, err := intake.RatingInput(intake.StoredGame{ID: "p", Status: intake.StatusPending}); err == nil {
		t.Fatal("a pending game became rating input")
	}
}
