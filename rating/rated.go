package rating

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// RatedGame is one rated game as the ledger applied it: its facts, and
// both players as they were before it (score, Glicko-2, rated games
// played), read from the game's plan. The integrity review reads it.
type RatedGame struct {
	ID       string
	SourceID string
	Black    PlayerState // before the game
	White    PlayerState
	Winner   Side
	Game     Game
	At       time.Time
}

// RatedGames lists the games the ledger applied with At in [from, to),
// oldest first. It reads every operation once (a scan: a nightly job's
// read, never a request's) and the plan of each game in the window.
func (s *Service) RatedGames(ctx context.Context, from, to time.Time) ([]RatedGame, error) {
	var ids []Operation
	err := s.store.EachOp(ctx, func(op Operation) error {
		if (op.Kind == "" || op.Kind == OpGame) && !op.At.Before(from) && op.At.Before(to) {
			ids = append(ids, op)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(ids, func(i, j int) bool {
		if !ids[i].At.Equal(ids[j].At) {
			return ids[i].At.Before(ids[j].At)
		}
		return ids[i].ID < ids[j].ID
	})
	var out []RatedGame
	for _, o := range ids {
		op, err := s.store.Op(ctx, o.ID)
		if err != nil {
			return nil, fmt.Errorf("rating: game %s: %w", o.ID, err)
		}
		if op.Plan == nil || op.Error != "" || len(op.Plan.Steps) != 2 || !moves(op.Game) {
			continue // not applied (yet, or for good), or it moved nothing
		}
		if done, err := s.isDone(ctx, op); err != nil || !done {
			if err != nil {
				return nil, fmt.Errorf("rating: game %s: %w", o.ID, err)
			}
			continue
		}
		g := RatedGame{ID: op.ID, SourceID: op.SourceID, Winner: op.Winner, Game: op.Game, At: op.At}
		for _, st := range op.Plan.Steps {
			switch st.Before.Username {
			case op.Black:
				g.Black = st.Before
			case op.White:
				g.White = st.Before
			}
		}
		out = append(out, g)
	}
	return out, nil
}
