package intake

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

// CheckIn records that player, one of the game's two players, showed up
// for it. Only a pending game whose time is not up takes check-ins
// (ErrNotPending otherwise); checking in again is no error. An exam counts
// an unplayed game as a forfeit of the side that did not check in before
// the game expired.
func (in *Intake) CheckIn(ctx context.Context, gameID, player string) (StoredGame, error) {
	g, err := in.store.Game(ctx, gameID)
	if err != nil {
		return StoredGame{}, err
	}
	if player != g.Black && player != g.White {
		return StoredGame{}, fmt.Errorf("%w: %s plays neither black (%s) nor white (%s) in game %s", ErrNotInGame, player, g.Black, g.White, g.ID)
	}
	at := in.now()
	if g.Status != StatusPending || (!g.ExpiresAt.IsZero() && !at.Before(g.ExpiresAt)) {
		status := g.Status
		if status == StatusPending {
			status = StatusExpired
		}
		return StoredGame{}, fmt.Errorf("%w: game %s is %s", ErrNotPending, g.ID, status)
	}
	return g, in.presence.CheckIn(ctx, g.ID, player, at)
}

// Present lists who checked in for the game.
func (in *Intake) Present(ctx context.Context, gameID string) ([]string, error) {
	return in.presence.Present(ctx, gameID)
}
