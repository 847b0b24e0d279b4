package players

import (
	"context"
	"errors"
	"fmt"
)

// ArchiveCreator is the CreatedBy of accounts made for the players of an
// imported archive (rankctl import --create-players).
const ArchiveCreator = "archive"

// EnsurePlayers makes a player account for each name that has no account
// (the names as NormalizeUsername reads them; a malformed one is a
// *FieldError and nothing is made), and returns the usernames made. The
// accounts' password is a random one that is hashed once per process
// and then forgotten: nobody can log in as them until an admin gives them a
// password, while their games are rated under their names. A name taken
// by an account that may not play (a game server's) is left as it is.
// A failed call may have made some it does not name: run again, it finds
// them as accounts (and names them neither).
func (s *Service) EnsurePlayers(ctx context.Context, names []string) ([]string, error) {
	var missing []string
	for _, n := range names {
		name, err := NormalizeUsername(n)
		if err != nil {
			return nil, err
		}
		if !s.knownPlayable(name) {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	hash, err := s.unknownPasswordHash(ctx)
	if err != nil {
		return nil, err
	}
	as := make([]Account, len(missing))
	for i, name := range missing {
		as[i] = Account{Username: name, Role: RolePlayer, PasswordHash: hash, CreatedAt: s.now(), CreatedBy: ArchiveCreator}
	}
	// Every missing one is offered: an account that exists refuses its
	// copy (ErrUsernameTaken) and is left as it is, a game server's too,
	// which costs no read first.
	answers, err := s.store.CreateAccounts(ctx, as)
	if err != nil {
		return nil, fmt.Errorf("create players: %w", err)
	}
	var made []string
	now := s.cfg.Now()
	for i, a := range answers {
		switch {
		case a == nil:
			made = append(made, as[i].Username)
			s.notePlayable(as[i].Username, now)
		case errors.Is(a, ErrUsernameTaken):
			// Has an account (one that may not play is left so: its games
			// are refused), or two names that fold to one.
		default:
			return made, fmt.Errorf("create player %s: %w", as[i].Username, a)
		}
	}
	return made, nil
}

// unknownPasswordHash is the hash of a random password nobody is told,
// made at the first call and kept.
func (s *Service) unknownPasswordHash(ctx context.Context) (string, error) {
	s.mu.Lock()
	h := s.archiveHash
	s.mu.Unlock()
	if h != "" {
		return h, nil
	}
	h, err := hashPassword(ctx, randomText(passwordHalf)+"-"+randomText(passwordHalf)+randomText(passwordHalf))
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.archiveHash == "" {
		s.archiveHash = h
	}
	return s.archiveHash, nil
}
