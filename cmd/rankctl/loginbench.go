package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func init() {
	commands["loginbench"] = command{summary: "fire concurrent logins at a running rankd; print statuses, latency and its peak memory", run: runLoginBench}
}

const loginBenchUsage = `usage: rankctl loginbench --url U [flags]

Registers the account --username (an existing one is used as it is, with
the bench players' password), then sends --logins login attempts to
POST /api/v1/auth/login from --concurrency clients released at once,
with the right password or, with --wrong, a wrong one. It prints the
answers by status and error code, the latency percentiles and, with --pid (rankd's
process id, on Linux), rankd's resident memory and its peak (VmRSS,
VmHWM) before and after. Start rankd with its login limits raised
(RANK_LOGIN_LIMIT_ACCOUNT, RANK_LOGIN_LIMIT_ADDRESS) to let the attempts
reach the password check.

flags:
`

func runLoginBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rankctl loginbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, loginBenchUsage); fs.PrintDefaults() }
	url := fs.String("url", "http://127.0.0.1:8080", "rankd's base URL")
	username := fs.String("username", "loginbench", "the account to log in to")
	logins := fs.Int("logins", 1000, "login attempts")
	concurrency := fs.Int("concurrency", 1000, "clients sending at once")
	wrong := fs.Bool("wrong", false, "send a wrong password")
	pid := fs.Int("pid", 0, "rankd's process id, to read its memory from /proc")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *logins < 1 || *concurrency < 1 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "rankctl loginbench: --logins ≥ 1 and --concurrency ≥ 1 are needed")
		return exitUsage
	}
	base := strings.TrimRight(*url, "/")
	client := &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: *concurrency}}
	if _, err := ensurePlayer(ctx, client, base, *username, false); err != nil {
		fmt.Fprintln(stderr, "rankctl loginbench:", err)
		return exitNo
	}
	password := benchPassword
	if *wrong {
		password += " (wrong)"
	}
	body, _ := json.Marshal(map[string]string{"username": *username, "password": password})
	if *pid > 0 {
		fmt.Fprintf(stdout, "rankd before: %s\n", procMemory(*pid))
	}
	fmt.Fprintf(stdout, "%d logins from %d clients to %s\n", *logins, *concurrency, base)

	var (
		mu       sync.Mutex
		statuses = map[string]int{}
		latency  []time.Duration
		start    = make(chan struct{})
		wg       sync.WaitGroup
		next     = make(chan struct{}, *logins)
	)
	for range *logins {
		next <- struct{}{}
	}
	close(next)
	for range *concurrency {
		wg.Go(func() {
			<-start
			for range next {
				t0 := time.Now()
				status, out, err := benchDo(ctx, client, "POST", base+"/api/v1/auth/login", "", body)
				d := time.Since(t0)
				key := strconv.Itoa(status)
				var e struct{ Error struct{ Code string } }
				if json.Unmarshal([]byte(out), &e) == nil && e.Error.Code != "" {
					key += " " + e.Error.Code
				}
				if err != nil {
					key = "error"
				}
				mu.Lock()
				statuses[key]++
				latency = append(latency, d)
				mu.Unlock()
			}
		})
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	elapsed := time.Since(t0)

	slices.Sort(latency)
	for _, k := range slices.Sorted(maps.Keys(statuses)) {
		fmt.Fprintf(stdout, "  %s: %d\n", k, statuses[k])
	}
	fmt.Fprintf(stdout, "in %v (%.0f logins/s); latency p50 %v, p99 %v, max %v\n", elapsed.Round(time.Millisecond),
		float64(len(latency))/elapsed.Seconds(), percentile(latency, .5).Round(time.Millisecond),
		percentile(latency, .99).Round(time.Millisecond), percentile(latency, 1).Round(time.Millisecond))
	if *pid > 0 {
		fmt.Fprintf(stdout, "rankd after: %s\n", procMemory(*pid))
	}
	if statuses["error"] == len(latency) {
		return exitNo
	}
	return exitOK
}

// procMemory reads a process's resident memory and its peak from
// /proc/<pid>/status.
func procMemory(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") || strings.HasPrefix(line, "VmHWM:") {
			out = append(out, strings.Join(strings.Fields(line), " "))
		}
	}
	return strings.Join(out, ", ")
}
