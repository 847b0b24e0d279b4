package testsvc

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// OwnRedis is a redis-server the test owns, for fault injection: it can be
// stopped and started again on the same port. It keeps nothing on disk, so
// a restart loses every key (as a Redis without persistence does).
type OwnRedis struct {
	t    testing.TB
	Port int
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

// StartOwnRedis starts a redis-server on a free port, stopped when the
// test ends. It fails the test when redis-server is not installed
// (`make services` installs it).
func StartOwnRedis(t testing.TB) *OwnRedis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		unavailable(t, "redis-server is not installed: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	r := &OwnRedis{t: t, Port: port}
	r.Start()
	t.Cleanup(r.Stop)
	return r
}

// URL is the server's URL.
func (r *OwnRedis) URL() string { return "redis://" + r.Addr() + "/0" }

// Addr is host:port.
func (r *OwnRedis) Addr() string { return "127.0.0.1:" + strconv.Itoa(r.Port) }

// Start starts the server (again) and waits until it answers.
func (r *OwnRedis) Start() {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd != nil {
		return
	}
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(r.Port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		r.t.Fatalf("start redis-server: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	r.cmd, r.done = cmd, done
	c := redis.NewClient(&redis.Options{Addr: r.Addr(), MaxRetries: -1})
	defer c.Close()
	Eventually(r.t, fmt.Sprintf("redis-server on port %d to answer", r.Port), func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return c.Ping(ctx).Err() == nil
	})
}

// Stop kills the server (an outage: no goodbye to the clients) and waits
// until it has exited.
func (r *OwnRedis) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	<-r.done
	r.cmd, r.done = nil, nil
}
