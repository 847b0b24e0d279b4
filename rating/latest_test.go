package rating_test

import (
	"errors"
	"testing"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// A game's entries say how it went for each player, also when the delta
// is zero (a draw, or a win in under 40 moves that gains nothing).
func TestEntriesCarryTheResult(t *testing.T) {
	svc := rating.NewService(ratingtest.NewMemory(), rating.ServiceConfig{Now: fixedClock})
	short := game("g1", "ann", "bob", rating.SideBlack)
	short.Game.Moves = 30
	draw := game("g2", "ann", "bob", rating.SideNone)
	draw.Game.Outcome = rating.Draw
	for _, g := range []rating.GameInput{short, draw} {
		if _, err := svc.Apply(bg, g); err != nil {
			t.Fatal(err)
		}
	}
	ann, _ := svc.History(bg, "ann", 0, 10)
	bob, _ := svc.History(bg, "bob", 0, 10)
	if len(ann) != 2 || len(bob) != 2 {
		t.Fatalf("ledgers %+v %+v", ann, bob)
	}
	for _, c := range []struct {
		e      rating.LedgerEntry
		result string
		delta  int
	}{
		{ann[1], rating.ResultWin, 0}, {bob[1], rating.ResultLoss, -5}, {ann[0], rating.ResultDraw, 0}, {bob[0], rating.ResultDraw, 0},
	} {
		if c.e.Result != c.result || c.e.Delta != c.delta {
			t.Errorf("%s entry %d: result %q delta %d, want %q %d", c.e.Username, c.e.Seq, c.e.Result, c.e.Delta, c.result, c.delta)
		}
	}
	if err := svc.Verify(bg, "ann"); err != nil {
		t.Fatal(err)
	}
}

// A change allowed only before the first rated game: applied to a new
// player, refused with ErrPlayed after a game, also when asked again.
func TestChangeBeforeFirstGame(t *testing.T) {
	svc := rating.NewService(ratingtest.NewMemory(), rating.ServiceConfig{Now: fixedClock})
	score, _ := rating.PlacementScore(ranks.MustParse("5k"))
	place := func(key, player string) error {
		_, err := svc.Change(bg, rating.ChangeInput{Key: key, Player: player, Cause: rating.CausePlacement, Score: &score,
			Actor: "teacher1", Reason: "plays 5k at the club", BeforeFirstGame: true})
		return err
	}
	if err := place("p1", "cat"); err != nil {
		t.Fatal(err)
	}
	if st, _ := svc.Latest(bg, "cat"); st.Score != -400 {
		t.Fatalf("cat placed at %d", st.Score)
	}
	if _, err := svc.Apply(bg, game("g1", "cat", "dan", rating.SideBlack)); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		err := place("p2", "cat")
		var pe *rating.PlayedError
		if !errors.Is(err, rating.ErrPlayed) {
			t.Fatalf("placement after a game: %v, want ErrPlayed", err)
		}
		if errors.As(err, &pe) && pe.Games != 1 {
			t.Errorf("PlayedError %+v", pe)
		}
	}
	st, _ := svc.Player(bg, "cat")
	if st.Seq != 2 || st.Score != -400+10 {
		t.Fatalf("cat after the refused placement: %+v", st)
	}
	if err := svc.Verify(bg, "cat"); err != nil {
		t.Fatal(err)
	}
}

func TestLatest(t *testing.T) {
	svc := rating.NewService(ratingtest.NewMemory(), rating.ServiceConfig{Now: fixedClock})
	st, err := svc.Latest(bg, "newcomer")
	if err != nil || st.Score != rating.StartScore || st.Version != 0 || st.Games != 0 {
		t.Fatalf("Latest of a player never rated = %+v, %v", st, err)
	}
	if _, err := svc.Apply(bg, game("g1", "eve", "fay", rating.SideWhite)); err != nil {
		t.Fatal(err)
	}
	st, err = svc.Latest(bg, "fay")
	if err != nil || st.Games != 1 || st.Wins != 1 || st.Seq != 1 {
		t.Fatalf("Latest after a game = %+v, %v", st, err)
	}
}
