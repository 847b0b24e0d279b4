package main

// The end-to-end harness: build the real rankd binary, run it on port 0
// with a temp data dir, drive it over HTTP, stop it with SIGTERM (checking
// the stop was graceful) or SIGKILL, and start it again on the same data.
// Game submission's crash test uses Kill and Restart.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// raceEnabled is set by race_test.go: the binary is then built with -race
// too, so the e2e tests also check rankd for races.
var raceEnabled bool

// startTimeout bounds how long rankd may take to say it listens (FerretDB
// opens its files first; a -race build is slow).
const startTimeout = testsvc.Ceiling

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
	buildLog  []byte
)

// rankdBinary builds rankd once per test binary.
func rankdBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "rankd-e2e-")
		if err != nil {
			buildErr = err
			return
		}
		buildPath = filepath.Join(dir, "rankd")
		args := []string{"build", "-o", buildPath}
		if raceEnabled {
			args = append(args, "-race")
		}
		buildLog, buildErr = exec.Command("go", append(args, ".")...).CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build rankd: %v\n%s", buildErr, buildLog)
	}
	return buildPath
}

// procOptions configure one rankd process.
type procOptions struct {
	DataDir string            // "" means a fresh temp dir
	Env     map[string]string // added to a clean environment
	Args    []string
}

// proc is a running rankd.
type proc struct {
	t    testing.TB
	opts procOptions
	cmd  *exec.Cmd
	URL  string
	logs *lockedBuffer
	done chan struct{}
	err  error // from Wait, once done is closed
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

var listeningURL = regexp.MustCompile(`msg="?` + ListeningMsg + `"? .*url=(http://\S+)`)

// startRankd starts rankd on 127.0.0.1:0 and waits until it listens. The
// process is killed when the test ends, if still running.
func startRankd(t testing.TB, opts procOptions) *proc {
	t.Helper()
	if opts.DataDir == "" {
		opts.DataDir = t.TempDir()
	}
	bin := rankdBinary(t)
	cmd := exec.Command(bin, append([]string{"--addr", "127.0.0.1:0", "--data-dir", opts.DataDir}, opts.Args...)...)
	// A clean environment: the developer's MONGO_URI or REDIS_URL must
	// not leak in; PATH and HOME are all the binary needs.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir()}
	for k, v := range opts.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout = io.Discard
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	p := &proc{t: t, opts: opts, cmd: cmd, logs: &lockedBuffer{}, done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			_, _ = p.logs.Write([]byte(line + "\n"))
			if m := listeningURL.FindStringSubmatch(line); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
	}()
	go func() {
		p.err = cmd.Wait()
		_ = pw.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("rankd log (%s):\n%s", bin, p.logs.String())
		}
	})
	select {
	case p.URL = <-urls:
		return p
	case <-p.done:
		t.Fatalf("rankd exited before listening: %v\n%s", p.err, p.logs.String())
	case <-time.After(startTimeout):
		t.Fatalf("rankd did not listen within %v\n%s", startTimeout, p.logs.String())
	}
	return nil
}

// Stop sends SIGTERM and requires a graceful stop: exit status 0 and the
// "rankd stopped" line.
func (p *proc) Stop() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
	p.wait()
	if p.err != nil {
		p.t.Fatalf("rankd did not exit cleanly on SIGTERM: %v\n%s", p.err, p.logs.String())
	}
	if !strings.Contains(p.logs.String(), `msg="rankd stopped"`) {
		p.t.Fatalf("rankd exited without the graceful stop line\n%s", p.logs.String())
	}
}

// Kill sends SIGKILL: the process dies wherever it is.
func (p *proc) Kill() {
	p.t.Helper()
	if err := p.cmd.Process.Kill(); err != nil {
		p.t.Fatal(err)
	}
	p.wait()
}

func (p *proc) wait() {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(startTimeout):
		p.t.Fatalf("rankd did not exit\n%s", p.logs.String())
	}
}

// Restart starts a new rankd on the same data dir and settings; the old
// one must have stopped.
func (p *proc) Restart() *proc {
	p.t.Helper()
	select {
	case <-p.done:
	default:
		p.t.Fatal("Restart of a rankd that is still running")
	}
	return startRankd(p.t, p.opts)
}

// Logs returns everything rankd wrote to stderr so far.
func (p *proc) Logs() string { return p.logs.String() }

// answer is an HTTP answer with its JSON body decoded (when JSON).
type answer struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

// Do sends one request as a client would.
func (p *proc) Do(method, path, token string, body any) answer {
	p.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			p.t.Fatal(err)
		}
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, p.URL+path, r)
	if err != nil {
		p.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	a := answer{Status: res.StatusCode, Header: res.Header}
	a.Body, err = io.ReadAll(res.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(a.Body, &a.JSON); err != nil {
			p.t.Fatalf("%s %s: bad JSON %v: %s", method, path, err, a.Body)
		}
	}
	return a
}

// Must is Do requiring a status.
func (p *proc) Must(status int, method, path, token string, body any) answer {
	p.t.Helper()
	a := p.Do(method, path, token, body)
	if a.Status != status {
		p.t.Fatalf("%s %s = %d, want %d: %s", method, path, a.Status, status, a.Body)
	}
	return a
}

// Login returns a token for the account.
func (p *proc) Login(username, password string) string {
	p.t.Helper()
	a := p.Must(200, "POST", "/api/v1/auth/login", "", map[string]string{"username": username, "password": password})
	return a.JSON["token"].(string)
}
