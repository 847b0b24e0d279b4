package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
)

func TestRegisterLoginLogout(t *testing.T) {
	e := newEnv(t)
	out := e.expect(req{method: "POST", path: "/api/v1/auth/register", body: `{"username":"Alice","password":"correct horse battery"}`}, 201, "")
	player := out.JSON["player"].(map[string]any)
	if player["username"] != "alice" || player["role"] != "player" {
		t.Fatalf("registered %v, want alice as a player", player)
	}
	regToken := out.JSON["token"].(string)

	out = e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "ALICE", "password": pw}}, 200, "")
	tok := out.JSON["token"].(string)
	exp, err := time.Parse(time.RFC3339, out.JSON["expires_at"].(string))
	if err != nil || !exp.After(time.Now()) {
		t.Fatalf("expires_at %v: %v", out.JSON["expires_at"], err)
	}
	if tok == regToken {
		t.Fatal("login gave the same token as register")
	}

	e.expect(req{method: "POST", path: "/api/v1/auth/logout", token: tok}, 204, "")
	e.expect(req{method: "POST", path: "/api/v1/auth/logout", token: tok}, 401, "invalid_token")
	// The token from registration is another session and still works.
	e.expect(req{method: "POST", path: "/api/v1/auth/logout", token: regToken}, 204, "")
}

func TestRegisterRefusals(t *testing.T) {
	e := newEnv(t)
	e.register("taken")
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
		detail map[string]any
	}{
		{"empty body", "", 400, "invalid_json", nil},
		{"syntax", `{"username":"bob",}`, 400, "invalid_json", map[string]any{"offset": float64(19)}},
		{"not an object", `["bob"]`, 400, "invalid_json", nil},
		{"wrong type", `{"username":7,"password":"x"}`, 400, "invalid_json", map[string]any{"field": "username"}},
		{"unknown field", `{"username":"bob","password":"correct horse","email":"b@x"}`, 400, "unknown_field", map[string]any{"field": "email"}},
		{"two values", `{"username":"bob","password":"correct horse"} {}`, 400, "invalid_json", nil},
		{"truncated", `{"username":"bob"`, 400, "invalid_json", nil},
		{"missing password", `{"username":"bob"}`, 400, "missing_field", map[string]any{"field": "password"}},
		{"missing username", `{"password":"correct horse"}`, 400, "missing_field", map[string]any{"field": "username"}},
		{"short username", `{"username":"bo","password":"correct horse"}`, 422, "invalid_field", map[string]any{"field": "username"}},
		{"bad character", `{"username":"bob smith","password":"correct horse"}`, 422, "invalid_field", map[string]any{"field": "username"}},
		{"short password", `{"username":"bob","password":"short"}`, 422, "invalid_field", map[string]any{"field": "password"}},
		{"taken, other case", `{"username":"TAKEN","password":"correct horse"}`, 409, "username_taken", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := e.expect(req{method: "POST", path: "/api/v1/auth/register", body: tc.body}, tc.status, tc.code)
			for k, v := range tc.detail {
				if got := out.errDetails()[k]; got != v {
					t.Errorf("details.%s = %v, want %v (%s)", k, got, v, out.Body)
				}
			}
			if msg := out.JSON["error"].(map[string]any)["message"].(string); msg == "" {
				t.Error("error without a message")
			}
		})
	}
	// Nothing refused was created: bob can still register.
	e.register("bob")
}

func TestLoginRefusalsAndLimit(t *testing.T) {
	e := newEnv(t, withPlayers(players.Config{LoginLimitPair: 3}))
	e.register("carol")
	login := func(pass, remote string, xff string) req {
		r := req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "carol", "password": pass}, remote: remote}
		if xff != "" {
			r.header = map[string]string{"X-Forwarded-For": xff}
		}
		return r
	}
	for i := range 3 {
		out := e.expect(login("wrong password", "192.0.2.10:1000", ""), 401, "invalid_credentials")
		if i == 0 && out.Header.Get("WWW-Authenticate") == "" {
			t.Error("401 without WWW-Authenticate")
		}
	}
	out := e.expect(login(pw, "192.0.2.10:1000", ""), 429, "rate_limited")
	ra := out.Header.Get("Retry-After")
	if ra == "" || ra == "0" || out.errDetails()["scope"] != "account_address" {
		t.Fatalf("429 with Retry-After %q and details %v", ra, out.errDetails())
	}
	// Another address that has not failed logs in with the right password.
	e.expect(login(pw, "192.0.2.11:1000", ""), 200, "")
	e.expect(req{method: "POST", path: "/api/v1/auth/login", body: `{"username":"carol"}`}, 400, "missing_field")
	e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "nobody", "password": pw}}, 401, "invalid_credentials")
}

// TestAddressLimitIgnoresForwardedFor: with no trusted proxy, a client
// cannot dodge the per-address limit by sending X-Forwarded-For.
func TestAddressLimitIgnoresForwardedFor(t *testing.T) {
	e := newEnv(t, withPlayers(players.Config{LoginLimitAddress: 2}))
	for i, xff := range []string{"203.0.113.1", "203.0.113.2", "203.0.113.3"} {
		r := req{method: "POST", path: "/api/v1/auth/login", remote: "198.51.100.20:5000",
			body: map[string]string{"username": "u" + xff[len(xff)-1:] + "xx", "password": pw}, header: map[string]string{"X-Forwarded-For": xff}}
		if i < 2 {
			e.expect(r, 401, "invalid_credentials")
		} else {
			e.expect(r, 429, "rate_limited")
		}
	}
}

// routeRoles says who may call each protected route; every registered
// route must be here or in publicRoutes, so a new route cannot slip in
// without its guard being tested.
var routeRoles = map[string][]players.Role{
	"POST /api/v1/auth/logout":                players.Roles,
	"POST /api/v1/admin/accounts":             {players.RoleAdmin},
	"GET /api/v1/admin/accounts":              {players.RoleAdmin},
	"PUT /api/v1/server/players/:external_id": {players.RoleServer},
	"POST /api/v1/games":                      {players.RoleServer, players.RoleAdmin},
	"GET /api/v1/games/:id":                   players.Roles,
	"GET /api/v1/players/:username":           players.Roles,
	"GET /api/v1/players/:username/history":   players.Roles,
	"GET /api/v1/leaderboard":                 players.Roles,
	// Exams and the audit trail (exams_test.go, audit_test.go test what
	// the handlers refuse beyond the role: another player's audit trail,
	// a player nominating someone else, a game not theirs).
	"POST /api/v1/exams":                                         {players.RoleAdmin},
	"GET /api/v1/exams":                                          players.Roles,
	"POST /api/v1/exams/:id/registrations":                       {players.RolePlayer, players.RoleTeacher},
	"GET /api/v1/exams/:id/sessions":                             players.Roles,
	"DELETE /api/v1/exams/:id/registrations":                     {players.RolePlayer, players.RoleTeacher},
	"POST /api/v1/games/:id/check-in":                            {players.RolePlayer, players.RoleTeacher, players.RoleAdmin},
	"GET /api/v1/players/:username/audit":                        {players.RolePlayer, players.RoleTeacher, players.RoleAdmin},
	"GET /api/v1/admin/audit":                                    {players.RoleAdmin},
	"POST /api/v1/admin/players/:username/adjust":                {players.RoleAdmin},
	"POST /api/v1/admin/players/:username/certified-rank":        {players.RoleAdmin},
	"POST /api/v1/admin/players/:username/certified-rank/revoke": {players.RoleAdmin},
	"POST /api/v1/admin/games/:id/annul":                         {players.RoleAdmin},
	"GET /api/v1/admin/promotions":                               {players.RoleAdmin},
	"POST /api/v1/admin/promotions/:id/approve":                  {players.RoleAdmin},
	"POST /api/v1/admin/promotions/:id/reject":                   {players.RoleAdmin},
	"GET /api/v1/admin/verify":                                   {players.RoleAdmin},
	"GET /api/v1/admin/verify/reports":                           {players.RoleAdmin},
	"GET /api/v1/admin/jobs":                                     {players.RoleAdmin},
	"GET /api/v1/admin/games":                                    {players.RoleAdmin},
	"GET /api/v1/admin/flags":                                    {players.RoleAdmin},
	"GET /api/v1/admin/flags/:id":                                {players.RoleAdmin},
	"POST /api/v1/admin/flags/:id/resolution":                    {players.RoleAdmin},
	"POST /api/v1/admin/jobs/:name/run":                          {players.RoleAdmin},
	// Matchmaking: tickets are the caller's own (no route names another
	// player); matchmaking_test.go checks that.
	"POST /api/v1/matchmaking/tickets":        {players.RolePlayer, players.RoleTeacher, players.RoleAdmin},
	"GET /api/v1/matchmaking/tickets/mine":    {players.RolePlayer, players.RoleTeacher, players.RoleAdmin},
	"DELETE /api/v1/matchmaking/tickets/mine": {players.RolePlayer, players.RoleTeacher, players.RoleAdmin},
	"GET /api/v1/matchmaking/pools":           {players.RoleAdmin},
	"GET /api/v1/audit/checkpoints":           {players.RoleAdmin},
	"POST /api/v1/audit/checkpoints/verify":   {players.RoleAdmin},
	// Schools and classes: the role guards keep out the roles that can
	// never; who of the allowed roles may is the schools service's
	// decision (TestSchoolRoutesAreOnlyOwn: another school's teacher, a
	// student of another class).
	"POST /api/v1/schools":                                  {players.RoleAdmin},
	"GET /api/v1/schools":                                   staff,
	"GET /api/v1/schools/:id":                               staff,
	"PATCH /api/v1/schools/:id":                             staff,
	"POST /api/v1/schools/:id/archive":                      {players.RoleAdmin},
	"GET /api/v1/schools/:id/history":                       staff,
	"POST /api/v1/schools/:id/teachers":                     staff,
	"DELETE /api/v1/schools/:id/teachers/:username":         staff,
	"GET /api/v1/schools/:id/classes":                       staff,
	"POST /api/v1/schools/:id/classes":                      staff,
	"GET /api/v1/schools/:id/table":                         staff,
	"GET /api/v1/classes":                                   playing,
	"POST /api/v1/classes/join":                             {players.RolePlayer},
	"GET /api/v1/classes/:id":                               playing,
	"PATCH /api/v1/classes/:id":                             staff,
	"POST /api/v1/classes/:id/archive":                      staff,
	"GET /api/v1/classes/:id/history":                       staff,
	"POST /api/v1/classes/:id/teachers":                     staff,
	"DELETE /api/v1/classes/:id/teachers/:username":         staff,
	"POST /api/v1/classes/:id/invite-code":                  staff,
	"POST /api/v1/classes/:id/leave":                        {players.RolePlayer},
	"POST /api/v1/classes/:id/students":                     staff,
	"POST /api/v1/classes/:id/managed-students":             staff,
	"DELETE /api/v1/classes/:id/students/:username":         staff,
	"POST /api/v1/classes/:id/students/:username/move":      staff,
	"POST /api/v1/classes/:id/students/:username/password":  staff,
	"POST /api/v1/classes/:id/students/:username/placement": staff,
	"GET /api/v1/classes/:id/students/:username/progress":   playing,
	"GET /api/v1/classes/:id/table":                         staff,
	"GET /api/v1/classes/:id/progress":                      staff,
	// A player's own (me_test.go): the public reads among them answer
	// without a token only when public reads are on (TestPublicReads).
	"GET /api/v1/me":                               players.Roles,
	"PATCH /api/v1/me":                             players.Roles,
	"POST /api/v1/me/password":                     players.Roles,
	"GET /api/v1/players/:username/games":          players.Roles,
	"GET /api/v1/players/:username/rating-history": players.Roles,
	"POST /api/v1/games/:id/abort":                 playing,
	"GET /api/v1/admin/aborts":                     {players.RoleAdmin},
}

var (
	staff   = []players.Role{players.RoleAdmin, players.RoleTeacher}
	playing = []players.Role{players.RolePlayer, players.RoleTeacher, players.RoleAdmin}
)

var publicRoutes = map[string]bool{
	"GET /healthz":               true,
	"GET /readyz":                true,
	"GET /metrics":               true,
	"GET /api/v1/openapi.json":   true,
	"POST /api/v1/auth/register": true,
	"POST /api/v1/auth/login":    true,
}

// concrete fills path parameters.
func concrete(path string) string {
	return regexp.MustCompile(`:[a-z_]+`).ReplaceAllString(path, "x")
}

// TestEveryRouteChecksTheCaller: every protected route refuses no token, a
// malformed header, an unknown token and a revoked token with 401, and
// each role it does not allow with 403 (with public reads off: with them
// on, TestPublicReads tries the public reads).
func TestEveryRouteChecksTheCaller(t *testing.T) {
	e := newEnv(t, withoutPublicReads())
	tokens := map[players.Role]string{}
	for _, role := range players.Roles {
		tokens[role] = e.account("a-"+string(role), role)
	}
	revoked := e.account("revoked", players.RolePlayer)
	e.expect(req{method: "POST", path: "/api/v1/auth/logout", token: revoked}, 204, "")

	for _, r := range e.srv.Routes() {
		key := r.Method + " " + r.Path
		if publicRoutes[key] {
			continue
		}
		allowed, ok := routeRoles[key]
		if !ok {
			t.Errorf("route %s is in neither routeRoles nor publicRoutes", key)
			continue
		}
		t.Run(key, func(t *testing.T) {
			path := concrete(r.Path)
			e.expect(req{method: r.Method, path: path}, 401, "unauthenticated")
			e.expect(req{method: r.Method, path: path, header: map[string]string{"Authorization": "Basic YTpi"}}, 401, "unauthenticated")
			e.expect(req{method: r.Method, path: path, token: "rk_" + strings.Repeat("A", 43)}, 401, "invalid_token")
			e.expect(req{method: r.Method, path: path, token: revoked}, 401, "invalid_token")
			for _, role := range players.Roles {
				if !slicesContains(allowed, role) {
					out := e.expect(req{method: r.Method, path: path, token: tokens[role], body: "{}"}, 403, "forbidden")
					if out.errDetails()["role"] != string(role) {
						t.Errorf("403 details %v do not name the caller's role", out.errDetails())
					}
				}
			}
		})
	}
	for key := range routeRoles {
		found := false
		for _, r := range e.srv.Routes() {
			found = found || r.Method+" "+r.Path == key
		}
		if !found {
			t.Errorf("routeRoles lists %s, which is not registered", key)
		}
	}
}

func slicesContains(rs []players.Role, r players.Role) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// TestLogoutWithAnotherUsersToken: logout revokes the presented token and
// no other; with bob's token it is bob who is logged out.
func TestLogoutWithAnotherUsersToken(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	e.expect(req{method: "POST", path: "/api/v1/auth/logout", token: bob}, 204, "")
	if p, err := e.players.Authenticate(context.Background(), alice); err != nil || p.Username != "alice" {
		t.Fatalf("alice's token after bob's logout: %+v, %v", p, err)
	}
	if _, err := e.players.Authenticate(context.Background(), bob); !errors.Is(err, players.ErrUnauthenticated) {
		t.Fatalf("bob's token after his logout: %v", err)
	}
}

func TestAdminCreatesAccounts(t *testing.T) {
	e := newEnv(t)
	if _, err := e.players.EnsureAdmin(context.Background(), "root", pw); err != nil {
		t.Fatal(err)
	}
	root := e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "root", "password": pw}}, 200, "").JSON["token"].(string)
	create := func(body any) req {
		return req{method: "POST", path: "/api/v1/admin/accounts", token: root, body: body}
	}
	for _, role := range []string{"server", "teacher", "admin"} {
		out := e.expect(create(map[string]string{"username": "New-" + role, "password": pw, "role": role}), 201, "")
		acct := out.JSON["account"].(map[string]any)
		if acct["username"] != "new-"+role || acct["role"] != role || acct["created_by"] != "root" {
			t.Fatalf("created %v", acct)
		}
		tok := e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "new-" + role, "password": pw}}, 200, "").JSON["token"].(string)
		if p, err := e.players.Authenticate(context.Background(), tok); err != nil || string(p.Role) != role {
			t.Fatalf("new %s logs in as %+v, %v", role, p, err)
		}
	}
	e.expect(create(map[string]string{"username": "pleb", "password": pw, "role": "player"}), 422, "invalid_field")
	e.expect(create(map[string]string{"username": "boss", "password": pw, "role": "emperor"}), 422, "invalid_field")
	e.expect(create(map[string]string{"username": "boss", "password": pw}), 400, "missing_field")
	e.expect(create(map[string]string{"username": "NEW-SERVER", "password": pw, "role": "server"}), 409, "username_taken")
	// The new admin may create accounts too.
	admin2 := e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "new-admin", "password": pw}}, 200, "").JSON["token"].(string)
	e.expect(req{method: "POST", path: "/api/v1/admin/accounts", token: admin2, body: map[string]string{"username": "teacher2", "password": pw, "role": "teacher"}}, 201, "")
}

func TestBodyLimit(t *testing.T) {
	e := newEnv(t, withBodyLimit(256))
	big := `{"username":"bob","password":"` + strings.Repeat("x", 300) + `"}`
	out := e.expect(req{method: "POST", path: "/api/v1/auth/register", body: big}, 413, "body_too_large")
	if out.errDetails()["limit_bytes"] != float64(256) {
		t.Fatalf("details %v", out.errDetails())
	}
	// Without a Content-Length the limit bites while reading.
	hr, _ := http.NewRequest("POST", "/api/v1/auth/register", strings.NewReader(big))
	hr.ContentLength = -1
	rec := newRecorder()
	e.srv.ServeHTTP(rec, hr)
	if rec.Code != 413 || !strings.Contains(rec.Body.String(), "body_too_large") {
		t.Fatalf("chunked oversize body: %d %s", rec.Code, rec.Body)
	}
	// Nothing was created.
	e.register("bob")
}

func TestUnknownRouteAndMethod(t *testing.T) {
	e := newEnv(t)
	e.expect(req{method: "GET", path: "/api/v1/nothing"}, 404, "not_found")
	e.expect(req{method: "GET", path: "/api/v1/auth/login"}, 405, "method_not_allowed")
}

func TestRequestID(t *testing.T) {
	e := newEnv(t)
	out := e.do(req{method: "GET", path: "/healthz", header: map[string]string{api.RequestIDHeader: "abc-123"}})
	if out.Header.Get(api.RequestIDHeader) != "abc-123" {
		t.Fatalf("sane request id not echoed: %q", out.Header.Get(api.RequestIDHeader))
	}
	for _, bad := range []string{"", "has space", "new\nline", strings.Repeat("a", 65)} {
		out := e.do(req{method: "GET", path: "/healthz", header: map[string]string{api.RequestIDHeader: bad}})
		got := out.Header.Get(api.RequestIDHeader)
		if got == bad || !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(got) {
			t.Errorf("request id %q answered with %q, want a fresh one", bad, got)
		}
	}
	if !strings.Contains(e.logs.String(), "request_id=abc-123") {
		t.Fatal("the access log does not carry the request id")
	}
}

func TestHealthAndReadiness(t *testing.T) {
	e := newEnv(t)
	e.expect(req{method: "GET", path: "/healthz"}, 200, "")
	out := e.expect(req{method: "GET", path: "/readyz"}, 200, "")
	if c := out.JSON["checks"].(map[string]any); c["mongo"] != "ok" || c["redis"] != "ok" {
		t.Fatalf("checks %v", c)
	}

	// A Redis nobody listens on: readiness names it.
	e2 := newEnv(t, withChecks(
		api.Check{Name: "mongo", Ping: func(context.Context) error { return nil }},
		api.Check{Name: "redis", Ping: testsvc.DeadRedisPing(t)},
	))
	out = e2.expect(req{method: "GET", path: "/readyz"}, 503, "store_unavailable")
	down := out.errDetails()["down"].([]any)
	if len(down) != 1 || down[0] != "redis" || !strings.Contains(out.JSON["error"].(map[string]any)["message"].(string), "redis") {
		t.Fatalf("503 does not name redis alone: %s", out.Body)
	}
	if strings.Contains(string(out.Body), "127.0.0.1:1") {
		t.Fatalf("503 leaks the client's error: %s", out.Body)
	}
}

func TestMetricsByRouteAndStatus(t *testing.T) {
	e := newEnv(t)
	e.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "nobody", "password": pw}}, 401, "")
	e.expect(req{method: "GET", path: "/no/such/path"}, 404, "")
	out := e.expect(req{method: "GET", path: "/metrics"}, 200, "")
	text := string(out.Body)
	for _, want := range []string{
		`rank_http_requests_total{method="POST",route="/api/v1/auth/login",status="401"} 1`,
		`rank_http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`rank_http_request_duration_seconds_count{method="POST",route="/api/v1/auth/login",status="401"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestAddressBounds: every route refuses an address past the decided
// bounds (a path parameter's bytes, a query value's bytes, the number of
// query values, control characters) with 400 invalid_parameter naming the
// parameter, before its handler runs; values at the bounds pass.
func TestAddressBounds(t *testing.T) {
	e := newEnv(t)
	long := strings.Repeat("a", api.MaxPathParam+1)
	out := e.expect(req{method: "GET", path: "/api/v1/players/" + long}, 400, "invalid_parameter")
	if p, _ := out.errDetails()["parameter"].(string); p == "" || !strings.Contains(string(out.Body), fmt.Sprint(api.MaxPathParam)) {
		t.Errorf("a long path parameter: %s", out.Body)
	}
	out = e.expect(req{method: "GET", path: "/healthz?reason=" + strings.Repeat("x", api.MaxQueryValue+1)}, 400, "invalid_parameter")
	if out.errDetails()["parameter"] != "reason" {
		t.Errorf("a long query value: %s", out.Body)
	}
	e.expect(req{method: "GET", path: "/healthz?reason=" + strings.Repeat("x", api.MaxQueryValue)}, 200, "")
	e.expect(req{method: "GET", path: "/healthz?x=a%01b"}, 400, "invalid_parameter")
	e.expect(req{method: "GET", path: "/api/v1/players/a%0Ab"}, 400, "invalid_parameter")
	e.expect(req{method: "GET", path: "/healthz?reason=two%0Alines"}, 200, "")
	e.expect(req{method: "GET", path: "/healthz?x=%FF"}, 400, "invalid_parameter")
	e.expect(req{method: "GET", path: "/healthz?" + strings.Repeat("x=1&", api.MaxQueryValues+1)}, 400, "invalid_parameter")
	e.expect(req{method: "GET", path: "/healthz?" + strings.Repeat("x=1&", api.MaxQueryValues-1) + "x=1"}, 200, "")
}
