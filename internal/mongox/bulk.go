package mongox

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// InsertMany inserts the documents in one unordered InsertMany (the
// driver splits only what exceeds a command's limits), now and on the
// caller's context, and returns each one's error as Inserter.InsertAll
// does. For bulk writers (an archive's import), whose batches are larger
// than the Inserter's.
//
// The documents go in sorted by _id. The embedded store writes an insert
// 100 documents to a SQLite transaction, and each transaction writes out
// every page of the _id index it touched: 100 neighbouring _ids share a
// few pages where 100 scattered ones touch up to 100. Measured: an
// import's CPU a game 12% less (docs/benchmarks.md, stop 27). Unordered,
// the order was never the caller's to rely on.
//
// With InLane the commands take their turn in the lane, built before,
// outside it (insertInLane); other options are ignored.
func InsertMany(ctx context.Context, c *mongo.Collection, docs []any, opts ...Option) []error {
	out := make([]error, len(docs))
	raw, order := sortedByID(docs, out)
	if len(raw) == 0 {
		return out
	}
	var err error
	if lane := optionsOf(opts).lane; lane != nil {
		err = insertInLane(ctx, c, raw, lane)
	} else {
		_, err = c.InsertMany(ctx, raw, options.InsertMany().SetOrdered(false))
	}
	for k, e := range splitErrors(err, len(raw)) {
		out[order[k]] = e
	}
	return out
}

// sortedByID encodes the documents and returns them sorted by _id
// (string _ids first, in byte order; the rest as given), with order[k]
// the caller's index of the k-th. A document that cannot be encoded gets
// its error in errs and is left out. It encodes with the driver's default
// registry, as the driver would: no collection of ours sets its own.
func sortedByID(docs []any, errs []error) (raw []any, order []int) {
	type one struct {
		raw bson.Raw
		id  string
		str bool
		i   int
	}
	all := make([]one, 0, len(docs))
	for i, d := range docs {
		b, err := bson.Marshal(d)
		if err != nil {
			errs[i] = err
			continue
		}
		o := one{raw: b, i: i}
		if v, err := o.raw.LookupErr("_id"); err == nil {
			o.id, o.str = v.StringValueOK()
		}
		all = append(all, o)
	}
	slices.SortStableFunc(all, func(a, b one) int {
		if a.str != b.str {
			if a.str {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.id, b.id)
	})
	raw = make([]any, len(all))
	order = make([]int, len(all))
	for k, o := range all {
		raw[k], order[k] = o.raw, o.i
	}
	return raw, order
}

// laneCommandBytes bounds the documents of one insert command that
// insertInLane builds: well under a command's 16 MB.
const laneCommandBytes = 8 << 20

// insertInLane inserts the encoded documents (unordered) by insert
// commands it builds outside the lane and sends in their turn in it. Not
// by Collection.InsertMany, which decodes every document again for its
// _id and copies it once it is called, inside the lane, while the store
// waits for its next command (the embedded store's one writer): measured
// in docs/benchmarks.md, stop 34. Only for a lane's store: it leaves out
// the retry of a write that a store server's failover would want. Its
// error is a mongo.BulkWriteException with the documents' indexes, as
// InsertMany's.
func insertInLane(ctx context.Context, c *mongo.Collection, raw []any, lane *Lane) error {
	var bwe mongo.BulkWriteException
	for start := 0; start < len(raw); {
		ai, arr := bsoncore.AppendArrayStart(nil)
		end := start
		for ; end < len(raw) && (end == start || len(arr)+len(raw[end].(bson.Raw)) <= laneCommandBytes); end++ {
			arr = bsoncore.AppendDocumentElement(arr, strconv.Itoa(end-start), raw[end].(bson.Raw))
		}
		arr, err := bsoncore.AppendArrayEnd(arr, ai)
		if err != nil {
			return err
		}
		ci, cmd := bsoncore.AppendDocumentStart(nil)
		cmd = bsoncore.AppendStringElement(cmd, "insert", c.Name())
		cmd = bsoncore.AppendArrayElement(cmd, "documents", arr)
		cmd = bsoncore.AppendBooleanElement(cmd, "ordered", false)
		if cmd, err = bsoncore.AppendDocumentEnd(cmd, ci); err != nil {
			return err
		}
		// The driver answers a reply with write errors as a
		// mongo.WriteException, each error with its index in the command.
		var wex mongo.WriteException
		err = lane.Do(func() error { return c.Database().RunCommand(ctx, bson.Raw(cmd)).Err() })
		switch {
		case err == nil:
		case errors.As(err, &wex) && wex.WriteConcernError == nil && len(wex.WriteErrors) > 0:
			for _, we := range wex.WriteErrors {
				if we.Index >= 0 {
					we.Index += start
				}
				bwe.WriteErrors = append(bwe.WriteErrors, mongo.BulkWriteError{WriteError: we})
			}
		default:
			return err
		}
		start = end
	}
	if len(bwe.WriteErrors) > 0 {
		return bwe
	}
	return nil
}
