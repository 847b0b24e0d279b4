package mongox

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// SeqInserter inserts sequences of documents into one collection, each
// in its order and stopping at its first document that fails (an ordered
// insert), so that what a sequence leaves behind is always a prefix of
// it: a protocol whose steps are inserts, each unique by _id, can write
// all its steps in one command and still pass only through the states
// its steps one by one pass through. Concurrent callers' sequences go
// together in one ordered InsertMany (group commit, as Inserter): when
// one fails, those before it are in, its own stops there, and those
// after it, not tried by the server, go again in the next one.
type SeqInserter struct {
	c       *mongo.Collection
	lane    *Lane
	max     int // inserts in flight at most
	mu      sync.Mutex
	running int // inserts in flight
	queue   []*seqReq
}

// maxOrdered bounds the documents of one combined ordered insert.
// FerretDB v1 inserts an ordered insert's documents in batches of 100
// (its default batch size) and, past a failed document, stops only that
// batch's (handler.MsgInsert: the break leaves the inner loop, not the
// batches): the documents of the next batches go in after all, and a
// sequence no longer leaves a prefix of itself. Kept to one batch, it
// does.
const maxOrdered = 100

type seqReq struct {
	docs []bson.Raw
	n    int   // how many went in
	err  error // why the next did not
	done chan struct{}
}

// NewSeqInserter returns a SeqInserter into c (InFlight: how many
// combined inserts may be in flight; InLane: they take turns in a lane).
func NewSeqInserter(c *mongo.Collection, opts ...Option) *SeqInserter {
	o := optionsOf(opts)
	return &SeqInserter{c: c, lane: o.lane, max: o.inFlight}
}

// Insert inserts the documents in order and returns how many went in and,
// when not all did, the error of the first that did not: a
// mongo.WriteException for that document (mongo.IsDuplicateKeyError
// tells a duplicate) or the error of the whole insert (then n may be
// behind what went in: the answer was lost). A caller whose ctx ends
// stops waiting with n 0; its documents may still go in.
func (b *SeqInserter) Insert(ctx context.Context, docs []any) (n int, err error) {
	r := &seqReq{docs: make([]bson.Raw, len(docs)), done: make(chan struct{})}
	for i, d := range docs {
		raw, err := bson.Marshal(d)
		if err != nil {
			return 0, err // encoded before anything is sent
		}
		r.docs[i] = raw
	}
	if len(docs) == 0 {
		return 0, nil
	}
	if len(docs) > maxOrdered {
		return 0, fmt.Errorf("mongox: a sequence of %d documents, more than %d, cannot be written in order", len(docs), maxOrdered)
	}
	b.mu.Lock()
	b.queue = append(b.queue, r)
	if b.running < b.max {
		b.running++
		go b.flush()
	}
	b.mu.Unlock()
	select {
	case <-r.done:
		return r.n, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// flush inserts what is queued until nothing is; a sequence the server
// did not try goes back to the front of the queue.
func (b *SeqInserter) flush() {
	for {
		b.lane.enter()
		b.mu.Lock()
		var batch []*seqReq
		docs := 0
		for len(b.queue) > 0 && (len(batch) == 0 || docs+len(b.queue[0].docs) <= maxOrdered) {
			batch = append(batch, b.queue[0])
			docs += len(b.queue[0].docs)
			b.queue = b.queue[1:]
		}
		if len(batch) == 0 {
			b.queue = nil
			b.running--
			b.mu.Unlock()
			b.lane.leave()
			return
		}
		b.mu.Unlock()
		again := b.insert(batch)
		b.lane.leave()
		if len(again) > 0 {
			b.mu.Lock()
			b.queue = append(again, b.queue...)
			b.mu.Unlock()
		}
	}
}

// insert sends the sequences as one ordered insert, answers those it
// decided, and returns those the server did not try.
func (b *SeqInserter) insert(batch []*seqReq) (again []*seqReq) {
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	var all []any
	for _, r := range batch {
		for _, d := range r.docs {
			all = append(all, d)
		}
	}
	_, err := b.c.InsertMany(ctx, all, options.InsertMany().SetOrdered(true))
	stop, werr := failedAt(err, len(all))
	if stop < 0 { // not about one document: no one knows what went in
		for _, r := range batch {
			r.err = err
			close(r.done)
		}
		return nil
	}
	start := 0
	for i, r := range batch {
		end := start + len(r.docs)
		if end <= stop { // all in
			r.n = len(r.docs)
			close(r.done)
			start = end
			continue
		}
		// Its own document stopped the insert; those after it were not
		// tried.
		r.n, r.err = stop-start, werr
		close(r.done)
		return batch[i+1:]
	}
	return nil
}

// failedAt is where an ordered InsertMany of n documents stopped: the
// index of its first write error and that document's error as InsertOne
// gives it; (n, nil) when all went in; (-1, nil) when the error is not
// about one document (then nothing is known of what went in).
func failedAt(err error, n int) (int, error) {
	if err == nil {
		return n, nil
	}
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || len(bwe.WriteErrors) == 0 || bwe.WriteConcernError != nil {
		return -1, nil
	}
	first := bwe.WriteErrors[0]
	for _, we := range bwe.WriteErrors {
		if we.Index < first.Index {
			first = we
		}
	}
	if first.Index < 0 || first.Index >= n {
		return -1, nil
	}
	w := first.WriteError
	w.Index = 0
	return first.Index, mongo.WriteException{WriteErrors: []mongo.WriteError{w}, Labels: bwe.Labels}
}
