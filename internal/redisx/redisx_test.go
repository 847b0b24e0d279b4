package redisx_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/internal/redisx"
)

// TestNoServerIsAnOutage: a client aimed at a port nobody listens on
// fails with an outage, and redis.Nil (a missing key) is no outage.
func TestNoServerIsAnOutage(t *testing.T) {
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	err := redisx.Wrap("test", "get", c.Get(context.Background(), "k").Err())
	if !outage.Is(err) {
		t.Fatalf("%v is not an outage", err)
	}
	if redisx.Unavailable(redis.Nil) || redisx.Wrap("test", "get", redis.Nil) == nil || outage.Is(redisx.Wrap("test", "get", redis.Nil)) {
		t.Fatal("redis.Nil must be kept as a plain error, not an outage")
	}
	if !redisx.Unavailable(redis.ErrClosed) || redisx.Unavailable(errors.New("WRONGTYPE Operation against a key")) {
		t.Fatal("misclassified")
	}
}
