package mmports

import (
	"context"
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/matchmaking"
)

// sourcePrefix marks the source_id of a pairing's game.
const sourcePrefix = "match:"

// By is who a pairing's pending game says made it.
const By = "matchmaking"

// SourceID is the source_id of a pairing's game.
func SourceID(pairID string) string { return sourcePrefix + pairID }

// Intake is what Games needs of games.Intake.
type Intake interface {
	CreatePending(ctx context.Context, p games.Pending) (games.StoredGame, error)
	Unfinished(ctx context.Context, player string) (bool, error)
}

// Games is the games side as matchmaking.Games.
type Games struct {
	Intake Intake
	// TTL is how long a pairing's game may stay unfinished before the
	// expire job voids it; 0 means games.DefaultPendingTTL.
	TTL time.Duration
}

var _ matchmaking.Games = Games{}

// Unfinished implements matchmaking.Games.
func (g Games) Unfinished(ctx context.Context, player string) (bool, error) {
	return g.Intake.Unfinished(ctx, player)
}

// CreatePending implements matchmaking.Games: an even game with the rules
// preset's komi, idempotent by the pairing id.
func (g Games) CreatePending(ctx context.Context, p matchmaking.PendingGame) (string, error) {
	rules, ok := games.Preset(p.Rules)
	if !ok {
		return "", fmt.Errorf("pairing %s: unknown rules preset %q", p.ID, p.Rules)
	}
	sg, err := g.Intake.CreatePending(ctx, games.Pending{
		SourceID: SourceID(p.ID), Black: p.Black, White: p.White, Size: p.BoardSize, Rules: rules,
		Komi: games.DefaultKomi(rules, 0), TimeControl: p.TimeControl.String(), Rated: p.Rated,
		By: By, TTL: g.TTL,
	})
	if err != nil {
		return "", err
	}
	return sg.ID, nil
}
