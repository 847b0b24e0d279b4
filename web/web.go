package web

import (
	"embed"
	"errors"
	"fmt"
	"github.com/weiqi-platform/rank/api"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Config is what the operator decides about the pages.
type Config struct {
	// SecureCookies marks the session and CSRF cookies Secure (served
	// over HTTPS only): RANK_SECURE_COOKIES.
	SecureCookies bool
	// PublicReads lets profiles, the leaderboard, games and exam
	// schedules be read without logging in (as the API's public reads);
	// off, they send a caller who is not logged in to the login page.
	PublicReads bool
	// TrustedProxies are the IPs or CIDRs whose X-Forwarded-For is
	// believed for the client's address (login and registration limits),
	// as the API's RANK_TRUSTED_PROXIES.
	TrustedProxies []string
}

// Deps are the domain services the pages call directly.
type Deps struct {
	Logger      *slog.Logger
	Config      Config
	Players     *players.Service
	Ratings     *rating.Service
	Games       *intake.Intake
	Exams       *exams.Service
	Matchmaking *matchmaking.Service
	Schools     *schools.Service
	Jobs        *jobs.Runner
}

// Server serves the pages.
type Server struct {
	d       Deps
	proxies []netip.Prefix
	log     *slog.Logger
	mux     *http.ServeMux
	pages   map[string]*template.Template
}

// New parses the templates and builds the routes.
func New(d Deps) (*Server, error) {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{d: d, log: d.Logger, mux: http.NewServeMux(), pages: map[string]*template.Template{}}
	for _, p := range d.Config.TrustedProxies {
		p = strings.TrimSpace(p)
		pre, err := netip.ParsePrefix(p)
		if err != nil {
			a, aerr := netip.ParseAddr(p)
			if aerr != nil {
				return nil, fmt.Errorf("web: trusted proxy %q is neither an IP nor a CIDR", p)
			}
			pre = netip.PrefixFrom(a, a.BitLen())
		}
		s.proxies = append(s.proxies, pre.Masked())
	}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		base := strings.TrimPrefix(n, "templates/")
		if base == "layout.html" {
			continue
		}
		t, err := template.New(base).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", n)
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", base, err)
		}
		s.pages[strings.TrimSuffix(base, ".html")] = t
	}
	s.routes()
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "same-origin")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'")
	s.mux.ServeHTTP(w, r)
}

// Roles of the routes: who may see a page.
var (
	anyone   []players.Role // nil: no login needed
	loggedIn = []players.Role{players.RolePlayer, players.RoleTeacher, players.RoleAdmin, players.RoleServer}
	playing  = []players.Role{players.RolePlayer, players.RoleTeacher, players.RoleAdmin}
	teachers = []players.Role{players.RoleTeacher, players.RoleAdmin}
	admins   = []players.Role{players.RoleAdmin}
)

func (s *Server) routes() {
	static, _ := fs.Sub(staticFS, "static")
	files := http.StripPrefix("/static/", http.FileServerFS(static))
	s.mux.Handle("GET /static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	}))
	h := func(pattern string, roles []players.Role, f handler) { s.mux.Handle(pattern, s.wrap(roles, f)) }
	public := loggedIn
	if s.d.Config.PublicReads {
		public = anyone
	}
	h("GET /{$}", anyone, s.home)
	h("POST /lang", anyone, s.setLang)
	h("GET /login", anyone, s.loginPage)
	h("POST /login", anyone, s.loginPost)
	h("GET /register", anyone, s.registerPage)
	h("POST /register", anyone, s.registerPost)
	h("POST /logout", loggedIn, s.logoutPost)
	h("GET /account", loggedIn, s.accountPage)
	h("POST /account/password", loggedIn, s.accountPassword)
	h("POST /account/name", loggedIn, s.accountName)
	h("GET /leaderboard", public, s.leaderboard)
	h("GET /players/{username}", public, s.profile)
	h("GET /players/{username}/games", public, s.playerGames)
	h("GET /players/{username}/games.sgf", public, s.playerArchive)
	h("POST /games/{id}/abort", playing, s.gameAbort)
	h("GET /games/{id}", public, s.game)
	h("GET /games/{id}/sgf", public, s.gameSGF)
	h("GET /play", playing, s.play)
	h("POST /play", playing, s.playPost)
	h("GET /play/ticket", playing, s.playTicket)
	h("POST /play/cancel", playing, s.playCancel)
	h("GET /exams", public, s.examsPage)
	h("POST /exams/{id}/register", playing, s.examRegister)
	h("POST /exams/{id}/withdraw", playing, s.examWithdraw)
	h("GET /exams/{id}", public, s.examSchedule)
	h("GET /teach", teachers, s.teach)
	h("GET /classes/{id}", teachers, s.classPage)
	h("GET /classes/{id}/table.csv", teachers, s.classCSV)
	h("GET /classes/{id}/progress", teachers, s.classProgress)
	h("POST /classes/{id}/code", teachers, s.classRotateCode)
	h("POST /classes/{id}/managed", teachers, s.classAddManaged)
	h("GET /classes/{id}/students/{username}", teachers, s.studentPage)
	h("POST /classes/{id}/students/{username}/nominate", []players.Role{players.RoleTeacher}, s.studentNominate)
	h("POST /classes/{id}/students/{username}/password", []players.Role{players.RoleTeacher}, s.studentResetPassword)
	h("GET /admin", admins, s.adminHome)
	h("GET /admin/audit", admins, s.adminAudit)
	h("GET /admin/audit.csv", admins, s.adminAuditCSV)
	h("GET /admin/promotions", admins, s.adminPromotions)
	h("POST /admin/promotions/{verb}", admins, s.adminDecide)
	h("GET /admin/verification", admins, s.adminVerification)
	h("POST /admin/jobs/{name}", admins, s.adminRunJob)
	h("POST /admin/accounts", admins, s.adminCreateAccount)
	h("POST /admin/schools", admins, s.adminCreateSchool)
	h("POST /admin/exams", admins, s.adminCreateSchedule)
	h("GET /", anyone, func(c *ctx) error { return errNotFound })
}

// errNotFound is a page that does not exist.
var errNotFound = &pageError{status: http.StatusNotFound, key: "err.not_found"}

// errForbidden is a page the caller may not see.
var errForbidden = &pageError{status: http.StatusForbidden, key: "err.forbidden"}

// pageError is an error the pages raise themselves, with its message's
// catalogue key.
type pageError struct {
	status int
	key    string
	field  string // the input at fault: its name on English pages, as fieldDetail says on Chinese ones
}

func (e *pageError) Error() string { return fmt.Sprintf("%d %s %s", e.status, e.key, e.field) }

// classified is err as the pages show it: the status, the catalogue key
// (the API's code, err.generic where the catalogue has none) and the
// detail in the page's language (the field at fault, or the message);
// page is false for an error the API's table classified.
func (c *ctx) classified(err error) (status int, key, detail string, page bool) {
	var pe *pageError
	if errors.As(err, &pe) {
		status, key, detail = pe.status, pe.key, pe.field
		if c.lang == "zh" {
			detail = fieldDetail(c.lang, pe.field)
		}
		return status, key, detail, true
	}
	status, code, msg := api.Classify(err)
	key = "err." + code
	if _, ok := catalogues["en"][key]; !ok {
		key = "err.generic"
	}
	return status, key, errorDetail(c.lang, err, msg), false
}

// fail shows err as an error page: the API's status and code, the
// catalogue's text for the code where it has one.
func (c *ctx) fail(err error) {
	status, key, detail, page := c.classified(err)
	if !page {
		if status == http.StatusInternalServerError {
			c.s.log.ErrorContext(c.r.Context(), "page error", "path", c.r.URL.Path, "err", err)
		}
		if status == http.StatusInternalServerError || status == http.StatusNotFound || status == http.StatusForbidden {
			detail = ""
		}
	}
	d := errorData{Status: status, Key: key, Detail: detail}
	if status == http.StatusForbidden && key != "err.forbidden" && key != "err.csrf" {
		d.Key, d.Also = "err.forbidden", key // the page says so, then why
	}
	c.render(status, "error", d.Key, d)
}

type errorData struct {
	Status int
	Key    string
	Also   string // a second catalogue key: the reason
	Detail string
}

// now is the pages' clock: the intake's, which is the application's.
func (s *Server) now() time.Time { return s.d.Games.Now() }

// SetSecureCookies changes whether the cookies are Secure (tests; the
// operator sets it once with RANK_SECURE_COOKIES).
func (s *Server) SetSecureCookies(on bool) { s.d.Config.SecureCookies = on }
