package api

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/players"
)

// Accounts is what the routes need of players.Service.
type Accounts interface {
	Register(ctx context.Context, username, password, addr string) (players.Account, players.IssuedToken, error)
	Login(ctx context.Context, username, password, addr string) (players.IssuedToken, error)
	Logout(ctx context.Context, secret string) error
	Authenticate(ctx context.Context, secret string) (players.Principal, error)
	CreateAccount(ctx context.Context, by players.Principal, username, password string, role players.Role) (players.Account, error)
}

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

// readyTimeout bounds each readiness ping.
const readyTimeout = 2 * time.Second

// Deps is everything the routes use. Later features add their domain
// interfaces here.
type Deps struct {
	Logger         *slog.Logger
	Accounts       Accounts
	Checks         []Check
	Metrics        RequestObserver // nil: not recorded
	MetricsHandler http.Handler    // serves GET /metrics; nil: 404
	BodyLimit      int64           // bytes; 0 means DefaultBodyLimit
	TrustedProxies []string        // CIDRs or IPs whose X-Forwarded-For is believed; none by default

	Games     Games         // games in (games.Intake)
	Ratings   Ratings       // ratings out (rating.Service)
	Directory games.Players // who is a player (usernames in paths)

	// Exams, the audit trail and the admin tools (exams.go, audit.go).
	Exams      Exams                          // exam schedules, registrations, sessions, approvals (ranks.ExamService)
	ExamGameID func(examGameID string) string // the stored game of an exam game
	CheckIns   CheckIns                       // who showed up for a pending game (games.Attendance)
	Audit      Audit                          // changes, annulments, the audit trail, verification (rating.Service)
	Jobs       Jobs                           // scheduled jobs run on demand (jobs.Runner)

	Matchmaking Matchmaking // tickets, pairing, pools (matchmaking.Service)
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
	e := gin.New()
	e.HandleMethodNotAllowed = true
	e.ContextWithFallback = true
	if err := e.SetTrustedProxies(d.TrustedProxies); err != nil {
		return nil, err
	}
	s := &Server{deps: d, log: d.Logger, engine: e}
	e.Use(s.requestID, s.observe, s.limitBody)
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
	s.examRoutes(authed, admin)
	s.auditRoutes(authed, admin)
	s.matchmakingRoutes(authed)

	authed.POST("/games", s.require(players.RoleServer, players.RoleAdmin), s.submitGame)
	authed.GET("/games/:id", s.getGame)
	authed.GET("/players/:username", s.getPlayer)
	authed.GET("/players/:username/history", s.getHistory)
	authed.GET("/leaderboard", s.getLeaderboard)
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
