package exams_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// Saturday 7 March 2026, 19:00 in Shanghai, is the first firing after
// the schedule is made (Sunday 1 March).
var (
	made   = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	firing = time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)
	ctx    = context.Background()
)

// rig is the exam service as rankd wires it, on the real stores, with a
// settable clock and faults to inject into the stores below it.
type rig struct {
	*apptest.Stack
	svc    *exams.Service
	store  exams.Store
	clock  *clockwork.FakeClock
	faults *faults
}

var errDown = errors.New("injected store failure")

// faults fail one store call each, once, like a crash at that point.
type faults struct {
	mu          sync.Mutex
	failCreate  string         // an exam game id: creating its pending game
	failOutcome string         // an exam game id: reading its game
	failCertify string         // a player: creating their certification
	calls       map[string]int // rating operations created, by id
}

// take reports whether the fault *f is armed for key, disarming it.
func (fs *faults) take(f *string, key string) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if *f != "" && *f == key {
		*f = ""
		return true
	}
	return false
}

func (fs *faults) set(f *string, key string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	*f = key
}

type faultyGames struct {
	intake.Store
	f *faults
}

func (g faultyGames) Create(ctx context.Context, sg intake.StoredGame) error {
	if g.f.take(&g.f.failCreate, strings.TrimPrefix(sg.SourceID, "exam:")) {
		return errDown
	}
	return g.Store.Create(ctx, sg)
}

func (g faultyGames) Game(ctx context.Context, id string) (intake.StoredGame, error) {
	g.f.mu.Lock()
	armed := g.f.failOutcome != "" && exams.GameID(g.f.failOutcome) == id
	if armed {
		g.f.failOutcome = ""
	}
	g.f.mu.Unlock()
	if armed {
		return intake.StoredGame{}, errDown
	}
	return g.Store.Game(ctx, id)
}

type faultyRatings struct {
	rating.Store
	f *faults
}

func (r faultyRatings) CreateOp(ctx context.Context, op rating.Operation) (rating.Operation, error) {
	r.f.mu.Lock()
	r.f.calls[op.ID]++
	r.f.mu.Unlock()
	if strings.HasPrefix(op.ID, "change:exam:") && r.f.take(&r.f.failCertify, op.Player) {
		return rating.Operation{}, errDown
	}
	return r.Store.CreateOp(ctx, op)
}

func newRig(t *testing.T) *rig {
	f := &faults{calls: map[string]int{}}
	clock := clockwork.NewFakeClockAt(made)
	st := apptest.Real(t, apptest.Clock(clock), apptest.Wrap(func(s app.Stores) app.Stores {
		s.Games, s.Ratings = faultyGames{s.Games, f}, faultyRatings{s.Ratings, f}
		return s
	}))
	return &rig{Stack: st, svc: st.Exams, store: st.Stores.Exams, clock: clock, faults: f}
}

// set gives a player (making the account if it is new) a ladder score.
func (r *rig) set(t *testing.T, player string, score int) {
	t.Helper()
	err := r.Stores.Accounts.CreateAccount(ctx, players.Account{Username: player, Role: players.RolePlayer, PasswordHash: "x", CreatedAt: made})
	if err != nil && !errors.Is(err, players.ErrUsernameTaken) {
		t.Fatal(err)
	}
	if _, err := r.Ratings.Change(ctx, rating.ChangeInput{Key: fmt.Sprintf("set:%s:%d", player, score), Player: player,
		Cause: rating.CauseAdjustment, Score: &score, Actor: "root", Reason: "test setup"}); err != nil {
		t.Fatal(err)
	}
}

// certifyAt places a player's certified rank.
func (r *rig) certifyAt(t *testing.T, player, rank string) {
	t.Helper()
	if _, err := r.Ratings.Change(ctx, rating.ChangeInput{Key: "cert:" + player, Player: player,
		Cause: rating.CausePlacement, Certify: ranks.MustParse(rank), Actor: "root", Reason: "test setup"}); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) score(t *testing.T, player string) int {
	t.Helper()
	st, err := r.Ratings.PlayerOrNew(ctx, player)
	if err != nil {
		t.Fatal(err)
	}
	return st.Score
}

// setTime moves the clock to at.
func (r *rig) setTime(at time.Time) { r.clock.Advance(at.Sub(r.clock.Now())) }

// created lists the exam games of the session that exist as pending (or
// later) games in the intake.
func (r *rig) created(t *testing.T, sess exams.Session) []intake.StoredGame {
	t.Helper()
	var out []intake.StoredGame
	for _, g := range sess.Pairing {
		sg, err := r.Intake.Game(ctx, exams.GameID(g.ID))
		if errors.Is(err, intake.ErrNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sg)
	}
	return out
}

// certifications are the exam entries of the ledger, oldest first.
func (r *rig) certifications(t *testing.T) []rating.LedgerEntry {
	t.Helper()
	es, err := r.Ratings.Audit(ctx, rating.AuditQuery{Cause: rating.CauseExam, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(es)
	return es
}

// report makes an exam game's outcome happen through the intake: a
// finished game is submitted by the game server (a resignation, or a
// void game), the players present check in, and nobody-came is nothing.
func (r *rig) report(t *testing.T, g exams.Game, o exams.Outcome) {
	t.Helper()
	id := exams.GameID(g.ID)
	if !o.Finished {
		for _, p := range o.Present {
			if _, err := r.Intake.CheckIn(ctx, id, p); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	rec := &games.Record{Komi: math.NaN(), Handicap: -1, End: games.EndVoid,
		Moves: []games.Move{games.Play(games.Black, games.Point{X: 3, Y: 3})}}
	switch {
	case o.Void:
	case o.Winner == g.Black:
		rec.End, rec.EndBy = games.EndResign, games.White
	case o.Winner == g.White:
		rec.End, rec.EndBy = games.EndResign, games.Black
	default:
		rec.End = games.EndDraw
	}
	if _, err := r.Intake.Submit(ctx, intake.Submission{GameID: id, Record: rec, By: "go-server"}); err != nil {
		t.Fatalf("result of %s: %v", g.ID, err)
	}
}

// schedule makes a 1d exam, two games a candidate, two wins needed.
func (r *rig) schedule(t *testing.T, approval bool) exams.Schedule {
	t.Helper()
	s, err := r.svc.CreateSchedule(ctx, "", exams.Draft{
		TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT", SessionLength: "3h", RegistrationOpens: "72h",
		GamesPerCandidate: intp(2), WinsNeeded: intp(2), NeedsApproval: approval,
	}, "root")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (r *rig) register(t *testing.T, req exams.RegisterRequest) {
	t.Helper()
	if _, _, err := r.svc.Register(ctx, req); err != nil {
		t.Fatalf("register %+v: %v", req, err)
	}
}

// gamesOf maps each candidate to their games.
func gamesOf(sess exams.Session) map[string][]exams.Game {
	out := map[string][]exams.Game{}
	for _, g := range sess.Pairing {
		out[g.Black] = append(out[g.Black], g)
		out[g.White] = append(out[g.White], g)
	}
	return out
}

// reportAll decides every game's outcome first (on the ladder as it is
// before any result), then makes them happen.
func (r *rig) reportAll(t *testing.T, sess exams.Session, decide func(g exams.Game) exams.Outcome) {
	t.Helper()
	outcomes := make([]exams.Outcome, len(sess.Pairing))
	for i, g := range sess.Pairing {
		outcomes[i] = decide(g)
	}
	for i, g := range sess.Pairing {
		r.report(t, g, outcomes[i])
	}
}

func TestFullExamFromScheduleToCertifiedRank(t *testing.T) {
	r := newRig(t)
	for p, score := range map[string]int{"ann": 90, "bob": 50, "cat": 10, "dan": -150, "eve": 150, "fay": -300, "zed": 120} {
		r.set(t, p, score)
	}
	r.certifyAt(t, "zed", "1d")
	s := r.schedule(t, false)

	// Before the window opens (7 days before the firing).
	_, _, err := r.svc.Register(ctx, exams.RegisterRequest{ScheduleID: s.ID, Player: "ann"})
	var refusal *exams.RefusalError
	if !errors.As(err, &refusal) || refusal.Code != exams.RefuseNotOpen {
		t.Fatalf("early registration: %v", err)
	}
	r.setTime(firing.Add(-48 * time.Hour))
	for _, p := range []string{"ann", "bob", "cat"} {
		r.register(t, exams.RegisterRequest{ScheduleID: s.ID, Player: p})
	}
	reg, created, err := r.svc.Register(ctx, exams.RegisterRequest{ScheduleID: s.ID, Player: "ann"})
	if err != nil || created || reg.SessionAt != firing {
		t.Fatalf("registering again = %+v, %v, %v; want the same registration, not created", reg, created, err)
	}
	for _, tc := range []struct {
		req  exams.RegisterRequest
		code string
	}{
		{exams.RegisterRequest{ScheduleID: s.ID, Player: "dan"}, exams.RefuseBelowMinRank},
		{exams.RegisterRequest{ScheduleID: s.ID, Player: "zed"}, exams.RefuseAlreadyCertified},
		{exams.RegisterRequest{ScheduleID: s.ID, Player: "fay", Role: exams.RoleExaminer}, exams.RefuseExaminerTooLow},
		{exams.RegisterRequest{ScheduleID: s.ID, Player: "bob", Role: "judge"}, exams.RefuseRole},
	} {
		_, _, err := r.svc.Register(ctx, tc.req)
		if !errors.As(err, &refusal) || refusal.Code != tc.code || !errors.Is(err, exams.ErrNotEligible) {
			t.Errorf("register %+v = %v; want refusal %s", tc.req, err, tc.code)
		}
	}
	if _, _, err := r.svc.Register(ctx, exams.RegisterRequest{ScheduleID: s.ID, Player: "nobody"}); !errors.Is(err, exams.ErrUnknownPlayer) {
		t.Errorf("unknown player: %v", err)
	}
	// The teacher's nomination waives dan's ladder rank; eve volunteers.
	reg, _, err = r.svc.Register(ctx, exams.RegisterRequest{ScheduleID: s.ID, Player: "dan", NominatedBy: "teacher"})
	if err != nil || !reg.Waived {
		t.Fatalf("nomination = %+v, %v; want waived", reg, err)
	}
	r.register(t, exams.RegisterRequest{ScheduleID: s.ID, Player: "eve", Role: exams.RoleExaminer})
	if _, _, err := r.svc.Register(ctx, exams.RegisterRequest{ScheduleID: s.ID, Player: "eve"}); !errors.As(err, &refusal) || refusal.Code != exams.RefuseRegisteredAs {
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
	sess, err := r.store.Session(ctx, exams.SessionID(s.ID, firing))
	if err != nil || sess.State != exams.SessionOpen || len(sess.Candidates) != 4 || len(sess.Short) != 0 {
		t.Fatalf("session = %+v, %v", sess, err)
	}
	if created := r.created(t, sess); len(created) != len(sess.Pairing) || created[0].Record.Rules != games.Chinese() || !created[0].Rated {
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
	r.reportAll(t, sess, func(g exams.Game) exams.Outcome {
		switch {
		case g.Black == "ann" || g.White == "ann":
			return exams.Outcome{Finished: true, Winner: "ann"}
		case g.Black == "bob" || g.White == "bob":
			return exams.Outcome{Present: []string{"bob"}}
		}
		return exams.Outcome{}
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
	if sess.State != exams.SessionGraded {
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
		want := map[bool]string{true: exams.ResultCertified, false: exams.ResultFailed}[passed]
		if res.State != want || len(res.Evidence) != 2 {
			t.Errorf("%s: %+v; want %s with two games of evidence", res.Player, res, want)
		}
		if res.Player == "bob" && res.Tally.ForfeitWins != bobWins {
			t.Errorf("bob's forfeit wins %d, want %d", res.Tally.ForfeitWins, bobWins)
		}
	}
	applied := r.certifications(t)
	if len(applied) == 0 || applied[0].Username != "ann" || applied[0].CertifiedAfter != "1d" ||
		applied[0].Actor != exams.Actor || applied[0].Cause != "exam" || len(applied[0].Evidence) != 2 {
		t.Fatalf("certifications %+v", applied)
	}
	// Ticking again changes nothing.
	if err := r.svc.Tick(ctx, sess.Deadline.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if again := r.certifications(t); len(again) != len(applied) {
		t.Fatalf("a second tick certified again: %+v", again)
	}
}

// registerFour makes a schedule and registers ann, bob, cat and dan (all
// eligible) for its first session.
func registerFour(t *testing.T, approval bool) (*rig, exams.Schedule) {
	r := newRig(t)
	for p, score := range map[string]int{"ann": 90, "bob": 80, "cat": 70, "dan": 60} {
		r.set(t, p, score)
	}
	s := r.schedule(t, approval)
	r.setTime(firing.Add(-time.Hour))
	for _, p := range []string{"ann", "bob", "cat", "dan"} {
		r.register(t, exams.RegisterRequest{ScheduleID: s.ID, Player: p})
	}
	return r, s
}

// setUpOpen makes a session with candidates ann, bob, cat, dan (all
// eligible), opened at the firing.
func setUpOpen(t *testing.T, approval bool) (*rig, exams.Session) {
	r, s := registerFour(t, approval)
	if err := r.svc.Tick(ctx, firing); err != nil {
		t.Fatal(err)
	}
	sess, err := r.store.Session(ctx, exams.SessionID(s.ID, firing))
	if err != nil {
		t.Fatal(err)
	}
	return r, sess
}

// Everyone plays; the higher score always wins, so ann (2 wins) passes,
// and so does bob if he met two of cat and dan.
func higherWins(t *testing.T, r *rig) func(g exams.Game) exams.Outcome {
	return func(g exams.Game) exams.Outcome {
		b, w := r.score(t, g.Black), r.score(t, g.White)
		if b > w {
			return exams.Outcome{Finished: true, Winner: g.Black}
		}
		return exams.Outcome{Finished: true, Winner: g.White}
	}
}

// favourites win every game they play against others.
func favourites(names ...string) func(g exams.Game) exams.Outcome {
	return func(g exams.Game) exams.Outcome {
		if slices.Contains(names, g.White) && !slices.Contains(names, g.Black) {
			return exams.Outcome{Finished: true, Winner: g.White}
		}
		return exams.Outcome{Finished: true, Winner: g.Black}
	}
}

func passers(t *testing.T, r *rig, sess exams.Session) []string {
	t.Helper()
	var out []string
	for _, c := range sess.Candidates {
		if exams.TallyGames(c, sess.Pairing).Passes(sess.WinsNeeded) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

func TestGradingResumesAfterACrashBetweenCandidates(t *testing.T) {
	r, sess := setUpOpen(t, false)
	r.reportAll(t, sess, favourites("ann", "cat"))
	settled, _ := r.store.Session(ctx, sess.ID)
	outcomes := favourites("ann", "cat")
	for i, g := range settled.Pairing {
		settled.Pairing[i].Settled = new(exams.Settle(g.Black, g.White, outcomes(g)))
	}
	both := passers(t, r, settled)
	if len(both) != 2 {
		t.Fatalf("want two passers to crash between, have %v", both)
	}
	// The ledger fails while certifying the second passer (the store and
	// the earlier candidates are done): the run stops there, like a crash.
	r.faults.set(&r.faults.failCertify, both[1])
	if _, err := r.svc.Grade(ctx, sess.ID, sess.Deadline); err == nil {
		t.Fatal("grading went on past the failure")
	}
	mid, _ := r.store.Session(ctx, sess.ID)
	if mid.State != exams.SessionGrading {
		t.Fatalf("state after the crash %s, want grading", mid.State)
	}
	// A late change of a settled game (its annulment) must not change the
	// grades.
	if _, err := r.Ratings.Annul(ctx, rating.AnnulInput{GameID: exams.GameID(mid.Pairing[0].ID), Actor: "root", Reason: "late"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Grade(ctx, sess.ID, sess.Deadline.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	done, _ := r.store.Session(ctx, sess.ID)
	if done.State != exams.SessionGraded || *done.Pairing[0].Settled != *mid.Pairing[0].Settled {
		t.Fatalf("after resuming: state %s, game 1 %+v (was %+v)", done.State, done.Pairing[0].Settled, mid.Pairing[0].Settled)
	}
	want := passers(t, r, done)
	var got []string
	for _, e := range r.certifications(t) {
		got = append(got, e.Username)
		if n := r.faults.calls["change:exam:"+e.CauseID]; n > 2 {
			t.Errorf("%s certified %d times", e.Username, n)
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
	r.reportAll(t, sess, higherWins(t, r))
	r.faults.set(&r.faults.failOutcome, sess.Pairing[2].ID)
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
		if g.Settled == nil || g.Settled.Kind != exams.SettledPlayed {
			t.Fatalf("game %s settled %+v", g.ID, g.Settled)
		}
	}
}

func TestConcurrentGradersGradeOnce(t *testing.T) {
	r, sess := setUpOpen(t, false)
	r.reportAll(t, sess, higherWins(t, r))
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
	for _, e := range r.certifications(t) {
		got = append(got, e.Username)
	}
	slices.Sort(got)
	if done.State != exams.SessionGraded || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("state %s, certified %v, want %v once each", done.State, got, want)
	}
}

func TestApproval(t *testing.T) {
	r, sess := setUpOpen(t, true)
	r.reportAll(t, sess, higherWins(t, r))
	if _, err := r.svc.Grade(ctx, sess.ID, sess.Deadline); err != nil {
		t.Fatal(err)
	}
	if n := len(r.certifications(t)); n != 0 {
		t.Fatalf("%d certified before approval", n)
	}
	queue, err := r.store.ResultsInState(ctx, exams.ResultAwaiting)
	if err != nil || len(queue) == 0 || queue[0].Player != "ann" {
		t.Fatalf("approval queue %+v, %v", queue, err)
	}
	id := queue[0].ID
	r.setTime(sess.Deadline.Add(time.Hour))
	if _, err := r.svc.Approve(ctx, id, "root", ""); !errors.Is(err, exams.ErrReasonRequired) {
		t.Fatalf("approve without a reason: %v", err)
	}
	res, err := r.svc.Approve(ctx, id, "root", "games reviewed")
	if err != nil || res.State != exams.ResultCertified || res.DecidedBy != "root" {
		t.Fatalf("approve = %+v, %v", res, err)
	}
	if _, err := r.svc.Approve(ctx, id, "root", "games reviewed"); err != nil {
		t.Fatalf("repeated approval: %v", err)
	}
	if _, err := r.svc.Reject(ctx, id, "other", "no"); !errors.Is(err, exams.ErrConflict) {
		t.Fatalf("reject after approval: %v", err)
	}
	applied := r.certifications(t)
	if len(applied) != 1 || applied[0].Actor != "root" || applied[0].Username != "ann" || !applied[0].At.Equal(sess.Deadline.Add(time.Hour)) {
		t.Fatalf("certifications %+v", applied)
	}
	if len(queue) > 1 {
		rej, err := r.svc.Reject(ctx, queue[1].ID, "root", "suspicious games")
		if err != nil || rej.State != exams.ResultRejected || rej.Reason != "suspicious games" {
			t.Fatalf("reject = %+v, %v", rej, err)
		}
		if len(r.certifications(t)) != 1 {
			t.Fatal("a rejected pass was certified")
		}
	}
}

// A session no replica opened before its deadline is marked missed; the
// tick that finds it opens the later firings it missed too.
func TestMissedAndCaughtUpSessions(t *testing.T) {
	r := newRig(t)
	r.set(t, "ann", 90)
	s := r.schedule(t, false)
	r.setTime(firing.Add(-time.Hour))
	r.register(t, exams.RegisterRequest{ScheduleID: s.ID, Player: "ann"})
	second := firing.Add(7 * 24 * time.Hour)
	if err := r.svc.Tick(ctx, second.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	ss, err := r.store.Sessions(ctx, s.ID)
	if err != nil || len(ss) != 2 {
		t.Fatalf("sessions %+v, %v", ss, err)
	}
	if ss[1].At != firing || ss[1].State != exams.SessionMissed || len(ss[1].Pairing) != 0 {
		t.Fatalf("first session %+v; want missed, no games", ss[1])
	}
	if ss[0].At != second || ss[0].State != exams.SessionOpen {
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
	r.faults.set(&r.faults.failCreate, exams.SessionID(s.ID, firing)+"#2")
	if err := r.svc.Tick(ctx, firing); err == nil {
		t.Fatal("no error from a failing game create")
	}
	mid, _ := r.store.Session(ctx, exams.SessionID(s.ID, firing))
	if mid.State != exams.SessionPairing || !mid.Paired {
		t.Fatalf("after the crash: %+v", mid)
	}
	r.set(t, "eve", 85)
	var refusal *exams.RefusalError
	if _, _, err := r.svc.Register(ctx, exams.RegisterRequest{ScheduleID: s.ID, Player: "eve"}); !errors.As(err, &refusal) || refusal.Code != exams.RefuseNotOpen {
		t.Fatalf("registering for a paired session: %v", err)
	}
	r.set(t, "dan", 99) // would pair differently now
	if err := r.svc.Tick(ctx, firing.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	done, _ := r.store.Session(ctx, mid.ID)
	if done.State != exams.SessionOpen || fmt.Sprint(done.Pairing) != fmt.Sprint(mid.Pairing) || len(r.created(t, done)) != len(mid.Pairing) {
		t.Fatalf("after resuming: %+v; want the stored pairing, all games made", done)
	}
}

func TestCreateScheduleIsIdempotentByID(t *testing.T) {
	r := newRig(t)
	d := exams.Draft{TargetRank: "2k", Cron: "0 10 * * SUN"}
	a, err := r.svc.CreateSchedule(ctx, "key-1", d, "root")
	if err != nil {
		t.Fatal(err)
	}
	r.setTime(made.Add(time.Minute))
	b, err := r.svc.CreateSchedule(ctx, "key-1", d, "root")
	if err != nil || b != a {
		t.Fatalf("retry = %+v, %v; want the stored %+v", b, err, a)
	}
	d.TargetRank = "1k"
	if _, err := r.svc.CreateSchedule(ctx, "key-1", d, "root"); !errors.Is(err, exams.ErrConflict) {
		t.Fatalf("another schedule under the same id: %v", err)
	}
	if _, err := r.svc.CreateSchedule(ctx, "", exams.Draft{TargetRank: "2k", Cron: "bad"}, "root"); !errors.Is(err, exams.ErrInvalid) {
		t.Fatalf("invalid draft: %v", err)
	}
}
