package mongox

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// maxBatch bounds the documents of one combined insert.
const maxBatch = 256

// batchTimeout bounds one combined insert: it runs on no caller's context,
// so that a caller giving up does not fail the others' inserts.
const batchTimeout = 30 * time.Second

// Inserter combines the inserts of concurrent callers into one collection
// into one InsertMany: group commit. While one combined insert is in
// flight the next callers queue, and go together in the next one. Each
// document is inserted on its own (ordered=false), as by InsertOne: each
// caller gets its own result, a duplicate key included, and no document
// waits on another's. On the embedded store a combined insert is one
// SQLite transaction, so one fsync instead of one per document.
type Inserter struct {
	c    *mongo.Collection
	lane *Lane

	mu      sync.Mutex
	queue   []*insertReq
	running bool
}

type insertReq struct {
	doc  bson.Raw
	err  error
	done chan struct{}
}

// NewInserter returns an Inserter into c (InLane: its inserts take turns
// in a lane).
func NewInserter(c *mongo.Collection, opts ...Option) *Inserter {
	return &Inserter{c: c, lane: optionsOf(opts).lane}
}

// Insert inserts doc and returns what InsertOne would return as its
// error: nil, a mongo.WriteException (mongo.IsDuplicateKeyError tells a
// duplicate), or the error of the whole combined insert. A caller whose
// ctx ends stops waiting; its document may still be inserted.
func (b *Inserter) Insert(ctx context.Context, doc any) error {
	// Encoded here, so that a document that cannot be fails its caller
	// only, not the batch.
	raw, err := bson.Marshal(doc)
	if err != nil {
		return err
	}
	r := &insertReq{doc: bson.Raw(raw), done: make(chan struct{})}
	b.mu.Lock()
	b.queue = append(b.queue, r)
	if !b.running {
		b.running = true
		go b.flush()
	}
	b.mu.Unlock()
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// InsertAll inserts the documents as Insert would, all in the same
// combined insert, and returns each one's error (nil for all when all
// went in).
func (b *Inserter) InsertAll(ctx context.Context, docs []any) []error {
	errs := make([]error, len(docs))
	reqs := make([]*insertReq, 0, len(docs))
	for i, doc := range docs {
		raw, err := bson.Marshal(doc)
		if err != nil {
			errs[i] = err
			reqs = append(reqs, nil)
			continue
		}
		reqs = append(reqs, &insertReq{doc: bson.Raw(raw), done: make(chan struct{})})
	}
	b.mu.Lock()
	for _, r := range reqs {
		if r != nil {
			b.queue = append(b.queue, r)
		}
	}
	if !b.running {
		b.running = true
		go b.flush()
	}
	b.mu.Unlock()
	for i, r := range reqs {
		if r == nil {
			continue
		}
		select {
		case <-r.done:
			errs[i] = r.err
		case <-ctx.Done():
			errs[i] = ctx.Err()
		}
	}
	return errs
}

// flush inserts what is queued, batch after batch, until nothing is. A
// batch is cut once its turn in the lane comes, so that it takes in
// whoever queued while it waited.
func (b *Inserter) flush() {
	for {
		b.lane.enter()
		b.mu.Lock()
		n := min(len(b.queue), maxBatch)
		if n == 0 {
			b.running = false
			b.mu.Unlock()
			b.lane.leave()
			return
		}
		batch := b.queue[:n:n]
		b.queue = b.queue[n:]
		if len(b.queue) == 0 {
			b.queue = nil
		}
		b.mu.Unlock()
		b.insert(batch)
		b.lane.leave()
	}
}

func (b *Inserter) insert(batch []*insertReq) {
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	docs := make([]any, len(batch))
	for i, r := range batch {
		docs[i] = r.doc
	}
	_, err := b.c.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	errs := splitErrors(err, len(batch))
	for i, r := range batch {
		r.err = errs[i]
		close(r.done)
	}
}

// splitErrors gives each of n documents its part of InsertMany's error:
// its own write error (and any write concern error) as the
// mongo.WriteException InsertOne would return, or the error itself when
// it is not about single documents.
func splitErrors(err error, n int) []error {
	out := make([]error, n)
	if err == nil {
		return out
	}
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) {
		for i := range out {
			out[i] = err
		}
		return out
	}
	mine := make([][]mongo.WriteError, n)
	for _, we := range bwe.WriteErrors {
		if we.Index < 0 || we.Index >= n {
			// Not attributable: everyone is told.
			for i := range out {
				out[i] = err
			}
			return out
		}
		w := we.WriteError
		i := w.Index
		w.Index = 0
		mine[i] = append(mine[i], w)
	}
	for i := range out {
		if len(mine[i]) == 0 && bwe.WriteConcernError == nil {
			continue
		}
		out[i] = mongo.WriteException{WriteErrors: mine[i], WriteConcernError: bwe.WriteConcernError, Labels: bwe.Labels}
	}
	return out
}
