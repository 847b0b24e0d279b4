package jobs_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobsredis"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/ranks/examdb"
	"github.com/weiqi-platform/rank/ranks/examtest"
)

// countingCertifier counts certification calls per key, to show that the
// exam job, run by two schedulers, certifies each pass in one call.
type countingCertifier struct {
	*examtest.Certifier
	mu    sync.Mutex
	calls map[string]int
}

func (c *countingCertifier) SetCertified(ctx context.Context, ch ranks.CertifiedChange) error {
	c.mu.Lock()
	c.calls[ch.Key]++
	c.mu.Unlock()
	return c.Certifier.SetCertified(ctx, ch)
}

// The exam job as rankd runs it, on two schedulers sharing one real
// redis-server and one store, driven minute by minute by a fake clock
// from before the firing to after the deadline: the session is opened
// once, each game created once, graded once, each pass certified once.
func TestExamJobOnTwoSchedulers(t *testing.T) {
	rdb := testsvc.Redis(t)
	store, err := examdb.Open(context.Background(), testsvc.Mongo(t))
	if err != nil {
		t.Fatal(err)
	}
	made := time.Date(2026, 3, 7, 10, 0, 0, 0, time.UTC)
	firing := time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC) // 19:00 in Shanghai
	games, players := examtest.NewGames(), examtest.NewPlayers()
	cert := &countingCertifier{Certifier: examtest.NewCertifier(players), calls: map[string]int{}}
	svc := &ranks.ExamService{Store: store, Games: games, Players: players, Certifier: cert,
		Calendar: jobs.Calendar{}, Clock: examtest.NewClock(made)}
	ctx := context.Background()
	sch, err := svc.CreateSchedule(ctx, "weekly-1d", ranks.ExamDraft{TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		SessionLength: "5m", GamesPerCandidate: new(2), WinsNeeded: new(2)}, "root")
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{"ann", "bob", "cat", "dan", "eve"} {
		players.Set(p, 90-10*i)
		if _, _, err := svc.Register(ctx, ranks.RegisterRequest{ScheduleID: sch.ID, Player: p}); err != nil {
			t.Fatal(err)
		}
	}

	clock := clockwork.NewFakeClockAt(firing.Add(-90 * time.Second))
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range 2 {
		r := jobs.New(jobsredis.New(rdb, ""), jobs.Options{Clock: clock, Owner: fmt.Sprint("rankd-", i)})
		if err := r.Add(jobs.Job{Name: "exams", Spec: "* * * * *", Run: func(ctx context.Context, f jobs.Firing) error {
			return svc.Tick(ctx, f.At)
		}}); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { _ = r.Run(runCtx) })
	}
	leases := jobsredis.New(rdb, "")
	sessionID := ranks.ExamSessionID(sch.ID, firing)
	at := firing.Add(-time.Minute)
	for !at.After(firing.Add(7 * time.Minute)) {
		if err := clock.BlockUntilContext(runCtx, 2); err != nil {
			t.Fatal(err)
		}
		clock.Advance(at.Sub(clock.Now()))
		key := jobs.Firing{Job: "exams", At: at}.Key()
		if out := waitDone(t, leases, key); out != "ok" {
			t.Fatalf("%s: %s", key, out)
		}
		if at.Equal(firing) { // the games are out: ann wins hers, the rest go to Black
			sess, err := store.Session(ctx, sessionID)
			if err != nil || sess.State != ranks.SessionOpen {
				t.Fatalf("at the firing: %+v, %v", sess, err)
			}
			for _, g := range sess.Pairing {
				winner := g.Black
				if g.White == "ann" {
					winner = "ann"
				}
				games.Report(g.ID, ranks.GameOutcome{Finished: true, Winner: winner})
			}
		}
		at = at.Add(time.Minute)
	}
	stop()
	wg.Wait()

	sess, err := store.Session(ctx, sessionID)
	if err != nil || sess.State != ranks.SessionGraded || len(sess.Candidates) != 5 {
		t.Fatalf("session %+v, %v", sess, err)
	}
	for _, g := range sess.Pairing {
		if n := games.Calls(g.ID); n != 1 {
			t.Errorf("game %s created with %d calls, want 1", g.ID, n)
		}
	}
	results, err := store.Results(ctx, sessionID)
	if err != nil || len(results) != 5 {
		t.Fatalf("results %+v, %v", results, err)
	}
	passed := 0
	for _, res := range results {
		wins := ranks.TallyGames(res.Player, sess.Pairing).Wins
		want := map[bool]string{true: ranks.ResultCertified, false: ranks.ResultFailed}[wins >= 2]
		if res.State != want || !res.GradedAt.Equal(sess.Deadline) {
			t.Errorf("%s: %+v; want %s, graded at the deadline", res.Player, res, want)
		}
		if want == ranks.ResultCertified {
			passed++
			if n := cert.calls["exam:"+res.ID]; n != 1 {
				t.Errorf("%s certified in %d calls, want 1", res.Player, n)
			}
		}
	}
	if passed == 0 || len(cert.Applied()) != passed {
		t.Errorf("%d passed, %d certified: %+v", passed, len(cert.Applied()), cert.Applied())
	}
}
