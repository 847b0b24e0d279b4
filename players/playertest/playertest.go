package playertest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/players"
)

// Run checks that stores made by newStore keep the players.Store contract.
// Each subtest gets a fresh, empty store.
func Run(t *testing.T, newStore func(t *testing.T) players.Store) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s players.Store)
	}{
		{"AccountRoundTrip", accountRoundTrip},
		{"AccountNotFound", accountNotFound},
		{"DuplicateUsername", duplicateUsername},
		{"ConcurrentCreateOneWins", concurrentCreate},
		{"TokenRoundTrip", tokenRoundTrip},
		{"TokenNotFoundAndDuplicate", tokenNotFoundAndDuplicate},
		{"RevokeKeepsFirstTime", revokeKeepsFirstTime},
		{"RevokeUnknown", revokeUnknown},
		{"LinkOnce", linkOnce},
		{"TimesInUTCToTheMillisecond", timesInUTC},
		{"ManagedAccountRoundTrip", managedRoundTrip},
		{"SetPassword", setPassword},
		{"RevokeTokensOfOneAccount", revokeTokens},
		{"NameClaimedOnce", nameClaimedOnce},
		{"SetDisplayName", setDisplayName},
		{"AccountsPaged", accountsPaged},
		{"CreateAccountsInBulk", createAccountsInBulk},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

// t0 is a fixed instant with sub-millisecond digits: stores keep times to
// the millisecond (BSON dates), so callers give them whole milliseconds.
var t0 = time.Date(2026, 3, 1, 12, 30, 45, 123_000_000, time.UTC)

func account(name string, role players.Role) players.Account {
	return players.Account{Username: name, Role: role, PasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$a2V5", CreatedAt: t0, CreatedBy: "root"}
}

func accountRoundTrip(t *testing.T, s players.Store) {
	ctx := context.Background()
	for _, want := range []players.Account{
		account("alice", players.RolePlayer),
		account("go-server", players.RoleServer),
		{Username: "root", Role: players.RoleAdmin, PasswordHash: "h", CreatedAt: t0.Add(time.Hour)},
	} {
		if err := s.CreateAccount(ctx, want); err != nil {
			t.Fatalf("CreateAccount(%s): %v", want.Username, err)
		}
		got, err := s.Account(ctx, want.Username)
		if err != nil {
			t.Fatalf("Account(%s): %v", want.Username, err)
		}
		if got != want {
			t.Errorf("Account(%s) = %+v, want %+v", want.Username, got, want)
		}
	}
}

func accountNotFound(t *testing.T, s players.Store) {
	_, err := s.Account(context.Background(), "nobody")
	if !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("Account(nobody) err = %v, want ErrNotFound", err)
	}
}

func duplicateUsername(t *testing.T, s players.Store) {
	ctx := context.Background()
	first := account("bob", players.RolePlayer)
	if err := s.CreateAccount(ctx, first); err != nil {
		t.Fatal(err)
	}
	second := account("bob", players.RoleAdmin)
	second.PasswordHash = "other"
	if err := s.CreateAccount(ctx, second); !errors.Is(err, players.ErrUsernameTaken) {
		t.Fatalf("second CreateAccount err = %v, want ErrUsernameTaken", err)
	}
	got, err := s.Account(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if got != first {
		t.Fatalf("refused create changed the account: %+v, want %+v", got, first)
	}
}

func concurrentCreate(t *testing.T, s players.Store) {
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			a := account("carol", players.RolePlayer)
			a.PasswordHash = fmt.Sprint("h", i)
			errs[i] = s.CreateAccount(context.Background(), a)
		})
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, players.ErrUsernameTaken):
			t.Errorf("create %d: %v, want nil or ErrUsernameTaken", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d concurrent creates of one username succeeded, want exactly 1", won)
	}
}

func token(hash, user string) players.Token {
	return players.Token{Hash: hash, Username: user, Role: players.RolePlayer, IssuedAt: t0, ExpiresAt: t0.Add(24 * time.Hour)}
}

func tokenRoundTrip(t *testing.T, s players.Store) {
	ctx := context.Background()
	want := token("h1", "alice")
	if err := s.CreateToken(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Token(ctx, "h1")
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("Token = %+v, want %+v", got, want)
	}
}

func tokenNotFoundAndDuplicate(t *testing.T, s players.Store) {
	ctx := context.Background()
	if _, err := s.Token(ctx, "absent"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("Token(absent) err = %v, want ErrNotFound", err)
	}
	if err := s.CreateToken(ctx, token("h2", "alice")); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateToken(ctx, token("h2", "mallory")); !errors.Is(err, players.ErrTokenTaken) {
		t.Fatalf("duplicate CreateToken err = %v, want ErrTokenTaken", err)
	}
	got, err := s.Token(ctx, "h2")
	if err != nil || got.Username != "alice" {
		t.Fatalf("Token(h2) = %+v, %v; want alice's, unchanged", got, err)
	}
}

func revokeKeepsFirstTime(t *testing.T, s players.Store) {
	ctx := context.Background()
	for _, h := range []string{"h3", "other"} {
		if err := s.CreateToken(ctx, token(h, "alice")); err != nil {
			t.Fatal(err)
		}
	}
	first, second := t0.Add(time.Minute), t0.Add(2*time.Minute)
	if err := s.RevokeToken(ctx, "h3", first); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(ctx, "h3", second); err != nil {
		t.Fatalf("second revoke: %v, want nil (idempotent)", err)
	}
	got, err := s.Token(ctx, "h3")
	if err != nil {
		t.Fatal(err)
	}
	if !got.RevokedAt.Equal(first) {
		t.Fatalf("RevokedAt = %v, want the first revocation %v", got.RevokedAt, first)
	}
	other, err := s.Token(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	if !other.RevokedAt.IsZero() {
		t.Fatalf("revoking h3 revoked another token too: %+v", other)
	}
}

func revokeUnknown(t *testing.T, s players.Store) {
	if err := s.RevokeToken(context.Background(), "absent", t0); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("RevokeToken(absent) err = %v, want ErrNotFound", err)
	}
}

// timesInUTC: a store keeps times as BSON dates do, in UTC to the
// millisecond, whatever zone and precision they came in.
func timesInUTC(t *testing.T, s players.Store) {
	ctx := context.Background()
	shanghai := time.FixedZone("CST", 8*3600)
	at := time.Date(2026, 3, 1, 20, 30, 45, 123_456_789, shanghai)
	want := t0 // the same instant, in UTC, to the millisecond
	if err := s.CreateAccount(ctx, players.Account{Username: "dan", Role: players.RolePlayer, PasswordHash: "h", CreatedAt: at}); err != nil {
		t.Fatal(err)
	}
	a, err := s.Account(ctx, "dan")
	if err != nil {
		t.Fatal(err)
	}
	if a.CreatedAt != want {
		t.Errorf("CreatedAt = %v, want %v", a.CreatedAt, want)
	}
	tok := players.Token{Hash: "h4", Username: "dan", Role: players.RolePlayer, IssuedAt: at, ExpiresAt: at.Add(time.Hour)}
	if err := s.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(ctx, "h4", at.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Token(ctx, "h4")
	if err != nil {
		t.Fatal(err)
	}
	if got.IssuedAt != want || got.ExpiresAt != want.Add(time.Hour) || got.RevokedAt != want.Add(time.Minute) {
		t.Errorf("token times = %v, %v, %v; want %v, %v, %v", got.IssuedAt, got.ExpiresAt, got.RevokedAt, want, want.Add(time.Hour), want.Add(time.Minute))
	}
}

// linkOnce: a server's player id is linked once (the first link stays,
// also under concurrent callers), per server; an unknown id is
// ErrNotFound.
func linkOnce(t *testing.T, s players.Store) {
	ctx := context.Background()
	if _, err := s.Link(ctx, "fox", "1001"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("Link before any = %v, want ErrNotFound", err)
	}
	var wg sync.WaitGroup
	got := make([]players.Link, 8)
	for i := range got {
		wg.Go(func() {
			l, err := s.CreateLink(ctx, players.Link{Server: "fox", ExternalID: "1001", Username: fmt.Sprint("user", i), At: t0})
			if err != nil {
				t.Error(err)
			}
			got[i] = l
		})
	}
	wg.Wait()
	for _, l := range got {
		if l != got[0] || l.At != t0 {
			t.Fatalf("concurrent links gave %v and %v; want one stored link", l, got[0])
		}
	}
	if l, err := s.Link(ctx, "fox", "1001"); err != nil || l != got[0] {
		t.Fatalf("Link = %v, %v; want %v", l, err, got[0])
	}
	other, err := s.CreateLink(ctx, players.Link{Server: "ogs", ExternalID: "1001", Username: "bob", At: t0})
	if err != nil || other.Username != "bob" {
		t.Fatalf("the same id on another server: %v, %v", other, err)
	}
}

func managedRoundTrip(t *testing.T, s players.Store) {
	ctx := context.Background()
	want := account("kid-ab12c", players.RolePlayer)
	want.ManagedBy = "school-1"
	if err := s.CreateAccount(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Account(ctx, want.Username)
	if err != nil || got != want {
		t.Fatalf("Account = %+v, %v; want %+v", got, err, want)
	}
}

func setPassword(t *testing.T, s players.Store) {
	ctx := context.Background()
	a := account("dora", players.RolePlayer)
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPassword(ctx, "dora", "new-hash"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Account(ctx, "dora")
	a.PasswordHash = "new-hash"
	if err != nil || got != a {
		t.Fatalf("after SetPassword: %+v, %v; want %+v", got, err, a)
	}
	if err := s.SetPassword(ctx, "nobody", "x"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("SetPassword(nobody) = %v, want ErrNotFound", err)
	}
}

func revokeTokens(t *testing.T, s players.Store) {
	ctx := context.Background()
	for _, tk := range []players.Token{token("e1", "erin"), token("e2", "erin"), token("e3", "erin"), token("f1", "fred")} {
		if err := s.CreateToken(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	early, late := t0.Add(time.Minute), t0.Add(time.Hour)
	if err := s.RevokeToken(ctx, "e3", early); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeTokens(ctx, "erin", late); err != nil {
		t.Fatal(err)
	}
	for h, want := range map[string]time.Time{"e1": late, "e2": late, "e3": early, "f1": {}} {
		got, err := s.Token(ctx, h)
		if err != nil || !got.RevokedAt.Equal(want) {
			t.Errorf("token %s revoked at %v (%v), want %v", h, got.RevokedAt, err, want)
		}
	}
	if err := s.RevokeTokens(ctx, "nobody", late); err != nil {
		t.Errorf("RevokeTokens of an account without tokens: %v", err)
	}
}

// nameClaimedOnce: a key is one account's; claiming it again is no error
// for its holder, ErrNameTaken for another; released only by its holder.
func nameClaimedOnce(t *testing.T, s players.Store) {
	ctx := context.Background()
	if err := s.ClaimName(ctx, "k1", "ann"); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimName(ctx, "k1", "ann"); err != nil {
		t.Fatalf("claimed again by its holder: %v", err)
	}
	if err := s.ClaimName(ctx, "k1", "bob"); !errors.Is(err, players.ErrNameTaken) {
		t.Fatalf("claimed by another: %v, want ErrNameTaken", err)
	}
	if err := s.ReleaseName(ctx, "k1", "bob"); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimName(ctx, "k1", "bob"); !errors.Is(err, players.ErrNameTaken) {
		t.Fatalf("released by another, then claimed: %v, want ErrNameTaken", err)
	}
	if err := s.ReleaseName(ctx, "k1", "ann"); err != nil {
		t.Fatal(err)
	}
	if err := s.ClaimName(ctx, "k1", "bob"); err != nil {
		t.Fatalf("claimed after its release: %v", err)
	}
}

func setDisplayName(t *testing.T, s players.Store) {
	ctx := context.Background()
	a := account("gus", players.RolePlayer)
	if err := s.CreateAccount(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDisplayName(ctx, "gus", "柯洁"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Account(ctx, "gus")
	a.DisplayName = "柯洁"
	if err != nil || got != a {
		t.Fatalf("after SetDisplayName: %+v, %v; want %+v", got, err, a)
	}
	if err := s.SetDisplayName(ctx, "gus", ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Account(ctx, "gus"); got.DisplayName != "" {
		t.Fatalf("after clearing: %+v", got)
	}
	if err := s.SetDisplayName(ctx, "nobody", "x"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("SetDisplayName(nobody) = %v, want ErrNotFound", err)
	}
}

func accountsPaged(t *testing.T, s players.Store) {
	ctx := context.Background()
	want := map[string]players.Account{}
	for _, a := range []players.Account{
		account("carol", players.RoleTeacher), account("alice", players.RolePlayer), account("bob", players.RolePlayer),
		account("go-server", players.RoleServer), account("al-2", players.RolePlayer), account("root", players.RoleAdmin),
	} {
		a.DisplayName, a.ManagedBy = "name of "+a.Username, ""
		if a.Username == "al-2" {
			a.ManagedBy = "school-1"
		}
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
		want[a.Username] = a
	}
	names := func(q players.AccountQuery) string {
		t.Helper()
		list, err := s.Accounts(ctx, q)
		if err != nil {
			t.Fatalf("Accounts(%+v): %v", q, err)
		}
		var out []string
		for _, a := range list {
			if a != want[a.Username] {
				t.Errorf("Accounts(%+v) gave %+v, want %+v", q, a, want[a.Username])
			}
			out = append(out, a.Username)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		q    players.AccountQuery
		want string
	}{
		{players.AccountQuery{Limit: 10}, "al-2,alice,bob,carol,go-server,root"},
		{players.AccountQuery{Limit: 2}, "al-2,alice"},
		{players.AccountQuery{After: "alice", Limit: 2}, "bob,carol"},
		{players.AccountQuery{After: "go-server", Limit: 2}, "root"},
		{players.AccountQuery{After: "root", Limit: 2}, ""},
		{players.AccountQuery{Role: players.RolePlayer, Limit: 10}, "al-2,alice,bob"},
		{players.AccountQuery{Role: players.RolePlayer, After: "al-2", Limit: 1}, "alice"},
		{players.AccountQuery{Role: players.RoleAdmin, Limit: 10}, "root"},
		{players.AccountQuery{Prefix: "al", Limit: 10}, "al-2,alice"},
		{players.AccountQuery{Prefix: "al", After: "al-2", Limit: 10}, "alice"},
		{players.AccountQuery{Prefix: "alice", Limit: 10}, "alice"},
		{players.AccountQuery{Prefix: "b", Role: players.RoleTeacher, Limit: 10}, ""},
		{players.AccountQuery{Prefix: "zz", Limit: 10}, ""},
	} {
		if got := names(tc.q); got != tc.want {
			t.Errorf("Accounts(%+v) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

// createAccountsInBulk: CreateAccounts stores the new accounts as
// CreateAccount does and refuses, one by one, a username that exists or
// that an earlier account of the call has.
func createAccountsInBulk(t *testing.T, s players.Store) {
	ctx := context.Background()
	if err := s.CreateAccount(ctx, account("alice", players.RoleServer)); err != nil {
		t.Fatal(err)
	}
	as := []players.Account{account("bob", players.RolePlayer), account("alice", players.RolePlayer), account("carol", players.RolePlayer), account("bob", players.RolePlayer)}
	as[3].CreatedBy = "second"
	got, err := s.CreateAccounts(ctx, as)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(as) {
		t.Fatalf("CreateAccounts gave %d answers for %d accounts", len(got), len(as))
	}
	for i, want := range []bool{false, true, false, true} {
		if taken := errors.Is(got[i], players.ErrUsernameTaken); taken != want || (!want && got[i] != nil) {
			t.Errorf("answer %d (%s) = %v, want taken %v", i, as[i].Username, got[i], want)
		}
	}
	for _, want := range []players.Account{account("bob", players.RolePlayer), account("alice", players.RoleServer), account("carol", players.RolePlayer)} {
		a, err := s.Account(ctx, want.Username)
		if err != nil || a.Role != want.Role || a.CreatedBy != want.CreatedBy || !a.CreatedAt.Equal(want.CreatedAt) {
			t.Errorf("Account(%s) = %+v, %v; want %+v", want.Username, a, err, want)
		}
	}
}
