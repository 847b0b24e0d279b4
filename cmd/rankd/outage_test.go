package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestRedisOutage (issue 11 item 4): rankd on a redis-server the test
// owns. It starts while Redis is down and says it is not ready; it becomes
// ready by itself when Redis comes; while Redis is down again every route
// that needs it answers 503 unavailable with Retry-After and the routes
// that do not keep working; after Redis comes back (with its data lost)
// everything works again without a restart.
func TestRedisOutage(t *testing.T) {
	rds := testsvc.StartOwnRedis(t)
	rds.Stop()
	logs := &lockedBuffer{}
	_, p := startMain(t, "", "rank", rds.URL(), nil, logs, func(c *Config) { c.MatchEvery = 0 })

	ready := func() bool { return p.Do("GET", "/readyz", "", nil).Status == 200 }
	if a := p.Do("GET", "/readyz", "", nil); a.Status != 503 || !strings.Contains(string(a.Body), "redis") {
		t.Fatalf("readyz with Redis down at start = %d %s, want 503 naming redis", a.Status, a.Body)
	}
	unavailable := func(what string, a answer) {
		t.Helper()
		code, _ := a.JSON["error"].(map[string]any)["code"].(string)
		if a.Status != 503 || code != "store_unavailable" || a.Header.Get("Retry-After") == "" {
			t.Errorf("%s with Redis down = %d %s (Retry-After %q), want 503 store_unavailable with Retry-After", what, a.Status, a.Body, a.Header.Get("Retry-After"))
		}
		t.Logf("outage: %s -> %d %s, Retry-After %s", what, a.Status, code, a.Header.Get("Retry-After"))
	}
	unavailable("login at start", p.Do("POST", "/api/v1/auth/login", "", map[string]string{"username": "root", "password": adminPassword}))

	began := time.Now()
	rds.Start()
	testsvc.Eventually(t, "rankd ready after Redis started", ready)
	t.Logf("recovery: ready %v after redis-server answered", time.Since(began).Round(time.Millisecond))

	root := p.Login("root", adminPassword)
	var tokens []string
	for _, name := range []string{"alice", "bob"} {
		a := p.Must(201, "POST", "/api/v1/auth/register", "", map[string]string{"username": name, "password": "correct horse battery"})
		tokens = append(tokens, a.JSON["token"].(string))
	}
	p.Must(201, "POST", "/api/v1/admin/accounts", root, map[string]string{"username": "go-server", "password": "another long secret", "role": "server"})
	server := p.Login("go-server", "another long secret")
	ticket := map[string]any{"board_size": 19, "time_control": "rapid", "rules": "chinese"}
	p.Must(201, "POST", "/api/v1/matchmaking/tickets", tokens[0], ticket)

	rds.Stop()
	unavailable("login", p.Do("POST", "/api/v1/auth/login", "", map[string]string{"username": "root", "password": adminPassword}))
	unavailable("register", p.Do("POST", "/api/v1/auth/register", "", map[string]string{"username": "carol", "password": "correct horse battery"}))
	unavailable("queue a ticket", p.Do("POST", "/api/v1/matchmaking/tickets", tokens[1], ticket))
	unavailable("read my ticket", p.Do("GET", "/api/v1/matchmaking/tickets/mine", tokens[0], nil))
	unavailable("leave the queue", p.Do("DELETE", "/api/v1/matchmaking/tickets/mine", tokens[0], nil))
	unavailable("pools", p.Do("GET", "/api/v1/matchmaking/pools", root, nil))
	unavailable("run a job", doKeyed(p, "POST", "/api/v1/admin/jobs/expire/run", root, "outage-1"))
	if a := p.Do("GET", "/readyz", "", nil); a.Status != 503 {
		t.Errorf("readyz with Redis down = %d, want 503", a.Status)
	}
	// What needs only the document store goes on.
	p.Must(201, "POST", "/api/v1/games", server, map[string]any{"source_id": "outage-1", "black": "alice", "white": "bob", "size": 9,
		"moves": []string{"ee", "cc"}, "end": "resign", "result": "B+R"})
	p.Must(200, "GET", "/api/v1/players/alice", tokens[1], nil)

	began = time.Now()
	rds.Start()
	testsvc.Eventually(t, "login after Redis came back", func() bool {
		return p.Do("POST", "/api/v1/auth/login", "", map[string]string{"username": "root", "password": adminPassword}).Status == 200
	})
	t.Logf("recovery: login answered 200 %v after redis-server answered", time.Since(began).Round(time.Millisecond))
	testsvc.Eventually(t, "rankd ready after Redis came back", ready)
	p.Must(201, "POST", "/api/v1/matchmaking/tickets", tokens[1], ticket)

	// An admin's run under an Idempotency-Key, retried after Redis lost
	// every key: it is remembered in the document store, so it does not
	// run again.
	root = p.Login("root", adminPassword)
	if a := doKeyed(p, "POST", "/api/v1/admin/jobs/expire/run", root, "once-1"); a.Status != 200 || a.JSON["status"] != "done" {
		t.Fatalf("run expire: %d %s", a.Status, a.Body)
	}
	rds.Stop()
	rds.Start()
	testsvc.Eventually(t, "rankd ready after the second restart", ready)
	if a := doKeyed(p, "POST", "/api/v1/admin/jobs/expire/run", root, "once-1"); a.Status != 200 || a.JSON["status"] != "already_done" {
		t.Fatalf("the same run after Redis lost its data: %d %s, want already_done", a.Status, a.Body)
	}
}

// doKeyed is Do with an Idempotency-Key.
func doKeyed(p *proc, method, path, token, key string) answer {
	p.t.Helper()
	req, err := http.NewRequest(method, p.URL+path, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Idempotency-Key", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	a := answer{Status: res.StatusCode, Header: res.Header}
	if a.Body, err = io.ReadAll(res.Body); err != nil {
		p.t.Fatal(err)
	}
	_ = json.Unmarshal(a.Body, &a.JSON)
	return a
}
