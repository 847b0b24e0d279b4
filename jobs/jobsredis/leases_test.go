package jobsredis_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobsredis"
)

// servers are the Redis kinds the contract runs on: the real server and
// the in-process one rankd uses by default.
var servers = []struct {
	name string
	open func(testing.TB) redis.UniversalClient
}{
	{"redis-server", testsvc.Universal(testsvc.Redis)},
	{"redis-cluster", testsvc.RedisCluster},
	{"miniredis", testsvc.Universal(testsvc.MiniRedis)},
}

var at = time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)

func TestLeasesContract(t *testing.T) {
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			ctx := context.Background()
			l := jobsredis.New(s.open(t), "")
			f := jobs.Firing{Job: "exams", At: at}
			key := f.Key()

			mustClaim(t, l, f, "a", jobs.Taken)
			mustClaim(t, l, f, "b", jobs.Held)
			if ok, err := l.Renew(ctx, key, "b", time.Minute); err != nil || ok {
				t.Fatalf("renew by a non-holder = %v, %v; want false", ok, err)
			}
			if ok, err := l.Renew(ctx, key, "a", time.Minute); err != nil || !ok {
				t.Fatalf("renew by the holder = %v, %v; want true", ok, err)
			}
			p, err := l.Pending(ctx, 10)
			if err != nil || len(p) != 1 || p[0] != f {
				t.Fatalf("pending = %v, %v; want [%v]", p, err, f)
			}

			// Release by someone else changes nothing; by the holder frees it.
			if err := l.Release(ctx, key, "b"); err != nil {
				t.Fatal(err)
			}
			mustClaim(t, l, f, "c", jobs.Held)
			if err := l.Release(ctx, key, "a"); err != nil {
				t.Fatal(err)
			}
			mustClaim(t, l, f, "c", jobs.Taken)

			if err := l.Finish(ctx, key, "c", time.Hour); err != nil {
				t.Fatal(err)
			}
			mustClaim(t, l, f, "d", jobs.Done)
			if p, err := l.Pending(ctx, 10); err != nil || len(p) != 0 {
				t.Fatalf("pending after finish = %v, %v; want none", p, err)
			}
			if out, err := l.Outcome(ctx, key); err != nil || out != "ok" {
				t.Fatalf("outcome = %q, %v; want ok", out, err)
			}
		})
	}
}

func TestLeasesFailUntilGivenUp(t *testing.T) {
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			ctx := context.Background()
			l := jobsredis.New(s.open(t), "")
			f := jobs.Firing{Job: "verify", RunID: "r1", At: at}
			key := f.Key()
			for attempt := 1; attempt <= 3; attempt++ {
				mustClaim(t, l, f, "a", jobs.Taken)
				final, err := l.Fail(ctx, key, "a", "store down", 3, time.Hour)
				if err != nil || final != (attempt == 3) {
					t.Fatalf("attempt %d: fail = %v, %v", attempt, final, err)
				}
				if attempt < 3 {
					p, err := l.Pending(ctx, 10)
					if err != nil || len(p) != 1 || p[0].Key() != key || !p[0].At.Equal(at) {
						t.Fatalf("attempt %d: pending = %v, %v; want the on-demand firing with its time", attempt, p, err)
					}
					if n, _ := l.Attempts(ctx, key); n != attempt {
						t.Fatalf("attempts = %d, want %d", n, attempt)
					}
				}
			}
			mustClaim(t, l, f, "a", jobs.Done)
			if out, _ := l.Outcome(ctx, key); !strings.HasPrefix(out, "failed: store down") {
				t.Fatalf("outcome = %q, want the failure", out)
			}
			if p, _ := l.Pending(ctx, 10); len(p) != 0 {
				t.Fatalf("a given-up firing is still pending: %v", p)
			}
		})
	}
}

// TestLeasesOneTakerAtOnce races many owners for one firing.
func TestLeasesOneTakerAtOnce(t *testing.T) {
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			l := jobsredis.New(s.open(t), "")
			f := jobs.Firing{Job: "exams", At: at}
			var (
				mu    sync.Mutex
				taken int
				wg    sync.WaitGroup
			)
			for i := range 20 {
				wg.Go(func() {
					c, err := l.Take(context.Background(), f, string(rune('a'+i)), time.Minute)
					if err != nil {
						t.Error(err)
					}
					mu.Lock()
					defer mu.Unlock()
					if c == jobs.Taken {
						taken++
					}
				})
			}
			wg.Wait()
			if taken != 1 {
				t.Fatalf("%d owners took one firing, want 1", taken)
			}
		})
	}
}

// TestLeaseExpires needs a server whose keys expire with time: miniredis
// only moves TTLs when told, so this runs on the real server alone.
func TestLeaseExpires(t *testing.T) {
	ctx := context.Background()
	l := jobsredis.New(testsvc.Redis(t), "")
	f := jobs.Firing{Job: "exams", At: at}
	mustClaim(t, l, f, "dead", jobs.Taken)
	testsvc.Eventually(t, "a 50ms lease to expire", func() bool {
		c, err := l.Take(ctx, f, "heir", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return c == jobs.Taken
	})
	if ok, _ := l.Renew(ctx, f.Key(), "dead", time.Minute); ok {
		t.Fatal("the expired holder could still renew")
	}
}

func mustClaim(t *testing.T, l *jobsredis.Leases, f jobs.Firing, owner string, want jobs.Claim) {
	t.Helper()
	ttl := time.Minute
	if owner == "dead" {
		ttl = 50 * time.Millisecond
	}
	c, err := l.Take(context.Background(), f, owner, ttl)
	if err != nil || c != want {
		t.Fatalf("take by %s = %v, %v; want %v", owner, c, err, want)
	}
}
