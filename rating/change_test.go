package rating_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

func intp(n int) *int { return &n }

// TestChanges: an admin's adjustments and placements, an exam's
// certification and a revocation, each one ledger entry with its cause,
// actor, reason and certified rank before and after; each applied once
// per key.
func TestChanges(t *testing.T) {
	svc := rating.NewService(newStore(t), rating.ServiceConfig{Now: fixedClock})
	place, _ := rating.PlacementScore(ranks.MustParse("3k"))
	for i, tc := range []struct {
		in        rating.ChangeInput
		score     int
		certified string
		delta     int
	}{
		{rating.ChangeInput{Cause: rating.CausePlacement, Score: &place, Reason: "plays 3k at the club"}, -200, "", -200},
		{rating.ChangeInput{Cause: rating.CauseAdjustment, Delta: intp(35), Reason: "server outage lost a win"}, -165, "", 35},
		{rating.ChangeInput{Cause: rating.CauseExam, CauseID: "s@t/alice", Certify: ranks.MustParse("2k"), KeepHigher: true,
			Reason: "passed", Evidence: []string{"g1", "g2"}, Actor: "system:exams"}, -165, "2k", 0},
		{rating.ChangeInput{Cause: rating.CauseExam, CauseID: "s2@t/alice", Certify: ranks.MustParse("4k"), KeepHigher: true,
			Reason: "passed a lower exam late", Actor: "system:exams"}, -165, "2k", 0},
		{rating.ChangeInput{Cause: rating.CauseRevocation, Revoke: true, Reason: "exam games were fixed"}, -165, "", 0},
		{rating.ChangeInput{Cause: rating.CausePlacement, Certify: ranks.MustParse("1k"), Score: intp(10), Reason: "certified by the national association"}, 10, "1k", 175},
	} {
		in := tc.in
		in.Key, in.Player = fmt.Sprint("k", i), "alice"
		if in.Actor == "" {
			in.Actor = "root"
		}
		got, err := svc.Change(bg, in)
		if err != nil {
			t.Fatalf("change %d: %v", i, err)
		}
		p, e := got.Players[0], got.Entries[0]
		if p.Score != tc.score || rankString(p.Certified) != tc.certified || e.Delta != tc.delta || e.Seq != int64(i+1) ||
			e.Cause != in.Cause || e.Actor != in.Actor || e.Reason != in.Reason || e.CertifiedAfter != tc.certified && (in.Revoke || !in.Certify.IsZero()) {
			t.Fatalf("change %d gave %+v\n%+v", i, p, e)
		}
		again, err := svc.Change(bg, in)
		if err != nil || fmt.Sprint(again) != fmt.Sprint(got) {
			t.Fatalf("change %d again = %+v, %v; want the same", i, again, err)
		}
	}
	st, _ := svc.Player(bg, "alice")
	if st.Games != 0 || st.Certified != ranks.MustParse("1k") || st.Seq != 6 {
		t.Fatalf("alice ends at %+v", st)
	}
	if err := svc.Verify(bg, "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Change(bg, rating.ChangeInput{Key: "k1", Player: "alice", Cause: rating.CauseAdjustment, Delta: intp(1), Reason: "other", Actor: "root"}); !errors.Is(err, rating.ErrKeyReused) {
		t.Fatalf("another change under a used key: %v", err)
	}
	if _, err := svc.Change(bg, rating.ChangeInput{Key: "r", Player: "bob", Cause: rating.CauseRevocation, Revoke: true, Reason: "r"}); !errors.Is(err, rating.ErrNoCertifiedRank) {
		t.Fatalf("revoking nothing: %v", err)
	}
}

func rankString(r ranks.Rank) string {
	if r.IsZero() {
		return ""
	}
	return r.String()
}

func TestChangeRefusesBadInput(t *testing.T) {
	svc := rating.NewService(newStore(t), rating.ServiceConfig{Now: fixedClock})
	ok := rating.ChangeInput{Key: "k", Player: "alice", Cause: rating.CauseAdjustment, Delta: intp(5), Reason: "why"}
	for _, tc := range []struct {
		field string
		edit  func(*rating.ChangeInput)
	}{
		{"key", func(in *rating.ChangeInput) { in.Key = " " }},
		{"player", func(in *rating.ChangeInput) { in.Player = "" }},
		{"cause", func(in *rating.ChangeInput) { in.Cause = rating.CauseGame }},
		{"delta", func(in *rating.ChangeInput) { in.Score = intp(3) }},
		{"delta", func(in *rating.ChangeInput) { in.Delta = nil }},
		{"delta", func(in *rating.ChangeInput) { in.Delta = intp(rating.ScoreLimit + 1) }},
		{"score", func(in *rating.ChangeInput) { in.Delta, in.Score = nil, intp(-rating.ScoreLimit-1) }},
		{"certify", func(in *rating.ChangeInput) { in.Certify, in.Revoke = ranks.MustParse("1d"), true }},
		{"certified_rank", func(in *rating.ChangeInput) { in.Certify = ranks.MustParse("3p") }},
		{"reason", func(in *rating.ChangeInput) { in.Reason = "" }},
	} {
		in := ok
		tc.edit(&in)
		_, err := svc.Change(bg, in)
		var ie *rating.InputError
		if !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("%+v: %v, want an InputError on %s", in, err, tc.field)
		}
	}
	if _, err := svc.Player(bg, "alice"); !errors.Is(err, rating.ErrNotFound) {
		t.Fatalf("a refused change wrote something: %v", err)
	}
}

// TestAnnul: both players' deltas come back by compensating entries, the
// counts too, Glicko-2 stays; once per game; later games stay as they
// are.
func TestAnnul(t *testing.T) {
	svc := rating.NewService(newStore(t), rating.ServiceConfig{Now: fixedClock})
	if _, err := svc.Apply(bg, game("g1", "alice", "bob", rating.SideBlack)); err != nil {
		t.Fatal(err)
	}
	later, err := svc.Apply(bg, game("g2", "bob", "alice", rating.SideBlack))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := svc.AnnulledGame(bg, "g1"); ok || err != nil {
		t.Fatalf("g1 annulled before its annulment: %v, %v", ok, err)
	}
	got, err := svc.Annul(bg, rating.AnnulInput{GameID: "g1", Actor: "root", Reason: "alice used an engine"})
	if err != nil {
		t.Fatal(err)
	}
	if a, ok, err := svc.AnnulledGame(bg, "g1"); !ok || err != nil || a.Actor != "root" || a.Reason != "alice used an engine" || !a.At.Equal(got.Entries[0].At) {
		t.Fatalf("AnnulledGame(g1) = %+v, %v, %v", a, ok, err)
	}
	alice, bob := got.Players[0], got.Players[1]
	if alice.Score != later.White.Score-5 || bob.Score != later.Black.Score+5 || alice.Games != 1 || alice.Wins != 0 || bob.Losses != 0 || bob.Wins != 1 {
		t.Fatalf("after the annulment: %+v\n%+v", alice, bob)
	}
	if alice.Glicko != later.White.Glicko {
		t.Fatalf("Glicko-2 moved: %+v, was %+v", alice.Glicko, later.White.Glicko)
	}
	for _, e := range got.Entries {
		if e.Cause != rating.CauseAnnulment || e.CauseID != "g1" || e.Reason != "alice used an engine" || e.Actor != "root" || e.Seq != 3 {
			t.Fatalf("entry %+v", e)
		}
	}
	again, err := svc.Annul(bg, rating.AnnulInput{GameID: "g1", Actor: "other", Reason: "again"})
	if err != nil || fmt.Sprint(again) != fmt.Sprint(got) {
		t.Fatalf("second annulment = %+v, %v; want the first", again, err)
	}
	if read, err := svc.Annulment(bg, "g1"); err != nil || fmt.Sprint(read) != fmt.Sprint(got) {
		t.Fatalf("Annulment = %+v, %v", read, err)
	}
	if _, err := svc.Annulment(bg, "g2"); !errors.Is(err, rating.ErrNotFound) {
		t.Fatalf("Annulment of a game not annulled: %v", err)
	}
	if _, err := svc.Annul(bg, rating.AnnulInput{GameID: "nope", Actor: "root", Reason: "r"}); !errors.Is(err, rating.ErrNotRated) {
		t.Fatalf("annulling an unknown game: %v", err)
	}
	if _, err := svc.Annul(bg, rating.AnnulInput{GameID: "g2", Actor: "root"}); !errors.Is(err, rating.ErrInvalidGame) {
		t.Fatalf("annulling without a reason: %v", err)
	}
	rep, err := svc.VerifyAll(bg, "t")
	if err != nil || !rep.OK() || rep.Games != 2 || rep.Entries != 6 || rep.Players != 2 {
		t.Fatalf("verify after the annulment: %+v, %v", rep, err)
	}
}

// TestChangesQueueWithGames: changes and games of the same players from
// two services at once: every one applied once, in one chain per player.
func TestChangesQueueWithGames(t *testing.T) {
	store := newStore(t)
	svcs := []*rating.Service{rating.NewService(store, rating.ServiceConfig{}), rating.NewService(store, rating.ServiceConfig{})}
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			svc := svcs[i%2]
			var err error
			if i%3 == 0 {
				_, err = svc.Change(bg, rating.ChangeInput{Key: fmt.Sprint("c", i), Player: "alice", Cause: rating.CauseAdjustment, Delta: intp(1), Reason: "r", Actor: "root"})
			} else {
				_, err = svc.Apply(bg, game(fmt.Sprint("g", i), "alice", "bob", rating.SideBlack))
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	alice, _ := svcs[0].Player(bg, "alice")
	if alice.Seq != 12 || alice.Games != 8 {
		t.Fatalf("alice has %d entries and %d games, want 12 and 8", alice.Seq, alice.Games)
	}
	if rep, err := svcs[1].VerifyAll(bg, "t"); err != nil || !rep.OK() {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
}

// TestChangeCrashAtEveryStep: the process dies before or after each write
// of a certification; the restart recovery or the retry completes it,
// once.
func TestChangeCrashAtEveryStep(t *testing.T) {
	in := rating.ChangeInput{Key: "exam:s/alice", Player: "alice", Cause: rating.CauseExam, Certify: ranks.MustParse("1d"),
		Reason: "passed", Actor: "system:exams", Evidence: []string{"g1"}}
	probe := &crashStore{Store: newStore(t), after: 1 << 30}
	if _, err := rating.NewService(probe.Store, rating.ServiceConfig{Now: fixedClock}).Apply(bg, game("g0", "alice", "bob", rating.SideBlack)); err != nil {
		t.Fatal(err)
	}
	if _, err := rating.NewService(probe, rating.ServiceConfig{Now: fixedClock}).Change(bg, in); err != nil {
		t.Fatal(err)
	}
	for k, step := range probe.log {
		for _, before := range []bool{true, false} {
			for _, repair := range []string{"recover", "retry"} {
				t.Run(fmt.Sprintf("%s %v %s", step, before, repair), func(t *testing.T) {
					store := newStore(t)
					svc := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
					if _, err := svc.Apply(bg, game("g0", "alice", "bob", rating.SideBlack)); err != nil {
						t.Fatal(err)
					}
					crashing := &crashStore{Store: store, after: k, beforeWrite: before}
					if _, err := rating.NewService(crashing, rating.ServiceConfig{Now: fixedClock}).Change(bg, in); !errors.Is(err, errCrash) {
						t.Fatalf("the crash was not injected: %v", err)
					}
					if repair == "recover" {
						if _, err := svc.Recover(bg); err != nil {
							t.Fatal(err)
						}
					}
					got, err := svc.Change(bg, in)
					if err != nil {
						t.Fatal(err)
					}
					st, _ := svc.Player(bg, "alice")
					if st.Certified != ranks.MustParse("1d") || st.Seq != 2 || got.Entries[0].Seq != 2 || st.Score != 5 {
						t.Fatalf("alice ends at %+v after %+v", st, got)
					}
					if rep, err := svc.VerifyAll(bg, "t"); err != nil || !rep.OK() {
						t.Fatalf("verify: %+v, %v", rep, err)
					}
				})
			}
		}
	}
}
