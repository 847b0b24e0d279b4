package ratingdb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/mongoerr"
	"github.com/weiqi-platform/rank/rating"
)

// Collection names.
const (
	Players = "rating_players"
	Ops     = "rating_ops"
	Ledger  = "rating_ledger"
)

// Store is a rating.Store on a Mongo database.
type Store struct {
	players *mongo.Collection
	ops     *mongo.Collection
	ledger  *mongo.Collection
}

var _ rating.Store = (*Store)(nil)

// New returns a Store on db after making sure its indexes exist.
func New(ctx context.Context, db *mongo.Database) (*Store, error) {
	s := &Store{players: db.Collection(Players), ops: db.Collection(Ops), ledger: db.Collection(Ledger)}
	// The ledger's _id is "username#seq", which makes an entry unique per
	// player and sequence number; the other indexes serve history (newest
	// first), the leaderboard and Recover. One call per index: FerretDB
	// v1 panics on a createIndexes of several that already exist.
	for _, ix := range []struct {
		c *mongo.Collection
		m mongo.IndexModel
	}{
		{s.ledger, mongo.IndexModel{Keys: bson.D{{Key: "username", Value: 1}, {Key: "seq", Value: -1}}, Options: options.Index().SetName("username_seq")}},
		{s.players, mongo.IndexModel{Keys: bson.D{{Key: "score", Value: -1}, {Key: "_id", Value: 1}}, Options: options.Index().SetName("score")}},
		{s.ops, mongo.IndexModel{Keys: bson.D{{Key: "done", Value: 1}, {Key: "at", Value: 1}}, Options: options.Index().SetName("done_at")}},
	} {
		if _, err := ix.c.Indexes().CreateOne(ctx, ix.m); err != nil {
			return nil, wrap("create indexes", err)
		}
	}
	return s, nil
}

// glickoDoc is rating.Glicko stored.
type glickoDoc struct {
	Rating     float64 `bson:"rating"`
	RD         float64 `bson:"rd"`
	Volatility float64 `bson:"volatility"`
}

// playerDoc is rating.PlayerState stored. hold is "" when free.
type playerDoc struct {
	Username  string    `bson:"_id"`
	Score     int       `bson:"score"`
	Glicko    glickoDoc `bson:"glicko"`
	Games     int       `bson:"games"`
	Wins      int       `bson:"wins"`
	Losses    int       `bson:"losses"`
	Draws     int       `bson:"draws"`
	Placement int       `bson:"placement"`
	Version   int64     `bson:"version"`
	Hold      string    `bson:"hold"`
	Seq       int64     `bson:"seq"`
	Head      string    `bson:"head"`
	UpdatedAt time.Time `bson:"updated_at"`
}

func (d playerDoc) state() rating.PlayerState {
	return rating.PlayerState{
		Username: d.Username, State: rating.State{Score: d.Score, Glicko: rating.Glicko(d.Glicko)},
		Games: d.Games, Wins: d.Wins, Losses: d.Losses, Draws: d.Draws, Placement: d.Placement,
		Version: d.Version, Hold: d.Hold, Seq: d.Seq, Head: d.Head, UpdatedAt: d.UpdatedAt.UTC(),
	}
}

// ratingFields are the fields a commit writes (all but _id, version, hold).
func ratingFields(p rating.PlayerState) bson.D {
	return bson.D{
		{Key: "score", Value: p.Score}, {Key: "glicko", Value: glickoDoc(p.Glicko)},
		{Key: "games", Value: p.Games}, {Key: "wins", Value: p.Wins}, {Key: "losses", Value: p.Losses}, {Key: "draws", Value: p.Draws},
		{Key: "placement", Value: p.Placement}, {Key: "seq", Value: p.Seq}, {Key: "head", Value: p.Head},
		{Key: "updated_at", Value: p.UpdatedAt.UTC()},
	}
}

// opDoc is rating.Operation stored; the plan as its JSON, written once.
type opDoc struct {
	ID       string    `bson:"_id"`
	Black    string    `bson:"black"`
	White    string    `bson:"white"`
	Winner   string    `bson:"winner"`
	Moves    int       `bson:"moves"`
	Handicap int       `bson:"handicap"`
	Outcome  string    `bson:"outcome"`
	Escape   bool      `bson:"escape"`
	SourceID string    `bson:"source_id"`
	Actor    string    `bson:"actor"`
	At       time.Time `bson:"at"`
	Plan     string    `bson:"plan,omitempty"`
	Done     bool      `bson:"done"`
	Error    string    `bson:"error,omitempty"`
}

func toOpDoc(op rating.Operation) (opDoc, error) {
	outcome, err := op.Game.Outcome.MarshalText()
	if err != nil {
		return opDoc{}, err
	}
	d := opDoc{
		ID: op.ID, Black: op.Black, White: op.White, Winner: string(op.Winner), Moves: op.Game.Moves,
		Handicap: op.Game.Handicap, Outcome: string(outcome), Escape: op.Game.Escape,
		SourceID: op.SourceID, Actor: op.Actor, At: op.At.UTC(), Done: op.Done, Error: op.Error,
	}
	if op.Plan != nil {
		b, err := json.Marshal(op.Plan)
		if err != nil {
			return opDoc{}, err
		}
		d.Plan = string(b)
	}
	return d, nil
}

func (d opDoc) op() (rating.Operation, error) {
	op := rating.Operation{
		ID: d.ID, Black: d.Black, White: d.White, Winner: rating.Side(d.Winner),
		Game:     rating.Game{Moves: d.Moves, Handicap: d.Handicap, Escape: d.Escape},
		SourceID: d.SourceID, Actor: d.Actor, At: d.At.UTC(), Done: d.Done, Error: d.Error,
	}
	if err := op.Game.Outcome.UnmarshalText([]byte(d.Outcome)); err != nil {
		return rating.Operation{}, fmt.Errorf("ratingdb: operation %s: %w", d.ID, err)
	}
	if d.Plan != "" {
		op.Plan = new(rating.Plan)
		if err := json.Unmarshal([]byte(d.Plan), op.Plan); err != nil {
			return rating.Operation{}, fmt.Errorf("ratingdb: operation %s: stored plan: %w", d.ID, err)
		}
	}
	return op, nil
}

// entryDoc is rating.LedgerEntry stored.
type entryDoc struct {
	ID          string    `bson:"_id"` // username#seq
	Username    string    `bson:"username"`
	Seq         int64     `bson:"seq"`
	Cause       string    `bson:"cause"`
	CauseID     string    `bson:"cause_id"`
	SourceID    string    `bson:"source_id,omitempty"`
	Actor       string    `bson:"actor,omitempty"`
	Opponent    string    `bson:"opponent,omitempty"`
	ScoreBefore int       `bson:"score_before"`
	ScoreAfter  int       `bson:"score_after"`
	RankBefore  string    `bson:"rank_before"`
	RankAfter   string    `bson:"rank_after"`
	Delta       int       `bson:"delta"`
	Glicko      glickoDoc `bson:"glicko"`
	Reason      string    `bson:"reason,omitempty"`
	At          time.Time `bson:"at"`
	Prev        string    `bson:"prev"`
	Hash        string    `bson:"hash"`
}

func entryID(username string, seq int64) string { return username + "#" + strconv.FormatInt(seq, 10) }

func toEntryDoc(e rating.LedgerEntry) entryDoc {
	return entryDoc{
		ID: entryID(e.Username, e.Seq), Username: e.Username, Seq: e.Seq, Cause: e.Cause, CauseID: e.CauseID,
		SourceID: e.SourceID, Actor: e.Actor, Opponent: e.Opponent, ScoreBefore: e.ScoreBefore, ScoreAfter: e.ScoreAfter,
		RankBefore: e.RankBefore, RankAfter: e.RankAfter, Delta: e.Delta, Glicko: glickoDoc(e.Glicko),
		Reason: e.Reason, At: e.At.UTC(), Prev: e.Prev, Hash: e.Hash,
	}
}

func (d entryDoc) entry() rating.LedgerEntry {
	return rating.LedgerEntry{
		Username: d.Username, Seq: d.Seq, Cause: d.Cause, CauseID: d.CauseID, SourceID: d.SourceID, Actor: d.Actor,
		Opponent: d.Opponent, ScoreBefore: d.ScoreBefore, ScoreAfter: d.ScoreAfter, RankBefore: d.RankBefore,
		RankAfter: d.RankAfter, Delta: d.Delta, Glicko: rating.Glicko(d.Glicko), Reason: d.Reason,
		At: d.At.UTC(), Prev: d.Prev, Hash: d.Hash,
	}
}

// CreateOp implements rating.Store.
func (s *Store) CreateOp(ctx context.Context, op rating.Operation) (rating.Operation, error) {
	d, err := toOpDoc(op)
	if err != nil {
		return rating.Operation{}, err
	}
	_, err = s.ops.InsertOne(ctx, d)
	switch {
	case err == nil:
		return op, nil
	case mongo.IsDuplicateKeyError(err):
		return s.Op(ctx, op.ID)
	}
	return rating.Operation{}, wrap("create operation", err)
}

// Op implements rating.Store.
func (s *Store) Op(ctx context.Context, id string) (rating.Operation, error) {
	var d opDoc
	err := s.ops.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return rating.Operation{}, fmt.Errorf("operation %s: %w", id, rating.ErrNotFound)
	}
	if err != nil {
		return rating.Operation{}, wrap("read operation", err)
	}
	return d.op()
}

// SetPlan implements rating.Store: one update conditional on there being
// no plan yet.
func (s *Store) SetPlan(ctx context.Context, id string, p rating.Plan) (rating.Operation, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return rating.Operation{}, err
	}
	var d opDoc
	err = s.ops.FindOneAndUpdate(ctx,
		bson.D{{Key: "_id", Value: id}, {Key: "plan", Value: bson.D{{Key: "$exists", Value: false}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "plan", Value: string(b)}}}},
		options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return s.Op(ctx, id)
	}
	if err != nil {
		return rating.Operation{}, wrap("store plan", err)
	}
	return d.op()
}

// FinishOp implements rating.Store.
func (s *Store) FinishOp(ctx context.Context, id, errText string) error {
	set := bson.D{{Key: "done", Value: true}}
	if errText != "" {
		set = append(set, bson.E{Key: "error", Value: errText})
	}
	res, err := s.ops.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "done", Value: false}}, bson.D{{Key: "$set", Value: set}})
	if err != nil {
		return wrap("finish operation", err)
	}
	if res.MatchedCount == 0 {
		_, err := s.Op(ctx, id) // done already, or absent
		return err
	}
	return nil
}

// Unfinished implements rating.Store.
func (s *Store) Unfinished(ctx context.Context, limit int) ([]rating.Operation, error) {
	cur, err := s.ops.Find(ctx, bson.D{{Key: "done", Value: false}},
		options.Find().SetSort(bson.D{{Key: "at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, wrap("list operations", err)
	}
	var docs []opDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("list operations", err)
	}
	out := make([]rating.Operation, 0, len(docs))
	for _, d := range docs {
		op, err := d.op()
		if err != nil {
			return nil, err
		}
		out = append(out, op)
	}
	return out, nil
}

// Hold implements rating.Store: one find-and-modify on a free hold,
// upserting the fresh player when there is none. A player that exists
// but is held makes the upsert collide on _id; the holder is then read.
func (s *Store) Hold(ctx context.Context, username, opID string, fresh rating.PlayerState) (rating.PlayerState, error) {
	onInsert := append(ratingFields(fresh), bson.E{Key: "version", Value: fresh.Version})
	var d playerDoc
	err := s.players.FindOneAndUpdate(ctx,
		bson.D{{Key: "_id", Value: username}, {Key: "hold", Value: ""}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "hold", Value: opID}}}, {Key: "$setOnInsert", Value: onInsert}},
		options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After)).Decode(&d)
	if err == nil {
		return d.state(), nil
	}
	if !mongo.IsDuplicateKeyError(err) {
		return rating.PlayerState{}, wrap("hold player", err)
	}
	st, err := s.Player(ctx, username)
	if err != nil {
		return rating.PlayerState{}, err
	}
	switch st.Hold {
	case opID:
		return st, nil
	case "":
		// Freed between the two calls: try once more.
		return s.Hold(ctx, username, opID, fresh)
	}
	return rating.PlayerState{}, &rating.HeldError{Username: username, By: st.Hold}
}

// Commit implements rating.Store.
func (s *Store) Commit(ctx context.Context, username, opID string, from int64, after rating.PlayerState) error {
	set := append(ratingFields(after), bson.E{Key: "version", Value: from + 1}, bson.E{Key: "hold", Value: ""})
	res, err := s.players.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: username}, {Key: "hold", Value: opID}, {Key: "version", Value: from}},
		bson.D{{Key: "$set", Value: set}})
	if err != nil {
		return wrap("commit player", err)
	}
	if res.MatchedCount == 1 {
		return nil
	}
	st, err := s.Player(ctx, username)
	if err != nil {
		return err
	}
	if st.Version > from {
		return s.Release(ctx, username, opID)
	}
	return fmt.Errorf("player %s at version %d held by %q, not %s: %w", username, st.Version, st.Hold, opID, rating.ErrNotHeld)
}

// Release implements rating.Store.
func (s *Store) Release(ctx context.Context, username, opID string) error {
	_, err := s.players.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: username}, {Key: "hold", Value: opID}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "hold", Value: ""}}}})
	return wrap("release player", err)
}

// Player implements rating.Store.
func (s *Store) Player(ctx context.Context, username string) (rating.PlayerState, error) {
	var d playerDoc
	err := s.players.FindOne(ctx, bson.D{{Key: "_id", Value: username}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return rating.PlayerState{}, fmt.Errorf("player %s: %w", username, rating.ErrNotFound)
	}
	if err != nil {
		return rating.PlayerState{}, wrap("read player", err)
	}
	return d.state(), nil
}

// AppendEntry implements rating.Store.
func (s *Store) AppendEntry(ctx context.Context, e rating.LedgerEntry) error {
	_, err := s.ledger.InsertOne(ctx, toEntryDoc(e))
	if err == nil {
		return nil
	}
	if !mongo.IsDuplicateKeyError(err) {
		return wrap("append ledger entry", err)
	}
	var d entryDoc
	if err := s.ledger.FindOne(ctx, bson.D{{Key: "_id", Value: entryID(e.Username, e.Seq)}}).Decode(&d); err != nil {
		return wrap("read ledger entry", err)
	}
	if d.Hash != e.Hash {
		return fmt.Errorf("%s entry %d: %w", e.Username, e.Seq, rating.ErrLedgerConflict)
	}
	return nil
}

// Ledger implements rating.Store.
func (s *Store) Ledger(ctx context.Context, username string, before int64, limit int) ([]rating.LedgerEntry, error) {
	filter := bson.D{{Key: "username", Value: username}}
	if before > 0 {
		filter = append(filter, bson.E{Key: "seq", Value: bson.D{{Key: "$lt", Value: before}}})
	}
	cur, err := s.ledger.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "seq", Value: -1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, wrap("read ledger", err)
	}
	var docs []entryDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("read ledger", err)
	}
	out := make([]rating.LedgerEntry, len(docs))
	for i, d := range docs {
		out[i] = d.entry()
	}
	return out, nil
}

// Leaderboard implements rating.Store.
func (s *Store) Leaderboard(ctx context.Context, q rating.LeaderQuery) ([]rating.PlayerState, error) {
	var and bson.A
	if q.MinScore != nil {
		and = append(and, bson.D{{Key: "score", Value: bson.D{{Key: "$gte", Value: *q.MinScore}}}})
	}
	if q.MaxScore != nil {
		and = append(and, bson.D{{Key: "score", Value: bson.D{{Key: "$lte", Value: *q.MaxScore}}}})
	}
	if c := q.After; c != nil {
		and = append(and, bson.D{{Key: "$or", Value: bson.A{
			bson.D{{Key: "score", Value: bson.D{{Key: "$lt", Value: c.Score}}}},
			bson.D{{Key: "score", Value: c.Score}, {Key: "_id", Value: bson.D{{Key: "$gt", Value: c.Username}}}},
		}}})
	}
	filter := bson.D{}
	if len(and) > 0 {
		filter = bson.D{{Key: "$and", Value: and}}
	}
	cur, err := s.players.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "score", Value: -1}, {Key: "_id", Value: 1}}).SetLimit(int64(q.Limit)))
	if err != nil {
		return nil, wrap("read leaderboard", err)
	}
	var docs []playerDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("read leaderboard", err)
	}
	out := make([]rating.PlayerState, len(docs))
	for i, d := range docs {
		out[i] = d.state()
	}
	return out, nil
}

// wrap keeps the driver error for logs and marks connection trouble as
// rating.ErrUnavailable, which api shows as 503 without the driver text.
func wrap(op string, err error) error {
	return mongoerr.Wrap("ratingdb", op, rating.ErrUnavailable, err)
}
