package playertest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/players"
)

// Memory is a players.Store in memory that answers as playerdb does: the
// same sentinels, times in UTC to the millisecond (what a BSON date
// keeps), the first revocation time kept. It is safe for concurrent use.
// It passes Run, so tests whose subject is not storage can use it instead
// of a store server.
type Memory struct {
	// Fail, when set, is asked at the start of every method with the
	// method's name ("CreateAccount", "Token", …); an error it returns is
	// the method's answer and nothing is done (an outage, or a crash
	// before the write). Set it before the store is shared; to switch an
	// outage on and off, have it read an atomic.
	Fail func(method string) error

	mu       sync.Mutex
	accounts map[string]players.Account
	tokens   map[string]players.Token
	links    map[string]players.Link
	names    map[string]string // name key → account
}

var _ players.Store = (*Memory)(nil)

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	return &Memory{accounts: map[string]players.Account{}, tokens: map[string]players.Token{}, links: map[string]players.Link{}, names: map[string]string{}}
}

// enter runs the fault hook and refuses a finished context, as a driver
// call would (a deadline is the store being unavailable).
func (m *Memory) enter(ctx context.Context, method string) error {
	if m.Fail != nil {
		if err := m.Fail(method); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return outage.Wrap("memory", "playertest: "+method, err)
		}
		return fmt.Errorf("playertest: %s: %w", method, err)
	}
	return nil
}

// stored is t as a store keeps it.
func stored(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// CreateAccount implements players.Store.
func (m *Memory) CreateAccount(ctx context.Context, a players.Account) error {
	if err := m.enter(ctx, "CreateAccount"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.accounts[a.Username]; ok {
		return fmt.Errorf("%w: %q", players.ErrUsernameTaken, a.Username)
	}
	a.CreatedAt = stored(a.CreatedAt)
	m.accounts[a.Username] = a
	return nil
}

// CreateAccounts implements players.Store.
func (m *Memory) CreateAccounts(ctx context.Context, as []players.Account) ([]error, error) {
	if err := m.enter(ctx, "CreateAccounts"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]error, len(as))
	for i, a := range as {
		if _, ok := m.accounts[a.Username]; ok {
			out[i] = fmt.Errorf("%w: %q", players.ErrUsernameTaken, a.Username)
			continue
		}
		a.CreatedAt = stored(a.CreatedAt)
		m.accounts[a.Username] = a
	}
	return out, nil
}

// Account implements players.Store.
func (m *Memory) Account(ctx context.Context, username string) (players.Account, error) {
	if err := m.enter(ctx, "Account"); err != nil {
		return players.Account{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.accounts[username]
	if !ok {
		return players.Account{}, fmt.Errorf("account %q: %w", username, players.ErrNotFound)
	}
	return a, nil
}

// Accounts implements players.Store.
func (m *Memory) Accounts(ctx context.Context, q players.AccountQuery) ([]players.Account, error) {
	if err := m.enter(ctx, "Accounts"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []players.Account{}
	for _, a := range m.accounts {
		if a.Username > q.After && strings.HasPrefix(a.Username, q.Prefix) && (q.Role == "" || a.Role == q.Role) {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b players.Account) int { return strings.Compare(a.Username, b.Username) })
	if len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// CreateToken implements players.Store.
func (m *Memory) CreateToken(ctx context.Context, t players.Token) error {
	if err := m.enter(ctx, "CreateToken"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tokens[t.Hash]; ok {
		return players.ErrTokenTaken
	}
	t.IssuedAt, t.ExpiresAt = stored(t.IssuedAt), stored(t.ExpiresAt)
	if !t.RevokedAt.IsZero() {
		t.RevokedAt = stored(t.RevokedAt)
	}
	m.tokens[t.Hash] = t
	return nil
}

// Token implements players.Store.
func (m *Memory) Token(ctx context.Context, hash string) (players.Token, error) {
	if err := m.enter(ctx, "Token"); err != nil {
		return players.Token{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tokens[hash]
	if !ok {
		return players.Token{}, players.ErrNotFound
	}
	return t, nil
}

// RevokeToken implements players.Store: the first revocation time stays.
func (m *Memory) RevokeToken(ctx context.Context, hash string, at time.Time) error {
	if err := m.enter(ctx, "RevokeToken"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tokens[hash]
	if !ok {
		return players.ErrNotFound
	}
	if t.RevokedAt.IsZero() {
		t.RevokedAt = stored(at)
		m.tokens[hash] = t
	}
	return nil
}

// CreateLink implements players.Store: the first link stays.
func (m *Memory) CreateLink(ctx context.Context, l players.Link) (players.Link, error) {
	if err := m.enter(ctx, "CreateLink"); err != nil {
		return players.Link{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := l.Server + "/" + l.ExternalID
	if stored, ok := m.links[k]; ok {
		return stored, nil
	}
	l.At = l.At.UTC().Truncate(time.Millisecond)
	m.links[k] = l
	return l, nil
}

// Link implements players.Store.
func (m *Memory) Link(ctx context.Context, server, externalID string) (players.Link, error) {
	if err := m.enter(ctx, "Link"); err != nil {
		return players.Link{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	l, ok := m.links[server+"/"+externalID]
	if !ok {
		return players.Link{}, fmt.Errorf("link %s/%s: %w", server, externalID, players.ErrNotFound)
	}
	return l, nil
}

// SetPassword implements players.Store.
func (m *Memory) SetPassword(ctx context.Context, username, hash string) error {
	if err := m.enter(ctx, "SetPassword"); err != nil {
		return err
	}
	return m.updateAccount(username, func(a *players.Account) { a.PasswordHash = hash })
}

// updateAccount changes the stored account under the lock.
func (m *Memory) updateAccount(username string, change func(*players.Account)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.accounts[username]
	if !ok {
		return fmt.Errorf("account %q: %w", username, players.ErrNotFound)
	}
	change(&a)
	m.accounts[username] = a
	return nil
}

// RevokeTokens implements players.Store: tokens already revoked keep
// their time.
func (m *Memory) RevokeTokens(ctx context.Context, username string, at time.Time) error {
	if err := m.enter(ctx, "RevokeTokens"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for h, t := range m.tokens {
		if t.Username == username && t.RevokedAt.IsZero() {
			t.RevokedAt = stored(at)
			m.tokens[h] = t
		}
	}
	return nil
}

// ClaimName implements players.Store.
func (m *Memory) ClaimName(ctx context.Context, key, username string) error {
	if err := m.enter(ctx, "ClaimName"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if held, ok := m.names[key]; ok && held != username {
		return fmt.Errorf("name key %q: %w", key, players.ErrNameTaken)
	}
	m.names[key] = username
	return nil
}

// ReleaseName implements players.Store.
func (m *Memory) ReleaseName(ctx context.Context, key, username string) error {
	if err := m.enter(ctx, "ReleaseName"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.names[key] == username {
		delete(m.names, key)
	}
	return nil
}

// SetDisplayName implements players.Store.
func (m *Memory) SetDisplayName(ctx context.Context, username, name string) error {
	if err := m.enter(ctx, "SetDisplayName"); err != nil {
		return err
	}
	return m.updateAccount(username, func(a *players.Account) { a.DisplayName = name })
}
