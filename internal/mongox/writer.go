package mongox

import (
	"context"
	"errors"
	"sync"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Writer combines concurrent callers' writes (replaces, updates) into one
// collection into one unordered BulkWrite: group commit, as Inserter does
// for inserts. Each caller gets its own errors (write). For idempotent
// writes no decision rests on (a projection that readers check): an
// unordered batch keeps no order between callers.
type Writer struct {
	c       *mongo.Collection
	lane    *Lane
	batch   int // writes of one command at most
	max     int // commands in flight at most
	mu      sync.Mutex
	running int // writes in flight
	queue   []*writeReq
}

type writeReq struct {
	models []mongo.WriteModel
	err    error
	done   chan struct{}
}

// NewWriter returns a Writer on c (InFlight, InLane: as for
// NewSeqInserter; MaxBatch: writes of one command at most).
func NewWriter(c *mongo.Collection, opts ...Option) *Writer {
	o := optionsOf(opts)
	return &Writer{c: c, lane: o.lane, batch: o.maxBatch, max: o.inFlight}
}

// Write applies the models with those of concurrent callers and returns
// what BulkWrite(models, unordered) would return as its error: nil, a
// mongo.BulkWriteException holding this caller's write errors (indexes
// into models), or the error of the whole write. A caller whose ctx ends
// stops waiting; its writes may still be applied.
func (w *Writer) Write(ctx context.Context, models []mongo.WriteModel) error {
	if len(models) == 0 {
		return nil
	}
	r := &writeReq{models: models, done: make(chan struct{})}
	w.mu.Lock()
	w.queue = append(w.queue, r)
	if w.running < w.max {
		w.running++
		go w.flush()
	}
	w.mu.Unlock()
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (w *Writer) flush() {
	for {
		w.lane.enter()
		w.mu.Lock()
		var batch []*writeReq
		n := 0
		for len(w.queue) > 0 && (len(batch) == 0 || n+len(w.queue[0].models) <= w.batch) {
			batch = append(batch, w.queue[0])
			n += len(w.queue[0].models)
			w.queue = w.queue[1:]
		}
		if len(batch) == 0 {
			w.queue = nil
			w.running--
			w.mu.Unlock()
			w.lane.leave()
			return
		}
		w.mu.Unlock()
		w.write(batch)
		w.lane.leave()
	}
}

// write sends the batch as one bulk write and answers its callers. When a
// write of it fails, each caller's writes go again on their own: FerretDB
// v1 stops an unordered batch at a failed write and gives its index
// wrongly (0), so neither who failed nor what was applied can be told
// from one answer. Callers' writes are idempotent, so applying one twice
// is harmless.
func (w *Writer) write(batch []*writeReq) {
	ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
	defer cancel()
	var all []mongo.WriteModel
	for _, r := range batch {
		all = append(all, r.models...)
	}
	_, err := w.c.BulkWrite(ctx, all, options.BulkWrite().SetOrdered(false))
	var bwe mongo.BulkWriteException
	if len(batch) > 1 && errors.As(err, &bwe) && bwe.WriteConcernError == nil {
		for _, r := range batch {
			_, r.err = w.c.BulkWrite(ctx, r.models, options.BulkWrite().SetOrdered(false))
			close(r.done)
		}
		return
	}
	for _, r := range batch {
		r.err = err
		close(r.done)
	}
}
