package gamedb

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/mongox"
)

var _ intake.BulkStore = (*Store)(nil)

// CreateAll implements intake.BulkStore: the finished games' unrated
// marks in one insert, then every game's entry in the players' lists in
// one, then the games in one (pending games are marked one by one, as
// Create marks them).
func (s *Store) CreateAll(ctx context.Context, gs []intake.StoredGame) ([]error, error) {
	docs := make([]any, len(gs))
	var marks []any
	var marked []int // the game of each mark
	for i, g := range gs {
		d, err := toDoc(g)
		if err != nil {
			return nil, err
		}
		docs[i] = d
		switch g.Status {
		case intake.StatusFinished:
			marks, marked = append(marks, mongox.Marker{ID: g.ID, At: g.FinishedAt.UTC()}), append(marked, i)
		case intake.StatusPending:
			if err := s.markPending(ctx, g); err != nil {
				return nil, err
			}
		}
	}
	fresh := make([]bool, len(gs)) // marked by this call, not before
	for j, err := range mongox.InsertMany(ctx, s.unrated, marks) {
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return nil, wrap("mark games unrated", err)
		}
		fresh[marked[j]] = err == nil
	}
	// Listed by player before they are stored, as Create lists a game.
	lists := make([]any, len(docs))
	for i, d := range docs {
		lists[i] = toPlayerDoc(d.(gameDoc))
	}
	for _, err := range mongox.InsertMany(ctx, s.players, lists) {
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return nil, wrap("list games by player", err)
		}
	}
	out := make([]error, len(gs))
	var unmark []string
	for i, err := range mongox.InsertMany(ctx, s.games, docs) {
		switch {
		case err == nil:
		case mongo.IsDuplicateKeyError(err):
			out[i] = fmt.Errorf("%w: %q", intake.ErrSourceTaken, gs[i].SourceID)
			if fresh[i] {
				unmark = append(unmark, gs[i].ID)
			}
		default:
			return nil, wrap("create games", err)
		}
	}
	// As in Create: a new mark beside a game already there goes again.
	if err := s.MarkAllRated(ctx, unmark); err != nil {
		return nil, wrap("unmark games", err)
	}
	return out, nil
}

// MarkAllRated implements intake.BulkStore: the games' unrated marks
// deleted in one command.
func (s *Store) MarkAllRated(ctx context.Context, ids []string) error {
	for start := 0; start < len(ids); start += maxMarkDelete {
		batch := ids[start:min(start+maxMarkDelete, len(ids))]
		if _, err := s.unrated.DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: batch}}}}); err != nil {
			return wrap("mark games rated", err)
		}
	}
	return nil
}

// maxMarkDelete bounds the ids of one delete of marks.
const maxMarkDelete = 1000
