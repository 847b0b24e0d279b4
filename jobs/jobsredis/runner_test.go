package jobsredis_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobsredis"
)

// start is a Saturday, 18:58 in Shanghai.
var start = time.Date(2026, 3, 7, 10, 58, 0, 0, time.UTC)

// runs counts how often each firing key ran.
type runs struct {
	mu sync.Mutex
	n  map[string]int
}

func (r *runs) add(f jobs.Firing) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[f.Key()]++
}

func (r *runs) snapshot() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for k, v := range r.n {
		out[k] = v
	}
	return out
}

// waitDone waits for the done marker of key; the ceiling only stops a
// hung test, it asserts nothing about speed.
func waitDone(t *testing.T, l *jobsredis.Leases, key string) string {
	t.Helper()
	var out string
	testsvc.Eventually(t, "firing "+key+" to finish", func() bool {
		var err error
		if out, err = l.Outcome(context.Background(), key); err != nil {
			t.Fatal(err)
		}
		return out != ""
	})
	return out
}

// Two schedulers on one Redis, driven by one fake clock through three
// firings: each firing runs exactly once.
func TestTwoSchedulersRunEachFiringOnce(t *testing.T) {
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			rdb := s.open(t)
			clock := clockwork.NewFakeClockAt(start)
			ctx, cancel := context.WithCancel(context.Background())
			var got runs
			var wg sync.WaitGroup
			for i := range 2 {
				r := jobs.New(jobsredis.New(rdb, ""), jobs.Options{Clock: clock, Owner: fmt.Sprint("replica-", i)})
				err := r.Add(jobs.Job{Name: "exams", Spec: "CRON_TZ=Asia/Shanghai * 19 * * SAT", Run: func(ctx context.Context, f jobs.Firing) error {
					got.add(f)
					return nil
				}})
				if err != nil {
					t.Fatal(err)
				}
				wg.Go(func() { _ = r.Run(ctx) })
			}
			l := jobsredis.New(rdb, "")
			var keys []string
			for m := range 4 { // 18:59 does not match; 19:00, 19:01, 19:02 do
				if err := clock.BlockUntilContext(ctx, 2); err != nil {
					t.Fatal(err)
				}
				clock.Advance(time.Minute)
				if m == 0 {
					continue
				}
				key := fmt.Sprintf("exams@2026-03-07T11:%02d:00Z", m-1)
				if out := waitDone(t, l, key); out != "ok" {
					t.Fatalf("%s: outcome %q", key, out)
				}
				keys = append(keys, key)
			}
			cancel()
			wg.Wait()
			n := got.snapshot()
			for _, k := range keys {
				if n[k] != 1 {
					t.Errorf("%s ran %d times, want once", k, n[k])
				}
			}
			if len(n) != len(keys) {
				t.Errorf("ran %v, want exactly %v", n, keys)
			}
		})
	}
}

// Several replicas firing the same firing at the same moment, while the
// first run is still going: one runs it, the rest find it held, and
// after it is done nobody runs it again.
func TestConcurrentFireRunsOnce(t *testing.T) {
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			rdb := s.open(t)
			release := make(chan struct{})
			var got runs
			job := jobs.Job{Name: "grade", Spec: "0 * * * *", Run: func(ctx context.Context, f jobs.Firing) error {
				got.add(f)
				<-release
				return nil
			}}
			var replicas []*jobs.Runner
			for i := range 4 {
				r := jobs.New(jobsredis.New(rdb, ""), jobs.Options{Owner: fmt.Sprint("r", i)})
				if err := r.Add(job); err != nil {
					t.Fatal(err)
				}
				replicas = append(replicas, r)
			}
			at := time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)
			reports := make(chan jobs.Report, len(replicas))
			for _, r := range replicas {
				go func() {
					rep, err := r.Fire(context.Background(), "grade", at)
					if err != nil {
						t.Error(err)
					}
					reports <- rep
				}()
			}
			claims := map[jobs.Claim]int{}
			for range len(replicas) - 1 { // all but the runner are back while it runs
				claims[(<-reports).Claim]++
			}
			close(release)
			claims[(<-reports).Claim]++
			if claims[jobs.Taken] != 1 || claims[jobs.Held] != len(replicas)-1 {
				t.Fatalf("claims = %v; want one taken, the rest held", claims)
			}
			rep, err := replicas[0].Fire(context.Background(), "grade", at)
			if err != nil || rep.Claim != jobs.Done {
				t.Fatalf("firing again after it completed = %v, %v; want done", rep.Claim, err)
			}
			if n := got.snapshot(); n["grade@2026-03-07T11:00:00Z"] != 1 || len(n) != 1 {
				t.Fatalf("runs = %v, want the one firing once", n)
			}
		})
	}
}

// A holder that dies mid-run (it took the lease and never renews it) is
// taken over by a live replica's sweep, which resumes the same firing.
// The lease must expire by Redis' clock, so this needs the real server.
func TestDeadHolderIsTakenOver(t *testing.T) {
	rdb := testsvc.Redis(t)
	l := jobsredis.New(rdb, "")
	at := time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)
	dead := jobs.Firing{Job: "grade", At: at}

	// The job is resumable: it records each step it finished in Redis and
	// skips those already done, as the package contract asks.
	steps := []string{"alice", "bob", "carol"}
	var doneByHeir []string
	var mu sync.Mutex
	job := jobs.Job{Name: "grade", Spec: "0 * * * *", Run: func(ctx context.Context, f jobs.Firing) error {
		for _, s := range steps {
			added, err := rdb.SAdd(ctx, "graded:"+f.Key(), s).Result()
			if err != nil {
				return err
			}
			if added == 1 {
				mu.Lock()
				doneByHeir = append(doneByHeir, s)
				mu.Unlock()
			}
		}
		return nil
	}}
	// The dead replica took the firing and graded alice before dying.
	if c, err := l.Take(context.Background(), dead, "dead-replica", 200*time.Millisecond); err != nil || c != jobs.Taken {
		t.Fatalf("take = %v, %v", c, err)
	}
	if err := rdb.SAdd(context.Background(), "graded:"+dead.Key(), "alice").Err(); err != nil {
		t.Fatal(err)
	}

	heir := jobs.New(l, jobs.Options{Owner: "heir", LeaseTTL: 300 * time.Millisecond, SweepEvery: 50 * time.Millisecond})
	if err := heir.Add(job); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = heir.Run(ctx); close(done) }()
	if out := waitDone(t, l, dead.Key()); out != "ok" {
		t.Fatalf("outcome %q", out)
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(doneByHeir) != "[bob carol]" {
		t.Fatalf("the heir did %v; want [bob carol]: resume what the dead holder left, repeat nothing", doneByHeir)
	}
}

// A replica that stops mid-run releases its lease, and another replica's
// sweep resumes the firing at once (no waiting for the lease to expire).
func TestStoppedReplicaHandsOver(t *testing.T) {
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			rdb := s.open(t)
			l := jobsredis.New(rdb, "")
			started := make(chan struct{})
			var got runs
			mk := func(owner string, block bool) *jobs.Runner {
				r := jobs.New(l, jobs.Options{Owner: owner})
				err := r.Add(jobs.Job{Name: "expire", Spec: "*/5 * * * *", Run: func(ctx context.Context, f jobs.Firing) error {
					got.add(f)
					if block {
						close(started)
						<-ctx.Done()
						return ctx.Err()
					}
					return nil
				}})
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			a, b := mk("a", true), mk("b", false)
			at := time.Date(2026, 3, 7, 11, 5, 0, 0, time.UTC)
			ctx, stop := context.WithCancel(context.Background())
			res := make(chan jobs.Report)
			go func() { rep, _ := a.Fire(ctx, "expire", at); res <- rep }()
			<-started
			if rep, err := b.Fire(context.Background(), "expire", at); err != nil || rep.Claim != jobs.Held {
				t.Fatalf("b while a runs = %v, %v; want held", rep.Claim, err)
			}
			stop()
			if rep := <-res; rep.Claim != jobs.Taken || !errors.Is(rep.Err, context.Canceled) {
				t.Fatalf("a's report = %+v", rep)
			}
			ran, err := b.Resume(context.Background())
			if err != nil || len(ran) != 1 || ran[0].Err != nil || !ran[0].Firing.At.Equal(at) {
				t.Fatalf("b resumed %+v, %v; want the firing at %v, done", ran, err, at)
			}
			if n := got.snapshot()[ran[0].Firing.Key()]; n != 2 {
				t.Fatalf("runs = %d, want 2 (a's interrupted one and b's)", n)
			}
			if attempts, _ := l.Attempts(context.Background(), ran[0].Firing.Key()); attempts != 0 {
				t.Fatalf("a shutdown counted as %d failed attempts", attempts)
			}
		})
	}
}

// A run that loses its lease (it could not renew: here the key is given
// to someone else behind its back) is cancelled and says so.
func TestLostLeaseCancelsTheRun(t *testing.T) {
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			rdb := s.open(t)
			r := jobs.New(jobsredis.New(rdb, ""), jobs.Options{Owner: "a", LeaseTTL: 60 * time.Millisecond})
			at := time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)
			key := jobs.Firing{Job: "slow", At: at}.Key()
			err := r.Add(jobs.Job{Name: "slow", Run: func(ctx context.Context, f jobs.Firing) error {
				if err := rdb.Set(ctx, "{jobs}:lease:"+key, "usurper", 0).Err(); err != nil {
					return err
				}
				<-ctx.Done()
				return ctx.Err()
			}})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := r.Fire(context.Background(), "slow", at)
			if err != nil || !errors.Is(rep.Err, jobs.ErrLeaseLost) {
				t.Fatalf("report = %+v, %v; want ErrLeaseLost", rep, err)
			}
		})
	}
}

// A failing firing is retried by the sweeps, then given up.
func TestFailingFiringIsRetriedThenGivenUp(t *testing.T) {
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			l := jobsredis.New(s.open(t), "")
			r := jobs.New(l, jobs.Options{MaxAttempts: 3})
			var got runs
			err := r.Add(jobs.Job{Name: "verify", Spec: "@daily", Run: func(ctx context.Context, f jobs.Firing) error {
				got.add(f)
				if got.snapshot()[f.Key()] == 2 { // a panic counts as a failed attempt too
					panic("corrupt ledger")
				}
				return errors.New("store down")
			}})
			if err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC)
			rep, err := r.Fire(context.Background(), "verify", at)
			if err != nil || rep.Err == nil {
				t.Fatalf("first run = %+v, %v; want the job's error", rep, err)
			}
			for range 3 {
				if _, err := r.Resume(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			key := rep.Firing.Key()
			if n := got.snapshot()[key]; n != 3 {
				t.Fatalf("ran %d times, want 3 (MaxAttempts)", n)
			}
			if out, _ := l.Outcome(context.Background(), key); out != "failed: store down" {
				t.Fatalf("outcome = %q", out)
			}
		})
	}
}

func TestRunNow(t *testing.T) {
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			clock := clockwork.NewFakeClockAt(start)
			r := jobs.New(jobsredis.New(s.open(t), ""), jobs.Options{Clock: clock})
			var got runs
			if err := r.Add(jobs.Job{Name: "expire-tickets", Run: func(ctx context.Context, f jobs.Firing) error {
				if !f.OnDemand() || !f.At.Equal(start) {
					return fmt.Errorf("firing %+v: want on demand at %v", f, start)
				}
				got.add(f)
				return nil
			}}); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for i, tc := range []struct {
				id   string
				want jobs.Claim
			}{{"op-1", jobs.Taken}, {"op-1", jobs.Done}, {"", jobs.Taken}, {"", jobs.Taken}} {
				rep, err := r.RunNow(ctx, "expire-tickets", tc.id)
				if err != nil || rep.Claim != tc.want || rep.Err != nil {
					t.Fatalf("run %d (id %q) = %+v, %v; want %v", i, tc.id, rep, err, tc.want)
				}
			}
			if n := got.snapshot(); len(n) != 3 || n["expire-tickets@run:op-1"] != 1 {
				t.Fatalf("runs = %v; want op-1 once and two fresh runs", n)
			}
			if _, err := r.RunNow(ctx, "nope", ""); !errors.Is(err, jobs.ErrUnknownJob) {
				t.Fatalf("unknown job: %v", err)
			}
			if _, err := r.RunNow(ctx, "expire-tickets", "a/b"); !errors.Is(err, jobs.ErrBadJob) {
				t.Fatalf("bad run id: %v", err)
			}
		})
	}
}

func TestAddRefusesBadJobs(t *testing.T) {
	r := jobs.New(jobsredis.New(testsvc.MiniRedis(t), ""), jobs.Options{})
	run := func(context.Context, jobs.Firing) error { return nil }
	if err := r.Add(jobs.Job{Name: "ok", Spec: "@hourly", Run: run}); err != nil {
		t.Fatal(err)
	}
	for _, j := range []jobs.Job{
		{Name: "ok", Run: run},
		{Name: "Bad Name", Run: run},
		{Name: "norun"},
		{Name: "badspec", Spec: "@every 1m", Run: run},
	} {
		if err := r.Add(j); !errors.Is(err, jobs.ErrBadJob) {
			t.Errorf("Add(%+v) = %v, want ErrBadJob", j.Name, err)
		}
	}
	if info := r.Jobs(); len(info) != 1 || info[0].Name != "ok" || info[0].Next.IsZero() {
		t.Fatalf("Jobs() = %+v", info)
	}
}

// TestFiringRetriedAfterRedisOutage (issue 11 item 4): Redis is down when
// a firing is due; the runner tries again and runs it once Redis is back,
// within the job's period.
func TestFiringRetriedAfterRedisOutage(t *testing.T) {
	rds := testsvc.StartOwnRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: rds.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	t.Cleanup(func() { _ = rdb.Close() })
	clock := clockwork.NewFakeClockAt(start)
	ctx, cancel := context.WithCancel(context.Background())
	var got runs
	r := jobs.New(jobsredis.New(rdb, ""), jobs.Options{Clock: clock, Owner: "only", RetryEvery: 20 * time.Millisecond})
	if err := r.Add(jobs.Job{Name: "expire", Spec: "* * * * *", Run: func(ctx context.Context, f jobs.Firing) error {
		got.add(f)
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() { _ = r.Run(ctx) })
	defer func() { cancel(); wg.Wait() }()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal(err)
	}
	rds.Stop()
	clock.Advance(time.Minute) // 10:59 is due, while Redis is down
	key := "expire@2026-03-07T10:59:00Z"
	// Give the runner failed attempts to make before Redis comes back:
	// the firing has not run, and nothing is lost.
	testsvc.Eventually(t, "a failed attempt", func() bool { return rdb.Ping(context.Background()).Err() != nil })
	if n := got.snapshot()[key]; n != 0 {
		t.Fatalf("%s ran %d times with Redis down", key, n)
	}
	rds.Start()
	l := jobsredis.New(rdb, "")
	if out := waitDone(t, l, key); out != "ok" {
		t.Fatalf("%s: outcome %q", key, out)
	}
	if n := got.snapshot()[key]; n != 1 {
		t.Fatalf("%s ran %d times, want once", key, n)
	}
}
