package players

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Defaults of Config, decided: a token lasts a day. Login counts failed
// attempts in each 15-minute window: 10 for one account from one address
// (then that pair is refused until the window ends; a success clears it),
// 100 from one address over all accounts (then that address is refused),
// and 100 for one account over all addresses (then every attempt on it
// waits 1 s first: no lockout, so nobody can lock an account out from
// elsewhere). Registration allows 30 per address per window.
const (
	DefaultTokenTTL             = 24 * time.Hour
	DefaultLoginLimitPair       = 10
	DefaultLoginLimitAccount    = 100
	DefaultLoginLimitAddress    = 100
	DefaultLoginDelay           = time.Second
	DefaultRegisterLimitAddress = 30
	DefaultLimitWindow          = 15 * time.Minute
	// DefaultTokenCacheTTL: a token found valid is believed for this long
	// without asking the store again (decided: one store read per token
	// per 2 s instead of one per request; a token revoked on another
	// replica works there for at most this long, one revoked here stops
	// at once).
	DefaultTokenCacheTTL = 2 * time.Second
	// tokenCacheMax bounds the cache; it is emptied when full.
	tokenCacheMax = 10_000
)

// Config tunes a Service. Zero fields take the defaults above.
type Config struct {
	TokenTTL time.Duration
	// LoginLimitPair: failed logins of one account from one address per
	// window before that pair is refused (429).
	LoginLimitPair int64
	// LoginLimitAccount: failed logins of one account from all addresses
	// per window before each attempt on it waits LoginDelay (never refused).
	LoginLimitAccount int64
	// LoginLimitAddress: failed logins from one address over all accounts
	// per window before that address is refused (429).
	LoginLimitAddress    int64
	LoginDelay           time.Duration
	RegisterLimitAddress int64
	LimitWindow          time.Duration
	// TokenCacheTTL: see DefaultTokenCacheTTL; negative turns it off.
	TokenCacheTTL time.Duration
	Now           func() time.Time // the clock; time.Now when nil
}

func (c Config) withDefaults() Config {
	if c.TokenTTL <= 0 {
		c.TokenTTL = DefaultTokenTTL
	}
	if c.LoginLimitPair <= 0 {
		c.LoginLimitPair = DefaultLoginLimitPair
	}
	if c.LoginLimitAccount <= 0 {
		c.LoginLimitAccount = DefaultLoginLimitAccount
	}
	if c.LoginDelay <= 0 {
		c.LoginDelay = DefaultLoginDelay
	}
	if c.LoginLimitAddress <= 0 {
		c.LoginLimitAddress = DefaultLoginLimitAddress
	}
	if c.RegisterLimitAddress <= 0 {
		c.RegisterLimitAddress = DefaultRegisterLimitAddress
	}
	if c.LimitWindow <= 0 {
		c.LimitWindow = DefaultLimitWindow
	}
	if c.TokenCacheTTL == 0 {
		c.TokenCacheTTL = DefaultTokenCacheTTL
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Service is the accounts use-case layer: register, log in and out,
// authenticate a token, create accounts as an admin.
type Service struct {
	store   Store
	limiter Limiter
	cfg     Config

	mu     sync.Mutex
	tokens map[string]cachedToken // by token hash
	play   playable
	// archiveHash is the hash EnsurePlayers gives its accounts: made
	// once per process, so that an import's batches do not each pay an
	// argon2id hash.
	archiveHash string
}

type cachedToken struct {
	p     Principal
	until time.Time // the earlier of the cache's end and the token's expiry
}

// NewService returns a Service on the store. The limiter may be nil only
// for tools that never log in or register (rankctl admin create): those
// calls then fail rather than run unlimited.
func NewService(store Store, limiter Limiter, cfg Config) *Service {
	return &Service{store: store, limiter: limiter, cfg: cfg.withDefaults(), tokens: map[string]cachedToken{}}
}

// TokenTTL is how long issued tokens last.
func (s *Service) TokenTTL() time.Duration { return s.cfg.TokenTTL }

var errNoLimiter = errors.New("players: no rate limiter configured")

// Register creates a player account and logs it in. addr is the caller's
// network address, for the registration rate limit.
func (s *Service) Register(ctx context.Context, username, password, addr string) (Account, IssuedToken, error) {
	name, err := NormalizeUsername(username)
	if err != nil {
		return Account{}, IssuedToken{}, err
	}
	if password, err = checkNewPassword(name, password); err != nil {
		return Account{}, IssuedToken{}, err
	}
	if err := s.limit(ctx, "register:address:"+addr, "address", s.cfg.RegisterLimitAddress); err != nil {
		return Account{}, IssuedToken{}, err
	}
	a, err := s.create(ctx, name, password, RolePlayer, "")
	if err != nil {
		return Account{}, IssuedToken{}, err
	}
	tok, err := s.issue(ctx, a)
	return a, tok, err
}

// Login checks the password and issues a token. Only failures count
// (Config): one account from one address is refused after LoginLimitPair
// of them, one address after LoginLimitAddress; an account failed often
// from everywhere is slowed (LoginDelay), never locked. So the right
// password from an address that has not failed is never refused, and a
// game server's account (role server), whose token comes from this login,
// cannot be locked or slowed from elsewhere. When Redis is unreachable
// login is refused rather than left unlimited.
func (s *Service) Login(ctx context.Context, username, password, addr string) (IssuedToken, error) {
	// A malformed name is just a wrong one: say nothing about the rules.
	// Its failures count under one name no account can have, so that the
	// limiter's keys never carry what the caller sent.
	name, nerr := NormalizeUsername(username)
	if nerr != nil {
		name = malformedName
	}
	// Read the password as registration did; text that is not UTF-8 is
	// refused before it counts as an attempt: it tests no password.
	password, err := normalizePassword(password)
	if err != nil {
		return IssuedToken{}, err
	}
	if s.limiter == nil {
		return IssuedToken{}, errNoLimiter
	}
	keys := loginKeys(name, addr)
	now := s.cfg.Now()
	// Counted before the hash, added after it: concurrent failures may
	// pass a limit by at most the hashes in flight (hashgate), and an
	// attempt that has not failed yet never counts against anyone.
	pairFails, err := s.limiter.Count(ctx, keys.pair, now, s.cfg.LimitWindow)
	if err != nil {
		return IssuedToken{}, err
	}
	if pairFails >= s.cfg.LoginLimitPair {
		return IssuedToken{}, s.limited("account_address", now)
	}
	addrFails, err := s.limiter.Count(ctx, keys.address, now, s.cfg.LimitWindow)
	if err != nil {
		return IssuedToken{}, err
	}
	if addrFails >= s.cfg.LoginLimitAddress {
		return IssuedToken{}, s.limited("address", now)
	}
	accountFails, err := s.limiter.Count(ctx, keys.account, now, s.cfg.LimitWindow)
	if err != nil {
		return IssuedToken{}, err
	}
	var a Account
	if nerr == nil {
		a, err = s.store.Account(ctx, name)
	} else {
		err = ErrNotFound
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return IssuedToken{}, err
	}
	if accountFails >= s.cfg.LoginLimitAccount && !(a.Role == RoleServer && pairFails == 0) {
		if err := sleep(ctx, s.cfg.LoginDelay); err != nil {
			return IssuedToken{}, err
		}
	}
	var ok bool
	if errors.Is(err, ErrNotFound) {
		// Spend the same time as for a real account, so timing does not
		// tell which usernames exist.
		if _, err := verifyPassword(ctx, dummyHash, password); err != nil {
			return IssuedToken{}, err // busy: as for a real account
		}
	} else if ok, err = verifyPassword(ctx, a.PasswordHash, password); err != nil {
		return IssuedToken{}, fmt.Errorf("account %q: %w", a.Username, err)
	}
	if !ok {
		for _, k := range []string{keys.pair, keys.address, keys.account} {
			if _, err := s.limiter.Hit(ctx, k, now, s.cfg.LimitWindow); err != nil {
				return IssuedToken{}, err
			}
		}
		return IssuedToken{}, ErrInvalidCredentials
	}
	if pairFails > 0 {
		if err := s.limiter.Reset(ctx, keys.pair, now, s.cfg.LimitWindow); err != nil {
			return IssuedToken{}, err
		}
	}
	return s.issue(ctx, a)
}

// loginKeys are the limiter's counters of failed logins.
type loginKeyset struct{ pair, address, account string }

// malformedName stands for every malformed username in the login
// limiter's keys ("~" is in no username).
const malformedName = "~malformed"

func loginKeys(name, addr string) loginKeyset {
	return loginKeyset{
		pair:    "login:fail:pair:" + name + "|" + addr,
		address: "login:fail:address:" + addr,
		account: "login:fail:account:" + name,
	}
}

func (s *Service) limited(scope string, now time.Time) error {
	return &RateLimitError{Scope: scope, RetryAfter: windowEnd(now, s.cfg.LimitWindow).Sub(now)}
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// limit counts one attempt under key and refuses it past max.
func (s *Service) limit(ctx context.Context, key, scope string, max int64) error {
	if s.limiter == nil {
		return errNoLimiter
	}
	now := s.cfg.Now()
	n, err := s.limiter.Hit(ctx, key, now, s.cfg.LimitWindow)
	if err != nil {
		return err
	}
	if n > max {
		return s.limited(scope, now)
	}
	return nil
}

// windowEnd is the end of the epoch-aligned window of length w holding t.
func windowEnd(t time.Time, w time.Duration) time.Time {
	return t.Truncate(w).Add(w)
}

// Logout revokes the token.
func (s *Service) Logout(ctx context.Context, secret string) error {
	if !looksLikeToken(secret) {
		return ErrUnauthenticated
	}
	s.mu.Lock()
	delete(s.tokens, TokenHash(secret))
	s.mu.Unlock()
	err := s.store.RevokeToken(ctx, TokenHash(secret), s.cfg.Now())
	if errors.Is(err, ErrNotFound) {
		return ErrUnauthenticated
	}
	return err
}

// Authenticate returns the caller a token belongs to, or ErrUnauthenticated
// when it is unknown, expired or revoked.
func (s *Service) Authenticate(ctx context.Context, secret string) (Principal, error) {
	if !looksLikeToken(secret) {
		return Principal{}, ErrUnauthenticated
	}
	hash, now := TokenHash(secret), s.cfg.Now()
	s.mu.Lock()
	c, ok := s.tokens[hash]
	s.mu.Unlock()
	if ok && now.Before(c.until) {
		s.seenPlaying(c.p, now)
		return c.p, nil
	}
	t, err := s.store.Token(ctx, hash)
	switch {
	case errors.Is(err, ErrNotFound):
		return Principal{}, ErrUnauthenticated
	case err != nil:
		return Principal{}, err
	case !t.RevokedAt.IsZero(), !now.Before(t.ExpiresAt):
		return Principal{}, ErrUnauthenticated
	}
	p := Principal{Username: t.Username, Role: t.Role}
	s.seenPlaying(p, now)
	if s.cfg.TokenCacheTTL > 0 {
		until := now.Add(s.cfg.TokenCacheTTL)
		if t.ExpiresAt.Before(until) {
			until = t.ExpiresAt
		}
		s.mu.Lock()
		if len(s.tokens) >= tokenCacheMax {
			clear(s.tokens)
		}
		s.tokens[hash] = cachedToken{p: p, until: until}
		s.mu.Unlock()
	}
	return p, nil
}

// CreateAccount makes a server, teacher or admin account; only an admin
// may.
func (s *Service) CreateAccount(ctx context.Context, by Principal, username, password string, role Role) (Account, error) {
	if !by.Is(RoleAdmin) {
		return Account{}, &ForbiddenError{Need: []Role{RoleAdmin}, Have: by.Role}
	}
	if !slices.Contains(CreatableRoles, role) {
		return Account{}, &FieldError{Field: "role", Reason: fmt.Sprintf("must be one of %v, got %q", CreatableRoles, role)}
	}
	name, err := NormalizeUsername(username)
	if err != nil {
		return Account{}, err
	}
	if password, err = checkNewPassword(name, password); err != nil {
		return Account{}, err
	}
	return s.create(ctx, name, password, role, by.Username)
}

// EnsureAdmin creates the admin account unless it exists; an existing admin
// is left as it is (its password is not reset), so running it at every
// start is safe. It fails if the username belongs to a non-admin.
func (s *Service) EnsureAdmin(ctx context.Context, username, password string) (created bool, err error) {
	name, err := NormalizeUsername(username)
	if err != nil {
		return false, err
	}
	if password, err = checkNewPassword(name, password); err != nil {
		return false, err
	}
	// Two replicas starting together may race: the loser re-reads.
	for range 2 {
		a, err := s.store.Account(ctx, name)
		switch {
		case err == nil && a.Role == RoleAdmin:
			return false, nil
		case err == nil:
			return false, fmt.Errorf("%w: %q is a %s account, not an admin", ErrUsernameTaken, name, a.Role)
		case !errors.Is(err, ErrNotFound):
			return false, err
		}
		_, err = s.create(ctx, name, password, RoleAdmin, "")
		if !errors.Is(err, ErrUsernameTaken) {
			return err == nil, err
		}
	}
	return false, fmt.Errorf("%w: %q", ErrUsernameTaken, name)
}

// checkNewPassword reads a new password as login will (normalizePassword)
// and checks the rules on what it reads.
func checkNewPassword(name, password string) (string, error) {
	p, err := normalizePassword(password)
	if err != nil {
		return "", err
	}
	return p, CheckPassword(name, p)
}

func (s *Service) create(ctx context.Context, name, password string, role Role, by string) (Account, error) {
	hash, err := hashPassword(ctx, password)
	if err != nil {
		return Account{}, err
	}
	a := Account{Username: name, Role: role, PasswordHash: hash, CreatedAt: s.now(), CreatedBy: by}
	if err := s.store.CreateAccount(ctx, a); err != nil {
		return Account{}, err
	}
	s.claimUsername(ctx, a.Username)
	return a, nil
}

func (s *Service) issue(ctx context.Context, a Account) (IssuedToken, error) {
	secret, err := newTokenSecret()
	if err != nil {
		return IssuedToken{}, err
	}
	now := s.now()
	t := Token{Hash: TokenHash(secret), Username: a.Username, Role: a.Role, IssuedAt: now, ExpiresAt: now.Add(s.cfg.TokenTTL)}
	if err := s.store.CreateToken(ctx, t); err != nil {
		return IssuedToken{}, err
	}
	return IssuedToken{Secret: secret, ExpiresAt: t.ExpiresAt}, nil
}

// now is the clock in UTC to the millisecond, the precision stores keep.
func (s *Service) now() time.Time { return s.cfg.Now().UTC().Truncate(time.Millisecond) }
