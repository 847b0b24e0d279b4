package mongox

import (
	"context"
	"sync"
)

// Lane is where the combined writes of several batchers (Inserter,
// SeqInserter, Writer, Deleter) into one database take turns, one at a
// time. For a store that admits one writer anyway (the embedded store:
// one SQLite database): there, writers that collide wait in SQLite's
// busy handler, which sleeps 1, 2, 5, 10 ms and more however soon the
// lock is free, and the machine idles. In the lane a batcher waits for
// the previous write's answer instead, and its callers queued meanwhile
// go in its batch. A nil *Lane lets every write go at once (a store
// server, which works on several).
type Lane struct{ mu sync.Mutex }

// NewLane returns a Lane to share between the batchers of one database.
func NewLane() *Lane { return &Lane{} }

// Do runs f, a write of the caller's own, in its turn in the lane (at
// once for a nil *Lane).
func (l *Lane) Do(f func() error) error {
	l.enter()
	defer l.leave()
	return f()
}

func (l *Lane) enter() {
	if l != nil {
		l.mu.Lock()
	}
}

func (l *Lane) leave() {
	if l != nil {
		l.mu.Unlock()
	}
}

// Option tunes a batcher.
type Option func(*batchOptions)

type batchOptions struct {
	lane     *Lane
	inFlight int
	before   func(context.Context) error
	maxBatch int
}

// MaxBatch bounds the writes of one combined Writer command (maxBatch
// unless set).
func MaxBatch(n int) Option { return func(o *batchOptions) { o.maxBatch = max(n, 1) } }

// Before makes a Deleter call f before each delete it sends, and send
// it only when f succeeded (else the delete fails with f's error): for
// markers whose absence says that what f makes lasting is lasting.
func Before(f func(context.Context) error) Option {
	return func(o *batchOptions) { o.before = f }
}

// InLane makes the batcher's writes take turns in l (nil: none).
func InLane(l *Lane) Option { return func(o *batchOptions) { o.lane = l } }

// InFlight lets the batcher keep up to n combined writes in flight (at
// least 1, the default): one for a store with a single writer, where
// each is a transaction and waiting makes batches; more for a store
// server, which works on several at once. Inserter and Deleter keep one.
func InFlight(n int) Option { return func(o *batchOptions) { o.inFlight = max(n, 1) } }

func optionsOf(opts []Option) batchOptions {
	o := batchOptions{inFlight: 1, maxBatch: maxBatch}
	for _, f := range opts {
		f(&o)
	}
	return o
}
