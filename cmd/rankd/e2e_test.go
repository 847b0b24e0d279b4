package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

const (
	adminPW = "change-me-now"
	alicePW = "correct horse battery"
)

var adminEnv = map[string]string{"RANK_ADMIN_USER": "root", "RANK_ADMIN_PASSWORD": adminPW}

// TestEndToEnd drives the built rankd as a client: accounts, roles,
// health, metrics; a graceful stop; a restart on the same data; a SIGKILL
// and another restart.
func TestEndToEnd(t *testing.T) {
	p := startRankd(t, procOptions{Env: adminEnv})
	if strings.Contains(p.Logs(), adminPW) {
		t.Fatal("the admin password appears in the log")
	}
	p.Must(200, "GET", "/healthz", "", nil)
	if a := p.Must(200, "GET", "/readyz", "", nil); fmt.Sprint(a.JSON["checks"]) != "map[mongo:ok redis:ok]" {
		t.Fatalf("readyz %s", a.Body)
	}
	p.Must(200, "GET", "/api/v1/openapi.json", "", nil)

	reg := p.Must(201, "POST", "/api/v1/auth/register", "", map[string]string{"username": "Alice", "password": alicePW})
	alice := reg.JSON["token"].(string)
	p.Must(401, "POST", "/api/v1/auth/login", "", map[string]string{"username": "alice", "password": "wrong password"})
	tok := p.Login("alice", alicePW)
	p.Must(204, "POST", "/api/v1/auth/logout", tok, nil)
	p.Must(401, "POST", "/api/v1/auth/logout", tok, nil)

	root := p.Login("root", adminPW)
	server := map[string]string{"username": "go-server", "password": "another long secret", "role": "server"}
	p.Must(403, "POST", "/api/v1/admin/accounts", alice, server)
	p.Must(401, "POST", "/api/v1/admin/accounts", "", server)
	p.Must(201, "POST", "/api/v1/admin/accounts", root, server)
	p.Must(409, "POST", "/api/v1/admin/accounts", root, server)

	metrics := string(p.Must(200, "GET", "/metrics", "", nil).Body)
	for _, want := range []string{
		`rank_http_requests_total{method="POST",route="/api/v1/auth/register",status="201"} 1`,
		`rank_http_requests_total{method="POST",route="/api/v1/admin/accounts",status="403"} 1`,
		`rank_games_accepted_total 0`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	p.Stop()

	// The same data dir after a graceful stop: accounts and tokens are
	// kept, and the admin is not created twice.
	p = p.Restart()
	if !strings.Contains(p.Logs(), `msg="admin account" username=root created=false`) {
		t.Fatalf("restart re-created the admin:\n%s", p.Logs())
	}
	p.Must(204, "POST", "/api/v1/auth/logout", alice, nil)
	p.Login("go-server", "another long secret")

	// And after SIGKILL.
	p.Kill()
	p = p.Restart()
	p.Login("alice", alicePW)
	p.Must(401, "POST", "/api/v1/auth/logout", alice, nil)
	p.Stop()
}

// TestGracefulStopFinishesRequestsInFlight: a request whose body is still
// to come when SIGTERM comes is answered before rankd exits.
func TestGracefulStopFinishesRequestsInFlight(t *testing.T) {
	p := startRankd(t, procOptions{})
	u, err := url.Parse(p.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"username":"slowpoke","password":"` + alicePW + `"}`
	fmt.Fprintf(conn, "POST /api/v1/auth/register HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", u.Host, len(body))

	// The server answers 100 Continue when the handler starts reading the
	// body: then the request is in flight (a request on another
	// connection proves nothing: this one may still wait to be accepted,
	// and closing the listener drops it). Then ask rankd to stop.
	br := bufio.NewReader(conn)
	if res, err := http.ReadResponse(br, nil); err != nil || res.StatusCode != http.StatusContinue {
		t.Fatalf("want 100 Continue for the request in flight, have %v %v", res, err)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return strings.Contains(p.Logs(), `msg=stopping`) })
	// New connections are refused once shutdown began.
	waitFor(t, func() bool {
		c, err := net.DialTimeout("tcp", u.Host, time.Second)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	if _, err := conn.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer to the request in flight: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("request in flight answered %d, want 201", res.StatusCode)
	}
	p.wait()
	if p.err != nil || !strings.Contains(p.Logs(), `msg="rankd stopped"`) {
		t.Fatalf("exit %v\n%s", p.err, p.Logs())
	}
}

// waitFor waits until cond holds; the ceiling only stops a hung test.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	testsvc.Eventually(t, "the condition", cond)
}
