package playerredis_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players/playerredis"
)

// servers runs each test on the real redis-server and on miniredis (the
// zero-setup default), which must behave alike.
var servers = []struct {
	name   string
	client func(t testing.TB) redis.UniversalClient
}{
	{"redis-server", testsvc.Universal(testsvc.Redis)},
	{"redis-cluster", testsvc.RedisCluster},
	{"miniredis", testsvc.Universal(testsvc.MiniRedis)},
}

const window = 15 * time.Minute

// t0 sits 10 minutes into a window.
var t0 = time.Date(2026, 3, 1, 12, 10, 0, 0, time.UTC)

func TestLimiter(t *testing.T) {
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			tests := []struct {
				name string
				run  func(t *testing.T, rdb redis.UniversalClient, l *playerredis.Limiter)
			}{
				{"CountsWithinWindow", countsWithinWindow},
				{"KeysAndWindowsAreSeparate", keysAndWindowsAreSeparate},
				{"NextWindowStartsAfresh", nextWindowStartsAfresh},
				{"ResetClearsCurrentWindowOnly", resetClearsCurrentWindowOnly},
				{"KeyExpires", keyExpires},
				{"ConcurrentHitsCountEachOnce", concurrentHits},
				{"RefusesBadWindow", refusesBadWindow},
				{"CountReadsWithoutCounting", countReads},
			}
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					rdb := srv.client(t)
					tc.run(t, rdb, playerredis.New(rdb))
				})
			}
		})
	}
}

func hit(t *testing.T, l *playerredis.Limiter, key string, now time.Time, w time.Duration) int64 {
	t.Helper()
	n, err := l.Hit(context.Background(), key, now, w)
	if err != nil {
		t.Fatalf("Hit(%s, %v): %v", key, now, err)
	}
	return n
}

func countsWithinWindow(t *testing.T, _ redis.UniversalClient, l *playerredis.Limiter) {
	for want := int64(1); want <= 4; want++ {
		// Moving inside the window keeps counting.
		if got := hit(t, l, "a", t0.Add(time.Duration(want)*time.Minute), window); got != want {
			t.Fatalf("hit %d counted %d", want, got)
		}
	}
}

func keysAndWindowsAreSeparate(t *testing.T, _ redis.UniversalClient, l *playerredis.Limiter) {
	hit(t, l, "a", t0, window)
	hit(t, l, "a", t0, window)
	if got := hit(t, l, "b", t0, window); got != 1 {
		t.Fatalf("key b counted %d, want 1", got)
	}
	if got := hit(t, l, "a", t0, time.Hour); got != 1 {
		t.Fatalf("key a under another window length counted %d, want 1", got)
	}
}

func nextWindowStartsAfresh(t *testing.T, _ redis.UniversalClient, l *playerredis.Limiter) {
	hit(t, l, "a", t0, window)
	hit(t, l, "a", t0, window)
	// t0 is 12:10; the window is 12:00-12:15, so 12:15 is the next one.
	next := time.Date(2026, 3, 1, 12, 15, 0, 0, time.UTC)
	if got := hit(t, l, "a", next.Add(-time.Nanosecond), window); got != 3 {
		t.Fatalf("last instant of the window counted %d, want 3", got)
	}
	if got := hit(t, l, "a", next, window); got != 1 {
		t.Fatalf("first instant of the next window counted %d, want 1", got)
	}
}

func resetClearsCurrentWindowOnly(t *testing.T, _ redis.UniversalClient, l *playerredis.Limiter) {
	hit(t, l, "a", t0, window)
	hit(t, l, "b", t0, window)
	if err := l.Reset(context.Background(), "a", t0, window); err != nil {
		t.Fatal(err)
	}
	if got := hit(t, l, "a", t0, window); got != 1 {
		t.Fatalf("after reset a counted %d, want 1", got)
	}
	if got := hit(t, l, "b", t0, window); got != 2 {
		t.Fatalf("reset of a touched b: %d, want 2", got)
	}
}

// keyExpires: counters do not pile up; each lives past its window's end
// (so skewed replicas agree) but not beyond the window after it.
func keyExpires(t *testing.T, rdb redis.UniversalClient, l *playerredis.Limiter) {
	hit(t, l, "a", t0, window)
	keys, err := allKeys(rdb, playerredis.KeyPrefix+"*")
	if err != nil || len(keys) != 1 {
		t.Fatalf("keys = %v, %v; want one counter", keys, err)
	}
	ttl, err := rdb.PTTL(context.Background(), keys[0]).Result()
	if err != nil {
		t.Fatal(err)
	}
	// 12:10 in a 12:00-12:15 window: 5 minutes left, plus one window.
	if want := 20 * time.Minute; ttl <= 0 || ttl > want {
		t.Fatalf("ttl = %v, want in (0, %v]", ttl, want)
	}
}

// allKeys lists the keys matching pattern on every node (a cluster's
// KEYS answers for one node only).
func allKeys(rdb redis.UniversalClient, pattern string) ([]string, error) {
	ctx := context.Background()
	c, ok := rdb.(*redis.ClusterClient)
	if !ok {
		return rdb.Keys(ctx, pattern).Result()
	}
	var mu sync.Mutex
	var keys []string
	err := c.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
		ks, err := m.Keys(ctx, pattern).Result()
		mu.Lock()
		keys = append(keys, ks...)
		mu.Unlock()
		return err
	})
	return keys, err
}

func concurrentHits(t *testing.T, _ redis.UniversalClient, l *playerredis.Limiter) {
	const n = 40
	got := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			c, err := l.Hit(context.Background(), "a", t0, window)
			if err != nil {
				t.Error(err)
			}
			got[i] = c
		})
	}
	wg.Wait()
	slices.Sort(got)
	for i, c := range got {
		if c != int64(i+1) {
			t.Fatalf("concurrent counts %v are not 1..%d", got, n)
		}
	}
}

func refusesBadWindow(t *testing.T, _ redis.UniversalClient, l *playerredis.Limiter) {
	if _, err := l.Hit(context.Background(), "a", t0, 0); err == nil {
		t.Fatal("Hit with a zero window succeeded")
	}
	if err := l.Reset(context.Background(), "a", t0, -time.Second); err == nil {
		t.Fatal("Reset with a negative window succeeded")
	}
}

func TestRedisDownIsUnavailable(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer rdb.Close()
	_, err := playerredis.New(rdb).Hit(context.Background(), "a", t0, window)
	if !outage.Is(err) {
		t.Fatalf("Hit on a dead server: %v, want ErrUnavailable", err)
	}
}

func countReads(t *testing.T, _ redis.UniversalClient, l *playerredis.Limiter) {
	ctx := context.Background()
	for want := int64(0); want <= 2; want++ {
		for range 2 { // reading twice counts nothing
			if n, err := l.Count(ctx, "c", t0, window); err != nil || n != want {
				t.Fatalf("Count after %d hits = %d, %v", want, n, err)
			}
		}
		hit(t, l, "c", t0, window)
	}
	if n, err := l.Count(ctx, "c", t0.Add(window), window); err != nil || n != 0 {
		t.Fatalf("Count in the next window = %d, %v, want 0", n, err)
	}
}
