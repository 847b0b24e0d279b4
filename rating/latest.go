package rating

import (
	"context"
	"errors"
	"fmt"
)

// ErrPlayed: a change allowed only before the player's first rated game
// (ChangeInput.BeforeFirstGame) came after it.
var ErrPlayed = errors.New("the player has played a rated game")

// playedText ends a PlayedError's text, which is what a given-up
// operation keeps (Operation.Error), so a retry answers ErrPlayed too.
const playedText = "has played a rated game"

// PlayedError says that a change allowed only before the first rated
// game came too late. It unwraps to ErrPlayed.
type PlayedError struct {
	Player string
	Games  int
}

func (e *PlayedError) Error() string {
	return fmt.Sprintf("rating: %s (%d games) %s", e.Player, e.Games, playedText)
}

// Unwrap lets errors.Is(err, ErrPlayed) match.
func (e *PlayedError) Unwrap() error { return ErrPlayed }

// LatestOf is Latest for many players at once, in one store query (the
// order of usernames; players never rated in their new state).
func (s *Service) LatestOf(ctx context.Context, usernames []string) ([]PlayerState, error) {
	got, err := s.store.LatestOf(ctx, usernames)
	if err != nil {
		return nil, err
	}
	by := make(map[string]PlayerState, len(got))
	for _, st := range got {
		by[st.Username] = st
	}
	out := make([]PlayerState, len(usernames))
	for i, u := range usernames {
		st, ok := by[u]
		if !ok {
			st = NewPlayer(u)
		}
		out[i] = st
	}
	return out, nil
}

// Latest returns the player's state as last recorded: one store read
// (Store.Latest), where Player may need more. It can be behind Player
// when two writers crossed or one died between its two writes (the next
// game or Player read repairs it); reads that show many players at once
// (a class table) take it. A player never rated is their new state.
func (s *Service) Latest(ctx context.Context, username string) (PlayerState, error) {
	st, err := s.store.Latest(ctx, username)
	if errors.Is(err, ErrNotFound) {
		return NewPlayer(username), nil
	}
	return st, err
}
