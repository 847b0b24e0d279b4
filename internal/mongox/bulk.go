package mongox

import (
	"cmp"
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
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
// With InLane the command takes its turn in the lane (the documents are
// encoded before, outside it); other options are ignored.
func InsertMany(ctx context.Context, c *mongo.Collection, docs []any, opts ...Option) []error {
	out := make([]error, len(docs))
	raw, order := sortedByID(docs, out)
	if len(raw) == 0 {
		return out
	}
	lane := optionsOf(opts).lane
	lane.enter()
	_, err := c.InsertMany(ctx, raw, options.InsertMany().SetOrdered(false))
	lane.leave()
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
