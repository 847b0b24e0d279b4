package rating_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// TestAnnulRecomputeIsTheLadderWithoutTheGame: annulling an early game
// with recompute leaves every ladder score what rating the other games
// alone gives, by one audited correction per changed delta; a retry
// changes nothing; the store verifies and replays clean.
func TestAnnulRecomputeIsTheLadderWithoutTheGame(t *testing.T) {
	games := archiveGames(80)
	annulled := games[3]
	ref := rating.NewService(ratingtest.NewMemory(), rating.ServiceConfig{Now: fixedClock})
	for _, g := range games {
		if g.ID == annulled.ID {
			continue
		}
		if _, err := ref.Apply(bg, g); err != nil {
			t.Fatal(err)
		}
	}
	s := ratingtest.NewMemory()
	svc := rating.NewService(s, rating.ServiceConfig{Now: fixedClock})
	if err := applyBatches(svc, games, 20, nil); err != nil {
		t.Fatal(err)
	}
	in := rating.AnnulInput{GameID: annulled.ID, Actor: "root", Reason: "a cheat"}
	got, err := svc.AnnulRecompute(bg, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Annulment.Entries) != 2 || len(got.Corrections) < 2 {
		t.Fatalf("annulment %+v with %d corrections; want both players' entries and corrections", got.Annulment, len(got.Corrections))
	}
	for _, c := range got.Corrections {
		e := c.Entries[0]
		if e.Cause != rating.CauseAdjustment || e.Actor != "root" || len(e.Evidence) != 2 || e.Evidence[0] != annulled.ID || e.Delta == 0 {
			t.Fatalf("correction entry %+v", e)
		}
	}
	for i := range 10 {
		name := "p" + string(rune('0'+i))
		want, err := ref.Player(bg, name)
		if err != nil {
			t.Fatal(err)
		}
		have, err := svc.Player(bg, name)
		if err != nil {
			t.Fatal(err)
		}
		if have.Score != want.Score {
			t.Errorf("%s: score %d after the recompute, %d without the game", name, have.Score, want.Score)
		}
	}
	entries := len(ledgerOf(t, s))
	again, err := svc.AnnulRecompute(bg, in)
	if err != nil || len(again.Corrections) != len(got.Corrections) || len(ledgerOf(t, s)) != entries {
		t.Fatalf("a retry: %d corrections, %v; %d entries, were %d", len(again.Corrections), err, len(ledgerOf(t, s)), entries)
	}
	rep, err := svc.VerifyAll(bg, "after")
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
	if r, err := svc.Recompute(bg); err != nil || !r.OK() {
		t.Fatalf("recompute: %+v, %v", r, err)
	}
}

// TestAnnulRecomputeReasonRoom: a reason too long to be quoted in each
// correction's reason is refused before anything is written, where an
// annulment alone would take it; the longest allowed one recomputes.
func TestAnnulRecomputeReasonRoom(t *testing.T) {
	games := archiveGames(80)
	s := ratingtest.NewMemory()
	svc := rating.NewService(s, rating.ServiceConfig{Now: fixedClock})
	if err := applyBatches(svc, games, 20, nil); err != nil {
		t.Fatal(err)
	}
	before := len(ledgerOf(t, s))
	long := rating.AnnulInput{GameID: games[3].ID, Actor: "root", Reason: strings.Repeat("长", rating.MaxRecomputeReason+1)}
	_, err := svc.AnnulRecompute(bg, long)
	var ie *rating.InputError
	if !errors.As(err, &ie) || ie.Field != "reason" || !strings.Contains(ie.Error(), fmt.Sprint(rating.MaxRecomputeReason)) {
		t.Fatalf("a reason of %d characters: %v; want an input error naming the reason and its limit", rating.MaxRecomputeReason+1, err)
	}
	if n := len(ledgerOf(t, s)); n != before {
		t.Fatalf("the refused annulment wrote %d entries", n-before)
	}
	ok := long
	ok.Reason = strings.Repeat("长", rating.MaxRecomputeReason)
	got, err := svc.AnnulRecompute(bg, ok)
	if err != nil || len(got.Corrections) == 0 {
		t.Fatalf("a reason of %d characters: %d corrections, %v", rating.MaxRecomputeReason, len(got.Corrections), err)
	}
}
