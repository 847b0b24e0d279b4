package mongox

import (
	"context"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// maxDelete bounds the ids of one combined delete.
const maxDelete = 1000

// Deleter deletes markers by _id, many in one DeleteMany: later, without
// making anyone wait (Delete, Later), for a marker whose reader drops it
// anyway once its work is seen done, so that one left behind by a crash
// or a failed delete costs a read, never a wrong answer; or with the
// caller waiting for its delete (DeleteNow), for a marker whose absence
// says something. While one delete is in flight the next ids queue and
// go together in the next: group commit. With a linger (NewLingering),
// what Later queues waits up to the linger for more to share its delete.
type Deleter struct {
	c      *mongo.Collection
	lane   *Lane
	before func(context.Context) error
	linger time.Duration

	mu      sync.Mutex
	ids     []string
	waiters []*deleteReq // the callers told of their queued ids' delete
	running bool
	timer   *time.Timer // armed while Later's ids linger
	idle    *sync.Cond  // signalled when nothing is queued or in flight
	failed  int         // deletes that failed (their markers stay)
}

// NewDeleter returns a Deleter on c (InLane: its deletes take turns in a
// lane).
func NewDeleter(c *mongo.Collection, opts ...Option) *Deleter {
	return NewLingering(c, 0, opts...)
}

// NewLingering returns a Deleter on c whose Later ids wait up to linger
// before their delete is sent (unless a full batch, DeleteNow or Wait
// sends them sooner).
func NewLingering(c *mongo.Collection, linger time.Duration, opts ...Option) *Deleter {
	o := optionsOf(opts)
	d := &Deleter{c: c, lane: o.lane, before: o.before, linger: linger}
	d.idle = sync.NewCond(&d.mu)
	return d
}

type deleteReq struct {
	id   string
	then func(error)
}

// Delete queues the marker's deletion and returns at once.
func (d *Deleter) Delete(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ids = append(d.ids, id)
	d.startLocked()
}

// Later queues the marker's deletion, to be sent within the linger with
// whatever else is queued by then, and returns at once; then, if not
// nil, is called with the delete's error once it was tried.
func (d *Deleter) Later(id string, then func(error)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ids = append(d.ids, id)
	if then != nil {
		d.waiters = append(d.waiters, &deleteReq{id: id, then: then})
	}
	if d.linger <= 0 || len(d.ids) >= maxDelete {
		d.startLocked()
		return
	}
	if d.timer == nil && !d.running {
		d.timer = time.AfterFunc(d.linger, func() {
			d.mu.Lock()
			defer d.mu.Unlock()
			d.startLocked()
		})
	}
}

// startLocked sends what is queued now (the linger cut short).
func (d *Deleter) startLocked() {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	if !d.running && len(d.ids) > 0 {
		d.running = true
		go d.flush()
	}
}

// DeleteNow deletes the marker with the others queued at the same time
// and returns the delete's error (nil when it is gone or was not there).
// A caller whose ctx ends stops waiting; the delete may still happen.
func (d *Deleter) DeleteNow(ctx context.Context, id string) error {
	done := make(chan error, 1)
	d.mu.Lock()
	d.ids = append(d.ids, id)
	d.waiters = append(d.waiters, &deleteReq{id: id, then: func(err error) { done <- err }})
	d.startLocked()
	d.mu.Unlock()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Wait sends what lingers and returns when every deletion queued before
// it has been tried, and how many tries failed so far.
func (d *Deleter) Wait() (failed int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.startLocked()
	for d.running {
		d.idle.Wait()
	}
	return d.failed
}

func (d *Deleter) flush() {
	for {
		d.mu.Lock()
		n := min(len(d.ids), maxDelete)
		if n == 0 {
			d.running = false
			d.idle.Broadcast()
			d.mu.Unlock()
			return
		}
		ids := d.ids[:n:n]
		d.ids = d.ids[n:]
		if len(d.ids) == 0 {
			d.ids = nil
		}
		// The waiters of the ids taken: those queued first are in them.
		var waiters []*deleteReq
		in := make(map[string]bool, n)
		for _, id := range ids {
			in[id] = true
		}
		rest := d.waiters[:0]
		for _, w := range d.waiters {
			if in[w.id] {
				waiters = append(waiters, w)
			} else {
				rest = append(rest, w)
			}
		}
		clear(d.waiters[len(rest):])
		d.waiters = rest
		d.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
		var err error
		if d.before != nil { // outside the lane: its own writes take turns there
			err = d.before(ctx)
		}
		if err == nil {
			d.lane.enter()
			_, err = d.c.DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
			d.lane.leave()
		}
		cancel()
		if err != nil {
			d.mu.Lock()
			d.failed++
			d.mu.Unlock()
		}
		for _, w := range waiters {
			w.then(err)
		}
	}
}
