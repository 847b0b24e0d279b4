package ratingdb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// Reports holds the verification reports, one document each.
const Reports = "rating_reports"

// openAudit makes the indexes of the audit trail's queries: the reports
// by time; the ledger entries (partial indexes of Log) by time (all
// causes), by player and by cause, newest first, where the store has
// partial indexes. None is on a hot path: games only insert into Log.
func (s *Store) openAudit(ctx context.Context, db *mongo.Database) error {
	s.reports = db.Collection(Reports)
	if _, err := s.reports.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "at", Value: -1}}, Options: options.Index().SetName("at")}); err != nil {
		return wrap("create audit indexes", err)
	}
	for _, m := range []mongo.IndexModel{
		{Keys: bson.D{{Key: "at", Value: -1}, {Key: "username", Value: 1}, {Key: "seq", Value: -1}}, Options: entriesOnly("entry_at")},
		{Keys: bson.D{{Key: "username", Value: 1}, {Key: "seq", Value: 1}}, Options: entriesOnly("entry_username_seq")},
		{Keys: bson.D{{Key: "cause", Value: 1}, {Key: "at", Value: -1}}, Options: entriesOnly("entry_cause_at")},
	} {
		_, err := s.ledger.Indexes().CreateOne(ctx, m)
		var ce mongo.CommandError
		if errors.As(err, &ce) && ce.Name == "NotImplemented" {
			// FerretDB v1 has no partial indexes, and its queries by
			// these keys scan the collection anyway: an index of every
			// document of Log would cost each insert and serve nothing.
			return nil
		}
		if err != nil {
			return wrap("create audit indexes", err)
		}
	}
	return nil
}

// entriesOnly names an index of the ledger entries alone (partial), so
// that the other documents of Log do not pay for it on every insert.
func entriesOnly(name string) *options.IndexOptionsBuilder {
	return options.Index().SetName(name).SetPartialFilterExpression(bson.D{{Key: "k", Value: kindEntry}})
}

func rankText(r ranks.Rank) string {
	if r.IsZero() {
		return ""
	}
	return r.String()
}

// parseRank reads a stored rank; text that is no rank (only a hand edit
// makes one) reads as none, which verification then reports.
func parseRank(s string) ranks.Rank {
	var r ranks.Rank
	_ = r.UnmarshalText([]byte(s))
	return r
}

// Audit implements rating.Store: newest first by time, then username,
// then sequence number down.
func (s *Store) Audit(ctx context.Context, q rating.AuditQuery) ([]rating.LedgerEntry, error) {
	and := bson.A{bson.D{{Key: "k", Value: kindEntry}}}
	if q.Player != "" {
		and = append(and, bson.D{{Key: "username", Value: q.Player}})
	}
	if q.Cause != "" {
		and = append(and, bson.D{{Key: "cause", Value: q.Cause}})
	}
	if !q.From.IsZero() {
		and = append(and, bson.D{{Key: "at", Value: bson.D{{Key: "$gte", Value: q.From.UTC()}}}})
	}
	if !q.To.IsZero() {
		and = append(and, bson.D{{Key: "at", Value: bson.D{{Key: "$lt", Value: q.To.UTC()}}}})
	}
	if c := q.After; c != nil {
		at := c.At.UTC()
		and = append(and, bson.D{{Key: "$or", Value: bson.A{
			bson.D{{Key: "at", Value: bson.D{{Key: "$lt", Value: at}}}},
			bson.D{{Key: "at", Value: at}, {Key: "username", Value: bson.D{{Key: "$gt", Value: c.Username}}}},
			bson.D{{Key: "at", Value: at}, {Key: "username", Value: c.Username}, {Key: "seq", Value: bson.D{{Key: "$lt", Value: c.Seq}}}},
		}}})
	}
	filter := bson.D{{Key: "$and", Value: and}}
	opts := options.Find().SetSort(bson.D{{Key: "at", Value: -1}, {Key: "username", Value: 1}, {Key: "seq", Value: -1}})
	if q.Limit > 0 {
		opts.SetLimit(int64(q.Limit))
	}
	cur, err := s.ledger.Find(ctx, filter, opts)
	if err != nil {
		return nil, wrap("read audit trail", err)
	}
	var docs []entryDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("read audit trail", err)
	}
	out := make([]rating.LedgerEntry, len(docs))
	for i, d := range docs {
		out[i] = d.entry()
	}
	return out, nil
}

// each streams the documents of c matching filter in the order sort,
// decoding each into a D.
func each[D any](ctx context.Context, c *mongo.Collection, filter, sort bson.D, fn func(D) error) error {
	cur, err := c.Find(ctx, filter, options.Find().SetSort(sort))
	if err != nil {
		return wrap("scan "+c.Name(), err)
	}
	defer cur.Close(ctx)
	for cur.Next(ctx) {
		var d D
		if err := cur.Decode(&d); err != nil {
			return fmt.Errorf("ratingdb: %s: %w", c.Name(), err)
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	return wrap("scan "+c.Name(), cur.Err())
}

// EachPlayer implements rating.Store.
func (s *Store) EachPlayer(ctx context.Context, fn func(rating.PlayerState) error) error {
	return each(ctx, s.players, bson.D{}, bson.D{{Key: "_id", Value: 1}}, func(d stateDoc) error { return fn(d.state()) })
}

// EachState implements rating.Store.
func (s *Store) EachState(ctx context.Context, fn func(rating.PlayerState) error) error {
	return each(ctx, s.states, bson.D{{Key: "k", Value: kindState}}, bson.D{{Key: "username", Value: 1}, {Key: "version", Value: 1}}, func(d stateDoc) error { return fn(d.state()) })
}

// EachEntry implements rating.Store.
func (s *Store) EachEntry(ctx context.Context, fn func(rating.LedgerEntry) error) error {
	return each(ctx, s.ledger, bson.D{{Key: "k", Value: kindEntry}}, bson.D{{Key: "username", Value: 1}, {Key: "seq", Value: 1}}, func(d entryDoc) error { return fn(d.entry()) })
}

// EachOp implements rating.Store.
func (s *Store) EachOp(ctx context.Context, fn func(rating.Operation) error) error {
	return each(ctx, s.ops, bson.D{{Key: "k", Value: kindOp}}, bson.D{{Key: "_id", Value: 1}}, func(d opDoc) error {
		op, err := d.op()
		if err != nil {
			return err
		}
		return fn(op)
	})
}

// reportDoc is a verification report, kept as its JSON.
type reportDoc struct {
	ID     string    `bson:"_id"`
	At     time.Time `bson:"at"`
	OK     bool      `bson:"ok"`
	Report string    `bson:"report"`
}

// SaveReport implements rating.Store: an insert under the report's id
// (a repeated job firing keeps the first).
func (s *Store) SaveReport(ctx context.Context, r rating.Report) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = s.reports.InsertOne(ctx, reportDoc{ID: r.ID, At: r.At.UTC(), OK: r.OK(), Report: string(b)})
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return wrap("save report", err)
}

// Reports implements rating.Store.
func (s *Store) Reports(ctx context.Context, limit int) ([]rating.Report, error) {
	cur, err := s.reports.Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "at", Value: -1}, {Key: "_id", Value: -1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, wrap("read reports", err)
	}
	var docs []reportDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("read reports", err)
	}
	out := make([]rating.Report, len(docs))
	for i, d := range docs {
		if err := json.Unmarshal([]byte(d.Report), &out[i]); err != nil {
			return nil, fmt.Errorf("ratingdb: report %s: %w", d.ID, err)
		}
	}
	return out, nil
}
