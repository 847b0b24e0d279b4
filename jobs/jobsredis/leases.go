package jobsredis

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/redisx"
	"github.com/weiqi-platform/rank/jobs"
)

// Leases implements jobs.Leases on Redis.
type Leases struct {
	rdb    redis.UniversalClient
	prefix string // "{jobs}:" by default; the braces are the hash tag
}

var _ jobs.Leases = (*Leases)(nil)

// New returns Leases under the keys "{prefix}:…" (prefix "jobs" when
// empty), so separate deployments can share a Redis.
func New(rdb redis.UniversalClient, prefix string) *Leases {
	if prefix == "" {
		prefix = "jobs"
	}
	return &Leases{rdb: rdb, prefix: "{" + prefix + "}:"}
}

func (l *Leases) lease(key string) string { return l.prefix + "lease:" + key }
func (l *Leases) done(key string) string  { return l.prefix + "done:" + key }
func (l *Leases) pending() string         { return l.prefix + "pending" }
func (l *Leases) attempts() string        { return l.prefix + "attempts" }

// KEYS: lease, done, pending. ARGV: owner, ttl ms, member, score.
var takeScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[2]) == 1 then return 'done' end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'held' end
redis.call('ZADD', KEYS[3], 'NX', ARGV[4], ARGV[3])
return 'taken'
`)

// Take implements jobs.Leases.
func (l *Leases) Take(ctx context.Context, f jobs.Firing, owner string, ttl time.Duration) (jobs.Claim, error) {
	key := f.Key()
	res, err := takeScript.Run(ctx, l.rdb, []string{l.lease(key), l.done(key), l.pending()},
		owner, ttl.Milliseconds(), key, f.At.UnixMilli()).Text()
	if err != nil {
		return 0, redisx.Wrap("jobsredis", "take", err)
	}
	switch res {
	case "taken":
		return jobs.Taken, nil
	case "held":
		return jobs.Held, nil
	case "done":
		return jobs.Done, nil
	}
	return 0, fmt.Errorf("jobsredis: take answered %q", res)
}

// KEYS: lease. ARGV: owner, ttl ms.
var renewScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`)

// Renew implements jobs.Leases.
func (l *Leases) Renew(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	n, err := renewScript.Run(ctx, l.rdb, []string{l.lease(key)}, owner, ttl.Milliseconds()).Int()
	return n == 1, redisx.Wrap("jobsredis", "renew", err)
}

// KEYS: lease, done, pending, attempts. ARGV: owner, member, outcome,
// retention ms.
var finishScript = redis.NewScript(`
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`)

// Finish implements jobs.Leases.
func (l *Leases) Finish(ctx context.Context, key, owner string, retention time.Duration) error {
	return redisx.Wrap("jobsredis", "finish", finishScript.Run(ctx, l.rdb, []string{l.lease(key), l.done(key), l.pending(), l.attempts()},
		owner, key, "ok", retention.Milliseconds()).Err())
}

// KEYS: lease, done, pending, attempts. ARGV: owner, member, reason,
// max attempts, retention ms.
var failScript = redis.NewScript(`
local n = redis.call('HINCRBY', KEYS[4], ARGV[2], 1)
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
if n < tonumber(ARGV[4]) then return 0 end
redis.call('SET', KEYS[2], 'failed: ' .. ARGV[3], 'PX', ARGV[5])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
return 1
`)

// Fail implements jobs.Leases.
func (l *Leases) Fail(ctx context.Context, key, owner, reason string, maxAttempts int, retention time.Duration) (bool, error) {
	n, err := failScript.Run(ctx, l.rdb, []string{l.lease(key), l.done(key), l.pending(), l.attempts()},
		owner, key, reason, maxAttempts, retention.Milliseconds()).Int()
	return n == 1, redisx.Wrap("jobsredis", "fail", err)
}

// KEYS: lease. ARGV: owner.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`)

// Release implements jobs.Leases.
func (l *Leases) Release(ctx context.Context, key, owner string) error {
	return redisx.Wrap("jobsredis", "release", releaseScript.Run(ctx, l.rdb, []string{l.lease(key)}, owner).Err())
}

// Pending implements jobs.Leases. A member that is not a firing key (it
// cannot come from Take) is reported as an error rather than skipped.
func (l *Leases) Pending(ctx context.Context, limit int) ([]jobs.Firing, error) {
	zs, err := l.rdb.ZRangeWithScores(ctx, l.pending(), 0, int64(limit)-1).Result()
	if err != nil {
		return nil, redisx.Wrap("jobsredis", "pending", err)
	}
	out := make([]jobs.Firing, 0, len(zs))
	for _, z := range zs {
		key, _ := z.Member.(string)
		f, err := jobs.ParseKey(key)
		if err != nil {
			return nil, fmt.Errorf("jobsredis: pending: %w", err)
		}
		if f.OnDemand() {
			f.At = time.UnixMilli(int64(z.Score)).UTC()
		}
		out = append(out, f)
	}
	return out, nil
}

// Outcome returns the done marker of key: "ok", "failed: reason", or ""
// when the firing is not done. For operations and tests.
func (l *Leases) Outcome(ctx context.Context, key string) (string, error) {
	s, err := l.rdb.Get(ctx, l.done(key)).Result()
	if err == redis.Nil {
		return "", nil
	}
	return s, redisx.Wrap("jobsredis", "outcome", err)
}

// Attempts returns the failed attempts counted for key so far.
func (l *Leases) Attempts(ctx context.Context, key string) (int, error) {
	s, err := l.rdb.HGet(ctx, l.attempts(), key).Result()
	if err == redis.Nil {
		return 0, nil
	}
	if err != nil {
		return 0, redisx.Wrap("jobsredis", "attempts", err)
	}
	return strconv.Atoi(s)
}
