package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/games"
)

func init() {
	commands["bench"] = command{summary: "load a running rankd with random legal games; print games/s and latency", run: runBench}
}

const benchUsage = `usage: rankctl bench --url U --token T [flags]

Registers the players it needs (bench0, bench1, …; an existing one is
used as it is), generates random legal games with the rules engine, and
submits them to POST /api/v1/games from --concurrency clients with the
token of a server or admin account. It prints the accepted games per
second and the latency percentiles. Only loopback and other addresses of
your own should be loaded.

flags:
`

// benchPassword is the bench players' password: they are throwaway
// accounts on a benchmark server.
const benchPassword = "bench players' password"

type benchConfig struct {
	url, token, prefix string
	players, games     int
	concurrency        int
	size, moves        int
	seed               uint64
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rankctl bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, benchUsage); fs.PrintDefaults() }
	var c benchConfig
	fs.StringVar(&c.url, "url", "http://127.0.0.1:8080", "rankd's base URL")
	fs.StringVar(&c.token, "token", "", "bearer token of a server or admin account")
	fs.StringVar(&c.prefix, "prefix", "bench", "player names are this followed by a number")
	fs.IntVar(&c.players, "players", 100, "players to play the games")
	fs.IntVar(&c.games, "games", 2000, "games to submit")
	fs.IntVar(&c.concurrency, "concurrency", 16, "clients submitting at once")
	fs.IntVar(&c.size, "size", 19, "board size")
	fs.IntVar(&c.moves, "moves", 150, "moves per game, on average (±50%)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the random games and pairings (new seeds give new source ids)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if c.token == "" || c.players < 2 || c.games < 1 || c.concurrency < 1 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "rankctl bench: --token, --players ≥ 2, --games ≥ 1 and --concurrency ≥ 1 are needed")
		return exitUsage
	}
	c.url = strings.TrimRight(c.url, "/")
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: c.concurrency}}
	if err := benchPlayers(ctx, client, c); err != nil {
		fmt.Fprintln(stderr, "rankctl bench:", err)
		return exitNo
	}
	fmt.Fprintf(stdout, "generating %d random legal %d×%d games…\n", c.games, c.size, c.size)
	bodies := benchGames(c)
	fmt.Fprintf(stdout, "submitting from %d clients to %s\n", c.concurrency, c.url)
	r := benchSubmit(ctx, client, c, bodies)
	r.print(stdout)
	if r.accepted == 0 {
		return exitNo
	}
	return exitOK
}

// benchName is player i's username.
func benchName(c benchConfig, i int) string { return fmt.Sprintf("%s%d", c.prefix, i) }

// benchPlayers registers the players; one that exists is fine.
func benchPlayers(ctx context.Context, client *http.Client, c benchConfig) error {
	names := make([]string, c.players)
	for i := range names {
		names[i] = benchName(c, i)
	}
	// Those that exist already are not registered again: a registration
	// hashes its password first, whose CPU would be counted against the
	// games measured.
	var missing []string
	var mu sync.Mutex
	errs := make([]error, len(names))
	parallel(ctx, len(names), c.concurrency, func(i int) {
		status, out, err := benchDo(ctx, client, "GET", c.url+"/api/v1/players/"+names[i], c.token, nil)
		switch {
		case err != nil:
			errs[i] = err
		case status == http.StatusNotFound:
			mu.Lock()
			missing = append(missing, names[i])
			mu.Unlock()
		case status != http.StatusOK:
			errs[i] = fmt.Errorf("reading player %s: %d %s", names[i], status, out)
		}
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := firstErr(errs); err != nil {
		return err
	}
	_, err := ensurePlayers(ctx, client, c.url, missing, c.concurrency, false)
	return err
}

// ensurePlayers registers the named players (password benchPassword) from
// concurrency clients; one that exists is fine. With tokens it returns
// each one's bearer token, logging in those that existed.
func ensurePlayers(ctx context.Context, client *http.Client, url string, names []string, concurrency int, tokens bool) ([]string, error) {
	out := make([]string, len(names))
	errs := make([]error, len(names))
	parallel(ctx, len(names), concurrency, func(i int) {
		out[i], errs[i] = ensurePlayer(ctx, client, url, names[i], tokens)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, firstErr(errs)
}

func limitHint(status int, setting string) string {
	if status == http.StatusTooManyRequests {
		return " (start rankd with " + setting + " raised for many players)"
	}
	return ""
}

// parallel calls f(0) … f(n-1) from concurrency goroutines; it stops
// handing out work when ctx ends.
func parallel(ctx context.Context, n, concurrency int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(concurrency, 1) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func ensurePlayer(ctx context.Context, client *http.Client, url, name string, tokens bool) (string, error) {
	body, _ := json.Marshal(map[string]string{"username": name, "password": benchPassword})
	status, out, err := busyRetry(ctx, client, "POST", url+"/api/v1/auth/register", body)
	switch {
	case err != nil:
		return "", err
	case status == http.StatusConflict && tokens:
		status, out, err = busyRetry(ctx, client, "POST", url+"/api/v1/auth/login", body)
		if err != nil {
			return "", err
		}
		if status != http.StatusOK {
			return "", fmt.Errorf("logging in %s: %d %s%s", name, status, out, limitHint(status, "RANK_LOGIN_LIMIT_ADDRESS"))
		}
	case status == http.StatusCreated, status == http.StatusConflict:
	default:
		return "", fmt.Errorf("registering %s: %d %s%s", name, status, out, limitHint(status, "RANK_REGISTER_LIMIT_ADDRESS"))
	}
	if !tokens {
		return "", nil
	}
	var tok struct{ Token string }
	if err := json.Unmarshal([]byte(out), &tok); err != nil || tok.Token == "" {
		return "", fmt.Errorf("%s: no token in %q", name, out)
	}
	return tok.Token, nil
}

// busyTries bounds how often busyRetry asks again.
const busyTries = 30

// busyRetry posts an unauthenticated request, asking again after the
// server's Retry-After (at most 10 s) while it answers 503: rankd bounds
// the password hashes in flight and says busy on a loaded machine, which
// is a reason to wait, not to fail the setup.
func busyRetry(ctx context.Context, client *http.Client, method, url string, body []byte) (int, string, error) {
	for try := 1; ; try++ {
		status, out, h, err := benchDoHeader(ctx, client, method, url, "", body)
		if err != nil || status != http.StatusServiceUnavailable || try == busyTries {
			return status, out, err
		}
		wait := time.Second
		if n, e := strconv.Atoi(h.Get("Retry-After")); e == nil && n > 0 {
			wait = min(time.Duration(n)*time.Second, 10*time.Second)
		}
		select {
		case <-ctx.Done():
			return status, out, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// benchGames generates the submissions: random pairings of the players,
// random legal games, a fifth of them counted, the rest resigned.
func benchGames(c benchConfig) [][]byte {
	rng := rand.New(rand.NewPCG(c.seed, 0x6265_6e63))
	out := make([][]byte, c.games)
	for i := range out {
		b := rng.IntN(c.players)
		w := (b + 1 + rng.IntN(c.players-1)) % c.players
		moves := c.moves/2 + rng.IntN(c.moves+1)
		r := games.RandomRecord(rng, c.size, moves, rng.IntN(5) == 0)
		pts := make([]string, len(r.Moves))
		for j, m := range r.Moves {
			if !m.Pass {
				pts[j] = m.Point.SGF()
			}
		}
		out[i], _ = json.Marshal(map[string]any{
			"source_id": fmt.Sprintf("%s-%d-%d", c.prefix, c.seed, i), "black": benchName(c, b), "white": benchName(c, w),
			"size": c.size, "rules": "chinese", "komi": r.Komi, "moves": pts, "end": string(r.End), "result": r.Result,
		})
	}
	return out
}

// benchDo sends one request (a JSON body when body is not nil) and returns
// the status and the body.
func benchDo(ctx context.Context, client *http.Client, method, url, token string, body []byte) (int, string, error) {
	status, out, _, err := benchDoHeader(ctx, client, method, url, token, body)
	return status, out, err
}

// benchDoHeader is benchDo that also gives the answer's headers.
func benchDoHeader(ctx context.Context, client *http.Client, method, url, token string, body []byte) (int, string, http.Header, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, "", nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, string(b), res.Header, err
}

type benchResult struct {
	accepted int
	statuses map[int]int
	failures int
	elapsed  time.Duration
	latency  []time.Duration // of accepted games
	example  string          // one refusal's body
}

func benchSubmit(ctx context.Context, client *http.Client, c benchConfig, bodies [][]byte) benchResult {
	r := benchResult{statuses: map[int]int{}}
	jobs := make(chan []byte)
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range c.concurrency {
		wg.Go(func() {
			for b := range jobs {
				t0 := time.Now()
				status, out, err := benchDo(ctx, client, "POST", c.url+"/api/v1/games", c.token, b)
				d := time.Since(t0)
				mu.Lock()
				switch {
				case err != nil:
					r.failures++
				case status == http.StatusCreated || status == http.StatusOK:
					r.accepted++
					r.latency = append(r.latency, d)
				default:
					if r.example == "" {
						r.example = out
					}
				}
				if err == nil {
					r.statuses[status]++
				}
				mu.Unlock()
			}
		})
	}
	for _, b := range bodies {
		if ctx.Err() != nil {
			break
		}
		jobs <- b
	}
	close(jobs)
	wg.Wait()
	r.elapsed = time.Since(start)
	return r
}

// percentile is the q-quantile (0 < q ≤ 1) of sorted values, by the
// nearest-rank method.
func percentile[T cmp.Ordered](sorted []T, q float64) T {
	if len(sorted) == 0 {
		var zero T
		return zero
	}
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func (r benchResult) print(w io.Writer) {
	sort.Slice(r.latency, func(i, j int) bool { return r.latency[i] < r.latency[j] })
	rate := float64(r.accepted) / r.elapsed.Seconds()
	fmt.Fprintf(w, "accepted %d games in %.2fs: %.1f games/s\n", r.accepted, r.elapsed.Seconds(), rate)
	fmt.Fprintf(w, "latency p50 %v  p95 %v  p99 %v  max %v\n",
		percentile(r.latency, .50).Round(time.Microsecond*100), percentile(r.latency, .95).Round(time.Microsecond*100),
		percentile(r.latency, .99).Round(time.Microsecond*100), percentile(r.latency, 1).Round(time.Microsecond*100))
	fmt.Fprintf(w, "answers: %s; transport failures: %d\n", counts(r.statuses), r.failures)
	if r.example != "" {
		fmt.Fprintf(w, "a refusal: %s\n", strings.TrimSpace(r.example))
	}
}

// counts prints counts by key (an HTTP status, an error code), "N×key"
// in key order.
func counts[K cmp.Ordered](m map[K]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d×%v", m[k], k))
	}
	if len(parts) == 0 {
		return "none" // a line must not end in a dangling label
	}
	return strings.Join(parts, " ")
}
