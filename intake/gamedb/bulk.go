package gamedb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/mongox"
)

var _ intake.BulkStore = (*Store)(nil)

// minBatchMark is the fewest finished games CreateAll marks with one
// batch mark instead of a mark each. An import's thousand marks and their
// delete were about a tenth of its time on the embedded store (stop 33).
const minBatchMark = 2

// batchMarkDoc marks, in Unrated, the finished games one CreateAll stored:
// each of them names it (gameDoc.Batch) and is unrated while it is there.
// Its games are listed for settleBatch, which turns it into their own
// marks when only some of them are rated, or after an interruption.
type batchMarkDoc struct {
	ID    string    `bson:"_id"` // "b:" and a hash of the games' ids
	At    time.Time `bson:"at"`  // the first game's end, as a mark's
	Games []string  `bson:"games"`
}

// madeGame is a game stored under a batch mark this Store inserted.
type madeGame struct {
	id string
	at time.Time
}

// isBatchMark tells a batch mark's id from a game's (game ids have no
// colon).
func isBatchMark(id string) bool { return strings.HasPrefix(id, "b:") }

func batchMarkID(ids []string) string {
	sum := sha256.Sum256([]byte(strings.Join(ids, "\n")))
	return "b:" + hex.EncodeToString(sum[:16])
}

// CreateAll implements intake.BulkStore: the finished games' batch mark
// (one mark a game when there is one), then every game's entry in the
// players' lists, then the games, one insert each (pending games are
// marked one by one, as Create marks them).
func (s *Store) CreateAll(ctx context.Context, gs []intake.StoredGame) ([]error, error) {
	docs := make([]gameDoc, len(gs))
	var finished []int
	for i, g := range gs {
		d, err := toDoc(g)
		if err != nil {
			return nil, err
		}
		docs[i] = d
		switch g.Status {
		case intake.StatusFinished:
			finished = append(finished, i)
		case intake.StatusPending:
			if err := s.markPending(ctx, g); err != nil {
				return nil, err
			}
		}
	}
	var batch *batchMarkDoc
	fresh := make([]bool, len(gs)) // marked by this call, not before
	if len(finished) >= minBatchMark {
		batch = &batchMarkDoc{At: gs[finished[0]].FinishedAt.UTC()}
		for _, i := range finished {
			batch.Games = append(batch.Games, gs[i].ID)
			if at := gs[i].FinishedAt.UTC(); at.Before(batch.At) {
				batch.At = at
			}
		}
		batch.ID = batchMarkID(batch.Games)
		for _, i := range finished {
			docs[i].Batch = batch.ID
		}
		err := s.lane.Do(func() error { _, err := s.unrated.InsertOne(ctx, batch); return err })
		switch {
		case err == nil:
			s.madeMu.Lock()
			delete(s.gone, batch.ID) // back
			s.madeMu.Unlock()
			for _, i := range finished {
				fresh[i] = true
			}
		case !mongo.IsDuplicateKeyError(err):
			return nil, wrap("mark games unrated", err)
		}
	} else {
		var marks []any
		for _, i := range finished {
			marks = append(marks, mongox.Marker{ID: gs[i].ID, At: gs[i].FinishedAt.UTC()})
		}
		for j, err := range mongox.InsertMany(ctx, s.unrated, marks, mongox.InLane(s.lane)) {
			if err != nil && !mongo.IsDuplicateKeyError(err) {
				return nil, wrap("mark games unrated", err)
			}
			fresh[finished[j]] = err == nil
		}
	}
	// Listed by player before they are stored, as Create lists a game.
	lists, all := make([]any, len(docs)), make([]any, len(docs))
	for i, d := range docs {
		lists[i], all[i] = toPlayerDoc(d), d
	}
	for _, err := range mongox.InsertMany(ctx, s.players, lists, mongox.InLane(s.lane)) {
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return nil, wrap("list games by player", err)
		}
	}
	out := make([]error, len(gs))
	var unmark []string
	var made []madeGame
	for i, err := range mongox.InsertMany(ctx, s.games, all, mongox.InLane(s.lane)) {
		switch {
		case err == nil:
			if batch != nil && docs[i].Batch != "" {
				made = append(made, madeGame{gs[i].ID, gs[i].FinishedAt.UTC()})
			}
		case mongo.IsDuplicateKeyError(err):
			out[i] = fmt.Errorf("%w: %q", intake.ErrSourceTaken, gs[i].SourceID)
			if fresh[i] && batch == nil {
				unmark = append(unmark, gs[i].ID)
			}
		default:
			return nil, wrap("create games", err)
		}
	}
	// As in Create: a new mark beside a game already there goes again. A
	// batch mark goes with the batch's games (MarkAllRated), and names
	// only games stored under it, which those are not.
	if err := s.MarkAllRated(ctx, unmark); err != nil {
		return nil, wrap("unmark games", err)
	}
	if batch != nil && fresh[finished[0]] {
		s.madeMu.Lock()
		s.made[batch.ID] = made
		for _, m := range made {
			s.madeIn[m.id] = batch.ID
		}
		s.madeMu.Unlock()
	}
	return out, nil
}

// MarkAllRated implements intake.BulkStore: the games' marks deleted, a
// batch mark as one delete by _id when its games are all among ids (an
// import's batch), in one command each.
func (s *Store) MarkAllRated(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	rated := make(map[string]bool, len(ids))
	batches := map[string]bool{}
	var own []string // marked one by one, or by a batch mark this Store did not insert
	s.madeMu.Lock()
	for _, id := range ids {
		rated[id] = true
		if b, ok := s.madeIn[id]; ok {
			batches[b] = true
		} else {
			own = append(own, id)
		}
	}
	s.madeMu.Unlock()
	for start := 0; start < len(own); start += maxMarkDelete {
		part := own[start:min(start+maxMarkDelete, len(own))]
		if err := s.deleteMarks(ctx, part); err != nil {
			return wrap("mark games rated", err)
		}
	}
	// The games this Store did not store under its own batch mark may be
	// under another's (an interrupted import's): read which.
	for _, id := range own {
		var d gameDoc
		err := s.games.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d)
		switch {
		case err == nil:
			if d.Batch != "" {
				batches[d.Batch] = true
			}
		case !errors.Is(err, mongo.ErrNoDocuments):
			return wrap("read game", err)
		}
	}
	var again []string
	for b := range batches {
		s.madeMu.Lock()
		made := s.made[b]
		s.madeMu.Unlock()
		gone, err := s.settleBatch(ctx, b, rated)
		if err != nil {
			return err
		}
		if gone {
			// Another process settled it first (its Finished): these games
			// have marks of their own now.
			for _, g := range made {
				if rated[g.id] {
					again = append(again, g.id)
				}
			}
		}
	}
	for start := 0; start < len(again); start += maxMarkDelete {
		part := again[start:min(start+maxMarkDelete, len(again))]
		if err := s.deleteMarks(ctx, part); err != nil {
			return wrap("mark games rated", err)
		}
	}
	return nil
}

// settleBatch deletes the batch mark b, first marking one by one each of
// its games that is not rated (not in rated) and still under it, so no
// game is ever without a mark until it is rated. A mark inserted by this
// Store knows its games; another's are read. A game not stored (yet) is
// marked too: its CreateAll may still be storing it. gone says the mark
// was not there any more.
func (s *Store) settleBatch(ctx context.Context, b string, rated map[string]bool) (gone bool, err error) {
	s.madeMu.Lock()
	made, mine := s.made[b]
	s.madeMu.Unlock()
	var marks []any
	if mine {
		for _, g := range made {
			if !rated[g.id] {
				marks = append(marks, mongox.Marker{ID: g.id, At: g.at})
			}
		}
	} else {
		var m batchMarkDoc
		err := s.unrated.FindOne(ctx, bson.D{{Key: "_id", Value: b}}).Decode(&m)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return true, nil
		}
		if err != nil {
			return false, wrap("read batch mark", err)
		}
		for _, id := range m.Games {
			if rated[id] {
				continue
			}
			var d gameDoc
			err := s.games.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d)
			switch {
			case errors.Is(err, mongo.ErrNoDocuments):
				marks = append(marks, mongox.Marker{ID: id, At: m.At})
			case err != nil:
				return false, wrap("read game", err)
			case d.Batch == b && d.FinishedAt != nil:
				marks = append(marks, mongox.Marker{ID: id, At: d.FinishedAt.UTC()})
			}
		}
	}
	for _, err := range mongox.InsertMany(ctx, s.unrated, marks, mongox.InLane(s.lane)) {
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return false, wrap("mark games unrated", err)
		}
	}
	var res *mongo.DeleteResult
	err = s.lane.Do(func() (err error) {
		res, err = s.unrated.DeleteOne(ctx, bson.D{{Key: "_id", Value: b}})
		return err
	})
	if err != nil {
		return false, wrap("mark games rated", err)
	}
	s.madeMu.Lock()
	for _, g := range made {
		delete(s.madeIn, g.id)
	}
	delete(s.made, b)
	s.madeMu.Unlock()
	return res.DeletedCount == 0, nil
}

// maxMarkDelete bounds the ids of one delete of marks.
const maxMarkDelete = 1000

// deleteMarks deletes the games' marks, in one delete in its turn in the
// lane.
func (s *Store) deleteMarks(ctx context.Context, ids []string) error {
	return s.lane.Do(func() error {
		_, err := s.unrated.DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
		return err
	})
}
