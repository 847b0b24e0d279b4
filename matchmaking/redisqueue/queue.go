package redisqueue

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/redisx"
	"github.com/weiqi-platform/rank/matchmaking"
)

// Queue is matchmaking.Queue and matchmaking.History on Redis (a single
// server or a cluster: give it a *redis.Client or a *redis.ClusterClient).
type Queue struct {
	c redis.UniversalClient
}

var (
	_ matchmaking.Queue   = (*Queue)(nil)
	_ matchmaking.History = (*Queue)(nil)
)

// New returns the queue on c.
func New(c redis.UniversalClient) *Queue { return &Queue{c: c} }

// Key layout. {pool} and {player} are hash tags: all keys of one pool share
// a slot, and so do the keys of one player.
func poolKey(pool, what string) string { return "mm:{" + pool + "}:" + what }
func ticketKey(pool, id string) string { return poolKey(pool, "t:"+id) }
func pairKey(pool, id string) string   { return poolKey(pool, "pair:"+id) }

const poolsKey = "mm:pools"

// tag makes a player name safe inside a hash tag: a name with braces would
// end the tag early, so it is hex-encoded.
func tag(player string) string {
	if strings.ContainsAny(player, "{}") {
		return "{%" + hex.EncodeToString([]byte(player)) + "}"
	}
	return "{=" + player + "}"
}
func pointerKey(player string) string { return "mm:player:" + tag(player) }
func metKey(player string) string     { return "mm:met:" + tag(player) }

// indexKeys are the pool keys the scripts take first: q (waiting, by
// creation), hb (waiting, by last poll), w (waiting, id → entry).
func indexKeys(pool string) []string {
	return []string{poolKey(pool, "q"), poolKey(pool, "hb"), poolKey(pool, "w")}
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(s string) time.Time {
	n, _ := strconv.ParseInt(s, 10, 64)
	if n == 0 {
		return time.Time{}
	}
	return time.UnixMilli(n).UTC()
}

func ttlMS(d time.Duration) int64 { return max(int64(d/time.Millisecond), 1) }

func encodeRef(r matchmaking.Ref) string {
	if r == (matchmaking.Ref{}) {
		return ""
	}
	return r.Pool + "|" + r.ID
}

func decodeRef(s string) (matchmaking.Ref, bool) {
	pool, id, ok := strings.Cut(s, "|")
	return matchmaking.Ref{Pool: pool, ID: id}, ok
}

// run runs a script, loading it first if the server lost it.
func (q *Queue) run(ctx context.Context, s *redis.Script, keys []string, args ...any) *redis.Cmd {
	return s.Run(ctx, q.c, keys, args...)
}

// pipelined runs fn's script calls in one pipeline; if the server had lost
// a script, it loads them all and runs the pipeline again (every script is
// safe to run twice).
func (q *Queue) pipelined(ctx context.Context, fn func(p redis.Pipeliner)) ([]redis.Cmder, error) {
	for attempt := 0; ; attempt++ {
		cmds, err := q.c.Pipelined(ctx, func(p redis.Pipeliner) error { fn(p); return nil })
		if err == nil || attempt > 0 || !isNoScript(cmds) {
			return cmds, err
		}
		for _, s := range allScripts {
			if err := s.Load(ctx, q.c).Err(); err != nil {
				return nil, err
			}
		}
	}
}

func isNoScript(cmds []redis.Cmder) bool {
	for _, c := range cmds {
		if err := c.Err(); err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT") {
			return true
		}
	}
	return false
}

// Pointer implements matchmaking.Queue.
func (q *Queue) Pointer(ctx context.Context, player string) (matchmaking.Ref, bool, error) {
	v, err := q.c.Get(ctx, pointerKey(player)).Result()
	if errors.Is(err, redis.Nil) {
		return matchmaking.Ref{}, false, nil
	}
	if err != nil {
		return matchmaking.Ref{}, false, redisx.Wrap("redisqueue", fmt.Sprintf("pointer of %s", player), err)
	}
	ref, ok := decodeRef(v)
	return ref, ok, nil
}

// SwapPointer implements matchmaking.Queue.
func (q *Queue) SwapPointer(ctx context.Context, player string, old, ref matchmaking.Ref) (matchmaking.Ref, bool, error) {
	if old == (matchmaking.Ref{}) {
		return q.takePointer(ctx, player, ref)
	}
	v, err := q.run(ctx, swapScript, []string{pointerKey(player)}, encodeRef(old), encodeRef(ref)).Slice()
	if err != nil {
		return matchmaking.Ref{}, false, redisx.Wrap("redisqueue", fmt.Sprintf("swap pointer of %s", player), err)
	}
	if n, _ := v[0].(int64); n == 1 {
		return matchmaking.Ref{}, true, nil
	}
	cur, _ := v[1].(string)
	r, _ := decodeRef(cur)
	return r, false, nil
}

// takePointer is SwapPointer from nothing: SET NX, no script (a script
// costs far more than a command on the in-process Redis), and the value
// held when it is refused.
func (q *Queue) takePointer(ctx context.Context, player string, ref matchmaking.Ref) (matchmaking.Ref, bool, error) {
	key := pointerKey(player)
	var set *redis.BoolCmd
	var get *redis.StringCmd
	_, err := q.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		set = p.SetNX(ctx, key, encodeRef(ref), 0)
		get = p.Get(ctx, key)
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return matchmaking.Ref{}, false, redisx.Wrap("redisqueue", fmt.Sprintf("take pointer of %s", player), err)
	}
	if set.Val() {
		return matchmaking.Ref{}, true, nil
	}
	// Gone between the two (it expired): refused, holding nothing now.
	cur, _ := decodeRef(get.Val())
	return cur, false, nil
}

// KeepPointer implements matchmaking.Queue.
func (q *Queue) KeepPointer(ctx context.Context, player string, ref matchmaking.Ref, ttl time.Duration) error {
	var t int64
	if ttl > 0 {
		t = ttlMS(ttl)
	}
	if err := q.run(ctx, keepScript, []string{pointerKey(player)}, encodeRef(ref), t).Err(); err != nil {
		return redisx.Wrap("redisqueue", fmt.Sprintf("keep pointer of %s", player), err)
	}
	return nil
}

// entry is a waiting ticket as the pool's w hash holds it, so that a pass
// reads the whole pool with one HGETALL: score|rating|rd|min|max|created|player
// (the player last, so it may hold any byte).
func entry(t matchmaking.Ticket) string {
	return strings.Join([]string{
		strconv.Itoa(t.Level.Score),
		strconv.FormatFloat(t.Level.Rating, 'g', -1, 64),
		strconv.FormatFloat(t.Level.RD, 'g', -1, 64),
		strconv.Itoa(t.Range.Min), strconv.Itoa(t.Range.Max),
		strconv.FormatInt(ms(t.CreatedAt), 10),
		t.Player,
	}, "|")
}

func parseEntry(pool matchmaking.Pool, id, s string) (matchmaking.Ticket, error) {
	f := strings.SplitN(s, "|", 7)
	if len(f) != 7 {
		return matchmaking.Ticket{}, fmt.Errorf("redisqueue: bad pool entry for ticket %s: %q", id, s)
	}
	t := matchmaking.Ticket{ID: id, Player: f[6], Pool: pool, State: matchmaking.Waiting, CreatedAt: fromMS(f[5])}
	var errs [5]error
	t.Level.Score, errs[0] = strconv.Atoi(f[0])
	t.Level.Rating, errs[1] = strconv.ParseFloat(f[1], 64)
	t.Level.RD, errs[2] = strconv.ParseFloat(f[2], 64)
	t.Range.Min, errs[3] = strconv.Atoi(f[3])
	t.Range.Max, errs[4] = strconv.Atoi(f[4])
	if err := errors.Join(errs[:]...); err != nil {
		return matchmaking.Ticket{}, redisx.Wrap("redisqueue", fmt.Sprintf("bad pool entry for ticket %s", id), err)
	}
	return t, nil
}

// fields are a ticket's hash fields.
func fields(t matchmaking.Ticket) []any {
	return []any{
		"id", t.ID, "player", t.Player,
		"score", t.Level.Score, "rating", strconv.FormatFloat(t.Level.Rating, 'g', -1, 64), "rd", strconv.FormatFloat(t.Level.RD, 'g', -1, 64),
		"min", t.Range.Min, "max", t.Range.Max, "created", ms(t.CreatedAt),
	}
}

// decode reads a ticket hash; ok is false if there is none.
func decode(ref matchmaking.Ref, h map[string]string) (matchmaking.Ticket, bool, error) {
	if len(h) == 0 {
		return matchmaking.Ticket{}, false, nil
	}
	pool, err := matchmaking.ParsePool(ref.Pool)
	if err != nil {
		return matchmaking.Ticket{}, false, err
	}
	t := matchmaking.Ticket{
		ID: ref.ID, Player: h["player"], Pool: pool, State: matchmaking.State(h["state"]),
		CreatedAt: fromMS(h["created"]), EndedAt: fromMS(h["ended"]),
		Range: matchmaking.AnyScore,
	}
	if h["created"] != "" { // not a tombstone
		var errs [5]error
		t.Level.Score, errs[0] = strconv.Atoi(h["score"])
		t.Level.Rating, errs[1] = strconv.ParseFloat(h["rating"], 64)
		t.Level.RD, errs[2] = strconv.ParseFloat(h["rd"], 64)
		t.Range.Min, errs[3] = strconv.Atoi(h["min"])
		t.Range.Max, errs[4] = strconv.Atoi(h["max"])
		if err := errors.Join(errs[:]...); err != nil {
			return matchmaking.Ticket{}, false, redisx.Wrap("redisqueue", fmt.Sprintf("bad ticket %s", ref.ID), err)
		}
	}
	if t.State == matchmaking.Matched {
		t.Match = &matchmaking.Match{
			PairID: h["pair"], GameID: h["game"], Opponent: h["opp"],
			Colour: matchmaking.Colour(h["colour"]), MatchedAt: fromMS(h["matched"]),
		}
	}
	return t, true, nil
}

// Add implements matchmaking.Queue.
func (q *Queue) Add(ctx context.Context, t matchmaking.Ticket, keep time.Duration) (matchmaking.Ticket, error) {
	ref := t.Ref()
	keys := append(indexKeys(ref.Pool), ticketKey(ref.Pool, ref.ID))
	args := append([]any{t.ID, ms(t.CreatedAt), ttlMS(keep), entry(t)}, fields(t)...)
	var added *redis.Cmd
	_, err := q.pipelined(ctx, func(p redis.Pipeliner) {
		// The pool list is in a slot of its own: SADD is idempotent, and
		// every enqueue repeats it, so a lost pool list heals itself.
		p.SAdd(ctx, poolsKey, ref.Pool)
		added = addScript.EvalSha(ctx, p, keys, args...)
	})
	if err != nil {
		return matchmaking.Ticket{}, redisx.Wrap("redisqueue", "add ticket", err)
	}
	if n, _ := added.Int(); n == 1 {
		return t, nil
	}
	return q.Get(ctx, ref) // it was there already: a retry or a tombstone
}

// Get implements matchmaking.Queue.
func (q *Queue) Get(ctx context.Context, ref matchmaking.Ref) (matchmaking.Ticket, error) {
	h, err := q.c.HGetAll(ctx, ticketKey(ref.Pool, ref.ID)).Result()
	if err != nil {
		return matchmaking.Ticket{}, redisx.Wrap("redisqueue", "get ticket", err)
	}
	t, ok, err := decode(ref, h)
	if err == nil && !ok {
		err = matchmaking.ErrNoTicket
	}
	return t, err
}

// end runs endScript and reads the ticket after it.
func (q *Queue) end(ctx context.Context, ref matchmaking.Ref, mode string, now time.Time, cut matchmaking.Cutoffs, keep time.Duration) (matchmaking.Ticket, error) {
	keys := append(indexKeys(ref.Pool), ticketKey(ref.Pool, ref.ID))
	var get *redis.MapStringStringCmd
	_, err := q.pipelined(ctx, func(p redis.Pipeliner) {
		endScript.EvalSha(ctx, p, keys, ref.ID, mode, ms(now), ms(cut.Created), ms(cut.Seen), ttlMS(keep))
		get = p.HGetAll(ctx, keys[3])
	})
	if err != nil {
		return matchmaking.Ticket{}, redisx.Wrap("redisqueue", fmt.Sprintf("%s ticket", mode), err)
	}
	t, ok, err := decode(ref, get.Val())
	if err == nil && !ok {
		err = matchmaking.ErrNoTicket
	}
	return t, err
}

// Poll implements matchmaking.Queue.
func (q *Queue) Poll(ctx context.Context, ref matchmaking.Ref, now time.Time, cut matchmaking.Cutoffs, keep time.Duration) (matchmaking.Ticket, error) {
	return q.end(ctx, ref, "poll", now, cut, keep)
}

// End implements matchmaking.Queue.
func (q *Queue) End(ctx context.Context, ref matchmaking.Ref, cancel bool, now time.Time, cut matchmaking.Cutoffs, keep time.Duration) (matchmaking.Ticket, error) {
	mode := "retire"
	if cancel {
		mode = "cancel"
	}
	return q.end(ctx, ref, mode, now, cut, keep)
}

// Stale implements matchmaking.Queue.
func (q *Queue) Stale(ctx context.Context, pool string, cut matchmaking.Cutoffs, limit int) ([]matchmaking.Ref, error) {
	keys := indexKeys(pool)
	var old, silent *redis.StringSliceCmd
	_, err := q.pipelined(ctx, func(p redis.Pipeliner) {
		old = p.ZRangeByScore(ctx, keys[0], &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(ms(cut.Created), 10), Count: int64(limit)})
		silent = p.ZRangeByScore(ctx, keys[1], &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(ms(cut.Seen), 10), Count: int64(limit)})
	})
	if err != nil {
		return nil, redisx.Wrap("redisqueue", "stale tickets", err)
	}
	seen := map[string]bool{}
	var refs []matchmaking.Ref
	for _, id := range append(old.Val(), silent.Val()...) {
		if !seen[id] && len(refs) < limit {
			seen[id] = true
			refs = append(refs, matchmaking.Ref{Pool: pool, ID: id})
		}
	}
	return refs, nil
}

// Waiting implements matchmaking.Queue.
func (q *Queue) Waiting(ctx context.Context, pool string) ([]matchmaking.Ticket, error) {
	p, err := matchmaking.ParsePool(pool)
	if err != nil {
		return nil, err
	}
	h, err := q.c.HGetAll(ctx, poolKey(pool, "w")).Result()
	if err != nil {
		return nil, redisx.Wrap("redisqueue", "waiting tickets", err)
	}
	out := make([]matchmaking.Ticket, 0, len(h))
	for id, e := range h {
		t, err := parseEntry(p, id, e)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// pairingDoc is a pairing as stored (JSON in the pairing hash).
type pairingDoc struct {
	Black   sideDoc `json:"b"`
	White   sideDoc `json:"w"`
	Nigiri  bool    `json:"n"`
	Claimed int64   `json:"at"`
}

type sideDoc struct {
	Ticket string  `json:"t"`
	Player string  `json:"p"`
	Score  int     `json:"s"`
	Rating float64 `json:"r"`
	RD     float64 `json:"d"`
	Since  int64   `json:"since"`
}

func toSideDoc(s matchmaking.Side) sideDoc {
	return sideDoc{Ticket: s.Ticket, Player: s.Player, Score: s.Level.Score, Rating: s.Level.Rating, RD: s.Level.RD, Since: ms(s.Since)}
}

func (d sideDoc) side() matchmaking.Side {
	return matchmaking.Side{Ticket: d.Ticket, Player: d.Player, Level: matchmaking.Level{Score: d.Score, Rating: d.Rating, RD: d.RD}, Since: time.UnixMilli(d.Since).UTC()}
}

func decodePairing(pool, id string, h map[string]string) (matchmaking.Pairing, error) {
	var d pairingDoc
	if err := json.Unmarshal([]byte(h["data"]), &d); err != nil {
		return matchmaking.Pairing{}, redisx.Wrap("redisqueue", fmt.Sprintf("bad pairing %s", id), err)
	}
	return matchmaking.Pairing{
		ID: id, Pool: pool, Black: d.Black.side(), White: d.White.side(), Nigiri: d.Nigiri,
		ClaimedAt: time.UnixMilli(d.Claimed).UTC(), GameID: h["game"],
	}, nil
}

// scriptBatch is how many pairings one claim or complete script takes: big
// enough to spare round trips and script calls, small enough that Redis is
// not blocked for long (about a millisecond).
const scriptBatch = 100

// Claim implements matchmaking.Queue.
func (q *Queue) Claim(ctx context.Context, pool string, ps []matchmaking.Pairing, now time.Time, cut matchmaking.Cutoffs) ([]bool, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	idx := indexKeys(pool)
	var cmds []*redis.Cmd
	_, err := q.pipelined(ctx, func(p redis.Pipeliner) {
		cmds = cmds[:0]
		for start := 0; start < len(ps); start += scriptBatch {
			batch := ps[start:min(start+scriptBatch, len(ps))]
			keys := make([]string, 0, 4+3*len(batch))
			keys = append(keys, idx[0], idx[1], idx[2], poolKey(pool, "open"))
			args := make([]any, 0, 3+6*len(batch))
			args = append(args, ms(now), ms(cut.Created), ms(cut.Seen))
			for _, pr := range batch {
				doc, _ := json.Marshal(pairingDoc{Black: toSideDoc(pr.Black), White: toSideDoc(pr.White), Nigiri: pr.Nigiri, Claimed: ms(now)})
				keys = append(keys, ticketKey(pool, pr.Black.Ticket), ticketKey(pool, pr.White.Ticket), pairKey(pool, pr.ID))
				args = append(args, pr.Black.Ticket, pr.White.Ticket, pr.ID, pr.Black.Player, pr.White.Player, doc)
			}
			cmds = append(cmds, claimScript.EvalSha(ctx, p, keys, args...))
		}
	})
	if err != nil {
		return nil, redisx.Wrap("redisqueue", "claim", err)
	}
	ok := make([]bool, 0, len(ps))
	for _, c := range cmds {
		res, err := c.Int64Slice()
		if err != nil {
			return nil, redisx.Wrap("redisqueue", "claim", err)
		}
		for _, r := range res {
			ok = append(ok, r == 1)
		}
	}
	if len(ok) != len(ps) {
		return nil, fmt.Errorf("redisqueue: claim answered %d of %d pairings", len(ok), len(ps))
	}
	return ok, nil
}

// Pairing implements matchmaking.Queue.
func (q *Queue) Pairing(ctx context.Context, pool, id string) (matchmaking.Pairing, error) {
	h, err := q.c.HGetAll(ctx, pairKey(pool, id)).Result()
	if err != nil {
		return matchmaking.Pairing{}, redisx.Wrap("redisqueue", "pairing", err)
	}
	if len(h) == 0 {
		return matchmaking.Pairing{}, fmt.Errorf("%w: pairing %s", matchmaking.ErrNoTicket, id)
	}
	return decodePairing(pool, id, h)
}

// Open implements matchmaking.Queue.
func (q *Queue) Open(ctx context.Context, pool string, since time.Time, limit int) ([]matchmaking.Pairing, error) {
	ids, err := q.c.ZRangeByScore(ctx, poolKey(pool, "open"), &redis.ZRangeBy{Min: "-inf", Max: strconv.FormatInt(ms(since), 10), Count: int64(limit)}).Result()
	if err != nil {
		return nil, redisx.Wrap("redisqueue", "open pairings", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	gets := make([]*redis.MapStringStringCmd, len(ids))
	if _, err := q.pipelined(ctx, func(p redis.Pipeliner) {
		for i, id := range ids {
			gets[i] = p.HGetAll(ctx, pairKey(pool, id))
		}
	}); err != nil {
		return nil, redisx.Wrap("redisqueue", "open pairings", err)
	}
	out := make([]matchmaking.Pairing, 0, len(ids))
	for i, id := range ids {
		if len(gets[i].Val()) == 0 {
			continue // closed meanwhile
		}
		pr, err := decodePairing(pool, id, gets[i].Val())
		if err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

// Complete implements matchmaking.Queue.
func (q *Queue) Complete(ctx context.Context, pool string, done []matchmaking.Pairing, keep time.Duration) error {
	if len(done) == 0 {
		return nil
	}
	_, err := q.pipelined(ctx, func(p redis.Pipeliner) {
		for start := 0; start < len(done); start += scriptBatch {
			batch := done[start:min(start+scriptBatch, len(done))]
			keys := make([]string, 0, 1+3*len(batch))
			keys = append(keys, poolKey(pool, "open"))
			args := make([]any, 0, 1+2*len(batch))
			args = append(args, ttlMS(keep))
			for _, pr := range batch {
				keys = append(keys, ticketKey(pool, pr.Black.Ticket), ticketKey(pool, pr.White.Ticket), pairKey(pool, pr.ID))
				args = append(args, pr.ID, pr.GameID)
			}
			completeScript.EvalSha(ctx, p, keys, args...)
		}
		// The players' pointers, each in its player's slot, expire with
		// the tickets; only if they still point at them.
		for _, pr := range done {
			for _, sd := range []matchmaking.Side{pr.Black, pr.White} {
				ref := matchmaking.Ref{Pool: pool, ID: sd.Ticket}
				keepScript.EvalSha(ctx, p, []string{pointerKey(sd.Player)}, encodeRef(ref), ttlMS(keep))
			}
		}
	})
	if err != nil {
		return redisx.Wrap("redisqueue", "complete pairings", err)
	}
	return nil
}

// Pools implements matchmaking.Queue.
func (q *Queue) Pools(ctx context.Context) ([]string, error) {
	pools, err := q.c.SMembers(ctx, poolsKey).Result()
	if err != nil {
		return nil, redisx.Wrap("redisqueue", "pools", err)
	}
	return pools, nil
}

// Stats implements matchmaking.Queue.
func (q *Queue) Stats(ctx context.Context, pool string) (int, time.Time, error) {
	var n *redis.IntCmd
	var first *redis.ZSliceCmd
	if _, err := q.pipelined(ctx, func(p redis.Pipeliner) {
		n = p.ZCard(ctx, poolKey(pool, "q"))
		first = p.ZRangeWithScores(ctx, poolKey(pool, "q"), 0, 0)
	}); err != nil {
		return 0, time.Time{}, redisx.Wrap("redisqueue", "pool stats", err)
	}
	var oldest time.Time
	if z := first.Val(); len(z) > 0 {
		oldest = time.UnixMilli(int64(z[0].Score)).UTC()
	}
	return int(n.Val()), oldest, nil
}

// Lease implements matchmaking.Queue: SET NX PX takes a free lease; a
// script renews it for its holder or takes it over once the holder's
// deadline has passed (Redis also drops it after the TTL by itself).
func (q *Queue) Lease(ctx context.Context, pool, holder string, ttl time.Duration, now time.Time) (bool, error) {
	key := poolKey(pool, "lease")
	val := holder + "|" + strconv.FormatInt(ms(now.Add(ttl)), 10)
	err := q.c.Do(ctx, "SET", key, val, "NX", "PX", ttlMS(ttl)).Err()
	if err == nil {
		return true, nil
	}
	if !errors.Is(err, redis.Nil) {
		return false, redisx.Wrap("redisqueue", "lease", err)
	}
	n, err := q.run(ctx, leaseScript, []string{key}, holder, ms(now), ttlMS(ttl)).Int()
	if err != nil {
		return false, redisx.Wrap("redisqueue", "lease", err)
	}
	return n == 1, nil
}

// Release implements matchmaking.Queue.
func (q *Queue) Release(ctx context.Context, pool, holder string) error {
	if err := q.run(ctx, releaseScript, []string{poolKey(pool, "lease")}, holder).Err(); err != nil {
		return redisx.Wrap("redisqueue", "release lease", err)
	}
	return nil
}

// Met implements matchmaking.History: each player's key (in that player's
// slot) holds whom they met and when; plain idempotent commands, no script.
func (q *Queue) Met(ctx context.Context, meetings []matchmaking.Meeting, keep time.Duration) error {
	if keep <= 0 || len(meetings) == 0 {
		return nil
	}
	_, err := q.pipelined(ctx, func(p redis.Pipeliner) {
		for _, m := range meetings {
			for _, x := range [][2]string{{m.A, m.B}, {m.B, m.A}} {
				k := metKey(x[0])
				p.ZAdd(ctx, k, redis.Z{Score: float64(ms(m.At)), Member: x[1]})
				p.ZRemRangeByScore(ctx, k, "-inf", "("+strconv.FormatInt(ms(m.At.Add(-keep)), 10))
				p.PExpire(ctx, k, keep)
			}
		}
	})
	if err != nil {
		return redisx.Wrap("redisqueue", "record opponents", err)
	}
	return nil
}

// Recent implements matchmaking.History.
func (q *Queue) Recent(ctx context.Context, players []string, since time.Time) (matchmaking.Recent, error) {
	cmds := make([]*redis.StringSliceCmd, len(players))
	min := strconv.FormatInt(ms(since), 10)
	if _, err := q.pipelined(ctx, func(p redis.Pipeliner) {
		for i, pl := range players {
			cmds[i] = p.ZRangeByScore(ctx, metKey(pl), &redis.ZRangeBy{Min: min, Max: "+inf"})
		}
	}); err != nil {
		return nil, redisx.Wrap("redisqueue", "recent opponents", err)
	}
	out := matchmaking.Recent{}
	for i, c := range cmds {
		if v := c.Val(); len(v) > 0 {
			out[players[i]] = v
		}
	}
	return out, nil
}
