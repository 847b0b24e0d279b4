package app_test

import (
	"context"
	"fmt"
	"math"
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
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobsredis"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// counts counts the calls that create exam games and rating operations,
// across both replicas.
type counts struct {
	mu    sync.Mutex
	games map[string]int // Create of a game, by source_id
	ops   map[string]int // CreateOp, by operation id
}

func (c *counts) add(m map[string]int, k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m[k]++
}

func (c *counts) get(m map[string]int, k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return m[k]
}

type countedGames struct {
	intake.Store
	c *counts
}

func (g countedGames) Create(ctx context.Context, sg intake.StoredGame) error {
	g.c.add(g.c.games, sg.SourceID)
	return g.Store.Create(ctx, sg)
}

type countedRatings struct {
	rating.Store
	c *counts
}

func (r countedRatings) CreateOp(ctx context.Context, op rating.Operation) (rating.Operation, error) {
	r.c.add(r.c.ops, op.ID)
	return r.Store.CreateOp(ctx, op)
}

// scheduledJobs is how many jobs an App schedules; each waits on the
// clock between firings.
const scheduledJobs = 5

// The exam job as rankd runs it, on two replicas sharing one real
// redis-server and one store, driven minute by minute by a fake clock
// from before the firing to after the deadline: the session is opened
// once, each game created once, graded once, each pass certified once.
func TestExamJobOnTwoSchedulers(t *testing.T) {
	ctx := context.Background()
	made := time.Date(2026, 3, 7, 10, 0, 0, 0, time.UTC)
	firing := time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC) // 19:00 in Shanghai
	clock := clockwork.NewFakeClockAt(made)
	c := &counts{games: map[string]int{}, ops: map[string]int{}}
	count := apptest.Wrap(func(s app.Stores) app.Stores {
		s.Games, s.Ratings = countedGames{s.Games, c}, countedRatings{s.Ratings, c}
		return s
	})
	a := apptest.Real(t, apptest.Clock(clock), count)
	b := apptest.Real(t, apptest.Clock(clock), count, apptest.DB(a.DB), apptest.Redis(a.Redis))

	sch, err := a.Exams.CreateSchedule(ctx, "weekly-1d", exams.Draft{TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		SessionLength: "5m", GamesPerCandidate: new(2), WinsNeeded: new(2)}, "root")
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{"ann", "bob", "cat", "dan", "eve"} {
		if err := a.Stores.Accounts.CreateAccount(ctx, players.Account{Username: p, Role: players.RolePlayer, PasswordHash: "x", CreatedAt: made}); err != nil {
			t.Fatal(err)
		}
		score := 90 - 10*i
		if _, err := a.Ratings.Change(ctx, rating.ChangeInput{Key: "place-" + p, Player: p, Cause: rating.CausePlacement,
			Score: &score, Actor: "root", Reason: "test placement"}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := a.Exams.Register(ctx, exams.RegisterRequest{ScheduleID: sch.ID, Player: p}); err != nil {
			t.Fatal(err)
		}
	}

	clock.Advance(firing.Add(-90 * time.Second).Sub(clock.Now()))
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, s := range []*apptest.Stack{a, b} {
		wg.Go(func() { _ = s.Jobs.Run(runCtx) })
	}
	leases := jobsredis.New(a.Redis, "")
	sessionID := exams.SessionID(sch.ID, firing)
	at := firing.Add(-time.Minute)
	for !at.After(firing.Add(7 * time.Minute)) {
		if err := clock.BlockUntilContext(runCtx, 2*scheduledJobs); err != nil {
			t.Fatal(err)
		}
		clock.Advance(at.Sub(clock.Now()))
		key := jobs.Firing{Job: "exams", At: at}.Key()
		if out := waitDone(t, leases, key); out != "ok" {
			t.Fatalf("%s: %s", key, out)
		}
		if at.Equal(firing) { // the games are out: ann wins hers, the rest go to Black
			sess, err := a.Stores.Exams.Session(ctx, sessionID)
			if err != nil || sess.State != exams.SessionOpen {
				t.Fatalf("at the firing: %+v, %v", sess, err)
			}
			for _, g := range sess.Pairing {
				loser := games.White
				if g.White == "ann" {
					loser = games.Black
				}
				rec := &games.Record{Komi: math.NaN(), Handicap: -1, End: games.EndResign, EndBy: loser,
					Moves: []games.Move{games.Play(games.Black, games.Point{X: 3, Y: 3})}}
				if _, err := b.Intake.Submit(ctx, intake.Submission{GameID: exams.GameID(g.ID), Record: rec, By: "go-server"}); err != nil {
					t.Fatal(err)
				}
			}
		}
		at = at.Add(time.Minute)
	}
	stop()
	wg.Wait()

	sess, err := a.Stores.Exams.Session(ctx, sessionID)
	if err != nil || sess.State != exams.SessionGraded || len(sess.Candidates) != 5 {
		t.Fatalf("session %+v, %v", sess, err)
	}
	for _, g := range sess.Pairing {
		if n := c.get(c.games, exams.SourceID(g.ID)); n != 1 {
			t.Errorf("game %s created with %d calls, want 1", g.ID, n)
		}
	}
	results, err := a.Stores.Exams.Results(ctx, sessionID)
	if err != nil || len(results) != 5 {
		t.Fatalf("results %+v, %v", results, err)
	}
	passed := 0
	for _, res := range results {
		wins := exams.TallyGames(res.Player, sess.Pairing).Wins
		want := map[bool]string{true: exams.ResultCertified, false: exams.ResultFailed}[wins >= 2]
		if res.State != want || !res.GradedAt.Equal(sess.Deadline) {
			t.Errorf("%s: %+v; want %s, graded at the deadline", res.Player, res, want)
		}
		if want == exams.ResultCertified {
			passed++
			if n := c.get(c.ops, "change:exam:"+res.ID); n != 1 {
				t.Errorf("%s certified in %d calls, want 1", res.Player, n)
			}
		}
	}
	certified, err := a.Ratings.Audit(ctx, rating.AuditQuery{Cause: rating.CauseExam, Limit: 50})
	if err != nil || passed == 0 || len(certified) != passed {
		t.Errorf("%d passed, %d certified: %+v, %v", passed, len(certified), certified, err)
	}
	for _, e := range certified {
		if !strings.HasPrefix(e.CauseID, sessionID+"/") || e.CertifiedAfter != "1d" {
			t.Errorf("exam entry %+v", e)
		}
	}
}

// waitDone waits for the firing's outcome; the ceiling is only for a
// real hang.
func waitDone(t *testing.T, l *jobsredis.Leases, key string) string {
	t.Helper()
	var out string
	testsvc.Eventually(t, fmt.Sprintf("firing %s to finish", key), func() bool {
		var err error
		if out, err = l.Outcome(context.Background(), key); err != nil {
			t.Fatal(err)
		}
		return out != ""
	})
	return out
}
