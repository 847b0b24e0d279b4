package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/ranks"
)

func init() {
	commands["matchsim"] = command{summary: "simulate players queueing for games on a running rankd; print waits, gaps, pairs/s", run: runMatchsim}
}

const matchsimUsage = `usage: rankctl matchsim --url U --token T [flags]

Simulates players looking for a game on a running rankd, over HTTP as
their clients would, and reports how matchmaking served them. --token is
an admin's: it sets the players' levels and ends their games.

The model:
  players   --players accounts PREFIX0, PREFIX1, … (registered, or logged
            in when they exist: a second run with the same --prefix reuses
            them). Player i's ladder score is drawn from a normal
            distribution (--score-mean, --score-sd; by default 95% lie
            between 10k (-900) and 3d (+400), centred between 3k and 2k)
            and set by the admin, unless the player is within half a
            rank of it (games move it a little). --tokens keeps the
            players' tokens in a file for the next run.
  arrivals  a Poisson process of --rate tickets per second, for --duration
            or until --tickets arrivals. Each arrival takes an idle player
            at random and queues them in a pool drawn from --pools (a pool
            listed twice gets twice the share). An arrival that finds no
            idle player is counted and dropped.
  ranges    --range-share of the tickets carry a rank_range reaching one to
            three ranks below the player's rank, above it, or both.
  polls     each waiting player polls their ticket every --poll (the poll
            is the heartbeat), starting at a random offset.
  cancels   --cancel-share of the tickets are cancelled by their player at
            a uniform random time up to --cancel-after, unless paired first.
  games     with --finish the admin resigns each game as soon as it exists
            (a random side wins), and both players may queue again; without
            it a player queues at most once, and the games are resigned
            after the run so that the players can be reused (with
            --keep-games they stay pending until rankd voids them after
            RANK_GAME_TTL: a rankd started with a short one frees the
            players without moving their scores).
  the end   after the arrivals, players still waiting get --drain to be
            paired; then they cancel and count as left waiting.

Measured from the tickets: wait = matched_at − created_at of each matched
ticket; gap = the ladder score difference of a pair's two tickets; pairs
per second = pairs / (last matched_at − first created_at). HTTP errors are
transport failures and answers the API does not give on the happy path.

rankd needs RANK_REGISTER_LIMIT_ADDRESS (and, to reuse players,
RANK_LOGIN_LIMIT_ADDRESS) raised above --players. Load only a rankd of
your own on loopback. Exit 1 on any HTTP error, or a pairing that the
two tickets tell differently or that one of our players did not see.

flags:
`

type simConfig struct {
	url, token, prefix      string
	players, tickets        int
	rate                    float64
	duration, poll, drain   time.Duration
	cancelAfter             time.Duration
	pools                   []simPool
	rangeShare, cancelShare float64
	scoreMean, scoreSD      float64
	finish, keepGames, json bool
	keepLevels              bool
	setupConcurrency, conns int
	seed                    uint64
	tokensFile              string
	progress                io.Writer // setup and phase lines (stderr)
	poolsFlag               string
}

// simPool is one pool of --pools and the fields it puts in a ticket.
type simPool struct {
	key  string // the pool key rankd gives tickets of this pool
	body map[string]any
}

func runMatchsim(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, code := parseMatchsim(args, stderr)
	if code >= 0 {
		return code
	}
	run, err := simulate(ctx, c)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl matchsim:", err)
		return exitNo
	}
	rep := run.report()
	if c.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		rep.print(stdout)
	}
	if rep.HTTPErrors > 0 || rep.Inconsistent > 0 || rep.OneSided > 0 {
		return exitNo
	}
	return exitOK
}

// parseMatchsim reads the flags; code is -1 when the run may go on.
func parseMatchsim(args []string, stderr io.Writer) (simConfig, int) {
	fs := flag.NewFlagSet("rankctl matchsim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, matchsimUsage); fs.PrintDefaults() }
	c := simConfig{progress: stderr}
	fs.StringVar(&c.url, "url", "http://127.0.0.1:8080", "rankd's base URL")
	fs.StringVar(&c.token, "token", "", "bearer token of an admin")
	fs.StringVar(&c.prefix, "prefix", "sim", "player names are this followed by a number")
	fs.IntVar(&c.players, "players", 0, "player accounts (default: one per arrival, i.e. --tickets or --rate × --duration)")
	fs.IntVar(&c.tickets, "tickets", 0, "stop after this many arrivals instead of after --duration")
	fs.Float64Var(&c.rate, "rate", 20, "arrivals (tickets) per second, Poisson")
	fs.DurationVar(&c.duration, "duration", time.Minute, "how long arrivals go on (unless --tickets)")
	fs.DurationVar(&c.poll, "poll", time.Second, "how often a waiting player polls its ticket")
	fs.StringVar(&c.poolsFlag, "pools", "19:rapid:chinese:rated", "comma-separated pools SIZE:TIME:RULES:rated|free; TIME a preset (blitz, rapid, standard, slow) or MAIN+PERIODSxSECONDS")
	fs.Float64Var(&c.rangeShare, "range-share", 0.1, "share of tickets with a rank_range")
	fs.Float64Var(&c.cancelShare, "cancel-share", 0.05, "share of tickets their player cancels")
	fs.DurationVar(&c.cancelAfter, "cancel-after", 30*time.Second, "a cancel comes at a uniform random time up to this")
	fs.Float64Var(&c.scoreMean, "score-mean", -250, "mean ladder score of the players (0 is 1k, -100 2k, 100 1d)")
	fs.Float64Var(&c.scoreSD, "score-sd", 325, "standard deviation of the players' ladder scores")
	fs.BoolVar(&c.finish, "finish", false, "resign each game at once so that its players can queue again")
	fs.BoolVar(&c.keepLevels, "keep-levels", false, "neither read nor set the players' levels: an earlier run set them (a read per player saved)")
	fs.BoolVar(&c.keepGames, "keep-games", false, "leave the games pending after the run (rankd voids them after RANK_GAME_TTL)")
	fs.DurationVar(&c.drain, "drain", 2*time.Minute, "how long players still waiting after the arrivals may wait")
	fs.IntVar(&c.setupConcurrency, "setup-concurrency", 8, "clients registering players and setting levels")
	fs.IntVar(&c.conns, "conns", 256, "most connections to rankd at once")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the arrivals and their choices (a player's level depends only on its number)")
	fs.StringVar(&c.tokensFile, "tokens", "", "keep the players' tokens in this file and reuse them next run (a login costs rankd an argon2 hash)")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return c, exitOK
		}
		return c, exitUsage
	}
	bad := func(format string, a ...any) (simConfig, int) {
		fmt.Fprintf(stderr, "rankctl matchsim: "+format+"\n", a...)
		return c, exitUsage
	}
	var err error
	switch {
	case fs.NArg() > 0:
		return bad("unexpected argument %q", fs.Arg(0))
	case c.token == "":
		return bad("--token (an admin's) is required")
	case !(c.rate > 0) || math.IsInf(c.rate, 0):
		return bad("--rate must be a number above 0, not %v", c.rate)
	case c.tickets < 0:
		return bad("--tickets must not be negative")
	case c.tickets == 0 && c.duration <= 0:
		return bad("--duration must be above 0 (or give --tickets)")
	case c.players < 0 || c.players == 1:
		return bad("--players must be at least 2")
	case c.poll <= 0:
		return bad("--poll must be above 0")
	case c.drain < 0:
		return bad("--drain must not be negative")
	case !share(c.rangeShare):
		return bad("--range-share must be between 0 and 1, not %v", c.rangeShare)
	case !share(c.cancelShare):
		return bad("--cancel-share must be between 0 and 1, not %v", c.cancelShare)
	case c.cancelShare > 0 && c.cancelAfter <= 0:
		return bad("--cancel-after must be above 0 when --cancel-share is")
	case math.IsNaN(c.scoreMean) || math.IsInf(c.scoreMean, 0) || math.Abs(c.scoreMean) > 5000:
		return bad("--score-mean must be a ladder score within ±5000, not %v", c.scoreMean)
	case !(c.scoreSD >= 0) || c.scoreSD > 5000:
		return bad("--score-sd must be between 0 and 5000, not %v", c.scoreSD)
	case c.setupConcurrency < 1:
		return bad("--setup-concurrency must be at least 1")
	case c.conns < 1:
		return bad("--conns must be at least 1")
	}
	if c.pools, err = parsePools(c.poolsFlag); err != nil {
		return bad("--pools: %v", err)
	}
	if u, err := url.Parse(c.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return bad("--url must be an http(s) URL, not %q", c.url)
	}
	c.url = strings.TrimRight(c.url, "/")
	if c.players == 0 {
		c.players = c.tickets
		if c.tickets == 0 {
			c.players = int(math.Ceil(c.rate * c.duration.Seconds()))
		}
		c.players = max(c.players, 2)
	}
	return c, -1
}

func share(x float64) bool { return x >= 0 && x <= 1 }

// parsePools reads --pools, checking each pool as rankd would.
func parsePools(s string) ([]simPool, error) {
	var out []simPool
	for spec := range strings.SplitSeq(s, ",") {
		spec = strings.TrimSpace(spec)
		f := strings.Split(spec, ":")
		if len(f) != 4 {
			return nil, fmt.Errorf("pool %q is not SIZE:TIME:RULES:rated|free", spec)
		}
		size, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("pool %q: board size %q is not a number", spec, f[0])
		}
		var rated bool
		switch f[3] {
		case "rated":
			rated = true
		case "free":
		default:
			return nil, fmt.Errorf("pool %q: %q is neither rated nor free", spec, f[3])
		}
		var tc games.TimeControl
		var tcBody any = f[1]
		if _, ok := games.TimePresets[f[1]]; ok {
			tc.Preset = f[1]
		} else {
			var main, periods, secs int
			if n, err := fmt.Sscanf(f[1], "%d+%dx%d", &main, &periods, &secs); n != 3 || err != nil {
				return nil, fmt.Errorf("pool %q: time %q is neither a preset nor MAIN+PERIODSxSECONDS", spec, f[1])
			}
			tc = games.TimeControl{Main: time.Duration(main) * time.Second, Periods: periods, Period: time.Duration(secs) * time.Second}
			tcBody = map[string]int{"main_seconds": main, "periods": periods, "period_seconds": secs}
		}
		p, err := matchmaking.NewPool(size, tc, f[2], rated)
		if err != nil {
			return nil, fmt.Errorf("pool %q: %v", spec, err)
		}
		out = append(out, simPool{key: p.Key(), body: map[string]any{"board_size": size, "time_control": tcBody, "rules": f[2], "rated": rated}})
	}
	return out, nil
}

// simScores draws the players' ladder scores: normal, rounded to a
// whole point. Player i's score depends only on i (not on --seed), so a
// reused player keeps its level from one run to the next.
func simScores(c simConfig) []int {
	out := make([]int, c.players)
	for i := range out {
		rng := rand.New(rand.NewPCG(1, uint64(i))) // a fixed seed
		out[i] = int(math.Round(c.scoreMean + c.scoreSD*rng.NormFloat64()))
	}
	return out
}

// simRange is the rank_range of a ticket of a player at score: one to
// three ranks below, above, or both ("" leaves an end open).
func simRange(rng *rand.Rand, score int) (lo, hi string) {
	below := ranks.FromScore(score - (1+rng.IntN(3))*matchmaking.PointsPerRank).String()
	above := ranks.FromScore(score + (1+rng.IntN(3))*matchmaking.PointsPerRank).String()
	switch rng.IntN(3) {
	case 0:
		return below, ""
	case 1:
		return "", above
	}
	return below, above
}

// simArrival is one arrival's decisions, all made from the seeded
// generator in the order of arrivals.
type simArrival struct {
	player   int
	pool     int
	lo, hi   string
	ranged   bool
	cancelAt time.Duration // 0: the player does not cancel
	offset   time.Duration // of the first poll
	blackWin bool          // the result when this player's game is resigned
}

// simTicket is a ticket as the API shows it.
type simTicket struct {
	ID    string `json:"id"`
	State string `json:"state"`
	Pool  string `json:"pool"`
	Level struct {
		Score int    `json:"score"`
		Rank  string `json:"rank"`
	} `json:"level"`
	RankRange *struct {
		MinScore *int `json:"min_score"`
		MaxScore *int `json:"max_score"`
	} `json:"rank_range"`
	CreatedAt     time.Time  `json:"created_at"`
	WaitedSeconds float64    `json:"waited_seconds"`
	GameID        string     `json:"game_id"`
	Opponent      string     `json:"opponent"`
	Colour        string     `json:"colour"`
	MatchedAt     *time.Time `json:"matched_at"`
}

// simOutcome is how one ticket ended.
type simOutcome struct {
	Player string
	Ticket simTicket
	Ranged bool
	Left   bool // still waiting when the run ended; cancelled by us
	Late   bool // our cancel came after the pairing
	Range  [2]string
}

// simGame ends one game once, whichever of its players gets there first.
type simGame struct {
	once sync.Once
	ok   bool
}

// simRun is a simulation's raw record; report summarises it.
type simRun struct {
	c        simConfig
	scores   map[string]int
	mu       sync.Mutex
	outcomes []simOutcome
	refused  map[string]int // enqueue refusals by error code
	errs     map[string]int // HTTP errors by "what status"
	example  string         // one HTTP error's body
	noIdle   int
	arrivals int
	finished int
	latency  map[string][]time.Duration // by request kind
	games    map[string]*simGame
	started  time.Time
	ended    time.Time
}

// sim is a running simulation.
type sim struct {
	*simRun
	client *http.Client
	names  []string
	tokens []string
	idle   []int // players free to queue; under mu
}

// simulate sets up the players and runs the arrivals.
func simulate(ctx context.Context, c simConfig) (*simRun, error) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: c.conns, MaxConnsPerHost: c.conns}}
	s := &sim{client: client, simRun: &simRun{c: c, scores: map[string]int{}, refused: map[string]int{}, errs: map[string]int{},
		latency: map[string][]time.Duration{}, games: map[string]*simGame{}}}
	if err := s.setup(ctx); err != nil {
		return nil, err
	}
	s.run(ctx)
	if !c.finish && !c.keepGames {
		s.progressf("resigning the %d games so that the players can be reused…", s.pairsToEnd())
		s.endAll(ctx)
	}
	return s.simRun, ctx.Err()
}

func (s *sim) progressf(format string, a ...any) {
	if s.c.progress != nil {
		fmt.Fprintf(s.c.progress, "matchsim: "+format+"\n", a...)
	}
}

// setup registers or logs in the players and sets their levels.
func (s *sim) setup(ctx context.Context) error {
	c := s.c
	s.names = make([]string, c.players)
	for i := range s.names {
		s.names[i] = fmt.Sprintf("%s%d", c.prefix, i)
	}
	t0 := time.Now()
	if err := s.logIn(ctx); err != nil {
		return err
	}
	scores := simScores(c)
	for i, n := range s.names {
		s.scores[n] = scores[i]
	}
	if !c.keepLevels {
		s.progressf("players ready in %.1fs; setting levels…", time.Since(t0).Seconds())
		errs := make([]error, c.players)
		parallel(ctx, c.players, c.setupConcurrency, func(i int) { errs[i] = s.setLevel(ctx, s.names[i], scores[i]) })
		if err := firstErr(errs); err != nil {
			return err
		}
	}
	s.idle = make([]int, c.players)
	for i := range s.idle {
		s.idle[i] = i
	}
	return ctx.Err()
}

// logIn gets every player a token: from --tokens when it still works
// (saving an argon2 hash per player), else by registering or logging in.
func (s *sim) logIn(ctx context.Context) error {
	c := s.c
	kept := map[string]string{}
	if c.tokensFile != "" {
		if b, err := os.ReadFile(c.tokensFile); err == nil {
			if err := json.Unmarshal(b, &kept); err != nil {
				return fmt.Errorf("--tokens %s: %v", c.tokensFile, err)
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	s.tokens = make([]string, c.players)
	parallel(ctx, c.players, c.setupConcurrency, func(i int) {
		tok := kept[s.names[i]]
		if tok == "" {
			return
		}
		// A token rankd no longer knows answers 401.
		if status, _, err := benchDo(ctx, s.client, "GET", c.url+ticketsPath+"/mine", tok, nil); err == nil && status != http.StatusUnauthorized {
			s.tokens[i] = tok
		}
	})
	var missing []string
	for i, tok := range s.tokens {
		if tok == "" {
			missing = append(missing, s.names[i])
		}
	}
	s.progressf("%d players' tokens kept; registering or logging in %d…", c.players-len(missing), len(missing))
	got, err := ensurePlayers(ctx, s.client, c.url, missing, c.setupConcurrency, true)
	if err != nil {
		return err
	}
	for i := range s.tokens {
		if s.tokens[i] == "" {
			s.tokens[i], got = got[0], got[1:]
		}
		kept[s.names[i]] = s.tokens[i]
	}
	if c.tokensFile == "" || len(missing) == 0 {
		return nil
	}
	b, _ := json.Marshal(kept)
	return os.WriteFile(c.tokensFile, b, 0o600)
}

// levelSlack is how far a reused player's score may have drifted from
// its drawn level (its games move it) before matchsim sets it again:
// half a rank, the pairing window's start.
const levelSlack = matchmaking.PointsPerRank / 2

// setLevel puts a player's ladder score at score unless it is within
// levelSlack of it.
func (s *sim) setLevel(ctx context.Context, name string, score int) error {
	status, out, err := benchDo(ctx, s.client, "GET", s.c.url+"/api/v1/players/"+url.PathEscape(name), s.c.token, nil)
	if err != nil {
		return err
	}
	var p struct{ Score int }
	if status == http.StatusOK && json.Unmarshal([]byte(out), &p) == nil && max(p.Score-score, score-p.Score) <= levelSlack {
		return nil
	}
	body, _ := json.Marshal(map[string]any{"score": score, "reason": "rankctl matchsim level"})
	status, out, err = benchDo(ctx, s.client, "POST", s.c.url+"/api/v1/admin/players/"+url.PathEscape(name)+"/adjust", s.c.token, body)
	if err != nil {
		return err
	}
	if status != http.StatusOK && status != http.StatusCreated {
		return fmt.Errorf("setting %s's score: %d %s (is --token an admin's?)", name, status, strings.TrimSpace(out))
	}
	return nil
}

// run schedules the arrivals and waits for every ticket to end.
func (s *sim) run(ctx context.Context) {
	c := s.c
	rng := rand.New(rand.NewPCG(c.seed, 0x6d61_7463))
	drain, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	s.progressf("arrivals at %g/s into %d pool(s)…", c.rate, len(c.pools))
	s.started = time.Now()
	at := 0.0 // seconds after start
	for n := 0; c.tickets == 0 || n < c.tickets; n++ {
		at += rng.ExpFloat64() / c.rate
		if c.tickets == 0 && at > c.duration.Seconds() {
			break
		}
		a := simArrival{pool: rng.IntN(len(c.pools)), offset: time.Duration(rng.Float64() * float64(c.poll)), blackWin: rng.IntN(2) == 0}
		pick := rng.Float64()
		if rng.Float64() < c.rangeShare {
			a.ranged = true
		}
		if rng.Float64() < c.cancelShare {
			a.cancelAt = time.Duration(rng.Float64() * float64(c.cancelAfter))
		}
		rangeRng := rand.New(rand.NewPCG(rng.Uint64(), 0))
		if d := time.Until(s.started.Add(time.Duration(at * float64(time.Second)))); d > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(d):
			}
		}
		if ctx.Err() != nil {
			break
		}
		s.mu.Lock()
		s.arrivals++
		if len(s.idle) == 0 {
			s.noIdle++
			s.mu.Unlock()
			continue
		}
		j := int(pick * float64(len(s.idle)))
		a.player = s.idle[j]
		s.idle[j] = s.idle[len(s.idle)-1]
		s.idle = s.idle[:len(s.idle)-1]
		s.mu.Unlock()
		if a.ranged {
			a.lo, a.hi = simRange(rangeRng, s.scores[s.names[a.player]])
		}
		wg.Go(func() { s.queue(ctx, drain, a) })
	}
	s.progressf("%d arrivals in %.1fs; waiting up to %v for the last tickets…", s.arrivals, time.Since(s.started).Seconds(), c.drain)
	t := time.AfterFunc(c.drain, stop)
	wg.Wait()
	t.Stop()
	s.ended = time.Now()
}

// call sends one request, times it and counts it as an HTTP error unless
// its status is one of want. body is JSON-encoded when not nil.
func (s *sim) call(ctx context.Context, kind, method, path, token string, body any, want ...int) (int, []byte, error) {
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	t0 := time.Now()
	status, out, err := benchDo(ctx, s.client, method, s.c.url+path, token, b)
	d := time.Since(t0)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case err != nil && ctx.Err() != nil:
	case err != nil:
		s.errs[kind+" transport"]++
		if s.example == "" {
			s.example = err.Error()
		}
	case !slices.Contains(want, status):
		s.errs[fmt.Sprintf("%s %d", kind, status)]++
		if s.example == "" {
			s.example = fmt.Sprintf("%s %s: %d %s", method, path, status, strings.TrimSpace(out))
		}
		err = fmt.Errorf("%s %s: %d", method, path, status)
	default:
		s.latency[kind] = append(s.latency[kind], d)
	}
	return status, []byte(out), err
}

// apiError is the error body of the API.
type apiError struct {
	Error struct {
		Code    string         `json:"code"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

func errorCode(body []byte) string {
	var e apiError
	_ = json.Unmarshal(body, &e)
	return e.Error.Code
}

const ticketsPath = "/api/v1/matchmaking/tickets"

// queue is one arrival: enqueue, poll until the ticket ends (cancelling
// when the player means to, or when the drain is over), record it, and
// end the game with --finish.
func (s *sim) queue(ctx, drain context.Context, a simArrival) {
	name, token := s.names[a.player], s.tokens[a.player]
	free := true // may the player queue again?
	defer func() {
		if free {
			s.mu.Lock()
			s.idle = append(s.idle, a.player)
			s.mu.Unlock()
		}
	}()
	body := maps.Clone(s.c.pools[a.pool].body) // the range is this arrival's own
	if a.ranged {
		r := map[string]string{}
		if a.lo != "" {
			r["min"] = a.lo
		}
		if a.hi != "" {
			r["max"] = a.hi
		}
		body["rank_range"] = r
	}
	status, out, err := s.call(ctx, "enqueue", "POST", ticketsPath, token, body, http.StatusCreated, http.StatusConflict)
	if err != nil {
		return
	}
	if status == http.StatusConflict {
		code := errorCode(out)
		s.mu.Lock()
		s.refused[code]++
		s.mu.Unlock()
		switch code {
		case "in_game":
			free = false // a game from before this run: leave the player out
		case "ticket_exists":
			// A ticket left from before this run: cancel it so that the
			// player can queue next time.
			_, _, _ = s.call(ctx, "cancel", "DELETE", ticketsPath+"/mine", token, nil, http.StatusOK, http.StatusConflict)
		}
		return
	}
	o := simOutcome{Player: name, Ranged: a.ranged, Range: [2]string{a.lo, a.hi}}
	if err := json.Unmarshal(out, &o.Ticket); err != nil {
		s.mu.Lock()
		s.errs["enqueue bad body"]++
		s.mu.Unlock()
		return
	}
	start := time.Now()
	wait := a.offset
	for o.Ticket.State == string(matchmaking.Waiting) {
		cancelling := a.cancelAt > 0 && time.Since(start)+wait >= a.cancelAt
		if cancelling {
			wait = max(a.cancelAt-time.Since(start), 0)
		}
		select {
		case <-ctx.Done():
			return
		case <-drain.Done():
			o.Left = true
			cancelling = true
		case <-time.After(wait):
		}
		wait = s.c.poll
		if cancelling {
			o.Late = !s.cancel(ctx, token, &o)
			break
		}
		status, out, err := s.call(ctx, "poll", "GET", ticketsPath+"/mine", token, nil, http.StatusOK)
		switch {
		case ctx.Err() != nil:
			return
		case status == http.StatusNotFound:
			return // the ticket is gone: counted as an HTTP error
		case err != nil:
			continue
		}
		if err := json.Unmarshal(out, &o.Ticket); err != nil {
			return
		}
	}
	if o.Late {
		o.Left = false
	}
	if o.Ticket.State == string(matchmaking.Matched) && o.Ticket.GameID == "" {
		s.awaitGame(ctx, token, &o.Ticket)
	}
	s.mu.Lock()
	s.outcomes = append(s.outcomes, o)
	s.mu.Unlock()
	if o.Ticket.State == string(matchmaking.Matched) {
		free = s.c.finish && s.end(ctx, o.Ticket, a.blackWin)
	}
}

// cancel cancels the player's ticket; false when a pairing took it first
// (the ticket is then the matched one).
func (s *sim) cancel(ctx context.Context, token string, o *simOutcome) bool {
	status, out, err := s.call(ctx, "cancel", "DELETE", ticketsPath+"/mine", token, nil, http.StatusOK, http.StatusConflict)
	if err != nil {
		return true
	}
	if status == http.StatusOK {
		_ = json.Unmarshal(out, &o.Ticket)
		return true
	}
	var e apiError
	_ = json.Unmarshal(out, &e)
	if raw, ok := e.Error.Details["ticket"]; ok {
		b, _ := json.Marshal(raw)
		if json.Unmarshal(b, &o.Ticket) == nil {
			return false
		}
	}
	// The details did not hold the ticket: read it.
	if _, out, err := s.call(ctx, "poll", "GET", ticketsPath+"/mine", token, nil, http.StatusOK); err == nil {
		_ = json.Unmarshal(out, &o.Ticket)
	}
	return false
}

// awaitGame polls a matched ticket until it names its game, which rankd
// makes right after the pairing.
func (s *sim) awaitGame(ctx context.Context, token string, t *simTicket) {
	for tries := 0; t.GameID == "" && tries < 100; tries++ {
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
		if _, out, err := s.call(ctx, "poll", "GET", ticketsPath+"/mine", token, nil, http.StatusOK); err == nil {
			_ = json.Unmarshal(out, t)
		}
	}
	if t.GameID == "" {
		s.mu.Lock()
		s.errs["game never made"]++
		s.mu.Unlock()
	}
}

// end resigns the game of a matched ticket once for both its players and
// reports whether the game is over.
func (s *sim) end(ctx context.Context, t simTicket, blackWins bool) bool {
	if t.GameID == "" {
		return false
	}
	s.mu.Lock()
	g := s.games[t.GameID]
	if g == nil {
		g = &simGame{}
		s.games[t.GameID] = g
	}
	s.mu.Unlock()
	g.once.Do(func() {
		result := "W+R"
		if blackWins {
			result = "B+R"
		}
		body := map[string]any{"game_id": t.GameID, "end": "resign", "result": result, "moves": []string{}}
		_, _, err := s.call(ctx, "finish", "POST", "/api/v1/games", s.c.token, body, http.StatusCreated, http.StatusOK)
		g.ok = err == nil
		if g.ok {
			s.mu.Lock()
			s.finished++
			s.mu.Unlock()
		}
	})
	return g.ok
}

// pairsToEnd counts the matched tickets whose game is not ended yet, by
// pairs.
func (s *sim) pairsToEnd() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, o := range s.outcomes {
		if o.Ticket.State == string(matchmaking.Matched) && s.games[o.Ticket.GameID] == nil {
			n++
		}
	}
	return (n + 1) / 2
}

// endAll resigns every game of the run not ended yet.
func (s *sim) endAll(ctx context.Context) {
	s.mu.Lock()
	var todo []simOutcome
	for _, o := range s.outcomes {
		if o.Ticket.State == string(matchmaking.Matched) {
			todo = append(todo, o)
		}
	}
	s.mu.Unlock()
	parallel(ctx, len(todo), s.c.setupConcurrency, func(i int) { s.end(ctx, todo[i].Ticket, todo[i].Ticket.Colour == "black") })
}

// simReport is what matchsim prints.
type simReport struct {
	Players        int                   `json:"players"`
	Pools          []string              `json:"pools"`
	Rate           float64               `json:"rate"`
	Arrivals       int                   `json:"arrivals"`
	NoIdlePlayer   int                   `json:"no_idle_player"`
	Tickets        int                   `json:"tickets"`
	Refused        map[string]int        `json:"refused"`
	Matched        int                   `json:"matched"`
	Cancelled      int                   `json:"cancelled"`
	CancelTooLate  int                   `json:"cancel_too_late"`
	Expired        int                   `json:"expired"`
	LeftWaiting    int                   `json:"left_waiting"`
	Pairs          int                   `json:"pairs"`
	PairsPerSecond float64               `json:"pairs_per_second"`
	SpanSeconds    float64               `json:"span_seconds"`
	ElapsedSeconds float64               `json:"elapsed_seconds"`
	Wait           simWait               `json:"wait_seconds"`
	Gap            simGap                `json:"gap"`
	GamesFinished  int                   `json:"games_finished"`
	HTTPErrors     int                   `json:"http_errors"`
	HTTPErrorsBy   map[string]int        `json:"http_errors_by"`
	ErrorExample   string                `json:"error_example,omitempty"`
	Inconsistent   int                   `json:"inconsistent"`
	OneSided       int                   `json:"one_sided"`
	LatencyMillis  map[string]simLatency `json:"latency_ms"`
	PerPool        []simPoolReport       `json:"per_pool"`
}

type simWait struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

type simGap struct {
	Mean float64 `json:"mean"`
	P95  int     `json:"p95"`
	Max  int     `json:"max"`
}

type simLatency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

type simPoolReport struct {
	Pool    string  `json:"pool"`
	Tickets int     `json:"tickets"`
	Pairs   int     `json:"pairs"`
	Wait    simWait `json:"wait_seconds"`
	Gap     simGap  `json:"gap"`
}

// simPair is one pairing as its tickets tell it.
type simPair struct {
	pool    string
	tickets []simOutcome
}

// pairs groups the matched tickets into pairings: by pool, the two
// players and the time of the match. inconsistent counts tickets whose
// pairing the other ticket contradicts (more than two tickets, one
// colour, two games); oneSided the pairings with one of our players
// whose ticket of it we did not record.
func (r *simRun) pairs() (pairs []simPair, inconsistent, oneSided int) {
	byKey := map[string]int{}
	for _, o := range r.outcomes {
		t := o.Ticket
		if t.State != string(matchmaking.Matched) || t.MatchedAt == nil {
			continue
		}
		a, b := o.Player, t.Opponent
		if b < a {
			a, b = b, a
		}
		key := t.Pool + " " + a + " " + b + " " + t.MatchedAt.UTC().Format(time.RFC3339Nano)
		i, ok := byKey[key]
		if !ok {
			i = len(pairs)
			byKey[key] = i
			pairs = append(pairs, simPair{pool: t.Pool})
		}
		pairs[i].tickets = append(pairs[i].tickets, o)
	}
	for _, p := range pairs {
		switch {
		case len(p.tickets) > 2:
			inconsistent += len(p.tickets)
		case len(p.tickets) == 2:
			x, y := p.tickets[0], p.tickets[1]
			if x.Player == y.Player || x.Ticket.Colour == y.Ticket.Colour || (x.Ticket.GameID != y.Ticket.GameID && x.Ticket.GameID != "" && y.Ticket.GameID != "") {
				inconsistent += 2
			}
		default:
			if _, ours := r.scores[p.tickets[0].Ticket.Opponent]; ours {
				// Our own player did not record the other ticket: an
				// HTTP error on its side, or a contradiction.
				oneSided++
			}
		}
	}
	return pairs, inconsistent, oneSided
}

func waitsOf(outcomes []simOutcome) simWait {
	var w []float64
	for _, o := range outcomes {
		if t := o.Ticket; t.State == string(matchmaking.Matched) && t.MatchedAt != nil {
			w = append(w, t.MatchedAt.Sub(t.CreatedAt).Seconds())
		}
	}
	slices.Sort(w)
	ms := func(q float64) float64 { return math.Round(percentile(w, q)*1000) / 1000 }
	return simWait{P50: ms(.50), P95: ms(.95), P99: ms(.99), Max: ms(1)}
}

func gapsOf(pairs []simPair) simGap {
	var g []int
	sum := 0
	for _, p := range pairs {
		if len(p.tickets) == 2 {
			d := p.tickets[0].Ticket.Level.Score - p.tickets[1].Ticket.Level.Score
			d = max(d, -d)
			g = append(g, d)
			sum += d
		}
	}
	slices.Sort(g)
	out := simGap{P95: percentile(g, .95), Max: percentile(g, 1)}
	if len(g) > 0 {
		out.Mean = float64(sum) / float64(len(g))
	}
	return out
}

func (r *simRun) report() simReport {
	rep := simReport{Players: r.c.players, Rate: r.c.rate, Arrivals: r.arrivals, NoIdlePlayer: r.noIdle, Refused: r.refused,
		GamesFinished: r.finished, HTTPErrorsBy: r.errs, ErrorExample: r.example, LatencyMillis: map[string]simLatency{}}
	for _, p := range r.c.pools {
		rep.Pools = append(rep.Pools, p.key)
	}
	var first, last time.Time
	for _, o := range r.outcomes {
		rep.Tickets++
		t := o.Ticket
		switch {
		case o.Late:
			rep.CancelTooLate++
		case o.Left:
			rep.LeftWaiting++
		}
		switch t.State {
		case string(matchmaking.Matched):
			rep.Matched++
			if t.MatchedAt != nil && t.MatchedAt.After(last) {
				last = *t.MatchedAt
			}
		case string(matchmaking.Cancelled):
			if !o.Left {
				rep.Cancelled++
			}
		case string(matchmaking.Expired):
			rep.Expired++
		}
		if first.IsZero() || t.CreatedAt.Before(first) {
			first = t.CreatedAt
		}
	}
	pairs, inc, one := r.pairs()
	rep.Pairs, rep.Inconsistent, rep.OneSided = len(pairs), inc, one
	if last.After(first) {
		rep.SpanSeconds = last.Sub(first).Seconds()
		rep.PairsPerSecond = float64(rep.Pairs) / rep.SpanSeconds
	}
	rep.ElapsedSeconds = r.ended.Sub(r.started).Seconds()
	rep.Wait = waitsOf(r.outcomes)
	rep.Gap = gapsOf(pairs)
	for _, n := range r.errs {
		rep.HTTPErrors += n
	}
	for kind, ds := range r.latency {
		slices.Sort(ds)
		ms := func(q float64) float64 { return float64(percentile(ds, q).Microseconds()) / 1000 }
		rep.LatencyMillis[kind] = simLatency{N: len(ds), P50: ms(.5), P95: ms(.95), P99: ms(.99)}
	}
	for _, p := range r.c.pools {
		if slices.ContainsFunc(rep.PerPool, func(x simPoolReport) bool { return x.Pool == p.key }) {
			continue
		}
		var os []simOutcome
		for _, o := range r.outcomes {
			if o.Ticket.Pool == p.key {
				os = append(os, o)
			}
		}
		var ps []simPair
		for _, x := range pairs {
			if x.pool == p.key {
				ps = append(ps, x)
			}
		}
		rep.PerPool = append(rep.PerPool, simPoolReport{Pool: p.key, Tickets: len(os), Pairs: len(ps), Wait: waitsOf(os), Gap: gapsOf(ps)})
	}
	return rep
}

func (r simReport) print(w io.Writer) {
	fmt.Fprintf(w, "%d players, %d arrivals at %g/s (%d found no idle player), %d tickets in %.1fs\n",
		r.Players, r.Arrivals, r.Rate, r.NoIdlePlayer, r.Tickets, r.ElapsedSeconds)
	fmt.Fprintf(w, "matched %d, cancelled %d (%d cancels came too late), expired %d, left waiting %d; refused %s\n",
		r.Matched, r.Cancelled, r.CancelTooLate, r.Expired, r.LeftWaiting, counts(r.Refused))
	fmt.Fprintf(w, "pairs %d: %.2f pairs/s over %.1fs\n", r.Pairs, r.PairsPerSecond, r.SpanSeconds)
	fmt.Fprintf(w, "wait at pairing p50 %.2fs  p95 %.2fs  p99 %.2fs  max %.2fs\n", r.Wait.P50, r.Wait.P95, r.Wait.P99, r.Wait.Max)
	fmt.Fprintf(w, "ladder gap at pairing mean %.1f  p95 %d  max %d points\n", r.Gap.Mean, r.Gap.P95, r.Gap.Max)
	if len(r.PerPool) > 1 {
		for _, p := range r.PerPool {
			fmt.Fprintf(w, "  %-24s %6d tickets %6d pairs  wait p50 %.2fs p95 %.2fs  gap mean %.1f p95 %d\n",
				p.Pool, p.Tickets, p.Pairs, p.Wait.P50, p.Wait.P95, p.Gap.Mean, p.Gap.P95)
		}
	}
	for _, kind := range slices.Sorted(maps.Keys(r.LatencyMillis)) {
		l := r.LatencyMillis[kind]
		fmt.Fprintf(w, "%-8s %7d requests  p50 %.1fms  p95 %.1fms  p99 %.1fms\n", kind, l.N, l.P50, l.P95, l.P99)
	}
	if r.GamesFinished > 0 {
		fmt.Fprintf(w, "games resigned %d\n", r.GamesFinished)
	}
	fmt.Fprintf(w, "HTTP errors %d %s; inconsistent pairings %d, one-sided %d\n", r.HTTPErrors, counts(r.HTTPErrorsBy), r.Inconsistent, r.OneSided)
	if r.ErrorExample != "" {
		fmt.Fprintf(w, "an error: %s\n", r.ErrorExample)
	}
}
