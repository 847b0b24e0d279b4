package redisqueue_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/matchmaking/redisqueue"
)

// clock is a fake clock tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// gameRec is an in-memory game store for the Games port, as the games
// package will provide: pending games are idempotent by pairing id, and a
// player is busy until their game is finished.
type gameRec struct {
	mu       sync.Mutex
	byPair   map[string]matchmaking.PendingGame
	busy     map[string]string // player -> game id
	failing  atomic.Bool       // CreatePending fails while set
	creates  atomic.Int64      // CreatePending calls
	gameSeq  int
	gameOfID map[string]string // pairing id -> game id
}

func newGames() *gameRec {
	return &gameRec{byPair: map[string]matchmaking.PendingGame{}, busy: map[string]string{}, gameOfID: map[string]string{}}
}

func (g *gameRec) Unfinished(_ context.Context, player string) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.busy[player]
	return ok, nil
}

func (g *gameRec) CreatePending(_ context.Context, p matchmaking.PendingGame) (string, error) {
	g.creates.Add(1)
	if g.failing.Load() {
		return "", errors.New("game store down")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if id, ok := g.gameOfID[p.ID]; ok {
		return id, nil
	}
	for _, pl := range []string{p.Black, p.White} {
		if other, ok := g.busy[pl]; ok {
			return "", fmt.Errorf("player %s would be in two games: %s and pairing %s", pl, other, p.ID)
		}
	}
	g.gameSeq++
	id := "g" + strconv.Itoa(g.gameSeq)
	g.byPair[p.ID] = p
	g.gameOfID[p.ID] = id
	g.busy[p.Black], g.busy[p.White] = id, id
	return id, nil
}

// finish ends every game, so its players may queue again.
func (g *gameRec) finishAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	clear(g.busy)
}

func (g *gameRec) all() []matchmaking.PendingGame {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []matchmaking.PendingGame
	for _, p := range g.byPair {
		out = append(out, p)
	}
	return out
}

// metrics records what the service measured.
type metrics struct {
	mu     sync.Mutex
	queue  map[string]int
	waits  []time.Duration
	gaps   []int
	passes int
}

func (m *metrics) QueueLength(pool string, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.queue == nil {
		m.queue = map[string]int{}
	}
	m.queue[pool] = n
	m.passes++
}

func (m *metrics) Paired(_ string, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.waits = append(m.waits, d)
}

func (m *metrics) LevelGap(_ string, gap int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gaps = append(m.gaps, gap)
}

// env is one test's world: a Redis, the queue on it, a clock, games.
type env struct {
	t       *testing.T
	c       redis.UniversalClient
	q       *redisqueue.Queue
	clock   *clock
	games   *gameRec
	metrics *metrics
}

func newEnv(t *testing.T, newClient func(testing.TB) redis.UniversalClient) *env {
	t.Helper()
	c := newClient(t)
	c.AddHook(slotCheck{t})
	return &env{t: t, c: c, q: redisqueue.New(c), clock: newClock(), games: newGames(), metrics: &metrics{}}
}

func (e *env) service(holder string, mods ...func(*matchmaking.Config)) *matchmaking.Service {
	e.t.Helper()
	cfg := matchmaking.Config{
		Holder:  holder,
		Now:     e.clock.Now,
		Metrics: e.metrics,
		NewID:   newIDs(holder),
	}
	for _, m := range mods {
		m(&cfg)
	}
	s, err := matchmaking.New(e.q, e.games, e.q, cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

var idSeq atomic.Int64

func newIDs(prefix string) func() string {
	return func() string { return fmt.Sprintf("%s%06d", prefix, idSeq.Add(1)) }
}

// pool is the pool every test queues in unless it says otherwise.
var pool = func() matchmaking.Pool {
	p, err := matchmaking.NewPool(19, games.TimeControl{Preset: "rapid"}, "chinese", true)
	if err != nil {
		panic(err)
	}
	return p
}()

func request(player string, score int) matchmaking.Request {
	return matchmaking.Request{
		Player: player, Level: matchmaking.Level{Score: score, Rating: 1500 + float64(score), RD: 80},
		BoardSize: 19, TimeControl: games.TimeControl{Preset: "rapid"}, Rules: "chinese", Rated: true,
	}
}

func (e *env) enqueue(s *matchmaking.Service, player string, score int) matchmaking.Ticket {
	e.t.Helper()
	t, err := s.Enqueue(context.Background(), request(player, score))
	if err != nil {
		e.t.Fatalf("enqueue %s: %v", player, err)
	}
	return t
}

func (e *env) mine(s *matchmaking.Service, player string) matchmaking.Ticket {
	e.t.Helper()
	t, err := s.Mine(context.Background(), player)
	if err != nil {
		e.t.Fatalf("mine %s: %v", player, err)
	}
	return t
}

func (e *env) pass(s *matchmaking.Service) matchmaking.PassReport {
	e.t.Helper()
	rep, err := s.Pass(context.Background(), pool.Key())
	if err != nil {
		e.t.Fatalf("pass: %v", err)
	}
	return rep
}

// slotCheck fails the test if any script is given keys of two Redis
// Cluster slots: every multi-key script must run inside one slot.
type slotCheck struct{ t testing.TB }

func (slotCheck) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) { return next(ctx, network, addr) }
}

func (h slotCheck) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.check(cmd)
		return next(ctx, cmd)
	}
}

func (h slotCheck) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			h.check(c)
		}
		return next(ctx, cmds)
	}
}

func (h slotCheck) check(cmd redis.Cmder) {
	switch cmd.Name() {
	case "eval", "evalsha", "evalsha_ro", "eval_ro":
	default:
		return
	}
	args := cmd.Args()
	n, _ := strconv.Atoi(fmt.Sprint(args[2]))
	slot := -1
	for _, k := range args[3 : 3+n] {
		s := keySlot(fmt.Sprint(k))
		if slot >= 0 && s != slot {
			h.t.Errorf("script keys span two cluster slots: %v", args[3:3+n])
			return
		}
		slot = s
	}
}

// keySlot is Redis Cluster's HASH_SLOT: CRC16 (XMODEM) of the key's hash
// tag, or of the whole key when it has none, modulo 16384.
func keySlot(key string) int {
	if i := indexByte(key, '{'); i >= 0 {
		if j := indexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % 16384
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

func TestKeySlotKnownValues(t *testing.T) {
	// The CRC16 check value, the CLUSTER KEYSLOT examples of the Redis
	// documentation, and the hash-tag rules of the cluster specification
	// (an empty tag hashes the whole key).
	for key, want := range map[string]int{"123456789": 0x31C3, "somekey": 11058, "foo{hash_tag}": 2515, "bar{hash_tag}": 2515, "foo{}{bar}": 8363, "{user1000}.following": 3443} {
		if got := keySlot(key); got != want {
			t.Errorf("keySlot(%q) = %d, want %d", key, got, want)
		}
	}
}
