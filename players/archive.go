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
// accounts' password is a random one that is hashed once per call and
// then forgotten: nobody can log in as them until an admin gives them a
// password, while their games are rated under their names. A name taken
// by an account that may not play (a game server's) is left as it is.
func (s *Service) EnsurePlayers(ctx context.Context, names []string) ([]string, error) {
	var missing []string
	for _, n := range names {
		name, err := NormalizeUsername(n)
		if err != nil {
			return nil, err
		}
		_, err = s.Playable(ctx, name)
		switch {
		case err == nil, errors.Is(err, ErrCannotPlay):
			// Has an account (one that may not play is left so: its games
			// are refused).
		case errors.Is(err, ErrNotFound):
			missing = append(missing, name)
		default:
			return nil, err
		}
	}
	if len(missing) == 0 {
		return nil, nil
	}
	hash, err := hashPassword(ctx, randomText(passwordHalf)+"-"+randomText(passwordHalf)+randomText(passwordHalf))
	if err != nil {
		return nil, err
	}
	var made []string
	for _, name := range missing {
		a := Account{Username: name, Role: RolePlayer, PasswordHash: hash, CreatedAt: s.now(), CreatedBy: ArchiveCreator}
		err := s.store.CreateAccount(ctx, a)
		switch {
		case err == nil:
			made = append(made, name)
		case errors.Is(err, ErrUsernameTaken):
			// Made meanwhile (two names that fold to one, or a rerun).
		default:
			return made, fmt.Errorf("create player %s: %w", name, err)
		}
	}
	return made, nil
}
