package players

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrCannotPlay: the account exists but plays no games (a game server's).
var ErrCannotPlay = errors.New("account plays no games")

// knownFor is how long an account found playable is believed without
// asking the store again (decided: accounts are never deleted and
// usernames never change, so only a role changed to server within this
// time could be missed).
const knownFor = time.Minute

// knownMax bounds the playable cache; it is emptied when full.
const knownMax = 100_000

// playable remembers accounts found playable, username → until.
type playable struct {
	mu    sync.Mutex
	known map[string]time.Time
}

// Playable returns the stored (case-folded) username of an account that
// may play: any account but a game server's (decided: admins and teachers
// play too; a server account only submits). An unknown or malformed name
// is ErrNotFound, a server's account ErrCannotPlay.
func (s *Service) Playable(ctx context.Context, username string) (string, error) {
	name, err := NormalizeUsername(username)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	now := s.cfg.Now()
	s.play.mu.Lock()
	until, ok := s.play.known[name]
	s.play.mu.Unlock()
	if ok && now.Before(until) {
		return name, nil
	}
	a, err := s.store.Account(ctx, name)
	switch {
	case err != nil:
		return "", err
	case a.Role == RoleServer:
		return "", fmt.Errorf("%w: %s is a game server's account", ErrCannotPlay, name)
	}
	s.play.mu.Lock()
	if s.play.known == nil || len(s.play.known) >= knownMax {
		s.play.known = map[string]time.Time{}
	}
	s.play.known[a.Username] = now.Add(knownFor)
	s.play.mu.Unlock()
	return a.Username, nil
}
