package gamedb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/internal/mongoerr"
)

// Games is the collection name.
const Games = "games"

// Store is a games.Store on a Mongo database.
type Store struct {
	games *mongo.Collection
}

var _ games.Store = (*Store)(nil)

// New returns a Store on db after making sure its indexes exist.
func New(ctx context.Context, db *mongo.Database) (*Store, error) {
	s := &Store{games: db.Collection(Games)}
	// source_id is unique: the idempotency key of a submission. The
	// status indexes serve Recover (finished, oldest first) and expiry
	// (pending, by expiry). One call per index: FerretDB v1 panics on a
	// createIndexes of several indexes that already exist.
	for _, m := range []mongo.IndexModel{
		{Keys: bson.D{{Key: "source_id", Value: 1}}, Options: options.Index().SetName("source_id").SetUnique(true)},
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "finished_at", Value: 1}}, Options: options.Index().SetName("status_finished")},
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "expires_at", Value: 1}}, Options: options.Index().SetName("status_expires")},
	} {
		if _, err := s.games.Indexes().CreateOne(ctx, m); err != nil {
			return nil, wrap("create game indexes", err)
		}
	}
	return s, nil
}

// gameDoc is the stored form of games.StoredGame. The record and verdict
// are kept as their JSON (the engine's own text forms of moves, points and
// rules), which round-trips exactly; the fields queried are top-level.
type gameDoc struct {
	ID          string     `bson:"_id"`
	SourceID    string     `bson:"source_id"`
	Status      string     `bson:"status"`
	Black       string     `bson:"black"`
	White       string     `bson:"white"`
	Rated       bool       `bson:"rated"`
	TimeControl string     `bson:"time_control,omitempty"`
	Record      string     `bson:"record"`
	Verdict     string     `bson:"verdict,omitempty"`
	Hash        string     `bson:"hash,omitempty"`
	SubmittedBy string     `bson:"submitted_by,omitempty"`
	CreatedAt   time.Time  `bson:"created_at"`
	FinishedAt  *time.Time `bson:"finished_at,omitempty"`
	ExpiresAt   *time.Time `bson:"expires_at,omitempty"`
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func toDoc(g games.StoredGame) (gameDoc, error) {
	d := gameDoc{
		ID: g.ID, SourceID: g.SourceID, Status: string(g.Status), Black: g.Black, White: g.White,
		Rated: g.Rated, TimeControl: g.TimeControl, Hash: g.Hash, SubmittedBy: g.SubmittedBy,
		CreatedAt: g.CreatedAt.UTC(), FinishedAt: optTime(g.FinishedAt), ExpiresAt: optTime(g.ExpiresAt),
	}
	rec, err := json.Marshal(g.Record)
	if err != nil {
		return gameDoc{}, fmt.Errorf("gamedb: game %s: record: %w", g.ID, err)
	}
	d.Record = string(rec)
	if g.Verdict != nil {
		v, err := json.Marshal(g.Verdict)
		if err != nil {
			return gameDoc{}, fmt.Errorf("gamedb: game %s: verdict: %w", g.ID, err)
		}
		d.Verdict = string(v)
	}
	return d, nil
}

func (d gameDoc) game() (games.StoredGame, error) {
	g := games.StoredGame{
		ID: d.ID, SourceID: d.SourceID, Status: games.Status(d.Status), Black: d.Black, White: d.White,
		Rated: d.Rated, TimeControl: d.TimeControl, Hash: d.Hash, SubmittedBy: d.SubmittedBy,
		CreatedAt: d.CreatedAt.UTC(), Record: new(games.Record),
	}
	if d.FinishedAt != nil {
		g.FinishedAt = d.FinishedAt.UTC()
	}
	if d.ExpiresAt != nil {
		g.ExpiresAt = d.ExpiresAt.UTC()
	}
	if err := json.Unmarshal([]byte(d.Record), g.Record); err != nil {
		return games.StoredGame{}, fmt.Errorf("gamedb: game %s: stored record: %w", d.ID, err)
	}
	if d.Verdict != "" {
		g.Verdict = new(games.Verdict)
		if err := json.Unmarshal([]byte(d.Verdict), g.Verdict); err != nil {
			return games.StoredGame{}, fmt.Errorf("gamedb: game %s: stored verdict: %w", d.ID, err)
		}
	}
	return g, nil
}

// Create implements games.Store.
func (s *Store) Create(ctx context.Context, g games.StoredGame) error {
	d, err := toDoc(g)
	if err != nil {
		return err
	}
	_, err = s.games.InsertOne(ctx, d)
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("%w: %q", games.ErrSourceTaken, g.SourceID)
	}
	return wrap("create game", err)
}

func (s *Store) one(ctx context.Context, filter bson.D, what string) (games.StoredGame, error) {
	var d gameDoc
	err := s.games.FindOne(ctx, filter).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return games.StoredGame{}, fmt.Errorf("%s: %w", what, games.ErrNotFound)
	}
	if err != nil {
		return games.StoredGame{}, wrap("read game", err)
	}
	return d.game()
}

// Game implements games.Store.
func (s *Store) Game(ctx context.Context, id string) (games.StoredGame, error) {
	return s.one(ctx, bson.D{{Key: "_id", Value: id}}, "game "+id)
}

// BySource implements games.Store.
func (s *Store) BySource(ctx context.Context, sourceID string) (games.StoredGame, error) {
	return s.one(ctx, bson.D{{Key: "source_id", Value: sourceID}}, "source_id "+sourceID)
}

// Finish implements games.Store: one update conditional on the status
// being pending.
func (s *Store) Finish(ctx context.Context, f games.StoredGame) error {
	d, err := toDoc(f)
	if err != nil {
		return err
	}
	set := bson.D{
		{Key: "status", Value: d.Status}, {Key: "record", Value: d.Record}, {Key: "verdict", Value: d.Verdict},
		{Key: "hash", Value: d.Hash}, {Key: "submitted_by", Value: d.SubmittedBy}, {Key: "finished_at", Value: d.FinishedAt},
		{Key: "time_control", Value: d.TimeControl},
	}
	res, err := s.games.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: f.ID}, {Key: "status", Value: string(games.StatusPending)}},
		bson.D{{Key: "$set", Value: set}, {Key: "$unset", Value: bson.D{{Key: "expires_at", Value: ""}}}})
	if err != nil {
		return wrap("finish game", err)
	}
	if res.MatchedCount == 1 {
		return nil
	}
	if _, err := s.Game(ctx, f.ID); err != nil {
		return err
	}
	return fmt.Errorf("game %s: %w", f.ID, games.ErrNotPending)
}

// MarkRated implements games.Store.
func (s *Store) MarkRated(ctx context.Context, id string) error {
	res, err := s.games.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: id}, {Key: "status", Value: bson.D{{Key: "$in", Value: bson.A{string(games.StatusFinished), string(games.StatusRated)}}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "status", Value: string(games.StatusRated)}}}})
	if err != nil {
		return wrap("mark game rated", err)
	}
	if res.MatchedCount == 1 {
		return nil
	}
	g, err := s.Game(ctx, id)
	if err != nil {
		return err
	}
	return fmt.Errorf("game %s is %s, not finished: %w", id, g.Status, games.ErrNotPending)
}

// Finished implements games.Store.
func (s *Store) Finished(ctx context.Context, limit int) ([]games.StoredGame, error) {
	cur, err := s.games.Find(ctx, bson.D{{Key: "status", Value: string(games.StatusFinished)}},
		options.Find().SetSort(bson.D{{Key: "finished_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, wrap("list finished games", err)
	}
	var docs []gameDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("list finished games", err)
	}
	out := make([]games.StoredGame, 0, len(docs))
	for _, d := range docs {
		g, err := d.game()
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// ExpirePending implements games.Store.
func (s *Store) ExpirePending(ctx context.Context, now time.Time) (int, error) {
	res, err := s.games.UpdateMany(ctx,
		bson.D{{Key: "status", Value: string(games.StatusPending)}, {Key: "expires_at", Value: bson.D{{Key: "$lte", Value: now.UTC()}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "status", Value: string(games.StatusExpired)}}}})
	if err != nil {
		return 0, wrap("expire pending games", err)
	}
	return int(res.ModifiedCount), nil
}

// wrap keeps the driver error for logs and marks connection trouble as
// games.ErrUnavailable, which api shows as 503 without the driver text.
func wrap(op string, err error) error {
	return mongoerr.Wrap("gamedb", op, games.ErrUnavailable, err)
}
