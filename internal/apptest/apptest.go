package apptest

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/exams/examtest"
	"github.com/weiqi-platform/rank/intake/intaketest"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/metrics"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/jobs/jobsredis"
	"github.com/weiqi-platform/rank/jobs/jobstest"
	"github.com/weiqi-platform/rank/matchmaking/redisqueue"
	"github.com/weiqi-platform/rank/players/playerredis"
	"github.com/weiqi-platform/rank/players/playertest"
	"github.com/weiqi-platform/rank/rating/ratingtest"
	"github.com/weiqi-platform/rank/reviews/reviewstest"
	"github.com/weiqi-platform/rank/schools/schooltest"
)

// Stack is the application wired on test stores.
type Stack struct {
	*app.App
	Stores app.Stores
	// DB and Redis are the real stores under a Real stack (nil DB under a
	// Memory one; Redis is then the in-process one).
	DB    *mongo.Database
	Redis redis.UniversalClient
	// Logs holds everything the application logged (at debug).
	Logs *Buffer
}

// Option changes how a stack is built.
type Option func(*options)

type options struct {
	clock app.Clock
	cfg   app.Config
	wrap  func(app.Stores) app.Stores
	db    *mongo.Database
	rdb   redis.UniversalClient
	open  []app.OpenOption
}

// Clock makes clock the application's one clock.
func Clock(c app.Clock) Option { return func(o *options) { o.clock = c } }

// Config sets the services' configuration.
func Config(c app.Config) Option { return func(o *options) { o.cfg = c } }

// Wrap lets a test replace stores before the application is built (to
// inject faults).
func Wrap(f func(app.Stores) app.Stores) Option { return func(o *options) { o.wrap = f } }

// DB builds a Real stack on this database instead of a fresh one (two
// replicas on one store).
func DB(db *mongo.Database) Option { return func(o *options) { o.db = db } }

// Redis builds a Real stack on this Redis client instead of a fresh
// database (two replicas sharing the queue and the leases).
func Redis(rdb redis.UniversalClient) Option { return func(o *options) { o.rdb = rdb } }

// Open passes options to app.OpenStores under a Real stack (SoleWriter on
// a fresh database that this stack alone writes).
func Open(opts ...app.OpenOption) Option { return func(o *options) { o.open = opts } }

// Real builds the application on the real test stores: a fresh database on
// embedded FerretDB (or RANK_TEST_MONGO_URI) and a fresh database of the
// test redis-server.
func Real(t testing.TB, opts ...Option) *Stack {
	t.Helper()
	o := build(opts)
	db := o.db
	if db == nil {
		db = testsvc.Mongo(t)
	}
	rdb := o.rdb
	if rdb == nil {
		rdb = testsvc.Redis(t)
	}
	stores, err := app.OpenStores(context.Background(), db, rdb, o.open...)
	if err != nil {
		t.Fatal(err)
	}
	s := newStack(t, stores, o)
	s.DB, s.Redis = db, rdb
	return s
}

func build(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

func newStack(t testing.TB, stores app.Stores, o options) *Stack {
	t.Helper()
	if o.wrap != nil {
		stores = o.wrap(stores)
	}
	logs := &Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	a, err := app.New(stores, o.cfg, o.clock, log, metrics.New())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		a.Stop()
		if t.Failed() {
			t.Logf("application log:\n%s", logs.String())
		}
	})
	return &Stack{App: a, Stores: stores, Logs: logs}
}

// Buffer is a log sink safe for concurrent writers.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Memory builds the application on the in-memory stores (each held to
// its store's contract suite) and an in-process Redis, for tests whose
// subject is a service or a handler, not storage.
func Memory(t testing.TB, opts ...Option) *Stack {
	t.Helper()
	o := build(opts)
	rdb := o.rdb
	if rdb == nil {
		rdb = testsvc.MiniRedis(t)
	}
	q := redisqueue.New(rdb)
	stores := app.Stores{
		Accounts: playertest.NewMemory(), Limits: playerredis.New(rdb),
		Ratings: ratingtest.NewMemory(), Games: intaketest.NewMemory(), Presence: intaketest.NewMemoryPresence(),
		Exams: examtest.NewMemory(), Schools: schooltest.NewMemory(), Queue: q, History: q, Leases: jobsredis.New(rdb, ""), Reviews: reviewstest.NewMemory(),
		Runs: jobstest.NewMemory(),
		Checks: []api.Check{
			{Name: "mongo", Ping: func(context.Context) error { return nil }},
			{Name: "redis", Ping: func(ctx context.Context) error { return rdb.Ping(ctx).Err() }},
		},
	}
	s := newStack(t, stores, o)
	s.Redis = rdb
	return s
}
