package testsvc

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/embedded"
)

// unavailable fails the test, saying why: a test never skips for a
// missing service.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	t.Fatalf("test service unavailable: %s (`make services` installs and starts them)", fmt.Sprintf(format, args...))
}

// redisDBs is how many logical databases the test redis-server is started
// with (see .ci/services.sh); each test gets its own, so packages running in
// parallel never see each other's keys.
const redisDBs = 256

// RedisURL returns the URL of a real Redis server for this test, with a
// freshly flushed logical database of its own. It fails or skips when no
// real server is configured.
func RedisURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("RANK_TEST_REDIS_URL")
	if base == "" {
		unavailable(t, "RANK_TEST_REDIS_URL is not set")
	}
	opt, err := redis.ParseURL(base)
	if err != nil {
		t.Fatalf("RANK_TEST_REDIS_URL: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ctl := redis.NewClient(opt)
	defer ctl.Close()
	n, err := ctl.Incr(ctx, "testsvc:nextdb").Result()
	if err != nil {
		unavailable(t, "redis at %s: %v", opt.Addr, err)
	}
	opt.DB = int(n%(redisDBs-1)) + 1
	c := redis.NewClient(opt)
	defer c.Close()
	if err := c.FlushDBAsync(ctx).Err(); err != nil {
		t.Fatalf("redis db %d: %v (start redis-server with --databases %d)", opt.DB, err, redisDBs)
	}
	return fmt.Sprintf("redis://%s/%d", opt.Addr, opt.DB)
}

// Redis returns a client on a real Redis server (see RedisURL), closed when
// the test ends.
func Redis(t testing.TB) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(RedisURL(t))
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// MiniRedis returns a client on a fresh in-process miniredis, for suites that
// run against both kinds of Redis.
func MiniRedis(t testing.TB) *redis.Client {
	t.Helper()
	r, err := embedded.StartRedis()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	opt, err := redis.ParseURL(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

var (
	ferretOnce sync.Once
	ferretURI  string
	ferretErr  error
	dbSeq      atomic.Int64
)

// Kinds of MongoDB-compatible store a contract suite runs over.
const (
	KindFerretDB = "ferretdb" // embedded FerretDB: always there
	KindMongoDB  = "mongodb"  // a real MongoDB: only when RANK_TEST_MONGO_URI is set
	// KindFerretPG is a store server of its own: FerretDB on PostgreSQL
	// (cmd/ferretpg), always there (see FerretPGURI).
	KindFerretPG = "ferretpg"
)

// MongoKinds lists the kinds of store available to this run: embedded
// FerretDB and FerretDB on PostgreSQL always, and a real MongoDB when
// RANK_TEST_MONGO_URI is set. Contract suites run once per kind (see
// MongoOf).
func MongoKinds() []string {
	if os.Getenv("RANK_TEST_MONGO_URI") != "" {
		return []string{KindFerretDB, KindFerretPG, KindMongoDB}
	}
	return []string{KindFerretDB, KindFerretPG}
}

// MongoURI returns the URI of the store tests use: RANK_TEST_MONGO_URI when
// set, else one embedded FerretDB shared by the test binary.
func MongoURI(t testing.TB) string {
	t.Helper()
	if uri := os.Getenv("RANK_TEST_MONGO_URI"); uri != "" {
		return uri
	}
	return ferretURIFor(t)
}

// ferretURIFor returns the URI of the embedded FerretDB shared by the test
// binary, starting it on first use.
func ferretURIFor(t testing.TB) string {
	t.Helper()
	ferretOnce.Do(func() {
		dir, err := os.MkdirTemp("", "rank-ferret-")
		if err != nil {
			ferretErr = err
			return
		}
		f, err := embedded.StartFerret(filepath.Join(dir, "db"), nil)
		if err != nil {
			ferretErr = err
			return
		}
		ferretURI = f.URI
		// The process ends with the test binary; the files are in the
		// system temp dir.
	})
	if ferretErr != nil {
		unavailable(t, "embedded FerretDB: %v", ferretErr)
	}
	return ferretURI
}

// Mongo returns a fresh, empty database on the test store, dropped when the
// test ends, and its client.
func Mongo(t testing.TB) *mongo.Database {
	t.Helper()
	return mongoAt(t, MongoURI(t))
}

// MongoOf is Mongo on the given kind of store (one of MongoKinds).
func MongoOf(t testing.TB, kind string) *mongo.Database {
	t.Helper()
	switch kind {
	case KindFerretDB:
		return mongoAt(t, ferretURIFor(t))
	case KindFerretPG:
		return mongoAt(t, FerretPGURI(t))
	case KindMongoDB:
		uri := os.Getenv("RANK_TEST_MONGO_URI")
		if uri == "" {
			unavailable(t, "RANK_TEST_MONGO_URI is not set")
		}
		return mongoAt(t, uri)
	}
	t.Fatalf("testsvc: unknown store kind %q", kind)
	return nil
}

// MongoMonitored is MongoOf whose client reports every command it sends
// to mon (the driver's command monitor), for tests that count them.
func MongoMonitored(t testing.TB, kind string, mon *event.CommandMonitor) *mongo.Database {
	t.Helper()
	var uri string
	switch kind {
	case KindFerretDB:
		uri = ferretURIFor(t)
	case KindFerretPG:
		uri = FerretPGURI(t)
	default:
		uri = MongoURI(t)
	}
	return mongoAt(t, uri, mon)
}

func mongoAt(t testing.TB, uri string, mon ...*event.CommandMonitor) *mongo.Database {
	t.Helper()
	o := options.Client().ApplyURI(uri)
	if len(mon) > 0 {
		o.SetMonitor(mon[0])
	}
	c, err := mongo.Connect(o)
	if err != nil {
		unavailable(t, "mongo %s: %v", uri, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Ping(ctx, nil); err != nil {
		unavailable(t, "mongo %s: %v", uri, err)
	}
	name := fmt.Sprintf("t%d_%d_%s", os.Getpid(), dbSeq.Add(1), sanitize(t.Name()))
	if len(name) > 60 {
		name = name[:60]
	}
	db := c.Database(name)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = db.Drop(ctx)
		_ = c.Disconnect(ctx)
	})
	return db
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, s)
}

// DeadRedisPing is the readiness ping of a Redis client aimed at a port
// nobody listens on: it fails as a real outage does, with the client's
// own error.
func DeadRedisPing(t testing.TB) func(context.Context) error {
	t.Helper()
	dead := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	t.Cleanup(func() { _ = dead.Close() })
	return func(ctx context.Context) error { return dead.Ping(ctx).Err() }
}
