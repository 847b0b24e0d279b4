package players

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"
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
	if s.knownPlayable(name) {
		return name, nil
	}
	a, err := s.store.Account(ctx, name)
	switch {
	case err != nil:
		return "", err
	case a.Role == RoleServer:
		return "", fmt.Errorf("%w: %s is a game server's account", ErrCannotPlay, name)
	}
	s.notePlayable(a.Username, s.cfg.Now())
	return a.Username, nil
}

// knownPlayable reports whether the account was found playable lately.
func (s *Service) knownPlayable(name string) bool {
	now := s.cfg.Now()
	s.play.mu.Lock()
	defer s.play.mu.Unlock()
	until, ok := s.play.known[name]
	return ok && now.Before(until)
}

// notePlayable remembers that the account may play, for knownFor from
// now.
func (s *Service) notePlayable(name string, now time.Time) {
	s.play.mu.Lock()
	defer s.play.mu.Unlock()
	s.play.note(name, now)
}

// note is notePlayable with play.mu held.
func (p *playable) note(name string, now time.Time) {
	if p.known == nil || len(p.known) >= knownMax {
		p.known = map[string]time.Time{}
	}
	p.known[name] = now.Add(knownFor)
}

// seenPlaying notes, from a valid token, that its account may play
// (Playable's rule, from the role the token was issued with: roles never
// change), so that Playable of a player who just called needs no store
// read (a pairing's two players have just polled their tickets).
func (s *Service) seenPlaying(p Principal, now time.Time) {
	if p.Role == RoleServer {
		return
	}
	s.play.mu.Lock()
	defer s.play.mu.Unlock()
	if until, ok := s.play.known[p.Username]; ok && until.Sub(now) > knownFor/2 {
		return // known long enough: spare the write
	}
	s.play.note(p.Username, now)
}

// MaxExternalID bounds a game server's player id (decided: the servers'
// ids are numbers or short handles).
const MaxExternalID = 64

// ErrLinked: the server's id is linked to another account already.
var ErrLinked = errors.New("the server's player id is linked to another account")

// LinkPlayer ties the game server's own id of a player to a platform
// account that may play, once: the same link again is no error, another
// account for the same id is ErrLinked (a link is never moved, so a game
// already submitted under the id keeps its player).
func (s *Service) LinkPlayer(ctx context.Context, server, externalID, username string) (Link, error) {
	externalID = strings.TrimSpace(externalID)
	// Invisible format characters (U+200B, U+202E) too: intake refuses
	// them in black_id and white_id, so such a link could never be used.
	if externalID == "" || len(externalID) > MaxExternalID || strings.IndexFunc(externalID, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) >= 0 {
		return Link{}, &FieldError{Field: "external_id", Reason: fmt.Sprintf("must be 1 to %d characters, none of them control or invisible characters", MaxExternalID)}
	}
	name, err := s.Playable(ctx, username)
	if err != nil {
		return Link{}, err
	}
	want := Link{Server: server, ExternalID: externalID, Username: name, At: s.now()}
	got, err := s.store.CreateLink(ctx, want)
	if err != nil {
		return Link{}, err
	}
	if got.Username != name {
		return Link{}, fmt.Errorf("%w: %s's id %q is %s", ErrLinked, server, externalID, got.Username)
	}
	return got, nil
}

// Linked returns the account a game server's player id is linked to;
// ErrNotFound if there is none.
func (s *Service) Linked(ctx context.Context, server, externalID string) (string, error) {
	l, err := s.store.Link(ctx, server, strings.TrimSpace(externalID))
	if err != nil {
		return "", err
	}
	return l.Username, nil
}
