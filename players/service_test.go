package players_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playerdb"
	"github.com/weiqi-platform/rank/players/playerredis"
	"github.com/weiqi-platform/rank/players/playertest"
)

// clock is a settable clock for the service.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// t0 is 10 minutes into a 15-minute limit window.
var t0 = time.Date(2026, 3, 1, 12, 10, 0, 0, time.UTC)

// newService returns a Service on real stores (embedded FerretDB or
// MongoDB, and the test redis-server) with a settable clock.
func newService(t *testing.T, cfg players.Config) (*players.Service, *clock) {
	t.Helper()
	store, err := playerdb.New(context.Background(), testsvc.Mongo(t))
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: t0}
	cfg.Now = clk.Now
	return players.NewService(store, playerredis.New(testsvc.Redis(t)), cfg), clk
}

const pw = "correct horse battery"

func TestRegisterAndAuthenticate(t *testing.T) {
	s, _ := newService(t, players.Config{})
	ctx := context.Background()
	a, tok, err := s.Register(ctx, "Alice", pw, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if a.Username != "alice" || a.Role != players.RolePlayer || !a.CreatedAt.Equal(t0) {
		t.Fatalf("account = %+v, want alice, a player, created at t0", a)
	}
	if want := t0.Add(players.DefaultTokenTTL); !tok.ExpiresAt.Equal(want) {
		t.Fatalf("token expires %v, want %v", tok.ExpiresAt, want)
	}
	p, err := s.Authenticate(ctx, tok.Secret)
	if err != nil || p != (players.Principal{Username: "alice", Role: players.RolePlayer}) {
		t.Fatalf("Authenticate = %+v, %v", p, err)
	}
	if _, _, err := s.Register(ctx, "ALICE", pw, "192.0.2.1"); !errors.Is(err, players.ErrUsernameTaken) {
		t.Fatalf("register ALICE after Alice: %v, want ErrUsernameTaken", err)
	}
}

func TestRegisterRefusesBadInputAndStoresNothing(t *testing.T) {
	s, _ := newService(t, players.Config{})
	ctx := context.Background()
	for _, tc := range []struct{ user, pw, field string }{
		{"al", pw, "username"},
		{"bob", "short", "password"},
		{"bobbybobby", "BobbyBobby", "password"},
	} {
		_, _, err := s.Register(ctx, tc.user, tc.pw, "192.0.2.1")
		var fe *players.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("Register(%q, %q) = %v, want a %s FieldError", tc.user, tc.pw, err, tc.field)
		}
		// Refused with the right credentials shape, so nothing exists.
		if _, err := s.Login(ctx, tc.user, tc.pw, "192.0.2.9"); !errors.Is(err, players.ErrInvalidCredentials) {
			t.Errorf("login after refused register of %q: %v, want ErrInvalidCredentials", tc.user, err)
		}
	}
}

func TestLogin(t *testing.T) {
	s, _ := newService(t, players.Config{})
	ctx := context.Background()
	if _, _, err := s.Register(ctx, "bob", pw, "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		user, pw string
		want     error
	}{
		{"bob", pw, nil},
		{"BOB", pw, nil},
		{"bob", pw + "!", players.ErrInvalidCredentials},
		{"nobody", pw, players.ErrInvalidCredentials},
		{"no such name!", pw, players.ErrInvalidCredentials},
	} {
		tok, err := s.Login(ctx, tc.user, tc.pw, "192.0.2.1")
		if !errors.Is(err, tc.want) {
			t.Errorf("Login(%q, %q) = %v, want %v", tc.user, tc.pw, err, tc.want)
			continue
		}
		if err == nil {
			if p, err := s.Authenticate(ctx, tok.Secret); err != nil || p.Username != "bob" {
				t.Errorf("token from Login(%q) authenticates as %+v, %v", tc.user, p, err)
			}
		}
	}
}

// TestLoginLimitPerAccountAndAddress: failures lock out the account only
// from the address that made them; a success there clears its count.
func TestLoginLimitPerAccountAndAddress(t *testing.T) {
	s, clk := newService(t, players.Config{LoginLimitPair: 3})
	ctx := context.Background()
	if _, _, err := s.Register(ctx, "carol", pw, "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	// Two failures, then a success clears the pair's count ...
	for range 2 {
		if _, err := s.Login(ctx, "carol", "wrong password", "192.0.2.2"); !errors.Is(err, players.ErrInvalidCredentials) {
			t.Fatal(err)
		}
	}
	if _, err := s.Login(ctx, "carol", pw, "192.0.2.2"); err != nil {
		t.Fatalf("third attempt (right password): %v", err)
	}
	// ... so three more failures are allowed, and the fourth attempt from
	// that address is refused even with the right password ...
	for i := range 3 {
		if _, err := s.Login(ctx, "Carol", "wrong password", "192.0.2.2"); !errors.Is(err, players.ErrInvalidCredentials) {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	_, err := s.Login(ctx, "carol", pw, "192.0.2.2")
	var rl *players.RateLimitError
	if !errors.As(err, &rl) || rl.Scope != "account_address" || rl.RetryAfter != 5*time.Minute {
		t.Fatalf("fourth attempt: %v, want an account_address RateLimitError retrying in 5m", err)
	}
	// ... while the right password from an address that has not failed is
	// let in.
	if _, err := s.Login(ctx, "carol", pw, "192.0.2.7"); err != nil {
		t.Fatalf("login from a clean address: %v", err)
	}
	// The next window allows logins again.
	clk.Add(5 * time.Minute)
	if _, err := s.Login(ctx, "carol", pw, "192.0.2.2"); err != nil {
		t.Fatalf("login in the next window: %v", err)
	}
}

// TestNobodyCanLockAnAccountFromElsewhere: a flood of failures for root
// and for the game server's account, from many addresses, refuses neither
// the right password from a clean address; past the per-account ceiling
// a player's attempts wait, the game server's from a clean address do not.
func TestNobodyCanLockAnAccountFromElsewhere(t *testing.T) {
	const delay = 300 * time.Millisecond
	s, _ := newService(t, players.Config{LoginLimitPair: 2, LoginLimitAccount: 4, LoginDelay: delay})
	ctx := context.Background()
	admin := players.Principal{Username: "root", Role: players.RoleAdmin}
	if _, err := s.EnsureAdmin(ctx, "root", pw); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateAccount(ctx, admin, "go-server", pw, players.RoleServer); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"root", "go-server"} {
		for i := range 6 {
			addr := "203.0.113." + string(rune('1'+i/2))
			_, err := s.Login(ctx, name, "wrong password", addr)
			if !errors.Is(err, players.ErrInvalidCredentials) && !errors.Is(err, players.ErrRateLimited) {
				t.Fatalf("flood of %s: %v", name, err)
			}
		}
		if _, err := s.Login(ctx, name, "wrong password", "203.0.113.1"); !errors.Is(err, players.ErrRateLimited) {
			t.Fatalf("a flooding address on %s: %v, want refused", name, err)
		}
	}
	// The right password from a clean address is let in: the admin after
	// the delay the ceiling adds, the game server at once.
	start := time.Now()
	if _, err := s.Login(ctx, "root", pw, "192.0.2.50"); err != nil {
		t.Fatalf("root from a clean address: %v", err)
	}
	if waited := time.Since(start); waited < delay {
		t.Fatalf("root past the account ceiling waited %v, want at least the delay %v", waited, delay)
	}
	if _, err := s.Login(ctx, "go-server", pw, "192.0.2.51"); err != nil {
		t.Fatalf("go-server from a clean address: %v", err)
	}
}

// TestLoginLimitPerAddress: one address failing on many accounts is
// refused; another address is judged on the password.
func TestLoginLimitPerAddress(t *testing.T) {
	s, _ := newService(t, players.Config{LoginLimitAddress: 4})
	ctx := context.Background()
	for _, name := range []string{"dave", "erin", "frank", "grace", "heidi"} {
		_, err := s.Login(ctx, name, pw, "198.51.100.7")
		if name != "heidi" && !errors.Is(err, players.ErrInvalidCredentials) {
			t.Fatalf("login %s: %v", name, err)
		}
		if name == "heidi" {
			var rl *players.RateLimitError
			if !errors.As(err, &rl) || rl.Scope != "address" {
				t.Fatalf("fifth login from one address: %v, want an address RateLimitError", err)
			}
		}
	}
	if _, err := s.Login(ctx, "heidi", pw, "198.51.100.8"); !errors.Is(err, players.ErrInvalidCredentials) {
		t.Fatalf("login from another address: %v, want it judged on the password", err)
	}
}

// TestSuccessfulLoginsNeverCount: an address that only succeeds (a
// school behind one NAT) is never refused.
func TestSuccessfulLoginsNeverCount(t *testing.T) {
	s, _ := newService(t, players.Config{LoginLimitPair: 2, LoginLimitAddress: 2})
	ctx := context.Background()
	if _, _, err := s.Register(ctx, "ivy", pw, "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if _, err := s.Login(ctx, "ivy", pw, "192.0.2.60"); err != nil {
			t.Fatalf("login %d: %v", i, err)
		}
	}
}

func TestRegisterLimitPerAddress(t *testing.T) {
	s, _ := newService(t, players.Config{RegisterLimitAddress: 2})
	ctx := context.Background()
	for i, name := range []string{"ivan", "judy", "mallory"} {
		_, _, err := s.Register(ctx, name, pw, "203.0.113.5")
		if i < 2 && err != nil {
			t.Fatalf("register %s: %v", name, err)
		}
		if i == 2 && !errors.Is(err, players.ErrRateLimited) {
			t.Fatalf("third registration from one address: %v, want ErrRateLimited", err)
		}
	}
	if _, err := s.Login(ctx, "mallory", pw, "203.0.113.6"); !errors.Is(err, players.ErrInvalidCredentials) {
		t.Fatalf("the refused registration created an account: %v", err)
	}
}

func TestTokenExpiryAndLogout(t *testing.T) {
	s, clk := newService(t, players.Config{TokenTTL: time.Hour})
	ctx := context.Background()
	_, tok, err := s.Register(ctx, "oscar", pw, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Hour - time.Millisecond)
	if _, err := s.Authenticate(ctx, tok.Secret); err != nil {
		t.Fatalf("token just before expiry: %v", err)
	}
	clk.Add(time.Millisecond)
	if _, err := s.Authenticate(ctx, tok.Secret); !errors.Is(err, players.ErrUnauthenticated) {
		t.Fatalf("token at expiry: %v, want ErrUnauthenticated", err)
	}
	tok2, err := s.Login(ctx, "oscar", pw, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	tok3, err := s.Login(ctx, "oscar", pw, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Logout(ctx, tok2.Secret); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, tok2.Secret); !errors.Is(err, players.ErrUnauthenticated) {
		t.Fatalf("token after logout: %v, want ErrUnauthenticated", err)
	}
	if _, err := s.Authenticate(ctx, tok3.Secret); err != nil {
		t.Fatalf("logout revoked another session's token: %v", err)
	}
	// A token one character off (never equal to the original).
	last := tok3.Secret[len(tok3.Secret)-1]
	flip := "A"
	if last == 'A' {
		flip = "B"
	}
	for _, bad := range []string{"", "Bearer x", tok3.Secret[:len(tok3.Secret)-1] + flip} {
		if _, err := s.Authenticate(ctx, bad); !errors.Is(err, players.ErrUnauthenticated) {
			t.Errorf("Authenticate(%q) = %v, want ErrUnauthenticated", bad, err)
		}
		if err := s.Logout(ctx, bad); !errors.Is(err, players.ErrUnauthenticated) {
			t.Errorf("Logout(%q) = %v, want ErrUnauthenticated", bad, err)
		}
	}
}

func TestCreateAccount(t *testing.T) {
	s, _ := newService(t, players.Config{})
	ctx := context.Background()
	admin := players.Principal{Username: "root", Role: players.RoleAdmin}
	for _, role := range players.CreatableRoles {
		name := "made-" + string(role)
		a, err := s.CreateAccount(ctx, admin, name, pw, role)
		if err != nil || a.Role != role || a.CreatedBy != "root" {
			t.Fatalf("CreateAccount(%s) = %+v, %v", role, a, err)
		}
		p, err := s.Authenticate(ctx, mustLogin(t, s, name).Secret)
		if err != nil || p.Role != role {
			t.Fatalf("%s logs in as %+v, %v", name, p, err)
		}
	}
	for _, by := range []players.Role{players.RolePlayer, players.RoleTeacher, players.RoleServer} {
		_, err := s.CreateAccount(ctx, players.Principal{Username: "x", Role: by}, "sneaky", pw, players.RoleAdmin)
		if !errors.Is(err, players.ErrForbidden) {
			t.Errorf("a %s created an account: %v", by, err)
		}
	}
	var fe *players.FieldError
	if _, err := s.CreateAccount(ctx, admin, "pleb", pw, players.RolePlayer); !errors.As(err, &fe) || fe.Field != "role" {
		t.Errorf("admin created a player account: %v, want a role FieldError", err)
	}
	if _, err := s.CreateAccount(ctx, admin, "Made-Server", pw, players.RoleServer); !errors.Is(err, players.ErrUsernameTaken) {
		t.Errorf("duplicate: %v, want ErrUsernameTaken", err)
	}
}

func mustLogin(t *testing.T, s *players.Service, name string) players.IssuedToken {
	t.Helper()
	tok, err := s.Login(context.Background(), name, pw, "192.0.2.1")
	if err != nil {
		t.Fatalf("login %s: %v", name, err)
	}
	return tok
}

func TestEnsureAdmin(t *testing.T) {
	s, _ := newService(t, players.Config{})
	ctx := context.Background()
	created, err := s.EnsureAdmin(ctx, "Root", pw)
	if err != nil || !created {
		t.Fatalf("first EnsureAdmin = %v, %v; want created", created, err)
	}
	// Again, even with another password: nothing changes.
	created, err = s.EnsureAdmin(ctx, "root", "another password")
	if err != nil || created {
		t.Fatalf("second EnsureAdmin = %v, %v; want not created, no error", created, err)
	}
	if p, err := s.Authenticate(ctx, mustLogin(t, s, "root").Secret); err != nil || p.Role != players.RoleAdmin {
		t.Fatalf("root logs in as %+v, %v", p, err)
	}
	if _, _, err := s.Register(ctx, "player1", pw, "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnsureAdmin(ctx, "player1", pw); !errors.Is(err, players.ErrUsernameTaken) {
		t.Fatalf("EnsureAdmin over a player: %v, want ErrUsernameTaken", err)
	}
}

// TestEnsureAdminConcurrent: replicas starting together create one admin.
func TestEnsureAdminConcurrent(t *testing.T) {
	s, _ := newService(t, players.Config{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := 0
	for range 4 {
		wg.Go(func() {
			c, err := s.EnsureAdmin(context.Background(), "root", pw)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			if c {
				created++
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if created != 1 {
		t.Fatalf("%d replicas created the admin, want 1", created)
	}
}

func TestNoLimiterRefusesLogin(t *testing.T) {
	store, err := playerdb.New(context.Background(), testsvc.Mongo(t))
	if err != nil {
		t.Fatal(err)
	}
	s := players.NewService(store, nil, players.Config{})
	if _, err := s.EnsureAdmin(context.Background(), "root", pw); err != nil {
		t.Fatalf("EnsureAdmin needs no limiter: %v", err)
	}
	if _, err := s.Login(context.Background(), "root", pw, "192.0.2.1"); err == nil {
		t.Fatal("login without a limiter succeeded")
	}
}

// BenchmarkAuthenticate is the cost every authenticated request pays: one
// token read from the store (here embedded FerretDB, or MongoDB).
func BenchmarkAuthenticate(b *testing.B) {
	store, err := playerdb.New(context.Background(), testsvc.Mongo(b))
	if err != nil {
		b.Fatal(err)
	}
	s := players.NewService(store, playerredis.New(testsvc.Redis(b)), players.Config{})
	_, tok, err := s.Register(context.Background(), "bench", pw, "192.0.2.1")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Authenticate(context.Background(), tok.Secret); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTokenCache: a token found valid is believed for TokenCacheTTL
// without the store (so a revocation written by another replica bites
// after at most that long), while a logout through this service bites at
// once.
func TestTokenCache(t *testing.T) {
	store, err := playerdb.New(context.Background(), testsvc.Mongo(t))
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: t0}
	cfg := players.Config{Now: clk.Now, TokenCacheTTL: 2 * time.Second}
	s := players.NewService(store, playerredis.New(testsvc.Redis(t)), cfg)
	other := players.NewService(store, playerredis.New(testsvc.Redis(t)), cfg) // another replica
	ctx := context.Background()
	_, tok, err := s.Register(ctx, "carol", pw, "192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, tok.Secret); err != nil {
		t.Fatal(err)
	}
	if err := other.Logout(ctx, tok.Secret); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Authenticate(ctx, tok.Secret); !errors.Is(err, players.ErrUnauthenticated) {
		t.Fatalf("the replica that revoked it still takes it: %v", err)
	}
	clk.Add(time.Second)
	if _, err := s.Authenticate(ctx, tok.Secret); err != nil {
		t.Fatalf("within the cache time the other replica's revocation is not yet seen: %v", err)
	}
	clk.Add(1500 * time.Millisecond)
	if _, err := s.Authenticate(ctx, tok.Secret); !errors.Is(err, players.ErrUnauthenticated) {
		t.Fatalf("after the cache time the revoked token works: %v", err)
	}
	// Off: every call asks the store.
	off := players.NewService(store, playerredis.New(testsvc.Redis(t)), players.Config{Now: clk.Now, TokenCacheTTL: -1})
	_, tok2, err := off.Register(ctx, "dave", pw, "192.0.2.8")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := off.Authenticate(ctx, tok2.Secret); err != nil {
		t.Fatal(err)
	}
	if err := other.Logout(ctx, tok2.Secret); err != nil {
		t.Fatal(err)
	}
	if _, err := off.Authenticate(ctx, tok2.Secret); !errors.Is(err, players.ErrUnauthenticated) {
		t.Fatalf("with the cache off a revoked token works: %v", err)
	}
}

func TestManagedAccounts(t *testing.T) {
	ctx := context.Background()
	s := players.NewService(playertest.NewMemory(), nil, players.Config{})
	got, err := s.CreateManaged(ctx, "sch1", "teacher1", []string{"Zhang Wei", "张伟", "Li 2"})
	if err != nil || len(got) != 3 {
		t.Fatalf("CreateManaged = %+v, %v", got, err)
	}
	for i, base := range []string{"zhangwei-", "s-", "li2-"} {
		a := got[i]
		if !strings.HasPrefix(a.Username, base) || len(a.Username) != len(base)+5 || a.ManagedBy != "sch1" || a.CreatedBy != "teacher1" || a.Role != players.RolePlayer {
			t.Errorf("account %d: %+v", i, a.Account)
		}
		if ok, err := players.VerifyPassword(a.PasswordHash, a.Password); !ok || err != nil || len(a.Password) != 11 {
			t.Errorf("account %d: first password %q does not verify (%v)", i, a.Password, err)
		}
		if strings.ContainsAny(a.Password+a.Username[len(base):], "01ilo") {
			t.Errorf("account %d: ambiguous characters in %s / %s", i, a.Username, a.Password)
		}
	}
	if _, err := s.CreateManaged(ctx, "sch1", "t", make([]string, players.ManagedBatchMax+1)); !errors.Is(err, players.ErrInvalid) {
		t.Errorf("an oversize batch: %v", err)
	}
}

func TestResetPassword(t *testing.T) {
	ctx := context.Background()
	store := playertest.NewMemory()
	s := players.NewService(store, nopLimiter{}, players.Config{})
	kids, err := s.CreateManaged(ctx, "sch1", "teacher1", []string{"ann"})
	if err != nil {
		t.Fatal(err)
	}
	kid := kids[0]
	tok, err := s.Login(ctx, kid.Username, kid.Password, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, tok.Secret); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ResetPassword(ctx, kid.Username, "sch2"); !errors.Is(err, players.ErrNotManaged) {
		t.Fatalf("another school resets: %v", err)
	}
	pw2, err := s.ResetPassword(ctx, kid.Username, "sch1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(ctx, tok.Secret); !errors.Is(err, players.ErrUnauthenticated) {
		t.Errorf("the old session survives a reset: %v", err)
	}
	if _, err := s.Login(ctx, kid.Username, kid.Password, "192.0.2.1"); !errors.Is(err, players.ErrInvalidCredentials) {
		t.Errorf("the old password still works: %v", err)
	}
	if _, err := s.Login(ctx, kid.Username, pw2, "192.0.2.1"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	if _, _, err := s.Register(ctx, "owner", "correct horse battery", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ResetPassword(ctx, "owner", "sch1"); !errors.Is(err, players.ErrNotManaged) {
		t.Errorf("reset of an account its owner holds: %v", err)
	}
	if _, err := s.ResetPassword(ctx, "nobody", "sch1"); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("reset of no account: %v", err)
	}
}

// nopLimiter allows every attempt (the limits are not the subject).
type nopLimiter struct{}

func (nopLimiter) Hit(context.Context, string, time.Time, time.Duration) (int64, error) {
	return 1, nil
}
func (nopLimiter) Reset(context.Context, string, time.Time, time.Duration) error { return nil }
func (nopLimiter) Count(context.Context, string, time.Time, time.Duration) (int64, error) {
	return 0, nil
}

// TestLoginBoundsWhatItReads: a malformed username's failures count under
// one name no account has, so the limiter's keys never carry what the
// caller sent; a password longer than any registered one is refused
// before it is hashed or counted.
func TestLoginBoundsWhatItReads(t *testing.T) {
	rdb := testsvc.Redis(t)
	store, err := playerdb.New(context.Background(), testsvc.Mongo(t))
	if err != nil {
		t.Fatal(err)
	}
	s := players.NewService(store, playerredis.New(rdb), players.Config{Now: (&clock{t: t0}).Now})
	ctx := context.Background()
	if _, _, err := s.Register(ctx, "bob", pw, "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	sent := strings.Repeat("q", 100_000) + "!"
	if _, err := s.Login(ctx, sent, pw, "192.0.2.77"); !errors.Is(err, players.ErrInvalidCredentials) {
		t.Fatalf("login as a malformed name: %v, want ErrInvalidCredentials", err)
	}
	keys, err := rdb.Keys(ctx, playerredis.KeyPrefix+"login:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	counted := false
	for _, k := range keys {
		if strings.Contains(k, "qqqqqqqq") || len(k) > 200 {
			t.Fatalf("a limiter key carries the name sent: %.80q… (%d bytes)", k, len(k))
		}
		counted = counted || strings.Contains(k, "192.0.2.77")
	}
	if !counted {
		t.Fatalf("the failure was not counted: keys %v", keys)
	}
	long := strings.Repeat("p", 4*players.PasswordMaxLen+1)
	var fe *players.FieldError
	if _, err := s.Login(ctx, "bob", long, "192.0.2.78"); !errors.As(err, &fe) || fe.Field != "password" || !strings.Contains(fe.Reason, fmt.Sprint(players.PasswordMaxLen)) {
		t.Fatalf("login with a %d-byte password: %v, want a password FieldError naming the limit", len(long), err)
	}
	if _, err := s.Login(ctx, "bob", pw, "192.0.2.78"); err != nil {
		t.Fatalf("the right password after: %v", err)
	}
}

// TestMakeRecorded: a keyed request's usernames are made when absent;
// one its earlier try made comes back with no password and keeps its
// own; one another teacher or school made, made before the request, or
// held by its owner is refused, and then nothing is made.
func TestMakeRecorded(t *testing.T) {
	ctx := context.Background()
	s := players.NewService(playertest.NewMemory(), nopLimiter{}, players.Config{})
	since := time.Now().UTC().Truncate(time.Millisecond)
	u1, err := players.ManagedUsername("Li Na")
	if err != nil || !strings.HasPrefix(u1, "lina-") {
		t.Fatalf("ManagedUsername = %q, %v", u1, err)
	}
	first, err := s.MakeRecorded(ctx, "sch1", "teacher1", []string{u1}, since)
	if err != nil || len(first) != 1 || first[0].Username != u1 || first[0].ManagedBy != "sch1" || first[0].Password == "" {
		t.Fatalf("MakeRecorded made %+v, %v", first, err)
	}
	u2, _ := players.ManagedUsername("Wang")
	again, err := s.MakeRecorded(ctx, "sch1", "teacher1", []string{u1, u2}, since)
	if err != nil || again[0].Password != "" || again[0].Username != u1 || again[1].Password == "" || again[1].Username != u2 {
		t.Fatalf("the retry: %+v, %v; want u1 without a password, u2 made", again, err)
	}
	for _, a := range []players.ManagedAccount{first[0], again[1]} {
		if _, err := s.Login(ctx, a.Username, a.Password, "192.0.2.1"); err != nil {
			t.Errorf("%s: the password shown does not work: %v", a.Username, err)
		}
	}
	if _, _, err := s.Register(ctx, "owner", "correct horse battery", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	u4, _ := players.ManagedUsername("Zhao")
	for what, tc := range map[string]struct {
		school, by, username string
		since                time.Time
	}{
		"another teacher's": {"sch1", "teacher2", u2, since},
		"another school's":  {"sch2", "teacher1", u2, since},
		"made before":       {"sch1", "teacher1", u2, since.Add(players.MadeBySkew + time.Second)},
		"held by its owner": {"sch1", "teacher1", "owner", since},
	} {
		if _, err := s.MakeRecorded(ctx, tc.school, tc.by, []string{u4, tc.username}, tc.since); !errors.Is(err, players.ErrNotManaged) {
			t.Errorf("%s: %v, want ErrNotManaged", what, err)
		}
	}
	if _, err := s.Account(ctx, u4); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("a refused request made %s: %v", u4, err)
	}
	if _, err := s.Login(ctx, u1, first[0].Password, "192.0.2.1"); err != nil {
		t.Errorf("a retry changed the password: %v", err)
	}
}
