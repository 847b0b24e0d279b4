package intake

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/rating"
)

// RatingInput turns a finished game into the rating service's input: the
// verdict's winner, and the facts the ladder looks at (moves after the
// setup stones, handicap, draw or void, escape).
func RatingInput(g StoredGame) (rating.GameInput, error) {
	if g.Verdict == nil || g.Record == nil {
		return rating.GameInput{}, fmt.Errorf("intake: game %s is %s, not judged", g.ID, g.Status)
	}
	return ratingInput(g, BoundHash(g)), nil
}

// ratingInput is RatingInput of a judged game whose BoundHash is bound.
func ratingInput(g StoredGame, bound string) rating.GameInput {
	v := g.Verdict
	in := rating.GameInput{
		ID: g.ID, Black: g.Black, White: g.White, SourceID: g.SourceID, GameHash: bound, Actor: g.SubmittedBy, At: g.FinishedAt,
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
	return in
}

// rate has a stored finished game rated (exactly once, keyed by its id)
// and marks it so. A game not rated moves nothing: the players' current
// ratings come back with delta 0.
func (in *Intake) rate(ctx context.Context, g StoredGame, retry bool) (Accepted, error) {
	var res rating.GameResult
	if g.Rated {
		ri, err := RatingInput(g)
		if err != nil {
			return Accepted{}, err
		}
		// Until it is marked rated the game is listed as unrated, and
		// Recover (or the source's retry) applies it again: the rating
		// service need not keep a marker of its own.
		ri.Tracked = true
		ri.Fresh = !retry // stored by this call: no rating of it was begun
		if res, err = in.ratings.Apply(ctx, ri); err != nil {
			return Accepted{}, err
		}
	} else {
		b, err := in.ratings.PlayerOrNew(ctx, g.Black)
		if err != nil {
			return Accepted{}, err
		}
		w, err := in.ratings.PlayerOrNew(ctx, g.White)
		if err != nil {
			return Accepted{}, err
		}
		res = rating.GameResult{Black: rating.PlayerResult{PlayerState: b}, White: rating.PlayerResult{PlayerState: w}}
	}
	// The flag goes with the rating step: a crash before it is repaired
	// by the retry or Recover, which rate again.
	if g.Verdict != nil && g.Verdict.CountUnverified {
		if err := in.store.Flag(ctx, g.ID, FlagCountUnverified, g.FinishedAt); err != nil {
			return Accepted{}, err
		}
	}
	if g.Status != StatusRated {
		if err := in.store.MarkRated(ctx, g.ID); err != nil {
			return Accepted{}, err
		}
		g.Status = StatusRated
	}
	return Accepted{Game: g, Rating: res, Retry: retry}, nil
}

// Flagged lists a page of the games with a flag, newest first.
func (in *Intake) Flagged(ctx context.Context, flag string, after *FlagCursor, limit int) ([]FlaggedGame, error) {
	if !slices.Contains(Flags, flag) {
		return nil, invalid("flag", "%q is not a flag of games (known: %s)", flag, strings.Join(Flags, ", "))
	}
	return in.store.Flagged(ctx, flag, after, limit)
}
