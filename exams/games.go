package exams

import (
	"context"
	"errors"
	"fmt"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// sourcePrefix makes an exam game's source_id: no other source's id can
// take it, since a submitted game's source_id is its source's own.
const sourcePrefix = "exam:"

// SourceID is the source_id of the pending game of an exam game.
func SourceID(examGameID string) string { return sourcePrefix + examGameID }

// GameID is the id of the stored game of an exam game: the id the players
// and the game server use (check-in, result).
func GameID(examGameID string) string { return intake.GameIDFor(SourceID(examGameID)) }

// createGame makes the exam game g a pending game of the intake: an even
// game with the rules' komi, expiring at the session's deadline,
// idempotent by the exam game's id (its source_id is derived from it).
func (s *Service) createGame(ctx context.Context, g Game) error {
	rules, ok := games.Preset(g.Rules)
	if !ok {
		return fmt.Errorf("exam game %s: unknown rules %q", g.ID, g.Rules)
	}
	_, err := s.Intake.CreatePending(ctx, intake.Pending{
		SourceID: SourceID(g.ID), Black: g.Black, White: g.White, Size: g.BoardSize, Rules: rules,
		Komi: games.DefaultKomi(rules, 0), TimeControl: g.TimeControl, Rated: g.Rated,
		By: sourcePrefix + g.SessionID, Until: g.Deadline,
	})
	return err
}

// outcome reads an exam game's stored game: a finished game's winner by
// username ("" for a draw), void when it ended without a result or was
// annulled; for a game not finished (pending or expired), who checked in.
func (s *Service) outcome(ctx context.Context, examGameID string) (Outcome, error) {
	sg, err := s.Intake.Game(ctx, GameID(examGameID))
	if errors.Is(err, intake.ErrNotFound) {
		return Outcome{}, fmt.Errorf("exam game %s: %w", examGameID, ErrNotFound)
	}
	if err != nil {
		return Outcome{}, err
	}
	switch sg.Status {
	case intake.StatusFinished, intake.StatusRated:
		if _, err := s.Ratings.Annulment(ctx, sg.ID); err == nil {
			return Outcome{Finished: true, Void: true}, nil
		} else if !errors.Is(err, rating.ErrNotFound) {
			return Outcome{}, err
		}
		v := sg.Verdict
		switch {
		case v == nil || v.End == games.EndVoid:
			return Outcome{Finished: true, Void: true}, nil
		case v.Winner == games.Black:
			return Outcome{Finished: true, Winner: sg.Black}, nil
		case v.Winner == games.White:
			return Outcome{Finished: true, Winner: sg.White}, nil
		}
		return Outcome{Finished: true}, nil // a draw
	}
	present, err := s.Intake.Present(ctx, sg.ID)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Present: present}, nil
}

// state is a player's rating state (ladder score, certified rank); an
// account that may not play is ErrUnknownPlayer.
func (s *Service) state(ctx context.Context, player string) (rating.PlayerState, error) {
	name, err := s.Accounts.Playable(ctx, player)
	if errors.Is(err, players.ErrNotFound) || errors.Is(err, players.ErrCannotPlay) {
		return rating.PlayerState{}, fmt.Errorf("%w: %s", ErrUnknownPlayer, player)
	}
	if err != nil {
		return rating.PlayerState{}, err
	}
	return s.Ratings.PlayerOrNew(ctx, name)
}
