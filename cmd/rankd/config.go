package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/cmd/internal/wire"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/web"
)

// Config is rankd's configuration. Every field has a flag and an
// environment variable (see settings); a flag wins over the environment,
// which wins over the default. The defaults give the zero-setup mode:
// embedded FerretDB under ./data and in-process Redis.
type Config struct {
	Addr              string
	MongoURI          string
	MongoDB           string
	RedisURL          string
	DataDir           string
	AdminUser         string
	AdminPassword     string
	TokenTTL          time.Duration
	BodyLimit         int64
	LogLevel          slog.Level
	LogFormat         string
	ShutdownTimeout   time.Duration
	TrustedProxies    []string
	LoginLimitAccount int64
	LoginLimitAddress int64
	// LoginLimitPair, LoginDelay: see players.Config.
	LoginLimitPair int64
	LoginDelay     time.Duration
	// AuditKey authenticates the ledger (see auditKey).
	AuditKey string
	// AuditCheckpoints is the checkpoint file the verify job keeps; empty:
	// the data dir's audit-checkpoints.jsonl with the embedded store, none
	// with MONGO_URI.
	AuditCheckpoints string
	// RegisterLimitAddress bounds registrations per address per window.
	RegisterLimitAddress int64
	// PprofAddr serves net/http/pprof there when set (loopback only by
	// intent: it is for profiling, never exposed).
	PprofAddr string

	// Matchmaking (matchmaking.Config and Policy; their defaults).
	MatchEvery      time.Duration // pairing pass interval; 0: this replica does not pair
	TicketMaxAge    time.Duration
	TicketHeartbeat time.Duration
	MatchWiden      int // window growth, ladder points per minute waited
	MatchMaxWindow  int // window cap, ladder points
	MatchCooldown   time.Duration
	// GameTTL is how long a pairing's game may stay unfinished before the
	// expire job voids it.
	GameTTL time.Duration
	// Placement: new players' first rated games are placement games.
	Placement bool
	// AbortWindow: how long after a pairing either player may abort its
	// game (void, no loss).
	AbortWindow time.Duration
	// PublicReads: profiles, the leaderboard, finished games and a
	// player's games and rating history answer without a token.
	PublicReads bool
	// CORSOrigins: origins whose pages may call the API from a browser.
	CORSOrigins []string
	// SecureCookies marks the pages' cookies Secure (behind HTTPS).
	SecureCookies bool
}

// Defaults.
const (
	DefaultAddr            = ":8080"
	DefaultDataDir         = "./data"
	DefaultMongoDB         = "rank"
	DefaultShutdownTimeout = 15 * time.Second
	// DefaultMatchEvery: one pass a second keeps waits short and costs one
	// pass per pool per second (a 10,000-player pass is ~20 ms).
	DefaultMatchEvery = time.Second
	// heartbeatRefreshShare: a replica records a ticket's heartbeat at
	// most every sixth of RANK_TICKET_HEARTBEAT (10 s of 1 m).
	heartbeatRefreshShare = 6
)

// setting is one configuration entry: a flag, its environment variable,
// whether it is a secret (masked when printed) or a URI (password masked).
type setting struct {
	flag, env, usage string
	value            flag.Value
	secret, uri      bool
}

func (c *Config) settings() []setting {
	return []setting{
		{flag: "addr", env: "RANK_ADDR", usage: "listen address (port 0 picks a free port)", value: (*stringValue)(&c.Addr)},
		{flag: "mongo-uri", env: "MONGO_URI", usage: "MongoDB URI; empty starts embedded FerretDB under the data dir", value: (*stringValue)(&c.MongoURI), uri: true},
		{flag: "mongo-db", env: "MONGO_DB", usage: "database name", value: (*stringValue)(&c.MongoDB)},
		{flag: "redis-url", env: "REDIS_URL", usage: "Redis URL; empty starts an in-process Redis", value: (*stringValue)(&c.RedisURL), uri: true},
		{flag: "data-dir", env: "RANK_DATA_DIR", usage: "directory of the embedded store's files", value: (*stringValue)(&c.DataDir)},
		{flag: "admin-user", env: "RANK_ADMIN_USER", usage: "create this admin at start unless it exists", value: (*stringValue)(&c.AdminUser)},
		{flag: "admin-password", env: "RANK_ADMIN_PASSWORD", usage: "password of the admin created at start", value: (*stringValue)(&c.AdminPassword), secret: true},
		{flag: "token-ttl", env: "RANK_TOKEN_TTL", usage: "lifetime of bearer tokens", value: (*durationValue)(&c.TokenTTL)},
		{flag: "body-limit", env: "RANK_BODY_LIMIT", usage: "largest request body in bytes (413 above)", value: (*int64Value)(&c.BodyLimit)},
		{flag: "log-level", env: "RANK_LOG_LEVEL", usage: "debug, info (the default), warn or error", value: (*levelValue)(&c.LogLevel)},
		{flag: "log-format", env: "RANK_LOG_FORMAT", usage: "text or json", value: (*formatValue)(&c.LogFormat)},
		{flag: "shutdown-timeout", env: "RANK_SHUTDOWN_TIMEOUT", usage: "how long a graceful stop waits for requests in flight", value: (*durationValue)(&c.ShutdownTimeout)},
		{flag: "trusted-proxies", env: "RANK_TRUSTED_PROXIES", usage: "comma-separated IPs or CIDRs whose X-Forwarded-For is believed", value: (*listValue)(&c.TrustedProxies)},
		{flag: "login-limit-account", env: "RANK_LOGIN_LIMIT_ACCOUNT", usage: "failed logins of one account (all addresses) per window before each attempt waits login-delay", value: (*int64Value)(&c.LoginLimitAccount)},
		{flag: "login-limit-address", env: "RANK_LOGIN_LIMIT_ADDRESS", usage: "failed logins from one client address per window before it is refused", value: (*int64Value)(&c.LoginLimitAddress)},
		{flag: "register-limit-address", env: "RANK_REGISTER_LIMIT_ADDRESS", usage: "registrations per client address per window", value: (*int64Value)(&c.RegisterLimitAddress)},
		{flag: "pprof-addr", env: "RANK_PPROF_ADDR", usage: "serve net/http/pprof on this address (e.g. 127.0.0.1:6060); empty: off", value: (*stringValue)(&c.PprofAddr)},
		{flag: "match-every", env: "RANK_MATCH_EVERY", usage: "interval of the matchmaking pairing passes; 0: this replica does not pair", value: (*durationValue)(&c.MatchEvery)},
		{flag: "ticket-max-age", env: "RANK_TICKET_MAX_AGE", usage: "how long a matchmaking ticket may wait before it expires", value: (*durationValue)(&c.TicketMaxAge)},
		{flag: "ticket-heartbeat", env: "RANK_TICKET_HEARTBEAT", usage: "a ticket whose player has not polled for this long expires", value: (*durationValue)(&c.TicketHeartbeat)},
		{flag: "match-widen", env: "RANK_MATCH_WIDEN", usage: "ladder points the pairing window widens per minute waited", value: (*intValue)(&c.MatchWiden)},
		{flag: "match-max-window", env: "RANK_MATCH_MAX_WINDOW", usage: "largest ladder gap the pairing window reaches, in points (100 = one rank)", value: (*intValue)(&c.MatchMaxWindow)},
		{flag: "match-cooldown", env: "RANK_MATCH_COOLDOWN", usage: "two players who were paired are not paired again for this long", value: (*durationValue)(&c.MatchCooldown)},
		{flag: "game-ttl", env: "RANK_GAME_TTL", usage: "a pairing's game not finished after this long is voided", value: (*durationValue)(&c.GameTTL)},
		{flag: "placement", env: "RANK_PLACEMENT", usage: "new players' first rated games are placement games (true or false)", value: (*boolValue)(&c.Placement)},
		{flag: "abort-window", env: "RANK_ABORT_WINDOW", usage: "how long after a pairing either player may abort its game (void, no loss)", value: (*durationValue)(&c.AbortWindow)},
		{flag: "public-reads", env: "RANK_PUBLIC_READS", usage: "profiles, the leaderboard, finished games, a player's games and rating history readable without a token (true or false)", value: (*boolValue)(&c.PublicReads)},
		{flag: "cors-origins", env: "RANK_CORS_ORIGINS", usage: "comma-separated origins (https://host[:port]) whose pages may call the API; no *", value: (*listValue)(&c.CORSOrigins)},
		{flag: "secure-cookies", env: "RANK_SECURE_COOKIES", usage: "mark the web pages' session and CSRF cookies Secure (serve over HTTPS; true or false)", value: (*boolValue)(&c.SecureCookies)},
		{flag: "login-limit-pair", env: "RANK_LOGIN_LIMIT_PAIR", usage: "failed logins of one account from one address per window before that pair is refused", value: (*int64Value)(&c.LoginLimitPair)},
		{flag: "login-delay", env: "RANK_LOGIN_DELAY", usage: "wait before each login attempt on an account past login-limit-account", value: (*durationValue)(&c.LoginDelay)},
		{flag: "audit-checkpoints", env: "RANK_AUDIT_CHECKPOINTS", usage: "file the nightly verification appends signed checkpoints of the ledger heads to and checks the last of; empty: the data dir's audit-checkpoints.jsonl with the embedded store", value: (*stringValue)(&c.AuditCheckpoints)},
		{flag: "audit-key", env: "RANK_AUDIT_KEY", usage: "key (32 bytes or more) that authenticates the audit trail; empty: the data dir's audit.key with the embedded store", value: (*stringValue)(&c.AuditKey), secret: true},
	}
}

// flagHelp is returned when -h was asked for: usage is printed, exit 0.
var flagHelp = flag.ErrHelp

// defaultConfig is the zero-setup configuration.
func defaultConfig() Config {
	return Config{
		Addr:              DefaultAddr,
		MongoDB:           DefaultMongoDB,
		DataDir:           DefaultDataDir,
		TokenTTL:          players.DefaultTokenTTL,
		BodyLimit:         api.DefaultBodyLimit,
		LogLevel:          slog.LevelInfo,
		LogFormat:         "text",
		ShutdownTimeout:   DefaultShutdownTimeout,
		LoginLimitAccount: players.DefaultLoginLimitAccount,
		LoginLimitAddress: players.DefaultLoginLimitAddress,
		LoginLimitPair:    players.DefaultLoginLimitPair,
		LoginDelay:        players.DefaultLoginDelay,

		RegisterLimitAddress: players.DefaultRegisterLimitAddress,

		MatchEvery:      DefaultMatchEvery,
		TicketMaxAge:    matchmaking.DefaultMaxAge,
		TicketHeartbeat: matchmaking.DefaultHeartbeatTimeout,
		MatchWiden:      matchmaking.DefaultWidenPerMinute,
		MatchMaxWindow:  matchmaking.DefaultMaxWindow,
		MatchCooldown:   matchmaking.DefaultCooldown,
		GameTTL:         intake.DefaultPendingTTL,
		Placement:       true,
		AbortWindow:     intake.DefaultAbortWindow,
		PublicReads:     true,
	}
}

// EnvNames lists every environment variable rankd reads.
func EnvNames() []string {
	var c Config
	var names []string
	for _, s := range c.settings() {
		names = append(names, s.env)
	}
	return names
}

// ParseConfig reads the environment (through getenv) and then the flags.
func ParseConfig(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	c := defaultConfig()
	fs := flag.NewFlagSet("rankd", flag.ContinueOnError)
	fs.SetOutput(stderr)
	for _, s := range c.settings() {
		if v := getenv(s.env); v != "" {
			if err := s.value.Set(v); err != nil {
				return Config{}, fmt.Errorf("%s=%q: %w", s.env, v, err)
			}
		}
		fs.Var(s.value, s.flag, s.usage+" ($"+s.env+")")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return Config{}, flagHelp
		}
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return c, c.validate()
}

func (c Config) validate() error {
	var errs []error
	if (c.AdminUser == "") != (c.AdminPassword == "") {
		errs = append(errs, errors.New("RANK_ADMIN_USER and RANK_ADMIN_PASSWORD go together: set both or neither"))
	}
	if c.TokenTTL <= 0 {
		errs = append(errs, fmt.Errorf("token TTL %v must be positive", c.TokenTTL))
	}
	if c.BodyLimit <= 0 {
		errs = append(errs, fmt.Errorf("body limit %d must be positive", c.BodyLimit))
	}
	if c.MongoDB == "" {
		errs = append(errs, errors.New("the Mongo database name is empty"))
	}
	if c.MongoURI == "" && c.DataDir == "" {
		errs = append(errs, errors.New("with no MONGO_URI the data dir must be set"))
	}
	if c.LoginLimitAccount <= 0 || c.LoginLimitAddress <= 0 || c.LoginLimitPair <= 0 || c.RegisterLimitAddress <= 0 || c.LoginDelay <= 0 {
		errs = append(errs, errors.New("login limits and the login delay must be positive"))
	}
	if c.MatchEvery < 0 || c.TicketMaxAge <= 0 || c.TicketHeartbeat <= 0 || c.GameTTL <= 0 || c.MatchCooldown < 0 {
		errs = append(errs, errors.New("matchmaking: the pass interval and cooldown must not be negative, the ticket ages and game TTL must be positive"))
	}
	if err := c.matchPolicy().Check(); err != nil {
		errs = append(errs, err)
	}
	if c.AbortWindow <= 0 {
		errs = append(errs, fmt.Errorf("abort window %v must be positive", c.AbortWindow))
	}
	for _, o := range c.CORSOrigins {
		if err := checkOrigin(o); err != nil {
			errs = append(errs, fmt.Errorf("RANK_CORS_ORIGINS: %w", err))
		}
	}
	return errors.Join(errs...)
}

// appConfig is what the settings give the application.
func (c Config) appConfig() app.Config {
	return app.Config{
		Players: players.Config{
			TokenTTL:             c.TokenTTL,
			LoginLimitAccount:    c.LoginLimitAccount,
			LoginLimitAddress:    c.LoginLimitAddress,
			LoginLimitPair:       c.LoginLimitPair,
			LoginDelay:           c.LoginDelay,
			RegisterLimitAddress: c.RegisterLimitAddress,
		},
		Match: matchmaking.Config{
			Policy:           c.matchPolicy(),
			MaxAge:           c.TicketMaxAge,
			HeartbeatTimeout: c.TicketHeartbeat,
			// A poll a second would otherwise run a script each on Redis.
			HeartbeatRefresh: c.TicketHeartbeat / heartbeatRefreshShare,
		},
		GameTTL:        c.GameTTL,
		Placement:      c.Placement,
		BodyLimit:      c.BodyLimit,
		TrustedProxies: c.TrustedProxies,
		AbortWindow:    c.AbortWindow,
		PublicReads:    c.PublicReads,
		CORSOrigins:    c.CORSOrigins,
		Web:            web.Config{SecureCookies: c.SecureCookies},
		CheckpointFile: c.checkpointFile(),
	}
}

// checkOrigin accepts an origin as browsers send it: http or https, a
// host, an optional port, nothing else ("*" is refused: the API never
// answers every origin).
func checkOrigin(o string) error {
	u, err := url.Parse(o)
	if o == "*" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.Contains(u.Host, "*") {
		return fmt.Errorf("%q is not an origin scheme://host[:port] (no path, no *)", o)
	}
	return nil
}

// checkpointFile is where the verify job keeps its checkpoints.
func (c Config) checkpointFile() string {
	if c.AuditCheckpoints == "" && c.MongoURI == "" && c.DataDir != "" {
		return filepath.Join(c.DataDir, "audit-checkpoints.jsonl")
	}
	return c.AuditCheckpoints
}

// matchPolicy is the pairing policy the settings give.
func (c Config) matchPolicy() matchmaking.Policy {
	p := matchmaking.DefaultPolicy()
	p.WidenPerMinute, p.MaxWindow, p.Cooldown = c.MatchWiden, c.MatchMaxWindow, c.MatchCooldown
	return p
}

// LogAttrs is the configuration for the start-up log line: secrets masked,
// passwords inside URIs masked.
func (c Config) LogAttrs() []any {
	var attrs []any
	for _, s := range c.settings() {
		v := s.value.String()
		switch {
		case s.secret && v != "":
			v = wire.Masked
		case s.uri:
			v = wire.MaskURI(v)
		}
		attrs = append(attrs, slog.String(s.flag, v))
	}
	return attrs
}

type stringValue string

func (v *stringValue) String() string     { return string(*v) }
func (v *stringValue) Set(s string) error { *v = stringValue(s); return nil }

type durationValue time.Duration

func (v *durationValue) String() string { return time.Duration(*v).String() }
func (v *durationValue) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("not a duration (like 24h or 90m)")
	}
	*v = durationValue(d)
	return nil
}

type int64Value int64

func (v *int64Value) String() string { return strconv.FormatInt(int64(*v), 10) }
func (v *int64Value) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not a whole number")
	}
	*v = int64Value(n)
	return nil
}

type boolValue bool

func (v *boolValue) String() string { return strconv.FormatBool(bool(*v)) }
func (v *boolValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, not %q", s)
	}
	*v = boolValue(b)
	return nil
}

// IsBoolFlag lets -placement stand for -placement=true.
func (v *boolValue) IsBoolFlag() bool { return true }

type intValue int

func (v *intValue) String() string { return strconv.Itoa(int(*v)) }
func (v *intValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("not a whole number")
	}
	*v = intValue(n)
	return nil
}

type levelValue slog.Level

func (v *levelValue) String() string { return strings.ToLower(slog.Level(*v).String()) }
func (v *levelValue) Set(s string) error {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return fmt.Errorf("not a log level (debug, info, warn, error)")
	}
	*v = levelValue(l)
	return nil
}

type formatValue string

func (v *formatValue) String() string { return string(*v) }
func (v *formatValue) Set(s string) error {
	if s != "text" && s != "json" {
		return fmt.Errorf("log format must be text or json")
	}
	*v = formatValue(s)
	return nil
}

type listValue []string

func (v *listValue) String() string { return strings.Join(*v, ",") }
func (v *listValue) Set(s string) error {
	*v = nil
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*v = append(*v, p)
		}
	}
	return nil
}
