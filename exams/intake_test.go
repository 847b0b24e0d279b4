package exams_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/rating"
)

// TestGamesLadderAndLedgerAsExamsUseThem: the exam games are pending
// games of the intake, their outcomes are read back from it (who checked
// in, who won, an annulment), the ladder and certified rank from the
// rating service, and a certification is one ledger entry.
func TestGamesLadderAndLedgerAsExamsUseThem(t *testing.T) {
	r := newRig(t)
	r.set(t, "ann", 120)
	r.set(t, "bob", 80)
	eg := exams.Game{ID: "wk@2026-03-07T11:00:00Z#1", SessionID: "wk@2026-03-07T11:00:00Z", Black: "ann", White: "bob",
		BoardSize: 19, Rules: "japanese", TimeControl: exams.DefaultTimeControl, Rated: true, Deadline: firing.Add(3 * time.Hour)}
	for range 2 {
		if err := exams.CreateGame(r.svc, ctx, eg); err != nil {
			t.Fatal(err)
		}
	}
	sg, err := r.Intake.Game(ctx, exams.GameID(eg.ID))
	if err != nil || sg.Status != intake.StatusPending || !sg.ExpiresAt.Equal(eg.Deadline) || sg.Record.Komi != 6.5 ||
		sg.TimeControl != "1200+3x30" || sg.SourceID != "exam:"+eg.ID || !sg.Rated {
		t.Fatalf("pending exam game %+v, %v", sg, err)
	}
	if err := exams.CreateGame(r.svc, ctx, exams.Game{ID: "x", Black: "ann", White: "bob", Rules: "klingon"}); err == nil {
		t.Fatal("unknown rules accepted")
	}

	o, err := exams.OutcomeOf(r.svc, ctx, eg.ID)
	if err != nil || o.Finished || len(o.Present) != 0 {
		t.Fatalf("outcome of an untouched game: %+v, %v", o, err)
	}
	r.setTime(firing)
	if _, err := r.Intake.CheckIn(ctx, sg.ID, "bob"); err != nil {
		t.Fatal(err)
	}
	if o, _ := exams.OutcomeOf(r.svc, ctx, eg.ID); fmt.Sprint(o.Present) != "[bob]" {
		t.Fatalf("outcome after bob checked in: %+v", o)
	}
	r.report(t, eg, exams.Outcome{Finished: true, Winner: "bob"})
	if o, _ := exams.OutcomeOf(r.svc, ctx, eg.ID); !o.Finished || o.Winner != "bob" || o.Void {
		t.Fatalf("outcome after bob won: %+v", o)
	}
	if _, err := r.Ratings.Annul(ctx, rating.AnnulInput{GameID: sg.ID, Actor: "root", Reason: "fixed"}); err != nil {
		t.Fatal(err)
	}
	if o, _ := exams.OutcomeOf(r.svc, ctx, eg.ID); !o.Finished || !o.Void {
		t.Fatalf("outcome after the annulment: %+v", o)
	}
	if _, err := exams.OutcomeOf(r.svc, ctx, "nope"); !errors.Is(err, exams.ErrNotFound) {
		t.Fatalf("outcome of no game: %v", err)
	}

	// The ladder and certified rank come from the rating service, under
	// the account's stored name; a certification is one exam entry of the
	// ledger per result (TestExamOnRealStoresResumesAfterACrash).
	if st, err := exams.StateOf(r.svc, ctx, "ANN"); err != nil || st.Score != 120 || st.Username != "ann" {
		t.Fatalf("ann's state %+v, %v", st, err)
	}
	if _, err := exams.StateOf(r.svc, ctx, "nobody"); !errors.Is(err, exams.ErrUnknownPlayer) {
		t.Fatalf("unknown player: %v", err)
	}
}

// TestExamOnRealStoresResumesAfterACrash: a whole session on the real
// stores: games made as pending games, some played and submitted, some
// forfeited by a no-show; the first grader dies between two
// passing candidates; a second replica resumes and grades each candidate
// once, certifying each pass by one ledger entry with its evidence.
func TestExamOnRealStoresResumesAfterACrash(t *testing.T) {
	r := newRig(t)
	for name, score := range map[string]int{"ann": 90, "bob": 80, "cat": 70, "dan": 60} {
		r.set(t, name, score)
	}
	first := r.svc
	s, err := first.CreateSchedule(ctx, "", exams.Draft{TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		SessionLength: "3h", GamesPerCandidate: new(2), WinsNeeded: new(2)}, "root")
	if err != nil {
		t.Fatal(err)
	}
	r.setTime(firing.Add(-time.Hour))
	for _, p := range []string{"ann", "bob", "cat", "dan"} {
		if _, _, err := first.Register(ctx, exams.RegisterRequest{ScheduleID: s.ID, Player: p}); err != nil {
			t.Fatal(err)
		}
	}
	r.setTime(firing)
	if err := first.Tick(ctx, firing); err != nil {
		t.Fatal(err)
	}
	sess, err := r.store.Session(ctx, exams.SessionID(s.ID, firing))
	if err != nil || sess.State != exams.SessionOpen || len(sess.Pairing) != 4 {
		t.Fatalf("session %+v, %v", sess, err)
	}
	// ann and cat win what they play against the others: every other such
	// game over the board, the rest by forfeit (only they check in); a
	// game without either is void (nobody comes).
	forfeits := 0
	for i, g := range sess.Pairing {
		fav := ""
		for _, p := range []string{g.Black, g.White} {
			if p == "ann" || p == "cat" {
				fav += p
			}
		}
		switch {
		case fav == "ann" || fav == "cat":
			if i%2 == 0 {
				r.report(t, g, exams.Outcome{Finished: true, Winner: fav})
				continue
			}
			if _, err := r.Intake.CheckIn(ctx, exams.GameID(g.ID), fav); err != nil {
				t.Fatal(err)
			}
			forfeits++
		case fav != "":
			r.report(t, g, exams.Outcome{Finished: true, Winner: g.Black})
		}
	}
	r.setTime(sess.Deadline)
	var pg []exams.Game
	for _, g := range sess.Pairing {
		o, err := exams.OutcomeOf(r.svc, ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		g.Settled = new(exams.Settle(g.Black, g.White, o))
		pg = append(pg, g)
	}
	var want []string
	for _, c := range sess.Candidates {
		if exams.TallyGames(c, pg).Passes(2) {
			want = append(want, c)
		}
	}
	if len(want) < 2 {
		t.Fatalf("want two passers to die between, have %v", want)
	}
	r.faults.set(&r.faults.failCertify, want[1])
	if _, err := first.Grade(ctx, sess.ID, sess.Deadline); err == nil {
		t.Fatal("the first grader did not die")
	}
	second := r.svc
	if _, err := second.Grade(ctx, sess.ID, sess.Deadline.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := second.Tick(ctx, sess.Deadline.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	done, _ := r.store.Session(ctx, sess.ID)
	if done.State != exams.SessionGraded {
		t.Fatalf("session %s after resuming", done.State)
	}
	settled := 0
	for _, g := range done.Pairing {
		if g.Settled.Kind == exams.SettledForfeit {
			settled++
		}
	}
	if forfeits == 0 || settled != forfeits {
		t.Errorf("%d games settled as forfeits, want the %d no-shows", settled, forfeits)
	}
	var got []string
	entries, _ := r.Ratings.Audit(ctx, rating.AuditQuery{Cause: rating.CauseExam, Limit: 50})
	for _, e := range entries {
		got = append(got, e.Username)
		if e.CertifiedAfter != "1d" || len(e.Evidence) != 2 || e.Actor != exams.Actor {
			t.Errorf("exam entry %+v", e)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("certified %v, want %v, once each", got, want)
	}
	results, _ := r.store.Results(ctx, sess.ID)
	for _, res := range results {
		if slices.Contains(want, res.Player) != (res.State == exams.ResultCertified) {
			t.Errorf("%s's result %s", res.Player, res.State)
		}
	}
	if rep, err := r.Ratings.VerifyAll(ctx, "t"); err != nil || !rep.OK() {
		t.Fatalf("verify after the exam: %+v, %v", rep, err)
	}
}
