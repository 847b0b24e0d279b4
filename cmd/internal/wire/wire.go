package wire

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	neturl "net/url"
	"path/filepath"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/embedded"
)

// FerretDir is where, under the data dir, embedded FerretDB keeps its
// SQLite files.
const FerretDir = "ferretdb"

// startTimeout bounds the first ping of a store at start.
const startTimeout = 15 * time.Second

// serverSelectionTimeout makes a request fail fast (503) when MongoDB is
// down instead of hanging for the driver's default 30 s; a URI's own
// serverSelectionTimeoutMS wins.
const serverSelectionTimeout = 5 * time.Second

// Mongo is an open database.
type Mongo struct {
	Client   *mongo.Client
	DB       *mongo.Database
	Embedded bool // FerretDB in this process
	ferret   *embedded.Ferret
}

// OpenMongo connects to uri, or, when uri is empty, starts FerretDB on
// SQLite files under dataDir/ferretdb and connects to that. It pings
// before returning.
func OpenMongo(ctx context.Context, uri, dbName, dataDir string, log *slog.Logger) (*Mongo, error) {
	return OpenMongoWith(ctx, uri, dbName, dataDir, log, embedded.SyncEachCommit)
}

// OpenMongoWith is OpenMongo with the embedded store's commits synced as d
// says (embedded.SyncAtCheckpoint only for a writer that can redo its
// work and reports it after Close); a store server syncs as it is set up.
func OpenMongoWith(ctx context.Context, uri, dbName, dataDir string, log *slog.Logger, d embedded.Durability) (*Mongo, error) {
	m := &Mongo{}
	if uri == "" {
		dir := filepath.Join(dataDir, FerretDir)
		// FerretDB logs every connection at info: keep its warnings only,
		// unless rankd itself logs at debug.
		flog := slog.New(atLeast{log.Handler(), slog.LevelWarn}).With("component", "ferretdb")
		f, err := embedded.StartFerretWith(dir, flog, d)
		if err != nil {
			return nil, err
		}
		m.ferret, m.Embedded, uri = f, true, f.URI
		log.Info("store: embedded FerretDB", "dir", dir)
	}
	c, err := mongo.Connect(options.Client().SetServerSelectionTimeout(serverSelectionTimeout).ApplyURI(uri))
	if err != nil {
		m.stopFerret()
		return nil, fmt.Errorf("mongo %s: %w", MaskURI(uri), err)
	}
	m.Client, m.DB = c, c.Database(dbName)
	pctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := c.Ping(pctx, nil); err != nil {
		_ = m.Close(context.Background())
		return nil, fmt.Errorf("mongo %s: %w", MaskURI(uri), err)
	}
	if m.ferret != nil {
		// FerretDB's lookups by _id scan without this, and its secondary
		// indexes cost writes and serve no query (see embedded).
		if err := m.ferret.TuneIndexes(dbName); err != nil {
			_ = m.Close(context.Background())
			return nil, err
		}
	}
	return m, nil
}

// TuneIndexes tunes the embedded store's indexes at once (see embedded),
// for a caller that has just made its collections; on a store server it
// does nothing.
func (m *Mongo) TuneIndexes() error {
	if m.ferret == nil {
		return nil
	}
	return m.ferret.TuneNow(m.DB.Name())
}

// Ping checks the store answers.
func (m *Mongo) Ping(ctx context.Context) error { return m.Client.Ping(ctx, nil) }

// Close disconnects and stops the embedded FerretDB if there is one.
func (m *Mongo) Close(ctx context.Context) error {
	var err error
	if m.Client != nil {
		err = m.Client.Disconnect(ctx)
	}
	m.stopFerret()
	return err
}

func (m *Mongo) stopFerret() {
	if m.ferret != nil {
		m.ferret.Stop()
		m.ferret = nil
	}
}

// Redis is an open Redis client: on one server, or on a Redis Cluster.
type Redis struct {
	Client   redis.UniversalClient
	Cluster  bool // a Redis Cluster (the URL names several addr)
	Embedded bool // miniredis in this process
	mini     *embedded.Redis
}

// OpenRedis connects to url, or, when url is empty, starts miniredis in
// this process and connects to that. It pings before returning; a
// configured server that does not answer is logged, not fatal. A URL
// with addr parameters names a Redis Cluster (go-redis's cluster form:
// redis://host1:7001?addr=host2:7002&addr=host3:7003, any of the nodes
// serving to find the others); one without names a single server.
func OpenRedis(ctx context.Context, url string, log *slog.Logger) (*Redis, error) {
	r := &Redis{}
	if url == "" {
		mini, err := embedded.StartRedis()
		if err != nil {
			return nil, err
		}
		r.mini, r.Embedded, url = mini, true, mini.URL
		log.Info("store: in-process Redis (miniredis); rate-limit counts live in memory")
	}
	redis.SetLogger(redisLog{log})
	if IsClusterURL(url) {
		opt, err := redis.ParseClusterURL(url)
		if err != nil {
			return nil, fmt.Errorf("redis cluster URL %s: %w", MaskURI(url), err)
		}
		r.Client, r.Cluster = redis.NewClusterClient(opt), true
	} else {
		opt, err := redis.ParseURL(url)
		if err != nil {
			r.stopMini()
			return nil, fmt.Errorf("redis URL %s: %w", MaskURI(url), err)
		}
		r.Client = redis.NewClient(opt)
	}
	pctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := r.Client.Ping(pctx).Err(); err != nil {
		if r.Embedded {
			_ = r.Close()
			return nil, fmt.Errorf("redis %s: %w", MaskURI(url), err)
		}
		// Start anyway (issue 11): what needs Redis answers 503 and
		// /readyz says redis is down until it answers; the client
		// reconnects by itself.
		log.Warn("store: redis unreachable at start; not ready until it answers", "url", MaskURI(url), "err", err)
	}
	return r, nil
}

// IsClusterURL reports whether a Redis URL names a cluster: it has an
// addr query parameter (go-redis's cluster URL form).
func IsClusterURL(url string) bool {
	u, err := neturl.Parse(url)
	return err == nil && u.Query().Has("addr")
}

// Ping checks the server answers.
func (r *Redis) Ping(ctx context.Context) error { return r.Client.Ping(ctx).Err() }

// Close closes the client and stops miniredis if there is one.
func (r *Redis) Close() error {
	var err error
	if r.Client != nil {
		if err = r.Client.Close(); errors.Is(err, redis.ErrClosed) {
			err = nil
		}
	}
	r.stopMini()
	return err
}

func (r *Redis) stopMini() {
	if r.mini != nil {
		r.mini.Stop()
		r.mini = nil
	}
}

// atLeast passes on records at min or above (or whatever the inner handler
// enables when that is debug).
type atLeast struct {
	slog.Handler
	min slog.Level
}

func (h atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return h.Handler.Enabled(ctx, l) && (l >= h.min || h.Handler.Enabled(ctx, slog.LevelDebug))
}

func (h atLeast) WithAttrs(a []slog.Attr) slog.Handler { return atLeast{h.Handler.WithAttrs(a), h.min} }
func (h atLeast) WithGroup(n string) slog.Handler      { return atLeast{h.Handler.WithGroup(n), h.min} }

// redisLog sends go-redis's own messages (a failed dial on every command
// during an outage) to the debug log instead of stderr: the outage is
// already answered 503, logged once per request and shown by /readyz.
type redisLog struct{ log *slog.Logger }

func (l redisLog) Printf(ctx context.Context, format string, v ...any) {
	l.log.DebugContext(ctx, "redis client", "msg", fmt.Sprintf(format, v...))
}
