package rating_test

import (
	"testing"

	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// TestRecomputeReplaysGamesChangesAndAnnulments: a ledger of games (with
// placements), an adjustment, a certification and an annulment replays
// to exactly what is stored.
func TestRecomputeReplaysGamesChangesAndAnnulments(t *testing.T) {
	s := ratingtest.NewMemory()
	svc := rating.NewService(s, rating.ServiceConfig{Now: fixedClock, Placement: true})
	games := archiveGames(80)
	for _, g := range games[:40] {
		if _, err := svc.Apply(bg, g); err != nil {
			t.Fatal(err)
		}
	}
	delta := -30
	if _, err := svc.Change(bg, rating.ChangeInput{Key: "adj", Player: "p3", Cause: rating.CauseAdjustment, Delta: &delta, Reason: "test", Actor: "root"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Annul(bg, rating.AnnulInput{GameID: games[5].ID, Actor: "root", Reason: "cheating"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.ApplyBatch(bg, games[40:], nil); err != nil {
		t.Fatal(err)
	}
	rep, err := svc.Recompute(bg)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Players != 10 || rep.Operations != 80+2-countStill(games) {
		t.Fatalf("recompute: %+v", rep)
	}
}

// countStill counts the games that move no rating (no operation).
func countStill(gs []rating.GameInput) int {
	n := 0
	for _, g := range gs {
		if g.Game.Handicap >= 2 {
			n++
		}
	}
	return n
}
