package matchmaking

import (
	"context"
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
)

// sourcePrefix marks the source_id of a pairing's game.
const sourcePrefix = "match:"

// By is who a pairing's pending game says made it.
const By = "matchmaking"

// SourceID is the source_id of a pairing's game.
func SourceID(pairID string) string { return sourcePrefix + pairID }

// IntakeGames is the games intake as Games: a pairing's game is a pending
// game under the source_id "match:<pairing id>", so making it again after
// a crash or from a second replica finds the same game; an even game with
// the rules preset's komi. "Is this player in a game" is the intake's
// question about pending games not yet ended, exam games included.
type IntakeGames struct {
	Intake *intake.Intake
	// TTL is how long a pairing's game may stay unfinished before the
	// expire job voids it; 0 means the intake's default.
	TTL time.Duration
}

var _ Games = IntakeGames{}

// Unfinished implements Games.
func (g IntakeGames) Unfinished(ctx context.Context, player string) (bool, error) {
	return g.Intake.Unfinished(ctx, player)
}

// CreatePending implements Games.
func (g IntakeGames) CreatePending(ctx context.Context, p PendingGame) (string, error) {
	rules, ok := games.Preset(p.Rules)
	if !ok {
		return "", fmt.Errorf("pairing %s: unknown rules preset %q", p.ID, p.Rules)
	}
	sg, err := g.Intake.CreatePending(ctx, intake.Pending{
		SourceID: SourceID(p.ID), Black: p.Black, White: p.White, Size: p.BoardSize, Rules: rules,
		Komi: games.DefaultKomi(rules, 0), TimeControl: p.TimeControl, Rated: p.Rated,
		By: By, TTL: g.TTL,
	})
	if err != nil {
		return "", err
	}
	return sg.ID, nil
}
