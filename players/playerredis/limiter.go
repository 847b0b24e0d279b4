package playerredis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/redisx"
	"github.com/weiqi-platform/rank/players"
)

// KeyPrefix starts every key the limiter writes.
const KeyPrefix = "rank:ratelimit:"

// Limiter is a players.Limiter on Redis.
type Limiter struct {
	rdb redis.UniversalClient
}

var _ players.Limiter = (*Limiter)(nil)

// New returns a Limiter on the client.
func New(rdb redis.UniversalClient) *Limiter { return &Limiter{rdb: rdb} }

// windowKey names the counter of key in the epoch-aligned window holding
// now. The window length is part of the name so that two policies on one
// key never share a counter.
func windowKey(key string, now time.Time, window time.Duration) (string, time.Time) {
	start := now.Truncate(window)
	return KeyPrefix + key + ":" + strconv.FormatInt(int64(window/time.Millisecond), 10) + ":" + strconv.FormatInt(start.UnixMilli(), 10), start.Add(window)
}

// Hit implements players.Limiter.
func (l *Limiter) Hit(ctx context.Context, key string, now time.Time, window time.Duration) (int64, error) {
	if window <= 0 {
		return 0, fmt.Errorf("playerredis: window %v must be positive", window)
	}
	k, end := windowKey(key, now, window)
	var incr *redis.IntCmd
	_, err := l.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		incr = p.Incr(ctx, k)
		// Kept one window past its end so that clock skew between
		// replicas never resurrects a finished window's count.
		// Relative, so that an injected clock still gives a live key.
		p.PExpire(ctx, k, end.Add(window).Sub(now))
		return nil
	})
	if err != nil {
		return 0, wrap("hit", err)
	}
	return incr.Val(), nil
}

// Count implements players.Limiter.
func (l *Limiter) Count(ctx context.Context, key string, now time.Time, window time.Duration) (int64, error) {
	if window <= 0 {
		return 0, fmt.Errorf("playerredis: window %v must be positive", window)
	}
	k, _ := windowKey(key, now, window)
	n, err := l.rdb.Get(ctx, k).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, wrap("count", err)
}

// Reset implements players.Limiter.
func (l *Limiter) Reset(ctx context.Context, key string, now time.Time, window time.Duration) error {
	if window <= 0 {
		return fmt.Errorf("playerredis: window %v must be positive", window)
	}
	k, _ := windowKey(key, now, window)
	return wrap("reset", l.rdb.Del(ctx, k).Err())
}

// wrap marks connection trouble as an outage (api answers 503) and keeps
// the client's error for the log.
func wrap(op string, err error) error { return redisx.Wrap("playerredis", op, err) }
