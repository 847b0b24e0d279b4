package examtest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/ranks"
)

// T0 is the time the suite's data is made at.
var T0 = time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)

// Schedule returns a valid schedule with id.
func Schedule(id string) exams.Schedule {
	return exams.Schedule{
		ID: id, Target: ranks.MustParse("1d"), Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		RegistrationOpens: 168 * time.Hour, SessionLength: 24 * time.Hour, Games: 6, WinsNeeded: 4,
		MinLadderRank: ranks.MustParse("1k"), NominationWaives: true, BoardSize: 19, Rules: "chinese",
		TimeControl: exams.DefaultTimeControl, Rated: true, NeedsApproval: true,
		CreatedBy: "admin", CreatedAt: T0.Add(-time.Hour), OpenedThrough: T0.Add(-time.Hour),
	}
}

// StoreContract runs the contract on stores made by open (each call a
// fresh, empty store).
func StoreContract(t *testing.T, open func(t *testing.T) exams.Store) {
	ctx := context.Background()
	must := func(t *testing.T, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Run("schedules", func(t *testing.T) {
		s := open(t)
		b, a := Schedule("b"), Schedule("a")
		a.Target, a.MinLadderRank, a.NeedsApproval = ranks.MustParse("5k"), ranks.MustParse("7k"), false
		must(t, s.CreateSchedule(ctx, b))
		must(t, s.CreateSchedule(ctx, a))
		if err := s.CreateSchedule(ctx, Schedule("a")); !errors.Is(err, exams.ErrConflict) {
			t.Fatalf("second create of a: %v, want ErrConflict", err)
		}
		got, err := s.Schedule(ctx, "a")
		if err != nil || !reflect.DeepEqual(got, a) {
			t.Fatalf("Schedule(a) = %+v, %v\nwant %+v", got, err, a)
		}
		if _, err := s.Schedule(ctx, "zz"); !errors.Is(err, exams.ErrNotFound) {
			t.Fatalf("missing schedule: %v", err)
		}
		all, err := s.Schedules(ctx)
		if err != nil || len(all) != 2 || all[0].ID != "a" || all[1].ID != "b" {
			t.Fatalf("Schedules = %v, %v", all, err)
		}
		must(t, s.AdvanceOpened(ctx, "a", T0))
		must(t, s.AdvanceOpened(ctx, "a", T0.Add(-time.Minute))) // never back
		if got, _ := s.Schedule(ctx, "a"); !got.OpenedThrough.Equal(T0) {
			t.Fatalf("opened through %v, want %v", got.OpenedThrough, T0)
		}
	})

	t.Run("registrations", func(t *testing.T) {
		s := open(t)
		r := exams.Registration{ID: "s@x/ann", ScheduleID: "s", SessionID: "s@x", SessionAt: T0, Player: "ann",
			Role: exams.RoleCandidate, NominatedBy: "teach", Waived: true, LadderScore: -50, At: T0.Add(-time.Hour)}
		got, created, err := s.AddRegistration(ctx, r)
		if err != nil || !created || !reflect.DeepEqual(got, r) {
			t.Fatalf("add = %+v, %v, %v", got, created, err)
		}
		again := r
		again.Role, again.At = exams.RoleExaminer, T0
		got, created, err = s.AddRegistration(ctx, again)
		if err != nil || created || !reflect.DeepEqual(got, r) {
			t.Fatalf("add again = %+v, %v, %v; want the first, not created", got, created, err)
		}
		other := exams.Registration{ID: "s@x/bob", ScheduleID: "s", SessionID: "s@x", SessionAt: T0, Player: "bob", Role: exams.RoleExaminer, At: T0}
		elsewhere := other
		elsewhere.ID, elsewhere.SessionID = "s@y/bob", "s@y"
		for _, x := range []exams.Registration{other, elsewhere} {
			if _, _, err := s.AddRegistration(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		list, err := s.Registrations(ctx, "s@x")
		if err != nil || len(list) != 2 || list[0].Player != "ann" || list[1].Player != "bob" {
			t.Fatalf("registrations = %+v, %v", list, err)
		}
		of, err := s.RegistrationsOf(ctx, []string{"bob", "nobody"})
		if err != nil || len(of) != 2 || !reflect.DeepEqual(of[0], other) || !reflect.DeepEqual(of[1], elsewhere) {
			t.Fatalf("registrations of bob = %+v, %v", of, err)
		}
		if of, err := s.RegistrationsOf(ctx, []string{"nobody"}); err != nil || len(of) != 0 {
			t.Fatalf("registrations of nobody = %+v, %v", of, err)
		}
	})

	t.Run("remove registration", func(t *testing.T) {
		s := open(t)
		ann := exams.Registration{ID: "s@x/ann", ScheduleID: "s", SessionID: "s@x", SessionAt: T0, Player: "ann", Role: exams.RoleCandidate, At: T0}
		bob := exams.Registration{ID: "s@x/bob", ScheduleID: "s", SessionID: "s@x", SessionAt: T0, Player: "bob", Role: exams.RoleCandidate, At: T0}
		for _, x := range []exams.Registration{ann, bob} {
			if _, _, err := s.AddRegistration(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		if ok, err := s.RemoveRegistration(ctx, ann.ID); err != nil || !ok {
			t.Fatalf("remove = %v, %v; want true", ok, err)
		}
		if ok, err := s.RemoveRegistration(ctx, ann.ID); err != nil || ok {
			t.Fatalf("remove again = %v, %v; want false, no error", ok, err)
		}
		if ok, err := s.RemoveRegistration(ctx, "s@x/nobody"); err != nil || ok {
			t.Fatalf("remove unknown = %v, %v; want false, no error", ok, err)
		}
		list, err := s.Registrations(ctx, "s@x")
		if err != nil || len(list) != 1 || list[0].Player != "bob" {
			t.Fatalf("registrations after removing ann = %+v, %v", list, err)
		}
		// Withdrawn, the player may register again.
		if _, created, err := s.AddRegistration(ctx, ann); err != nil || !created {
			t.Fatalf("add after remove = %v, %v; want created", created, err)
		}
	})

	session := func(id string, deadline time.Time) exams.Session {
		return exams.Session{ID: id, ScheduleID: "s", At: deadline.Add(-24 * time.Hour), Deadline: deadline,
			Target: ranks.MustParse("1d"), WinsNeeded: 4, Games: 6, Approval: true, State: exams.SessionPairing}
	}
	games := func(sessionID string, names ...string) []exams.Game {
		var gs []exams.Game
		for i := 0; i+1 < len(names); i += 2 {
			gs = append(gs, exams.Game{ID: fmt.Sprintf("%s#%d", sessionID, i/2+1), SessionID: sessionID,
				Black: names[i], White: names[i+1], BoardSize: 19, Rules: "chinese",
				TimeControl: exams.DefaultTimeControl, Rated: true, Deadline: T0})
		}
		return gs
	}

	t.Run("sessions", func(t *testing.T) {
		s := open(t)
		first := session("s@1", T0)
		got, err := s.CreateSession(ctx, first)
		if err != nil || !reflect.DeepEqual(got, withEmptyLists(first)) {
			t.Fatalf("create = %+v, %v\nwant %+v", got, err, first)
		}
		changed := first
		changed.WinsNeeded = 1
		if got, err := s.CreateSession(ctx, changed); err != nil || got.WinsNeeded != 4 {
			t.Fatalf("create again = %+v, %v; want the first stored", got, err)
		}
		if _, err := s.Session(ctx, "nope"); !errors.Is(err, exams.ErrNotFound) {
			t.Fatalf("missing session: %v", err)
		}

		gs := games("s@1", "ann", "bob", "bob", "cat")
		got, err = s.SetPairing(ctx, "s@1", []string{"ann", "bob", "cat"}, []string{}, gs, map[string]int{"cat": 5})
		if err != nil || !got.Paired || !reflect.DeepEqual(got.Pairing, gs) || got.Short["cat"] != 5 {
			t.Fatalf("pairing = %+v, %v", got, err)
		}
		got, err = s.SetPairing(ctx, "s@1", []string{"dan"}, nil, games("s@1", "dan", "eve"), nil)
		if err != nil || !reflect.DeepEqual(got.Pairing, gs) || !reflect.DeepEqual(got.Candidates, []string{"ann", "bob", "cat"}) {
			t.Fatalf("second pairing = %+v, %v; want the first kept", got, err)
		}

		got, err = s.MoveSession(ctx, "s@1", exams.SessionPairing, exams.SessionOpen, T0)
		if err != nil || got.State != exams.SessionOpen || !got.OpenedAt.Equal(T0) {
			t.Fatalf("move to open = %+v, %v", got, err)
		}
		got, err = s.MoveSession(ctx, "s@1", exams.SessionPairing, exams.SessionMissed, T0)
		if err != nil || got.State != exams.SessionOpen {
			t.Fatalf("move from a stale state = %s, %v; want it left open", got.State, err)
		}

		win := exams.Settlement{Kind: exams.SettledForfeit, Winner: "bob"}
		got, err = s.SettleGame(ctx, "s@1", 1, win)
		if err != nil || got.Pairing[1].Settled == nil || *got.Pairing[1].Settled != win || got.Pairing[0].Settled != nil {
			t.Fatalf("settle = %+v, %v", got.Pairing, err)
		}
		got, err = s.SettleGame(ctx, "s@1", 1, exams.Settlement{Kind: exams.SettledVoid})
		if err != nil || *got.Pairing[1].Settled != win {
			t.Fatalf("settle again = %+v, %v; want the first kept", got.Pairing[1].Settled, err)
		}

		for _, x := range []exams.Session{session("s@2", T0.Add(time.Hour)), session("s@0", T0.Add(-time.Hour))} {
			if _, err := s.CreateSession(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.MoveSession(ctx, "s@0", exams.SessionPairing, exams.SessionMissed, T0); err != nil {
			t.Fatal(err)
		}
		due, err := s.SessionsDue(ctx, T0)
		if err != nil || len(due) != 1 || due[0].ID != "s@1" {
			t.Fatalf("due at T0 = %v, %v; want s@1 only (s@0 missed, s@2 later)", ids(due), err)
		}
		all, err := s.Sessions(ctx, "s")
		if err != nil || fmt.Sprint(ids(all)) != "[s@2 s@1 s@0]" {
			t.Fatalf("sessions = %v, %v; want newest first", ids(all), err)
		}
	})

	t.Run("results", func(t *testing.T) {
		s := open(t)
		r := exams.Result{ID: "s@1/ann", SessionID: "s@1", ScheduleID: "s", Player: "ann", Target: ranks.MustParse("1d"),
			Tally: exams.Tally{Games: 6, Wins: 4, Losses: 2, ForfeitWins: 1}, WinsNeeded: 4, Evidence: []string{"s@1#1", "s@1#2"},
			State: exams.ResultAwaiting, GradedAt: T0}
		got, err := s.AddResult(ctx, r)
		if err != nil || !reflect.DeepEqual(got, r) {
			t.Fatalf("add = %+v, %v\nwant %+v", got, err, r)
		}
		changed := r
		changed.State = exams.ResultFailed
		if got, err := s.AddResult(ctx, changed); err != nil || got.State != exams.ResultAwaiting {
			t.Fatalf("add again = %+v, %v; want the first", got, err)
		}
		if _, err := s.Result(ctx, "nope"); !errors.Is(err, exams.ErrNotFound) {
			t.Fatalf("missing result: %v", err)
		}
		later := T0.Add(time.Hour)
		got, err = s.MoveResult(ctx, r.ID, exams.ResultAwaiting, exams.ResultApproved, "root", "games reviewed", later)
		if err != nil || got.State != exams.ResultApproved || got.DecidedBy != "root" || got.Reason != "games reviewed" || !got.DecidedAt.Equal(later) {
			t.Fatalf("approve = %+v, %v", got, err)
		}
		got, err = s.MoveResult(ctx, r.ID, exams.ResultApproved, exams.ResultCertified, "", "", later.Add(time.Hour))
		if err != nil || got.State != exams.ResultCertified || got.DecidedBy != "root" || !got.DecidedAt.Equal(later) {
			t.Fatalf("certify = %+v, %v; want the decision kept", got, err)
		}
		if got, _ := s.MoveResult(ctx, r.ID, exams.ResultAwaiting, exams.ResultRejected, "eve", "no", later); got.State != exams.ResultCertified {
			t.Fatalf("a stale move changed the state to %s", got.State)
		}
		b := r
		b.ID, b.Player, b.GradedAt, b.State = "s@1/bob", "bob", T0.Add(-time.Minute), exams.ResultAwaiting
		c := r
		c.ID, c.SessionID, c.Player, c.State = "s@2/cat", "s@2", "cat", exams.ResultAwaiting
		for _, x := range []exams.Result{b, c} {
			if _, err := s.AddResult(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		queue, err := s.ResultsInState(ctx, exams.ResultAwaiting)
		if err != nil || len(queue) != 2 || queue[0].ID != b.ID || queue[1].ID != c.ID {
			t.Fatalf("awaiting = %+v, %v; want bob then cat", queue, err)
		}
		inSession, err := s.Results(ctx, "s@1")
		if err != nil || len(inSession) != 2 || inSession[0].Player != "ann" || inSession[1].Player != "bob" {
			t.Fatalf("results of s@1 = %+v, %v", inSession, err)
		}
		of, err := s.ResultsOf(ctx, []string{"ann", "cat", "nobody"})
		if err != nil || len(of) != 2 || of[0].ID != r.ID || of[0].State != exams.ResultCertified || of[0].DecidedBy != "root" || of[1].ID != c.ID {
			t.Fatalf("results of ann and cat = %+v, %v; want ann's (moved to certified) and cat's", of, err)
		}
		if of, err := s.ResultsOf(ctx, []string{"nobody"}); err != nil || len(of) != 0 {
			t.Fatalf("results of nobody = %+v, %v", of, err)
		}
	})

	t.Run("missing", func(t *testing.T) {
		s := open(t)
		if _, err := s.SetPairing(ctx, "nope", []string{"ann"}, nil, games("nope", "ann", "bob"), nil); !errors.Is(err, exams.ErrNotFound) {
			t.Errorf("pairing a missing session: %v, want ErrNotFound", err)
		}
		if _, err := s.MoveSession(ctx, "nope", exams.SessionPairing, exams.SessionOpen, T0); !errors.Is(err, exams.ErrNotFound) {
			t.Errorf("moving a missing session: %v, want ErrNotFound", err)
		}
		if _, err := s.SettleGame(ctx, "nope", 0, exams.Settlement{Kind: exams.SettledVoid}); !errors.Is(err, exams.ErrNotFound) {
			t.Errorf("settling a game of a missing session: %v, want ErrNotFound", err)
		}
		if _, err := s.MoveResult(ctx, "nope", exams.ResultAwaiting, exams.ResultApproved, "root", "ok", T0); !errors.Is(err, exams.ErrNotFound) {
			t.Errorf("moving a missing result: %v, want ErrNotFound", err)
		}
		must(t, s.AdvanceOpened(ctx, "nope", T0)) // matches nothing, changes nothing
		if _, err := s.CreateSession(ctx, session("s@1", T0)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SettleGame(ctx, "s@1", 0, exams.Settlement{Kind: exams.SettledVoid}); !errors.Is(err, exams.ErrNotFound) {
			t.Errorf("settling a game of a session not paired: %v, want ErrNotFound", err)
		}
		if _, err := s.SetPairing(ctx, "s@1", []string{"ann", "bob"}, nil, games("s@1", "ann", "bob"), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SettleGame(ctx, "s@1", 1, exams.Settlement{Kind: exams.SettledVoid}); !errors.Is(err, exams.ErrNotFound) {
			t.Errorf("settling game 1 of a session with one: %v, want ErrNotFound", err)
		}
		for what, n := range map[string]func() (int, error){
			"schedules":          func() (int, error) { l, err := s.Schedules(ctx); return len(l), err },
			"registrations":      func() (int, error) { l, err := s.Registrations(ctx, "s@1"); return len(l), err },
			"sessions elsewhere": func() (int, error) { l, err := s.Sessions(ctx, "other"); return len(l), err },
			"sessions due":       func() (int, error) { l, err := s.SessionsDue(ctx, T0.Add(-time.Hour)); return len(l), err },
			"results":            func() (int, error) { l, err := s.Results(ctx, "s@1"); return len(l), err },
			"results awaiting":   func() (int, error) { l, err := s.ResultsInState(ctx, exams.ResultAwaiting); return len(l), err },
		} {
			if got, err := n(); err != nil || got != 0 {
				t.Errorf("%s = %d, %v; want none", what, got, err)
			}
		}
	})

	t.Run("moves to graded and times", func(t *testing.T) {
		s := open(t)
		// Times come back as BSON dates keep them: UTC, to the millisecond.
		shanghai := time.FixedZone("CST", 8*3600)
		at := T0.In(shanghai).Add(456_789 * time.Nanosecond)
		sch := Schedule("a")
		sch.CreatedAt, sch.OpenedThrough = at, at
		must(t, s.CreateSchedule(ctx, sch))
		if got, err := s.Schedule(ctx, "a"); err != nil || got.CreatedAt != T0 || got.OpenedThrough != T0 {
			t.Fatalf("schedule times = %v, %v (%v); want %v", got.CreatedAt, got.OpenedThrough, err, T0)
		}
		sess := session("s@1", at)
		sess.At = at
		if got, err := s.CreateSession(ctx, sess); err != nil || got.At != T0 || got.Deadline != T0 {
			t.Fatalf("session times = %v, %v (%v); want %v", got.At, got.Deadline, err, T0)
		}
		for _, step := range []struct {
			from, to string
			at       time.Time
		}{
			{exams.SessionPairing, exams.SessionOpen, at},
			{exams.SessionOpen, exams.SessionGrading, at.Add(time.Hour)},
			{exams.SessionGrading, exams.SessionGraded, at.Add(2 * time.Hour)},
		} {
			if _, err := s.MoveSession(ctx, "s@1", step.from, step.to, step.at); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Session(ctx, "s@1")
		if err != nil || got.State != exams.SessionGraded || got.OpenedAt != T0 || got.GradedAt != T0.Add(2*time.Hour) {
			t.Fatalf("graded session = %s opened %v graded %v (%v); want graded, opened %v, graded %v",
				got.State, got.OpenedAt, got.GradedAt, err, T0, T0.Add(2*time.Hour))
		}
		if due, err := s.SessionsDue(ctx, T0.Add(time.Hour)); err != nil || len(due) != 0 {
			t.Fatalf("a graded session is due: %v, %v", ids(due), err)
		}
		r, err := s.AddResult(ctx, exams.Result{ID: "s@1/ann", SessionID: "s@1", Player: "ann", Target: ranks.MustParse("1d"),
			State: exams.ResultAwaiting, GradedAt: at, DecidedBy: "not stored"})
		if err != nil || r.GradedAt != T0 || r.DecidedBy != "" || r.Evidence == nil {
			t.Fatalf("result = %+v, %v; want graded at %v, no decision, an empty evidence list", r, err, T0)
		}
		r, err = s.MoveResult(ctx, "s@1/ann", exams.ResultAwaiting, exams.ResultRejected, "root", "no", at)
		if err != nil || r.DecidedAt != T0 {
			t.Fatalf("decided at %v (%v), want %v", r.DecidedAt, err, T0)
		}
	})

	t.Run("first writer wins under concurrency", func(t *testing.T) {
		s := open(t)
		if _, err := s.CreateSession(ctx, session("s@1", T0)); err != nil {
			t.Fatal(err)
		}
		const n = 8
		var wg sync.WaitGroup
		pairings := make([][]exams.Game, n)
		settled := make([]exams.Settlement, n)
		results := make([]exams.Result, n)
		moved := make([]string, n)
		for i := range n {
			wg.Go(func() {
				name := fmt.Sprint("p", i)
				got, err := s.SetPairing(ctx, "s@1", []string{name}, nil, games("s@1", name, "x", "x", name), nil)
				if err != nil {
					t.Error(err)
					return
				}
				for _, g := range got.Pairing {
					g.Settled = nil // settled concurrently; compared below
					pairings[i] = append(pairings[i], g)
				}
				got, err = s.SettleGame(ctx, "s@1", 0, exams.Settlement{Kind: exams.SettledPlayed, Winner: name})
				if err != nil {
					t.Error(err)
					return
				}
				settled[i] = *got.Pairing[0].Settled
				r, err := s.AddResult(ctx, exams.Result{ID: "s@1/x", SessionID: "s@1", Player: "x", Target: ranks.MustParse("1d"), State: name, GradedAt: T0})
				if err != nil {
					t.Error(err)
					return
				}
				results[i] = r
				got, err = s.MoveSession(ctx, "s@1", exams.SessionPairing, name, T0)
				if err != nil {
					t.Error(err)
					return
				}
				moved[i] = got.State
			})
		}
		wg.Wait()
		for i := 1; i < n; i++ {
			if !reflect.DeepEqual(pairings[i], pairings[0]) || settled[i] != settled[0] || results[i].State != results[0].State || moved[i] != moved[0] {
				t.Fatalf("callers saw different winners: %d vs 0: pairing %v / %v, settled %v / %v, result %v / %v, moved %v / %v",
					i, pairings[i], pairings[0], settled[i], settled[0], results[i].State, results[0].State, moved[i], moved[0])
			}
		}
		if _, err := s.AddResult(ctx, exams.Result{ID: "s@1/y", SessionID: "s@1", Player: "y", Target: ranks.MustParse("1d"), State: exams.ResultAwaiting, GradedAt: T0}); err != nil {
			t.Fatal(err)
		}
		deciders := make([]string, n)
		for i := range n {
			wg.Go(func() {
				to := exams.ResultApproved
				if i%2 == 1 {
					to = exams.ResultRejected
				}
				r, err := s.MoveResult(ctx, "s@1/y", exams.ResultAwaiting, to, fmt.Sprint("admin", i), "why", T0)
				if err != nil {
					t.Error(err)
					return
				}
				deciders[i] = r.State + " by " + r.DecidedBy
			})
		}
		wg.Wait()
		for i := 1; i < n; i++ {
			if deciders[i] != deciders[0] || deciders[0] == "" {
				t.Fatalf("concurrent decisions: caller %d saw %q, caller 0 saw %q", i, deciders[i], deciders[0])
			}
		}
	})
}

func withEmptyLists(s exams.Session) exams.Session {
	if s.Candidates == nil {
		s.Candidates = []string{}
	}
	if s.Examiners == nil {
		s.Examiners = []string{}
	}
	return s
}

func ids(ss []exams.Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.ID)
	}
	return out
}
