package examdb_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/ranks/examtest"
)

// Saturday 7 March 2026, 19:00 in Shanghai, is the first firing after
// the schedule is made (Sunday 1 March).
var (
	made   = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	firing = time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)
	ctx    = context.Background()
)

type rig struct {
	svc     *ranks.ExamService
	store   ranks.ExamStore
	games   *examtest.Games
	players *examtest.Players
	cert    *examtest.Certifier
	clock   *examtest.Clock
}

func newRig(t *testing.T) *rig {
	players := examtest.NewPlayers()
	r := &rig{store: open(t), games: examtest.NewGames(), players: players, cert: examtest.NewCertifier(players), clock: examtest.NewClock(made)}
	r.svc = &ranks.ExamService{Store: r.store, Games: r.games, Players: r.players, Certifier: r.cert, Calendar: jobs.Calendar{}, Clock: r.clock}
	return r
}

// schedule makes a 1d exam, two games a candidate, two wins needed.
func (r *rig) schedule(t *testing.T, approval bool) ranks.ExamSchedule {
	t.Helper()
	s, err := r.svc.CreateSchedule(ctx, "", ranks.ExamDraft{
		TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT", SessionLength: "3h", RegistrationOpens: "72h",
		GamesPerCandidate: intp(2), WinsNeeded: intp(2), NeedsApproval: approval,
	}, "root")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func intp(n int) *int { return &n }

func (r *rig) register(t *testing.T, req ranks.RegisterRequest) {
	t.Helper()
	if _, _, err := r.svc.Register(ctx, req); err != nil {
		t.Fatalf("register %+v: %v", req, err)
	}
}

// gamesOf maps each candidate to their games.
func gamesOf(sess ranks.ExamSession) map[string][]ranks.ExamGame {
	out := map[string][]ranks.ExamGame{}
	for _, g := range sess.Pairing {
		out[g.Black] = append(out[g.Black], g)
		out[g.White] = append(out[g.White], g)
	}
	return out
}

// win reports every game of player as won by them (or by forfeit when
// the opponent did not come).
func (r *rig) reportAll(sess ranks.ExamSession, decide func(g ranks.ExamGame) ranks.GameOutcome) {
	for _, g := range sess.Pairing {
		r.games.Report(g.ID, decide(g))
	}
}

func TestFullExamFromScheduleToCertifiedRank(t *testing.T) {
	r := newRig(t)
	for p, score := range map[string]int{"ann": 90, "bob": 50, "cat": 10, "dan": -150, "eve": 150, "fay": -300, "zed": 120} {
		r.players.Set(p, score)
	}
	r.players.Certified["zed"] = ranks.MustParse("1d")
	s := r.schedule(t, false)

	// Before the window opens (7 days before the firing).
	_, _, err := r.svc.Register(ctx, ranks.RegisterRequest{ScheduleID: s.ID, Player: "ann"})
	var refusal *ranks.RefusalError
	if !errors.As(err, &refusal) || refusal.Code != ranks.RefuseNotOpen {
		t.Fatalf("early registration: %v", err)
	}
	r.clock.Set(firing.Add(-48 * time.Hour))
	for _, p := range []string{"ann", "bob", "cat"} {
		r.register(t, ranks.RegisterRequest{ScheduleID: s.ID, Player: p})
	}
	reg, created, err := r.svc.Register(ctx, ranks.RegisterRequest{ScheduleID: s.ID, Player: "ann"})
	if err != nil || created || reg.SessionAt != firing {
		t.Fatalf("registering again = %+v, %v, %v; want the same registration, not created", reg, created, err)
	}
	for _, tc := range []struct {
		req  ranks.RegisterRequest
		code string
	}{
		{ranks.RegisterRequest{ScheduleID: s.ID, Player: "dan"}, ranks.RefuseBelowMinRank},
		{ranks.RegisterRequest{ScheduleID: s.ID, Player: "zed"}, ranks.RefuseAlreadyCertified},
		{ranks.RegisterRequest{ScheduleID: s.ID, Player: "fay", Role: ranks.RoleExaminer}, ranks.RefuseExaminerTooLow},
		{ranks.RegisterRequest{ScheduleID: s.ID, Player: "bob", Role: "judge"}, ranks.RefuseRole},
	} {
		_, _, err := r.svc.Register(ctx, tc.req)
		if !errors.As(err, &refusal) || refusal.Code != tc.code || !errors.Is(err, ranks.ErrNotEligible) {
			t.Errorf("register %+v = %v; want refusal %s", tc.req, err, tc.code)
		}
	}
	if _, _, err := r.svc.Register(ctx, ranks.RegisterRequest{ScheduleID: s.ID, Player: "nobody"}); !errors.Is(err, ranks.ErrUnknownPlayer) {
		t.Errorf("unknown player: %v", err)
	}
	// The teacher's nomination waives dan's ladder rank; eve volunteers.
	reg, _, err = r.svc.Register(ctx, ranks.RegisterRequest{ScheduleID: s.ID, Player: "dan", NominatedBy: "teacher"})
	if err != nil || !reg.Waived {
		t.Fatalf("nomination = %+v, %v; want waived", reg, err)
	}
	r.register(t, ranks.RegisterRequest{ScheduleID: s.ID, Player: "eve", Role: ranks.RoleExaminer})
	if _, _, err := r.svc.Register(ctx, ranks.RegisterRequest{ScheduleID: s.ID, Player: "eve"}); !errors.As(err, &refusal) || refusal.Code != ranks.RefuseRegisteredAs {
		t.Fatalf("eve as a candidate too: %v", err)
	}

	// A tick before the firing opens nothing; at the firing, the session.
	if err := r.svc.Tick(ctx, firing.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if ss, _ := r.store.Sessions(ctx, s.ID); len(ss) != 0 {
		t.Fatalf("sessions before the firing: %v", ss)
	}
	if err := r.svc.Tick(ctx, firing); err != nil {
		t.Fatal(err)
	}
	sess, err := r.store.Session(ctx, ranks.ExamSessionID(s.ID, firing))
	if err != nil || sess.State != ranks.SessionOpen || len(sess.Candidates) != 4 || len(sess.Short) != 0 {
		t.Fatalf("session = %+v, %v", sess, err)
	}
	if created := r.games.Created(); len(created) != len(sess.Pairing) || created[0].Rules != "chinese" || !created[0].Rated {
		t.Fatalf("created games %+v for pairing %+v", created, sess.Pairing)
	}
	per := gamesOf(sess)
	for _, c := range []string{"ann", "bob", "cat", "dan"} {
		if len(per[c]) != 2 {
			t.Fatalf("%s has games %+v, want 2", c, per[c])
		}
	}

	// ann wins everything she plays; bob's opponents never come to bob's
	// games unless they are ann; everything else is void (nobody came).
	r.reportAll(sess, func(g ranks.ExamGame) ranks.GameOutcome {
		switch {
		case g.Black == "ann" || g.White == "ann":
			return ranks.GameOutcome{Finished: true, Winner: "ann"}
		case g.Black == "bob" || g.White == "bob":
			return ranks.GameOutcome{Present: []string{"bob"}}
		}
		return ranks.GameOutcome{}
	})
	// Not yet due: nothing graded.
	if err := r.svc.Tick(ctx, sess.Deadline.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if rs, _ := r.store.Results(ctx, sess.ID); len(rs) != 0 {
		t.Fatalf("graded before the deadline: %+v", rs)
	}
	if err := r.svc.Tick(ctx, sess.Deadline); err != nil {
		t.Fatal(err)
	}
	sess, _ = r.store.Session(ctx, sess.ID)
	if sess.State != ranks.SessionGraded {
		t.Fatalf("state %s after the deadline", sess.State)
	}
	results, err := r.store.Results(ctx, sess.ID)
	if err != nil || len(results) != 4 {
		t.Fatalf("results %+v, %v", results, err)
	}
	bobWins := 0
	for _, g := range per["bob"] {
		if g.Black != "ann" && g.White != "ann" {
			bobWins++
		}
	}
	for _, res := range results {
		passed := res.Player == "ann" || (res.Player == "bob" && bobWins == 2)
		want := map[bool]string{true: ranks.ResultCertified, false: ranks.ResultFailed}[passed]
		if res.State != want || len(res.Evidence) != 2 {
			t.Errorf("%s: %+v; want %s with two games of evidence", res.Player, res, want)
		}
		if res.Player == "bob" && res.Tally.ForfeitWins != bobWins {
			t.Errorf("bob's forfeit wins %d, want %d", res.Tally.ForfeitWins, bobWins)
		}
	}
	applied := r.cert.Applied()
	if len(applied) == 0 || applied[0].Player != "ann" || applied[0].Rank != ranks.MustParse("1d") ||
		applied[0].Actor != ranks.ExamActor || applied[0].Cause != "exam" || len(applied[0].Evidence) != 2 {
		t.Fatalf("certifications %+v", applied)
	}
	// Ticking again changes nothing.
	if err := r.svc.Tick(ctx, sess.Deadline.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if again := r.cert.Applied(); len(again) != len(applied) {
		t.Fatalf("a second tick certified again: %+v", again)
	}
}

// registerFour makes a schedule and registers ann, bob, cat and dan (all
// eligible) for its first session.
func registerFour(t *testing.T, approval bool) (*rig, ranks.ExamSchedule) {
	r := newRig(t)
	for p, score := range map[string]int{"ann": 90, "bob": 80, "cat": 70, "dan": 60} {
		r.players.Set(p, score)
	}
	s := r.schedule(t, approval)
	r.clock.Set(firing.Add(-time.Hour))
	for _, p := range []string{"ann", "bob", "cat", "dan"} {
		r.register(t, ranks.RegisterRequest{ScheduleID: s.ID, Player: p})
	}
	return r, s
}

// setUpOpen makes a session with candidates ann, bob, cat, dan (all
// eligible), opened at the firing.
func setUpOpen(t *testing.T, approval bool) (*rig, ranks.ExamSession) {
	r, s := registerFour(t, approval)
	if err := r.svc.Tick(ctx, firing); err != nil {
		t.Fatal(err)
	}
	sess, err := r.store.Session(ctx, ranks.ExamSessionID(s.ID, firing))
	if err != nil {
		t.Fatal(err)
	}
	return r, sess
}

// Everyone plays; the higher score always wins, so ann (2 wins) passes,
// and so does bob if he met two of cat and dan.
func higherWins(r *rig) func(g ranks.ExamGame) ranks.GameOutcome {
	return func(g ranks.ExamGame) ranks.GameOutcome {
		b, _ := r.players.LadderScore(ctx, g.Black)
		w, _ := r.players.LadderScore(ctx, g.White)
		if b > w {
			return ranks.GameOutcome{Finished: true, Winner: g.Black}
		}
		return ranks.GameOutcome{Finished: true, Winner: g.White}
	}
}

// favourites win every game they play against others.
func favourites(names ...string) func(g ranks.ExamGame) ranks.GameOutcome {
	return func(g ranks.ExamGame) ranks.GameOutcome {
		if slices.Contains(names, g.White) && !slices.Contains(names, g.Black) {
			return ranks.GameOutcome{Finished: true, Winner: g.White}
		}
		return ranks.GameOutcome{Finished: true, Winner: g.Black}
	}
}

func passers(t *testing.T, r *rig, sess ranks.ExamSession) []string {
	t.Helper()
	var out []string
	for _, c := range sess.Candidates {
		if ranks.TallyGames(c, sess.Pairing).Passes(sess.WinsNeeded) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

func TestGradingResumesAfterACrashBetweenCandidates(t *testing.T) {
	r, sess := setUpOpen(t, false)
	r.reportAll(sess, favourites("ann", "cat"))
	settled, _ := r.store.Session(ctx, sess.ID)
	for i, g := range settled.Pairing {
		o, _ := r.games.Outcome(ctx, g.ID)
		settled.Pairing[i].Settled = new(ranks.Settle(g.Black, g.White, o))
	}
	both := passers(t, r, settled)
	if len(both) != 2 {
		t.Fatalf("want two passers to crash between, have %v", both)
	}
	// The ledger fails while certifying the second passer (the store and
	// the earlier candidates are done): the run stops there, like a crash.
	r.cert.FailFor = both[1]
	if _, err := r.svc.Grade(ctx, sess.ID, sess.Deadline); err == nil {
		t.Fatal("grading went on past the failure")
	}
	mid, _ := r.store.Session(ctx, sess.ID)
	if mid.State != ranks.SessionGrading {
		t.Fatalf("state after the crash %s, want grading", mid.State)
	}
	// A late result for a settled game must not change the grades.
	r.games.Report(mid.Pairing[0].ID, ranks.GameOutcome{Finished: true, Void: true})
	if _, err := r.svc.Grade(ctx, sess.ID, sess.Deadline.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	done, _ := r.store.Session(ctx, sess.ID)
	if done.State != ranks.SessionGraded || *done.Pairing[0].Settled != *mid.Pairing[0].Settled {
		t.Fatalf("after resuming: state %s, game 1 %+v (was %+v)", done.State, done.Pairing[0].Settled, mid.Pairing[0].Settled)
	}
	want := passers(t, r, done)
	var got []string
	for _, e := range r.cert.Applied() {
		got = append(got, e.Player)
		if r.cert.Calls[e.Key] > 2 {
			t.Errorf("%s certified %d times", e.Player, r.cert.Calls[e.Key])
		}
	}
	slices.Sort(got)
	if fmt.Sprint(got) != fmt.Sprint(want) || len(want) == 0 {
		t.Fatalf("certified %v, want %v (each once)", got, want)
	}
	// Those graded before the crash keep their grade; the rest were
	// graded by the resumed run.
	results, _ := r.store.Results(ctx, sess.ID)
	crashed := slices.Index(done.Candidates, both[1])
	for _, res := range results {
		want := sess.Deadline
		if slices.Index(done.Candidates, res.Player) > crashed {
			want = sess.Deadline.Add(time.Minute)
		}
		if res.GradedAt != want {
			t.Errorf("%s graded at %v, want %v", res.Player, res.GradedAt, want)
		}
	}
}

func TestGradingResumesAfterACrashWhileSettling(t *testing.T) {
	r, sess := setUpOpen(t, false)
	r.reportAll(sess, higherWins(r))
	r.games.FailOutcome = sess.Pairing[2].ID
	if _, err := r.svc.Grade(ctx, sess.ID, sess.Deadline); err == nil {
		t.Fatal("no error from a failing outcome read")
	}
	if rs, _ := r.store.Results(ctx, sess.ID); len(rs) != 0 {
		t.Fatalf("candidates graded before every game was settled: %+v", rs)
	}
	if _, err := r.svc.Grade(ctx, sess.ID, sess.Deadline); err != nil {
		t.Fatal(err)
	}
	done, _ := r.store.Session(ctx, sess.ID)
	for _, g := range done.Pairing {
		if g.Settled == nil || g.Settled.Kind != ranks.SettledPlayed {
			t.Fatalf("game %s settled %+v", g.ID, g.Settled)
		}
	}
}

func TestConcurrentGradersGradeOnce(t *testing.T) {
	r, sess := setUpOpen(t, false)
	r.reportAll(sess, higherWins(r))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := r.svc.Grade(ctx, sess.ID, sess.Deadline); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	done, _ := r.store.Session(ctx, sess.ID)
	want := passers(t, r, done)
	var got []string
	for _, e := range r.cert.Applied() {
		got = append(got, e.Player)
	}
	slices.Sort(got)
	if done.State != ranks.SessionGraded || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("state %s, certified %v, want %v once each", done.State, got, want)
	}
}

func TestApproval(t *testing.T) {
	r, sess := setUpOpen(t, true)
	r.reportAll(sess, higherWins(r))
	if _, err := r.svc.Grade(ctx, sess.ID, sess.Deadline); err != nil {
		t.Fatal(err)
	}
	if n := len(r.cert.Applied()); n != 0 {
		t.Fatalf("%d certified before approval", n)
	}
	queue, err := r.store.ResultsInState(ctx, ranks.ResultAwaiting)
	if err != nil || len(queue) == 0 || queue[0].Player != "ann" {
		t.Fatalf("approval queue %+v, %v", queue, err)
	}
	id := queue[0].ID
	r.clock.Set(sess.Deadline.Add(time.Hour))
	if _, err := r.svc.Approve(ctx, id, "root", ""); !errors.Is(err, ranks.ErrReasonRequired) {
		t.Fatalf("approve without a reason: %v", err)
	}
	res, err := r.svc.Approve(ctx, id, "root", "games reviewed")
	if err != nil || res.State != ranks.ResultCertified || res.DecidedBy != "root" {
		t.Fatalf("approve = %+v, %v", res, err)
	}
	if _, err := r.svc.Approve(ctx, id, "root", "games reviewed"); err != nil {
		t.Fatalf("repeated approval: %v", err)
	}
	if _, err := r.svc.Reject(ctx, id, "other", "no"); !errors.Is(err, ranks.ErrConflict) {
		t.Fatalf("reject after approval: %v", err)
	}
	applied := r.cert.Applied()
	if len(applied) != 1 || applied[0].Actor != "root" || applied[0].Player != "ann" || !applied[0].At.Equal(sess.Deadline.Add(time.Hour)) {
		t.Fatalf("certifications %+v", applied)
	}
	if len(queue) > 1 {
		rej, err := r.svc.Reject(ctx, queue[1].ID, "root", "suspicious games")
		if err != nil || rej.State != ranks.ResultRejected || rej.Reason != "suspicious games" {
			t.Fatalf("reject = %+v, %v", rej, err)
		}
		if len(r.cert.Applied()) != 1 {
			t.Fatal("a rejected pass was certified")
		}
	}
}

// A session no replica opened before its deadline is marked missed; the
// tick that finds it opens the later firings it missed too.
func TestMissedAndCaughtUpSessions(t *testing.T) {
	r := newRig(t)
	r.players.Set("ann", 90)
	s := r.schedule(t, false)
	r.clock.Set(firing.Add(-time.Hour))
	r.register(t, ranks.RegisterRequest{ScheduleID: s.ID, Player: "ann"})
	second := firing.Add(7 * 24 * time.Hour)
	if err := r.svc.Tick(ctx, second.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	ss, err := r.store.Sessions(ctx, s.ID)
	if err != nil || len(ss) != 2 {
		t.Fatalf("sessions %+v, %v", ss, err)
	}
	if ss[1].At != firing || ss[1].State != ranks.SessionMissed || len(r.games.Created()) != 0 {
		t.Fatalf("first session %+v; want missed, no games", ss[1])
	}
	if ss[0].At != second || ss[0].State != ranks.SessionOpen {
		t.Fatalf("second session %+v; want open", ss[0])
	}
	got, _ := r.store.Schedule(ctx, s.ID)
	if got.OpenedThrough != second {
		t.Fatalf("opened through %v, want %v", got.OpenedThrough, second)
	}
}

// Opening resumes after a crash while creating games, with the pairing
// it stored even if the ladder moved in between.
func TestOpeningResumesWithTheStoredPairing(t *testing.T) {
	r, s := registerFour(t, false)
	r.games.FailCreate = ranks.ExamSessionID(s.ID, firing) + "#2"
	if err := r.svc.Tick(ctx, firing); err == nil {
		t.Fatal("no error from a failing game create")
	}
	mid, _ := r.store.Session(ctx, ranks.ExamSessionID(s.ID, firing))
	if mid.State != ranks.SessionPairing || !mid.Paired {
		t.Fatalf("after the crash: %+v", mid)
	}
	r.players.Set("eve", 85)
	var refusal *ranks.RefusalError
	if _, _, err := r.svc.Register(ctx, ranks.RegisterRequest{ScheduleID: s.ID, Player: "eve"}); !errors.As(err, &refusal) || refusal.Code != ranks.RefuseNotOpen {
		t.Fatalf("registering for a paired session: %v", err)
	}
	r.players.Set("dan", 99) // would pair differently now
	if err := r.svc.Tick(ctx, firing.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	done, _ := r.store.Session(ctx, mid.ID)
	if done.State != ranks.SessionOpen || fmt.Sprint(done.Pairing) != fmt.Sprint(mid.Pairing) || len(r.games.Created()) != len(mid.Pairing) {
		t.Fatalf("after resuming: %+v; want the stored pairing, all games made", done)
	}
}

func TestCreateScheduleIsIdempotentByID(t *testing.T) {
	r := newRig(t)
	d := ranks.ExamDraft{TargetRank: "2k", Cron: "0 10 * * SUN"}
	a, err := r.svc.CreateSchedule(ctx, "key-1", d, "root")
	if err != nil {
		t.Fatal(err)
	}
	r.clock.Set(made.Add(time.Minute))
	b, err := r.svc.CreateSchedule(ctx, "key-1", d, "root")
	if err != nil || b != a {
		t.Fatalf("retry = %+v, %v; want the stored %+v", b, err, a)
	}
	d.TargetRank = "1k"
	if _, err := r.svc.CreateSchedule(ctx, "key-1", d, "root"); !errors.Is(err, ranks.ErrConflict) {
		t.Fatalf("another schedule under the same id: %v", err)
	}
	if _, err := r.svc.CreateSchedule(ctx, "", ranks.ExamDraft{TargetRank: "2k", Cron: "bad"}, "root"); !errors.Is(err, ranks.ErrInvalid) {
		t.Fatalf("invalid draft: %v", err)
	}
}
