package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/gamedb"
	"github.com/weiqi-platform/rank/internal/gamerate"
	"github.com/weiqi-platform/rank/internal/metrics"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playerdb"
	"github.com/weiqi-platform/rank/players/playerredis"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

// env is the real router on real stores: players on embedded FerretDB (or
// MongoDB) and the login limiter on the test redis-server.
type env struct {
	t       *testing.T
	srv     *api.Server
	players *players.Service
	metrics *metrics.Registry
	intake  *games.Intake
	ratings *rating.Service
	rstore  rating.Store
	gstore  games.Store
	audit   *auditRig // exams, check-ins, jobs (auditenv_test.go)
	mm      *mmRig    // matchmaking (matchmaking_test.go)
	logs    *syncBuffer
	router  routers.Router
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

type option func(*api.Deps, *players.Config)

func newEnv(t *testing.T, opts ...option) *env {
	t.Helper()
	db := testsvc.Mongo(t)
	store, err := playerdb.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	rdb := testsvc.Redis(t)
	logs := &syncBuffer{}
	reg := metrics.New()
	deps := api.Deps{
		Logger:         slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Metrics:        reg,
		MetricsHandler: reg.Handler(),
		Checks: []api.Check{
			{Name: "mongo", Ping: func(ctx context.Context) error { return db.Client().Ping(ctx, nil) }},
			{Name: "redis", Ping: func(ctx context.Context) error { return rdb.Ping(ctx).Err() }},
		},
	}
	cfg := players.Config{}
	for _, o := range opts {
		o(&deps, &cfg)
	}
	svc := players.NewService(store, playerredis.New(rdb), cfg)
	deps.Accounts = svc
	gstore, err := gamedb.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	rstore, err := ratingdb.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	ratings := rating.NewService(rstore, rating.ServiceConfig{Recorder: reg})
	directory := gamerate.NewPlayers(store)
	intake := games.NewIntake(gstore, gamerate.Rater{Service: ratings}, directory, reg, games.IntakeConfig{})
	deps.Games, deps.Ratings, deps.Directory = intake, ratings, directory
	audit := wireAudit(t, &deps, db, rdb, intake, ratings, directory)
	mm := wireMatchmaking(t, &deps, rdb, intake)
	srv, err := api.New(deps)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, srv: srv, players: svc, metrics: reg, logs: logs, router: openAPIRouter(t), intake: intake, ratings: ratings, rstore: rstore, gstore: gstore, audit: audit, mm: mm}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
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

func withBodyLimit(n int64) option { return func(d *api.Deps, _ *players.Config) { d.BodyLimit = n } }
func withPlayers(c players.Config) option {
	return func(_ *api.Deps, p *players.Config) { *p = c }
}
func withChecks(c ...api.Check) option { return func(d *api.Deps, _ *players.Config) { d.Checks = c } }

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }
