package wire

import (
	"context"
	"log/slog"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestOpenRedisCluster: a URL with addr parameters opens a cluster client
// on the real Redis Cluster; one without, a single-server client.
func TestOpenRedisCluster(t *testing.T) {
	testsvc.RedisCluster(t) // has the cluster to itself
	ctx := context.Background()
	r, err := OpenRedis(ctx, testsvc.RedisClusterURL(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, ok := r.Client.(*redis.ClusterClient); !ok || !r.Cluster {
		t.Fatalf("a cluster URL opened %T (cluster %v)", r.Client, r.Cluster)
	}
	// Keys of every slot land on their nodes.
	for _, k := range []string{"a", "b", "c", "d", "e", "f"} {
		if err := r.Client.Set(ctx, k, k, 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	one, err := OpenRedis(ctx, testsvc.RedisURL(t), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if _, ok := one.Client.(*redis.Client); !ok || one.Cluster {
		t.Fatalf("a single-server URL opened %T", one.Client)
	}
	if IsClusterURL("redis://127.0.0.1:6379/0") || !IsClusterURL("redis://a:1?addr=b:2") {
		t.Fatal("IsClusterURL")
	}
}
