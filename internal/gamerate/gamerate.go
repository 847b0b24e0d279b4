package gamerate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// Rater is rating.Service as a games.Rater.
type Rater struct{ Service *rating.Service }

var _ games.Rater = Rater{}

// Input turns a finished game into the rating service's input: the
// verdict's winner, and the facts the ladder looks at (moves after the
// setup stones, handicap, draw or void, escape).
func Input(g games.StoredGame) (rating.GameInput, error) {
	if g.Verdict == nil || g.Record == nil {
		return rating.GameInput{}, fmt.Errorf("gamerate: game %s is %s, not judged", g.ID, g.Status)
	}
	v := g.Verdict
	in := rating.GameInput{
		ID: g.ID, Black: g.Black, White: g.White, SourceID: g.SourceID, Actor: g.SubmittedBy, At: g.FinishedAt,
		Game: rating.Game{Moves: v.Moves, Handicap: g.Record.Handicap},
	}
	switch {
	case v.End == games.EndVoid:
		in.Game.Outcome = rating.Void
	case v.Winner == games.Empty:
		in.Game.Outcome = rating.Draw
	case v.Winner == games.Black:
		in.Winner = rating.SideBlack
	default:
		in.Winner = rating.SideWhite
	}
	in.Game.Escape = in.Winner != rating.SideNone && v.End == games.EndEscape
	return in, nil
}

// Rate implements games.Rater. A game not rated moves nothing: the
// players' current ratings come back with delta 0.
func (r Rater) Rate(ctx context.Context, g games.StoredGame) (games.Rating, error) {
	var res rating.GameResult
	var err error
	if g.Rated {
		in, ierr := Input(g)
		if ierr != nil {
			return games.Rating{}, ierr
		}
		res, err = r.Service.Apply(ctx, in)
	} else {
		var b, w rating.PlayerState
		if b, err = r.Service.PlayerOrNew(ctx, g.Black); err == nil {
			w, err = r.Service.PlayerOrNew(ctx, g.White)
		}
		res = rating.GameResult{Black: rating.PlayerResult{PlayerState: b}, White: rating.PlayerResult{PlayerState: w}}
	}
	if errors.Is(err, rating.ErrInvalidGame) {
		return games.Rating{}, fmt.Errorf("%w: %w", games.ErrNotRatable, err)
	}
	if err != nil {
		return games.Rating{}, err
	}
	return games.Rating{Black: After(res.Black), White: After(res.White)}, nil
}

// After is one player's rating after a game in games' shape.
func After(p rating.PlayerResult) games.PlayerRating {
	return games.PlayerRating{
		Username: p.Username, Delta: p.Delta, Score: p.Score, Rank: p.Rank().String(),
		Rating: p.Glicko.Rating, RD: p.Glicko.RD, Volatility: p.Glicko.Volatility,
	}
}

// Players is players.Store as games.Players: any account but a game
// server's may play (decided: admins and teachers play too; a server
// account only submits). Players found are remembered for knownFor:
// accounts are never deleted and usernames never change, so only a role
// changed to server within that time could be missed.
type Players struct {
	Store players.Store

	mu    sync.Mutex
	known map[string]time.Time // username → until
}

// knownFor is how long a player found is not looked up again (decided).
const knownFor = time.Minute

// NewPlayers returns the adapter on the store.
func NewPlayers(store players.Store) *Players {
	return &Players{Store: store, known: map[string]time.Time{}}
}

var _ games.Players = (*Players)(nil)

// Resolve implements games.Players.
func (p *Players) Resolve(ctx context.Context, username string) (string, error) {
	name, err := players.NormalizeUsername(username)
	if err != nil {
		return "", fmt.Errorf("%w: %v", games.ErrUnknownPlayer, err)
	}
	now := time.Now()
	p.mu.Lock()
	until, ok := p.known[name]
	p.mu.Unlock()
	if ok && now.Before(until) {
		return name, nil
	}
	name, err = p.lookup(ctx, name)
	if err == nil {
		p.mu.Lock()
		if len(p.known) >= 100_000 {
			clear(p.known)
		}
		p.known[name] = now.Add(knownFor)
		p.mu.Unlock()
	}
	return name, err
}

func (p *Players) lookup(ctx context.Context, name string) (string, error) {
	a, err := p.Store.Account(ctx, name)
	switch {
	case errors.Is(err, players.ErrNotFound):
		return "", fmt.Errorf("%w: %s", games.ErrUnknownPlayer, name)
	case err != nil:
		return "", err
	case a.Role == players.RoleServer:
		return "", fmt.Errorf("%w: %s is a game server's account", games.ErrUnknownPlayer, name)
	}
	return a.Username, nil
}
