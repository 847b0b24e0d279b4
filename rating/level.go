package rating

import (
	"context"
	"errors"
)

// LevelOf returns the player's latest state as this process last wrote
// it (no read), else as last recorded (the store's Latest: one read), or
// the state they would start with: for reads that only show or match a
// level, such as a matchmaking ticket, never for a write. It may be
// behind Player while writers cross or another process wrote since;
// every rating write goes through the holds, which read the truth.
func (s *Service) LevelOf(ctx context.Context, username string) (PlayerState, error) {
	if st, ok := s.hint(username); ok {
		return st, nil
	}
	st, err := s.store.Latest(ctx, username)
	if errors.Is(err, ErrNotFound) {
		return s.newPlayer(username), nil
	}
	return st, err
}
