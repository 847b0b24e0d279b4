package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/internal/metrics"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// env is the real router, wired as rankd wires it (internal/app), with
// one settable clock: on the in-memory stores and an in-process Redis
// (handlers are the subject), or, with onRealStores, on embedded FerretDB
// (or MongoDB) and the test redis-server.
type env struct {
	t       *testing.T
	stack   *apptest.Stack
	srv     *api.Server
	players *players.Service
	metrics *metrics.Registry
	intake  *intake.Intake
	ratings *rating.Service
	rstore  rating.Store
	gstore  intake.Store
	audit   *auditRig // exams, check-ins, jobs (auditenv_test.go)
	mm      *mmRig    // matchmaking (matchmaking_test.go)
	logs    *apptest.Buffer
	router  routers.Router
}

// envStart is where the env's clock starts (exam tests move it to their
// firings and deadlines).
var envStart = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// envTokenTTL outlives every clock move of the tests.
const envTokenTTL = 365 * 24 * time.Hour

// envOptions are what an option changes.
type envOptions struct {
	cfg    app.Config
	checks []api.Check
	real   bool
}

type option func(*envOptions)

func newEnv(t *testing.T, opts ...option) *env {
	t.Helper()
	clock := clockwork.NewFakeClockAt(envStart)
	// rankd's defaults: placement games on, public reads on.
	o := envOptions{cfg: app.Config{Placement: true, PublicReads: true, Players: players.Config{TokenTTL: envTokenTTL}}}
	for _, opt := range opts {
		opt(&o)
	}
	build := apptest.Memory
	if o.real {
		build = apptest.Real
	}
	st := build(t, apptest.Clock(clock), apptest.Config(o.cfg), apptest.Wrap(func(s app.Stores) app.Stores {
		if o.checks != nil {
			s.Checks = o.checks
		}
		return s
	}))
	e := &env{t: t, stack: st, srv: st.Handler, players: st.Players, metrics: st.Metrics, logs: st.Logs, router: openAPIRouter(t),
		intake: st.Intake, ratings: st.Ratings, rstore: st.Stores.Ratings, gstore: st.Stores.Games,
		audit: &auditRig{clock: setClock{clock}, exams: st.Exams, runner: st.Jobs}, mm: &mmRig{clock: clock, svc: st.Matchmaking}}
	return e
}

// SGF answers are text to the OpenAPI validator.
var sgfDecoder sync.Once

func openAPIRouter(t *testing.T) routers.Router {
	t.Helper()
	sgfDecoder.Do(func() { openapi3filter.RegisterBodyDecoder(api.SGFType, openapi3filter.FileBodyDecoder) })
	doc, err := openapi3.NewLoader().LoadFromData(api.OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	r, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// resp is an answer, with its JSON body decoded when there is one.
type resp struct {
	Code   int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

// errCode is the error.code of an error answer.
func (r *resp) errCode() string {
	e, _ := r.JSON["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func (r *resp) errDetails() map[string]any {
	e, _ := r.JSON["error"].(map[string]any)
	d, _ := e["details"].(map[string]any)
	return d
}

// req is one request to make.
type req struct {
	method, path, token string
	body                any // string: sent as is; otherwise JSON-encoded; nil: no body
	header              map[string]string
	remote              string // client address; 192.0.2.1:1234 by default
}

// do sends r through the real router and checks the answer against the
// OpenAPI document: its status must be documented for the route and its
// body must match the schema.
func (e *env) do(r req) *resp {
	e.t.Helper()
	var body io.Reader
	switch b := r.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		body = bytes.NewReader(j)
	}
	hr := httptest.NewRequest(r.method, r.path, body)
	if r.remote != "" {
		hr.RemoteAddr = r.remote
	}
	if r.token != "" {
		hr.Header.Set("Authorization", "Bearer "+r.token)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, hr)
	out := &resp{Code: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
	if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(out.Body, &out.JSON); err != nil {
			e.t.Fatalf("%s %s: answer is not JSON: %v\n%s", r.method, r.path, err, out.Body)
		}
	}
	e.checkOpenAPI(hr, out)
	return out
}

func (e *env) checkOpenAPI(hr *http.Request, out *resp) {
	e.t.Helper()
	route, params, err := e.router.FindRoute(hr)
	if err != nil {
		return // a path the API does not have: tests of 404 and 405
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: hr, PathParams: params, Route: route},
		Status:                 out.Code,
		Header:                 out.Header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	in.SetBodyBytes(out.Body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		e.t.Errorf("%s %s answered %d, which the OpenAPI document does not allow: %v\n%s", hr.Method, hr.URL.Path, out.Code, err, out.Body)
	}
}

// expect fails unless the answer has the status (and, for errors, the code).
func (e *env) expect(r req, status int, code string) *resp {
	e.t.Helper()
	out := e.do(r)
	if out.Code != status || (code != "" && out.errCode() != code) {
		e.t.Fatalf("%s %s = %d %s, want %d %s\n%s", r.method, r.path, out.Code, out.errCode(), status, code, out.Body)
	}
	return out
}

const pw = "correct horse battery"

// register makes a player and returns its token.
func (e *env) register(name string) string {
	e.t.Helper()
	out := e.expect(req{method: "POST", path: "/api/v1/auth/register", body: map[string]string{"username": name, "password": pw}}, 201, "")
	return out.JSON["token"].(string)
}

// account makes an account of any role directly through the service, and
// returns a token for it.
func (e *env) account(name string, role players.Role) string {
	e.t.Helper()
	ctx := context.Background()
	if role == players.RolePlayer {
		return e.register(name)
	}
	if _, err := e.players.CreateAccount(ctx, players.Principal{Username: "root", Role: players.RoleAdmin}, name, pw, role); err != nil {
		e.t.Fatal(err)
	}
	tok, err := e.players.Login(ctx, name, pw, "192.0.2.200")
	if err != nil {
		e.t.Fatal(err)
	}
	return tok.Secret
}

func withBodyLimit(n int64) option { return func(o *envOptions) { o.cfg.BodyLimit = n } }
func withPlayers(p players.Config) option {
	return func(o *envOptions) {
		if p.TokenTTL == 0 {
			p.TokenTTL = envTokenTTL
		}
		o.cfg.Players = p
	}
}
func withoutPublicReads() option { return func(o *envOptions) { o.cfg.PublicReads = false } }
func withCORS(origins ...string) option {
	return func(o *envOptions) { o.cfg.CORSOrigins = origins }
}
func withAbortWindow(d time.Duration) option { return func(o *envOptions) { o.cfg.AbortWindow = d } }
func withChecks(cs ...api.Check) option {
	return func(o *envOptions) { o.checks = append([]api.Check{}, cs...) }
}

// onRealStores: the test's subject is what the real stores do (tampering
// behind the service's back, exactly-once under concurrency).
func onRealStores() option { return func(o *envOptions) { o.real = true } }

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }
