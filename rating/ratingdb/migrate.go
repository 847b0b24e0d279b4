package ratingdb

import (
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/internal/mongox"
)

// legacy are the collections each kind of Log's documents had before Log
// (issue 15), with the _id prefix and kind their documents take there.
var legacy = []struct{ name, prefix, kind string }{
	{"rating_ops", "o:", kindOp},
	{"rating_holds", "h:", kindHold},
	{"rating_plans", "p:", kindPlan},
	{"rating_ledger", "e:", kindEntry},
	{"rating_states", "s:", kindState},
}

// migrateBatch is how many documents one insert of a migration copies.
const migrateBatch = 1000

// migrate copies the documents of a store written before Log into it and
// drops each old collection once copied. A start that dies midway copies
// again (the inserts are idempotent) and then drops.
func migrate(ctx context.Context, db *mongo.Database) error {
	names, err := db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		return wrap("list collections", err)
	}
	log := db.Collection(Log)
	for _, l := range legacy {
		if !slices.Contains(names, l.name) {
			continue
		}
		old := db.Collection(l.name)
		cur, err := old.Find(ctx, bson.D{})
		if err != nil {
			return wrap("read "+l.name, err)
		}
		var batch []any
		flush := func() error {
			for _, err := range mongox.InsertMany(ctx, log, batch) {
				if err != nil && !mongo.IsDuplicateKeyError(err) {
					return wrap("copy "+l.name, err)
				}
			}
			batch = batch[:0]
			return nil
		}
		for cur.Next(ctx) {
			var d bson.D
			if err := cur.Decode(&d); err != nil {
				cur.Close(ctx)
				return fmt.Errorf("ratingdb: %s: %w", l.name, err)
			}
			out := bson.D{}
			for _, e := range d {
				if e.Key == "_id" {
					id, ok := e.Value.(string)
					if !ok {
						cur.Close(ctx)
						return fmt.Errorf("ratingdb: %s: an _id that is no text: %v", l.name, e.Value)
					}
					e.Value = l.prefix + id
				}
				out = append(out, e)
			}
			batch = append(batch, append(out, bson.E{Key: "k", Value: l.kind}))
			if len(batch) == migrateBatch {
				if err := flush(); err != nil {
					cur.Close(ctx)
					return err
				}
			}
		}
		err = cur.Err()
		cur.Close(ctx)
		if err != nil {
			return wrap("read "+l.name, err)
		}
		if err := flush(); err != nil {
			return err
		}
		if err := old.Drop(ctx); err != nil {
			return wrap("drop "+l.name, err)
		}
	}
	return nil
}
