package app

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/exams/examdb"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/gamedb"
	"github.com/weiqi-platform/rank/internal/mongox"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobsdb"
	"github.com/weiqi-platform/rank/jobs/jobsredis"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/matchmaking/redisqueue"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playerdb"
	"github.com/weiqi-platform/rank/players/playerredis"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
	"github.com/weiqi-platform/rank/reviews"
	"github.com/weiqi-platform/rank/reviews/reviewsdb"
	"github.com/weiqi-platform/rank/schools"
	"github.com/weiqi-platform/rank/schools/schooldb"
)

// Stores are where the application keeps its state: the document store's
// (accounts, ratings and the ledger, games, exams, schools, the
// integrity review queue) and Redis's (login
// limits, the matchmaking queue, job leases).
type Stores struct {
	Accounts players.Store
	Limits   players.Limiter
	Ratings  rating.Store
	Games    intake.Store
	Presence intake.Presence
	Exams    exams.Store
	Schools  schools.Store
	Queue    matchmaking.Queue
	History  matchmaking.History
	Leases   jobs.Leases
	Reviews  reviews.Store
	// Runs keeps the finished job firings in the document store (nil:
	// the leases' Redis markers alone).
	Runs jobs.Runs
	// Checks are the readiness probes (/readyz): one per store server.
	Checks []api.Check
	// SoleWriter: no other process writes the database (OpenStores'
	// SoleWriter), so the services may trust what they keep in memory.
	SoleWriter bool
	// drain sends what the stores OpenStores made deferred (kept when a
	// test wraps them).
	drain func()
}

// OpenOption tunes OpenStores.
type OpenOption func(*openOptions)

type openOptions struct {
	soleWriter  bool
	ratedLinger time.Duration
}

// RatedMarkLinger is how long a rated game's unrated mark (and an ended
// game's pending mark) waits for its delete, which it then shares with
// every game rated meanwhile (gamedb.RatedLinger), and how long the
// rating store holds back the players' projections of a game, written
// together before those deletes (ratingdb.DeferProjections): decided
// (issue 15) so that a game costs two store commands less on the request
// path, while another replica sees the game finished rather than rated,
// and its players' projections (a hint) as before the game, for no more
// than about this long.
const RatedMarkLinger = time.Second

// RatedMarksLinger sets how long rated games' marks wait for their delete
// (RatedMarkLinger unless set; 0: deleted on the request path).
func RatedMarksLinger(d time.Duration) OpenOption {
	return func(o *openOptions) { o.ratedLinger = d }
}

// SoleWriter says that no other process writes db (the embedded store,
// whose data directory is locked to this process): the stores may then
// keep in memory what they would otherwise read back (gamedb.SoleWriter;
// ratingdb.SoleWriter: every projection, the leaderboard from memory; the
// players' tokens, believed until they expire).
func SoleWriter() OpenOption { return func(o *openOptions) { o.soleWriter = true } }

// drainTimeout bounds Drain's last write of the projections held back.
const drainTimeout = 30 * time.Second

// serverInFlight is how many combined writes of a kind the rating store
// keeps in flight on a store server (which works on several at once); on
// the embedded store, one writer, one (larger batches, fewer fsyncs).
const serverInFlight = 4

// OpenStores opens every store on a Mongo database and a Redis client (a
// single server or a cluster), making sure their indexes exist.
func OpenStores(ctx context.Context, db *mongo.Database, rdb redis.UniversalClient, opts ...OpenOption) (Stores, error) {
	o := openOptions{ratedLinger: RatedMarkLinger}
	for _, f := range opts {
		f(&o)
	}
	s := Stores{SoleWriter: o.soleWriter}
	var err error
	if s.Accounts, err = playerdb.New(ctx, db); err != nil {
		return Stores{}, err
	}
	var ropts []ratingdb.Option
	gopts := []gamedb.Option{gamedb.RatedLinger(o.ratedLinger)}
	if o.soleWriter {
		// The embedded store: one SQLite database, one writer at a time.
		lane := mongox.NewLane()
		ropts = append(ropts, ratingdb.SoleWriter(), ratingdb.WriteLane(lane))
		gopts = append(gopts, gamedb.SoleWriter(), gamedb.WriteLane(lane))
	} else {
		ropts = append(ropts, ratingdb.InFlight(serverInFlight))
	}
	if o.ratedLinger > 0 {
		ropts = append(ropts, ratingdb.DeferProjections(o.ratedLinger))
	}
	ratings, err := ratingdb.New(ctx, db, ropts...)
	if err != nil {
		return Stores{}, err
	}
	s.Ratings = ratings
	// A rated game's mark goes only once what its rating holds back is
	// written: a crash before leaves it marked, for recovery.
	gopts = append(gopts, gamedb.BeforeRatedDelete(ratings.FlushProjections))
	games, err := gamedb.New(ctx, db, gopts...)
	if err != nil {
		return Stores{}, err
	}
	s.Games = games
	s.drain = func() {
		games.Drain()
		ctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
		defer cancel()
		_ = ratings.FlushProjections(ctx) // a failure leaves them for Player to repair
	}
	if s.Presence, err = gamedb.NewPresence(ctx, db); err != nil {
		return Stores{}, err
	}
	if s.Exams, err = examdb.Open(ctx, db); err != nil {
		return Stores{}, err
	}
	if s.Reviews, err = reviewsdb.New(ctx, db); err != nil {
		return Stores{}, err
	}
	if s.Schools, err = schooldb.New(ctx, db); err != nil {
		return Stores{}, err
	}
	s.Runs = jobsdb.New(db)
	q := redisqueue.New(rdb)
	s.Limits, s.Queue, s.History, s.Leases = playerredis.New(rdb), q, q, jobsredis.New(rdb, "")
	s.Checks = []api.Check{
		{Name: "mongo", Ping: func(ctx context.Context) error { return db.Client().Ping(ctx, nil) }},
		{Name: "redis", Ping: func(ctx context.Context) error { return rdb.Ping(ctx).Err() }},
	}
	return s, nil
}

// Drain sends what the stores deferred (the rated games' mark deletes,
// RatedMarkLinger) and waits for it: before the database is closed.
func (s Stores) Drain() {
	if s.drain != nil {
		s.drain()
	}
}
