package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/metrics"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/reviews"
	"github.com/weiqi-platform/rank/schools"
	"github.com/weiqi-platform/rank/web"
)

// Clock is the one clock: everything that reads time reads it (accounts
// and tokens, ratings, the intake, exams, matchmaking), and the job
// scheduler also waits on it. jobs.SystemClock is the real one; tests
// pass a fake.
type Clock = jobs.Clock

// Config tunes the services; zero fields take each service's defaults.
type Config struct {
	// Placement makes new players' first rating.PlacementGames rated
	// games placement games (rating.ServiceConfig.Placement); rankd turns
	// it on.
	Placement bool
	// Players: token lifetime, login and registration limits. Its clock
	// is the application's.
	Players players.Config
	// Match: the pairing policy and ticket ages. Its clock and metrics
	// are the application's.
	Match matchmaking.Config
	// GameTTL is how long a pairing's game may stay unfinished before the
	// expire job voids it (intake.DefaultPendingTTL when 0).
	GameTTL time.Duration
	// Jobs: leases and retries of the scheduled jobs. Clock and Logger are
	// the application's.
	Jobs jobs.Options
	// HTTP.
	BodyLimit      int64
	TrustedProxies []string
	// AbortWindow is how long after a pairing either player may abort its
	// game (intake.DefaultAbortWindow when 0).
	AbortWindow time.Duration
	// PublicReads lets profiles, the leaderboard, finished games, a
	// player's games and rating history be read without a token (rankd
	// turns it on; api.Deps.PublicReads).
	PublicReads bool
	// CORSOrigins are the origins whose pages may call the API from a
	// browser (api.Deps.CORSOrigins).
	CORSOrigins []string
	// Web: the pages' settings (Secure cookies).
	Web            web.Config
	RequestTimeout time.Duration // api.DefaultRequestTimeout when 0
	// AuditKey authenticates the ledger (rating.ServiceConfig.AuditKey):
	// RANK_AUDIT_KEY or the data dir's key file; nil: unkeyed.
	AuditKey []byte
	// CheckpointFile: the verify job checks the last checkpoint in this
	// file against the ledger (a rollback of the store shows there) and
	// appends a new one, one JSON line each; "" keeps none. Keep a copy
	// away from the database.
	CheckpointFile string
}

// The scheduled jobs and when they fire, decided. Every replica runs the
// scheduler; each firing runs once across them (jobs.Runner with leases),
// and an admin can run any of them on demand.
const (
	// ExamsSpec: the exam tick opens due sessions and grades those past
	// their deadline, so a minute is the exams' resolution.
	ExamsSpec = "* * * * *"
	// ExpireSpec: pending games and matchmaking tickets whose time is up
	// (App.Expire).
	ExpireSpec = "* * * * *"
	// RecoverSpec: what a crash left (unfinished rating operations, games
	// stored but not rated) is completed at start and then every five
	// minutes.
	RecoverSpec = "*/5 * * * *"
	// VerifySpec: the nightly verification of the ledger, at 03:00 UTC.
	VerifySpec = "0 3 * * *"
	// IntegritySpec: the nightly integrity scan (farming, sandbagging,
	// exam collusion) over reviews.ScanWindow, after the verification.
	IntegritySpec = "0 4 * * *"
)

// App is the whole application: every service, wired, and the HTTP
// handler that serves them.
type App struct {
	Players     *players.Service
	Ratings     *rating.Service
	Intake      *intake.Intake
	Exams       *exams.Service
	Schools     *schools.Service
	Matchmaking *matchmaking.Service
	Jobs        *jobs.Runner
	Reviews     *reviews.Service
	Handler     *api.Server
	Metrics     *metrics.Registry
	Clock       Clock
	Logger      *slog.Logger

	// Pages serves the web pages; HTTP is what rankd serves: the API's
	// paths to Handler, every other path to Pages.
	Pages *web.Server
	HTTP  http.Handler

	stop   context.CancelFunc
	done   chan struct{}
	stores Stores

	checkpoints string // Config.CheckpointFile
}

// New builds the application on its stores. clock nil is the system
// clock, log nil discards, reg nil is a fresh registry.
func New(s Stores, cfg Config, clock Clock, log *slog.Logger, reg *metrics.Registry) (*App, error) {
	if clock == nil {
		clock = jobs.SystemClock
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if reg == nil {
		reg = metrics.New()
	}
	a := &App{Metrics: reg, Clock: clock, Logger: log, checkpoints: cfg.CheckpointFile, stores: s}
	pc := cfg.Players
	pc.Now = clock.Now
	if s.SoleWriter && pc.TokenCacheTTL == 0 {
		// Every revocation goes through this process, which forgets the
		// token at once: a valid token may be believed until it expires.
		pc.TokenCacheTTL = max(pc.TokenTTL, players.DefaultTokenTTL)
	}
	a.Players = players.NewService(s.Accounts, s.Limits, pc)
	// Verification reads the stored games through the intake built next.
	gameHash := func(ctx context.Context, id string) (string, error) { return a.Intake.BoundHashOf(ctx, id) }
	a.Ratings = rating.NewService(s.Ratings, rating.ServiceConfig{System: rating.Default, Recorder: reg, Now: clock.Now, Placement: cfg.Placement,
		AuditKey: cfg.AuditKey, GameHash: gameHash})
	a.Intake = intake.New(s.Games, s.Presence, a.Ratings, a.Players, reg, intake.Config{Now: clock.Now, PendingTTL: cfg.GameTTL,
		AbortWindow: cfg.AbortWindow, AbortMakers: []string{matchmaking.By}})
	a.Exams = &exams.Service{Store: s.Exams, Intake: a.Intake, Ratings: a.Ratings, Accounts: a.Players,
		Calendar: jobs.Calendar{}, Clock: clock}
	a.Reviews = reviews.NewService(s.Reviews, clock.Now, reviews.Sources{Ratings: a.Ratings, Intake: a.Intake, Exams: a.Exams})
	a.Schools = schools.New(s.Schools, a.Players, a.Ratings, a.Exams, clock)
	mc := cfg.Match
	mc.Now, mc.Metrics = clock.Now, reg
	var err error
	if a.Matchmaking, err = matchmaking.New(s.Queue, matchmaking.IntakeGames{Intake: a.Intake, TTL: cfg.GameTTL}, s.History, mc); err != nil {
		return nil, fmt.Errorf("matchmaking: %w", err)
	}
	jc := cfg.Jobs
	jc.Clock, jc.Logger = clock, log
	if jc.Runs == nil {
		jc.Runs = s.Runs
	}
	a.Jobs = jobs.New(s.Leases, jc)
	for _, j := range []jobs.Job{
		{Name: "exams", Spec: ExamsSpec, Run: func(ctx context.Context, f jobs.Firing) error { return a.Exams.Tick(ctx, f.At) }},
		{Name: "expire", Spec: ExpireSpec, Run: func(ctx context.Context, _ jobs.Firing) error { return a.Expire(ctx) }},
		{Name: "recover", Spec: RecoverSpec, Run: func(ctx context.Context, _ jobs.Firing) error { return a.Recover(ctx) }},
		{Name: "verify", Spec: VerifySpec, Run: a.verify},
		{Name: "integrity", Spec: IntegritySpec, Run: a.integrity},
	} {
		if err := a.Jobs.Add(j); err != nil {
			return nil, err
		}
	}
	a.Handler, err = api.New(api.Deps{
		Logger: log, Checks: s.Checks, Metrics: reg, MetricsHandler: reg.Handler(),
		BodyLimit: cfg.BodyLimit, TrustedProxies: cfg.TrustedProxies, RequestTimeout: cfg.RequestTimeout,
		Players: a.Players, Ratings: a.Ratings, Games: a.Intake, Exams: a.Exams, Jobs: a.Jobs, Matchmaking: a.Matchmaking,
		Reviews: a.Reviews, Schools: a.Schools,
		PublicReads: cfg.PublicReads, CORSOrigins: cfg.CORSOrigins,
	})
	if err != nil {
		return nil, err
	}
	wc := cfg.Web
	wc.PublicReads, wc.TrustedProxies = cfg.PublicReads, cfg.TrustedProxies
	a.Pages, err = web.New(web.Deps{
		Logger: log, Config: wc,
		Players: a.Players, Ratings: a.Ratings, Games: a.Intake, Exams: a.Exams, Matchmaking: a.Matchmaking,
		Schools: a.Schools, Jobs: a.Jobs,
	})
	if err != nil {
		return nil, err
	}
	a.HTTP = root(a.Handler, a.Pages)
	return a, nil
}

// root sends the API's paths (/api/..., /healthz, /readyz, /metrics) to
// the API and every other path to the pages.
func root(apiH, pages http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasPrefix(p, "/api/") || p == "/api" || p == "/healthz" || p == "/readyz" || p == "/metrics" {
			apiH.ServeHTTP(w, r)
			return
		}
		pages.ServeHTTP(w, r)
	})
}

// Recover completes every unfinished rating operation, then rates every
// stored game not yet rated: what a crash left. rankd runs it at start;
// the recover job runs it every five minutes.
func (a *App) Recover(ctx context.Context) error {
	ops, err := a.Ratings.Recover(ctx)
	if err != nil {
		return fmt.Errorf("recover rating operations: %w", err)
	}
	gs, err := a.Intake.Recover(ctx)
	if err != nil {
		return fmt.Errorf("recover unrated games: %w", err)
	}
	a.Logger.Info("recovered", "rating_operations", ops, "unrated_games", gs)
	return nil
}

// Expire is the expire job's work, in one place: pending games whose time
// is up, and matchmaking tickets whose players stopped waiting.
func (a *App) Expire(ctx context.Context) error {
	games, gerr := a.Intake.ExpirePending(ctx)
	tickets, terr := a.Matchmaking.Expire(ctx)
	if games > 0 || tickets > 0 {
		a.Logger.Info("expired", "pending_games", games, "tickets", tickets)
	}
	return errors.Join(gerr, terr)
}

// verify verifies the whole ledger and keeps the report under the
// firing's key (so a resumed firing keeps one report).
func (a *App) verify(ctx context.Context, f jobs.Firing) error {
	var kept []rating.Checkpoint
	if a.checkpoints != "" {
		last, ok, err := lastCheckpoint(a.checkpoints)
		if err != nil {
			return fmt.Errorf("verify: %w", err)
		}
		if ok {
			kept = append(kept, last)
		}
	}
	rep, err := a.Ratings.VerifyAndKeep(ctx, f.Key(), kept...)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if !rep.OK() {
		a.Logger.Warn("verification found mismatches", "report", rep.ID, "mismatches", len(rep.Mismatches))
	}
	if a.checkpoints != "" {
		cp, err := a.Ratings.Checkpoint(ctx)
		if err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		if err := appendCheckpoint(a.checkpoints, cp); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
	}
	return nil
}

// lastCheckpoint reads the last line of the checkpoint file; ok is false
// when there is none yet.
func lastCheckpoint(path string) (rating.Checkpoint, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return rating.Checkpoint{}, false, nil
	}
	if err != nil {
		return rating.Checkpoint{}, false, err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" {
		return rating.Checkpoint{}, false, nil
	}
	var cp rating.Checkpoint
	if err := json.Unmarshal([]byte(last), &cp); err != nil {
		return rating.Checkpoint{}, false, fmt.Errorf("checkpoint file %s, last line: %w", path, err)
	}
	return cp, true, nil
}

// appendCheckpoint adds cp as one JSON line (the file only grows).
func appendCheckpoint(path string, cp rating.Checkpoint) error {
	b, err := json.Marshal(cp)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// integrity scans the games of the window ending at the firing (its
// time, not the clock's: a resumed firing scans the same window) and
// queues new flags for the admins.
func (a *App) integrity(ctx context.Context, f jobs.Firing) error {
	n, err := a.Reviews.Scan(ctx, f.At)
	if err != nil {
		return fmt.Errorf("integrity: %w", err)
	}
	if n > 0 {
		a.Logger.Info("integrity flags queued for review", "new", n)
	}
	return nil
}

// Start runs the job scheduler and, when matchEvery is positive, the
// matchmaking passes every matchEvery, until Stop.
func (a *App) Start(matchEvery time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	a.stop, a.done = cancel, make(chan struct{})
	loops := 1
	finished := make(chan struct{}, 2)
	go func() {
		_ = a.Jobs.Run(ctx)
		finished <- struct{}{}
	}()
	if matchEvery > 0 {
		loops++
		go func() {
			a.Matchmaking.Run(ctx, matchEvery, func(err error) { a.Logger.Warn("matchmaking pass", "err", err) })
			finished <- struct{}{}
		}()
	} else {
		a.Logger.Info("matchmaking passes off on this replica", "match_every", matchEvery)
	}
	go func() {
		for range loops {
			<-finished
		}
		close(a.done)
	}()
}

// Stop stops the scheduler and the passes and waits for what they were
// doing: a firing cut short releases its lease, and another replica (or
// the next start) resumes it; a pass gives its pool leases up so that
// another replica takes over at once. Then it sends what the stores
// deferred (Stores.Drain). Safe to call without Start.
func (a *App) Stop() {
	if a.stop != nil {
		a.stop()
		<-a.done
		a.stop = nil
	}
	a.stores.Drain()
}
