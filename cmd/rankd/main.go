package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/cmd/internal/wire"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/metrics"
)

// HTTP server timeouts, decided: generous for slow clients, bounded so that
// idle or stalled connections cannot pile up.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = api.DefaultRequestTimeout + 5*time.Second // a request is cut off (503) before the connection is
	idleTimeout       = 2 * time.Minute
)

// ListeningMsg is the message of the log line that gives the address
// (attribute "url"); the end-to-end tests parse it.
const ListeningMsg = "listening"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stderr))
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) int {
	cfg, err := ParseConfig(args, getenv, stderr)
	if errors.Is(err, flagHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "rankd:", err)
		return 2
	}
	m := NewMain(cfg, stderr)
	if err := m.Run(ctx); err != nil {
		m.Logger.Error("start failed", "err", err)
		_ = m.Close()
		return 1
	}
	select {
	case <-ctx.Done():
		m.Logger.Info("stopping", "why", "signal")
	case err := <-m.ServeErr():
		m.Logger.Error("serving failed", "err", err)
	}
	if err := m.Close(); err != nil {
		m.Logger.Error("stop failed", "err", err)
		return 1
	}
	return 0
}

// Main is the running program: its stores, the application wired on
// them, and its HTTP server.
type Main struct {
	Config Config
	Logger *slog.Logger
	// Clock is what every part of the application reads as now (and what
	// the job scheduler waits on); nil is the system clock. Tests set a
	// fake one before Run.
	Clock app.Clock
	App   *app.App

	mongo    *wire.Mongo
	redis    *wire.Redis
	listener net.Listener
	server   *http.Server
	serveErr chan error
	url      string
	pprof    *http.Server
}

// NewMain returns a Main logging to w.
func NewMain(cfg Config, w io.Writer) *Main {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if cfg.LogFormat == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return &Main{Config: cfg, Logger: slog.New(h), serveErr: make(chan error, 1)}
}

// Run opens the stores, wires the application, completes what a crash
// left and starts serving. It returns once the server listens; Close
// stops it.
func (m *Main) Run(ctx context.Context) error {
	cfg := m.Config
	log := m.Logger
	log.Info("rankd starting", cfg.LogAttrs()...)

	var err error
	if m.mongo, err = wire.OpenMongo(ctx, cfg.MongoURI, cfg.MongoDB, cfg.DataDir, log); err != nil {
		return err
	}
	if m.redis, err = wire.OpenRedis(ctx, cfg.RedisURL, log); err != nil {
		return err
	}
	var sopts []app.OpenOption
	if m.mongo.Embedded {
		// The data directory is locked to this process: no other writes.
		sopts = append(sopts, app.SoleWriter())
	}
	stores, err := app.OpenStores(ctx, m.mongo.DB, m.redis.Client, sopts...)
	if err != nil {
		return err
	}
	if err := m.mongo.TuneIndexes(); err != nil { // the collections OpenStores made
		return err
	}
	ac := cfg.appConfig()
	if ac.AuditKey, err = auditKey(cfg, log); err != nil {
		return err
	}
	if m.App, err = app.New(stores, ac, m.Clock, log, metrics.New()); err != nil {
		return err
	}
	if cfg.AdminUser != "" {
		created, err := m.App.Players.EnsureAdmin(ctx, cfg.AdminUser, cfg.AdminPassword)
		if err != nil {
			return fmt.Errorf("admin %q from RANK_ADMIN_USER: %w", cfg.AdminUser, err)
		}
		log.Info("admin account", "username", cfg.AdminUser, "created", created)
	}
	if err := m.App.Recover(ctx); err != nil {
		return err
	}
	repaired, err := m.App.Schools.RepairMovedConsent(ctx)
	if err != nil {
		return fmt.Errorf("repair moved students' consent: %w", err)
	}
	if repaired > 0 {
		log.Info("students moved before moves kept consent are only followed again", "students", repaired)
	}
	if m.listener, err = net.Listen("tcp", cfg.Addr); err != nil {
		return err
	}
	if cfg.PprofAddr != "" {
		if err := m.servePprof(cfg.PprofAddr); err != nil {
			return err
		}
	}
	m.server = &http.Server{
		Handler:           m.App.HTTP,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	m.url = dialURL(m.listener.Addr())
	go func() {
		if err := m.server.Serve(m.listener); !errors.Is(err, http.ErrServerClosed) {
			m.serveErr <- err
		}
	}()
	log.Info(ListeningMsg, "addr", m.listener.Addr().String(), "url", m.url)
	m.App.Start(cfg.MatchEvery)
	return nil
}

// servePprof serves the profiler on its own listener, never on the API's.
func (m *Main) servePprof(addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	m.pprof = &http.Server{Handler: mux, ReadHeaderTimeout: readHeaderTimeout}
	go func() { _ = m.pprof.Serve(l) }()
	m.Logger.Info("pprof", "addr", l.Addr().String())
	return nil
}

// URL is where a client on this machine reaches the server.
func (m *Main) URL() string { return m.url }

// ServeErr delivers an error if serving stops by itself.
func (m *Main) ServeErr() <-chan error { return m.serveErr }

// Close stops gracefully: no new connections, requests in flight finish
// (up to the shutdown timeout), then the stores close. Safe on a Main that
// failed to start.
func (m *Main) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), m.Config.ShutdownTimeout)
	defer cancel()
	var errs []error
	if m.server != nil {
		if err := m.server.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("http shutdown: %w", err))
		}
	}
	if m.pprof != nil {
		_ = m.pprof.Close()
	}
	if m.App != nil {
		m.App.Stop()
	}
	if m.redis != nil {
		if err := m.redis.Close(); err != nil {
			errs = append(errs, fmt.Errorf("redis: %w", err))
		}
	}
	if m.mongo != nil {
		if err := m.mongo.Close(ctx); err != nil {
			errs = append(errs, fmt.Errorf("mongo: %w", err))
		}
	}
	err := errors.Join(errs...)
	if err == nil {
		m.Logger.Info("rankd stopped")
	}
	return err
}

// dialURL turns a listening address into a URL a local client can use:
// an unspecified host (":0", "[::]") becomes the loopback address.
func dialURL(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String()
	}
	host := tcp.IP.String()
	if tcp.IP == nil || tcp.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port))
}
