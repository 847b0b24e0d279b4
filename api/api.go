package api

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/reviews"
	"github.com/weiqi-platform/rank/schools"
)

// Check is one readiness probe: a store and how to ping it.
type Check struct {
	Name string // "mongo", "redis": named in the 503 when it fails
	Ping func(ctx context.Context) error
}

// RequestObserver records each request (metrics.Registry is one).
type RequestObserver interface {
	ObserveRequest(method, route string, status int, d time.Duration)
}

// DefaultBodyLimit is the largest request body accepted when Deps gives
// none: far above any real game record (a 400-move SGF is under 10 KiB).
const DefaultBodyLimit = 1 << 20

// DefaultRequestTimeout bounds each request when Deps gives none: past it
// the request's context ends, so nothing is written after it and the
// client is answered 503 timeout, well before rankd's 30 s write timeout
// would cut the connection without an answer.
const DefaultRequestTimeout = 25 * time.Second

// readyTimeout bounds each readiness ping.
const readyTimeout = 2 * time.Second

// Deps is everything the routes use: the domain services themselves (the
// handlers call them directly), and what the HTTP layer needs of its own.
type Deps struct {
	Logger         *slog.Logger
	Checks         []Check
	Metrics        RequestObserver // nil: not recorded
	MetricsHandler http.Handler    // serves GET /metrics; nil: 404
	BodyLimit      int64           // bytes; 0 means DefaultBodyLimit
	TrustedProxies []string        // CIDRs or IPs whose X-Forwarded-For is believed; none by default
	RequestTimeout time.Duration   // each request's deadline; 0 means DefaultRequestTimeout

	Players     *players.Service     // accounts, tokens, who may play
	Ratings     *rating.Service      // ratings, the ledger, the audit trail, admin changes, verification
	Games       *intake.Intake       // games in, pending games, check-ins
	Exams       *exams.Service       // exam schedules, registrations, sessions, approvals
	Jobs        *jobs.Runner         // scheduled jobs run on demand
	Matchmaking *matchmaking.Service // tickets, pairing, pools
	Reviews     *reviews.Service     // the integrity flags' review queue
	Schools     *schools.Service     // schools, classes, students, class tables, progress

	// PublicReads lets the public reads (profiles, the leaderboard,
	// finished games, a player's games and rating history) answer
	// without a token; a token given is still checked.
	PublicReads bool
	// CORSOrigins are the origins (scheme://host[:port]) allowed to call
	// the API from a browser; none: no CORS headers.
	CORSOrigins []string
}

// Server is the HTTP handler of rankd.
type Server struct {
	deps   Deps
	log    *slog.Logger
	engine *gin.Engine
}

var ginMode sync.Once

// New builds the router.
func New(d Deps) (*Server, error) {
	ginMode.Do(func() { gin.SetMode(gin.ReleaseMode) })
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.BodyLimit <= 0 {
		d.BodyLimit = DefaultBodyLimit
	}
	if d.RequestTimeout <= 0 {
		d.RequestTimeout = DefaultRequestTimeout
	}
	e := gin.New()
	e.HandleMethodNotAllowed = true
	e.ContextWithFallback = true
	if err := e.SetTrustedProxies(d.TrustedProxies); err != nil {
		return nil, err
	}
	s := &Server{deps: d, log: d.Logger, engine: e}
	e.Use(s.requestID, s.observe, s.cors, s.limitBody, s.deadline, s.checkParams)
	e.NoRoute(func(c *gin.Context) {
		s.fail(c, &Error{Status: http.StatusNotFound, Code: "not_found", Message: "no route " + c.Request.URL.Path})
	})
	e.NoMethod(func(c *gin.Context) {
		s.fail(c, &Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed", Message: c.Request.Method + " is not allowed on " + c.Request.URL.Path})
	})
	s.routes()
	return s, nil
}

// routes lists every route: the one place to read what rankd serves, and
// what the OpenAPI test compares with openapi.json.
func (s *Server) routes() {
	e := s.engine
	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.metrics)

	v1 := e.Group("/api/v1")
	v1.GET("/openapi.json", s.openapi)
	v1.POST("/auth/register", s.register)
	v1.POST("/auth/login", s.login)

	authed := v1.Group("", s.authenticate)
	authed.POST("/auth/logout", s.logout)

	admin := authed.Group("/admin", s.require(players.RoleAdmin))
	admin.POST("/accounts", s.createAccount)
	admin.GET("/accounts", s.listAccounts)
	admin.GET("/games", s.listFlaggedGames)
	s.examRoutes(authed, admin)
	s.auditRoutes(authed, admin)
	s.adminRoutes(admin)
	s.jobRoutes(admin)
	s.flagRoutes(admin)
	s.matchmakingRoutes(authed)
	s.schoolRoutes(authed)
	s.meRoutes(v1, authed, admin)
	s.checkpointRoutes(authed)

	authed.POST("/games", s.require(players.RoleServer, players.RoleAdmin), s.submitGame)
	authed.PUT("/server/players/:external_id", s.require(players.RoleServer), s.linkPlayer)
	// The public reads (Deps.PublicReads): without a token when the
	// operator allows it.
	reads := v1.Group("", s.reader)
	reads.GET("/games/:id", s.getGame)
	reads.GET("/players/:username", s.getPlayer)
	authed.GET("/players/:username/history", s.getHistory)
	reads.GET("/leaderboard", s.getLeaderboard)
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.engine.ServeHTTP(w, r) }

// Route is one registered method and path (gin syntax, ":name").
type Route struct{ Method, Path string }

// Routes lists the registered routes.
func (s *Server) Routes() []Route {
	var out []Route
	for _, r := range s.engine.Routes() {
		out = append(out, Route{Method: r.Method, Path: r.Path})
	}
	return out
}
