package reviewsdb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/mongox"
	"github.com/weiqi-platform/rank/reviews"
)

// Collection names.
const (
	Flags       = "integrity_flags"
	Resolutions = "integrity_resolutions"
)

// Store is a reviews.Store on a Mongo database.
type Store struct {
	flags, resolutions *mongo.Collection
}

var _ reviews.Store = (*Store)(nil)

// New returns a Store on db after making sure its indexes exist (one
// call per index: FerretDB v1 panics on several that exist).
func New(ctx context.Context, db *mongo.Database) (*Store, error) {
	s := &Store{flags: db.Collection(Flags), resolutions: db.Collection(Resolutions)}
	for _, m := range []mongo.IndexModel{
		{Keys: bson.D{{Key: "found", Value: -1}, {Key: "_id", Value: 1}}, Options: options.Index().SetName("found")},
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "found", Value: -1}}, Options: options.Index().SetName("status_found")},
	} {
		if _, err := s.flags.Indexes().CreateOne(ctx, m); err != nil {
			return nil, wrap("create indexes", err)
		}
	}
	return s, nil
}

// flagDoc is a flag in the queue; the flag itself as its JSON.
type flagDoc struct {
	ID     string    `bson:"_id"`
	Found  time.Time `bson:"found"`
	Kind   string    `bson:"kind"`
	Player string    `bson:"player"`
	Status string    `bson:"status"` // a hint: the resolution decides
	Flag   string    `bson:"flag"`
}

type resolutionDoc struct {
	ID      string    `bson:"_id"` // the flag's
	Verdict string    `bson:"verdict"`
	Reason  string    `bson:"reason"`
	By      string    `bson:"by"`
	At      time.Time `bson:"at"`
}

func (d resolutionDoc) resolution() *reviews.Resolution {
	return &reviews.Resolution{Verdict: d.Verdict, Reason: d.Reason, By: d.By, At: d.At.UTC()}
}

func (d flagDoc) item() (reviews.Item, error) {
	it := reviews.Item{ID: d.ID, Found: d.Found.UTC()}
	if err := json.Unmarshal([]byte(d.Flag), &it.Flag); err != nil {
		return reviews.Item{}, fmt.Errorf("reviewsdb: flag %s: %w", d.ID, err)
	}
	return it, nil
}

// Add implements reviews.Store: one insert per item; a duplicate id is
// an item already there.
func (s *Store) Add(ctx context.Context, items []reviews.Item) ([]string, error) {
	var added []string
	for _, it := range items {
		b, err := json.Marshal(it.Flag)
		if err != nil {
			return added, err
		}
		_, err = s.flags.InsertOne(ctx, flagDoc{ID: it.ID, Found: it.Found.UTC(), Kind: string(it.Flag.Kind), Player: it.Flag.Player,
			Status: reviews.StatusOpen, Flag: string(b)})
		switch {
		case err == nil:
			added = append(added, it.ID)
		case !mongo.IsDuplicateKeyError(err):
			return added, wrap("add flag", err)
		}
	}
	return added, nil
}

// Get implements reviews.Store.
func (s *Store) Get(ctx context.Context, id string) (reviews.Item, error) {
	var d flagDoc
	err := s.flags.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return reviews.Item{}, fmt.Errorf("flag %s: %w", id, reviews.ErrNotFound)
	}
	if err != nil {
		return reviews.Item{}, wrap("read flag", err)
	}
	items, err := s.resolved(ctx, []flagDoc{d})
	if err != nil {
		return reviews.Item{}, err
	}
	return items[0], nil
}

// resolved reads the items' resolutions and repairs a status hint that
// lags (a crash between the resolution and the hint).
func (s *Store) resolved(ctx context.Context, docs []flagDoc) ([]reviews.Item, error) {
	ids := make(bson.A, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	byID := map[string]*reviews.Resolution{}
	if len(docs) > 0 {
		cur, err := s.resolutions.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
		if err != nil {
			return nil, wrap("read resolutions", err)
		}
		var rs []resolutionDoc
		if err := cur.All(ctx, &rs); err != nil {
			return nil, wrap("read resolutions", err)
		}
		for _, r := range rs {
			byID[r.ID] = r.resolution()
		}
	}
	out := make([]reviews.Item, 0, len(docs))
	for _, d := range docs {
		it, err := d.item()
		if err != nil {
			return nil, err
		}
		it.Resolution = byID[d.ID]
		if it.Status() != d.Status {
			if err := s.hint(ctx, d.ID, it.Status()); err != nil {
				return nil, err
			}
		}
		out = append(out, it)
	}
	return out, nil
}

func (s *Store) hint(ctx context.Context, id, status string) error {
	_, err := s.flags.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: bson.D{{Key: "status", Value: status}}}})
	return wrap("write status hint", err)
}

// List implements reviews.Store: the hint selects by status; the page is
// checked against the resolutions, and a lagging hint's item dropped
// from it (and repaired), so a page may come back short.
func (s *Store) List(ctx context.Context, q reviews.Query) ([]reviews.Item, error) {
	and := bson.A{}
	if q.Status != "" {
		and = append(and, bson.D{{Key: "status", Value: q.Status}})
	}
	if q.Kind != "" {
		and = append(and, bson.D{{Key: "kind", Value: string(q.Kind)}})
	}
	if q.Player != "" {
		and = append(and, bson.D{{Key: "player", Value: q.Player}})
	}
	if c := q.After; c != nil {
		at := c.Found.UTC()
		and = append(and, bson.D{{Key: "$or", Value: bson.A{
			bson.D{{Key: "found", Value: bson.D{{Key: "$lt", Value: at}}}},
			bson.D{{Key: "found", Value: at}, {Key: "_id", Value: bson.D{{Key: "$gt", Value: c.ID}}}},
		}}})
	}
	filter := bson.D{}
	if len(and) > 0 {
		filter = bson.D{{Key: "$and", Value: and}}
	}
	opts := options.Find().SetSort(bson.D{{Key: "found", Value: -1}, {Key: "_id", Value: 1}})
	if q.Limit > 0 {
		opts.SetLimit(int64(q.Limit))
	}
	cur, err := s.flags.Find(ctx, filter, opts)
	if err != nil {
		return nil, wrap("list flags", err)
	}
	var docs []flagDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("list flags", err)
	}
	items, err := s.resolved(ctx, docs)
	if err != nil {
		return nil, err
	}
	if q.Status == "" {
		return items, nil
	}
	out := items[:0]
	for _, it := range items {
		if it.Status() == q.Status {
			out = append(out, it)
		}
	}
	return out, nil
}

// Resolve implements reviews.Store: an insert under the flag's id (the
// first stays), then the status hint.
func (s *Store) Resolve(ctx context.Context, id string, r reviews.Resolution) (reviews.Resolution, error) {
	if _, err := s.Get(ctx, id); err != nil {
		return reviews.Resolution{}, err
	}
	_, err := s.resolutions.InsertOne(ctx, resolutionDoc{ID: id, Verdict: r.Verdict, Reason: r.Reason, By: r.By, At: r.At.UTC()})
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return reviews.Resolution{}, wrap("resolve flag", err)
	}
	var d resolutionDoc
	if err := s.resolutions.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d); err != nil {
		return reviews.Resolution{}, wrap("read resolution", err)
	}
	if err := s.hint(ctx, id, d.Verdict); err != nil {
		return reviews.Resolution{}, err
	}
	return *d.resolution(), nil
}

func wrap(op string, err error) error {
	return mongox.Wrap("reviewsdb", op, err)
}
