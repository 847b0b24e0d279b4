package testsvc

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisClusterURL is the Redis Cluster .ci/services.sh starts (three
// primaries, no replicas), in go-redis's cluster URL form, used when
// RANK_TEST_REDIS_CLUSTER_URL is not set.
const DefaultRedisClusterURL = "redis://127.0.0.1:7001?addr=127.0.0.1:7002&addr=127.0.0.1:7003"

// A cluster has one database, so tests cannot have one each as on the
// single server: a test using the cluster has it alone, across test
// binaries (a lock file) and within one (clusterMu), from a flush at its
// start to its end.
var (
	clusterMu   sync.Mutex
	clusterHeld sync.Map // testing.TB → true while it holds the cluster
)

// RedisClusterURL returns the URL of the test Redis Cluster
// (RANK_TEST_REDIS_CLUSTER_URL, default DefaultRedisClusterURL).
func RedisClusterURL() string {
	if u := os.Getenv("RANK_TEST_REDIS_CLUSTER_URL"); u != "" {
		return u
	}
	return DefaultRedisClusterURL
}

// RedisCluster returns a client on the real Redis Cluster, emptied for
// this test, which has the cluster to itself until it ends (other tests
// that want it wait); the client is closed when the test ends. A cluster
// that cannot be reached, or is not in state ok, fails the test.
func RedisCluster(t testing.TB) redis.UniversalClient {
	t.Helper()
	opt, err := redis.ParseClusterURL(RedisClusterURL())
	if err != nil {
		t.Fatalf("RANK_TEST_REDIS_CLUSTER_URL: %v", err)
	}
	c := redis.NewClusterClient(opt)
	if _, held := clusterHeld.Load(t); !held {
		clusterMu.Lock()
		unlock, err := lockFile(filepath.Join(os.TempDir(), "rank-test-redis-cluster.lock"))
		if err != nil {
			clusterMu.Unlock()
			t.Fatalf("redis cluster lock: %v", err)
		}
		clusterHeld.Store(t, true)
		t.Cleanup(func() {
			clusterHeld.Delete(t)
			unlock()
			clusterMu.Unlock()
		})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error {
			if err := m.ClusterInfo(ctx).Err(); err != nil {
				return err
			}
			return m.FlushAll(ctx).Err()
		}); err != nil {
			_ = c.Close()
			unavailable(t, "redis cluster %v: %v", opt.Addrs, err)
		}
		info, err := c.ClusterInfo(ctx).Result()
		if err != nil || !strings.Contains(info, "cluster_state:ok") {
			_ = c.Close()
			unavailable(t, "redis cluster %v is not ok: %v %s", opt.Addrs, err, info)
		}
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Universal turns a factory of single-server clients (Redis, MiniRedis)
// into one of redis.UniversalClient, so that a Redis suite takes the
// cluster (RedisCluster) and the single servers alike.
func Universal(open func(testing.TB) *redis.Client) func(testing.TB) redis.UniversalClient {
	return func(t testing.TB) redis.UniversalClient {
		t.Helper()
		return open(t)
	}
}
