package games

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Presence keeps who showed up for a pending game (adapter
// gamedb.Presence). Every write is an insert under the game and player,
// so checking in twice is one check-in.
type Presence interface {
	// CheckIn records that player showed up for the game at `at`; again
	// is no error (the first time stays).
	CheckIn(ctx context.Context, gameID, player string, at time.Time) error
	// Present lists the players who checked in for the game, sorted.
	Present(ctx context.Context, gameID string) ([]string, error)
}

// ErrNotInGame: the caller is neither player of the game.
var ErrNotInGame = errors.New("not a player of this game")

// Attendance lets the players of a pending game say they showed up. An
// exam counts an unplayed game as a forfeit of the side that did not
// check in before the game expired (ranks.Settle).
type Attendance struct {
	Games    Store
	Presence Presence
	Now      func() time.Time // time.Now when nil
}

// CheckIn records that player, one of the game's two players, showed up
// for it. Only a pending game whose time is not up takes check-ins
// (ErrNotPending otherwise); checking in again is no error.
func (a Attendance) CheckIn(ctx context.Context, gameID, player string) (StoredGame, error) {
	g, err := a.Games.Game(ctx, gameID)
	if err != nil {
		return StoredGame{}, err
	}
	if player != g.Black && player != g.White {
		return StoredGame{}, fmt.Errorf("%w: %s plays neither black (%s) nor white (%s) in game %s", ErrNotInGame, player, g.Black, g.White, g.ID)
	}
	now := time.Now
	if a.Now != nil {
		now = a.Now
	}
	at := now().UTC().Truncate(time.Millisecond)
	if g.Status != StatusPending || (!g.ExpiresAt.IsZero() && !at.Before(g.ExpiresAt)) {
		status := g.Status
		if status == StatusPending {
			status = StatusExpired
		}
		return StoredGame{}, fmt.Errorf("%w: game %s is %s", ErrNotPending, g.ID, status)
	}
	return g, a.Presence.CheckIn(ctx, g.ID, player, at)
}

// Present lists who checked in for the game.
func (a Attendance) Present(ctx context.Context, gameID string) ([]string, error) {
	return a.Presence.Present(ctx, gameID)
}
