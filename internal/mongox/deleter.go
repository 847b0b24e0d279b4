package mongox

import (
	"context"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// maxDelete bounds the ids of one combined delete.
const maxDelete = 1000

// Deleter deletes markers by _id, many in one DeleteMany: later, without
// making anyone wait (Delete), for a marker whose reader drops it anyway
// once its work is seen done (Unfinished), so that one left behind by a
// crash or a failed delete costs a read, never a wrong answer; or with
// the caller waiting for its delete (DeleteNow), for a marker whose
// absence says something (a game's being rated). While one delete is in
// flight the next ids queue and go together in the next: group commit.
type Deleter struct {
	c *mongo.Collection

	mu      sync.Mutex
	ids     []string
	waiters []*deleteReq // the DeleteNow callers of the queued ids
	running bool
	idle    *sync.Cond // signalled when nothing is queued or in flight
	failed  int        // deletes that failed (their markers stay)
}

// NewDeleter returns a Deleter on c.
func NewDeleter(c *mongo.Collection) *Deleter {
	d := &Deleter{c: c}
	d.idle = sync.NewCond(&d.mu)
	return d
}

// Delete queues the marker's deletion and returns at once.
func (d *Deleter) Delete(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.ids = append(d.ids, id)
	if !d.running {
		d.running = true
		go d.flush()
	}
}

type deleteReq struct {
	id   string
	err  error
	done chan struct{}
}

// DeleteNow deletes the marker with the others queued at the same time
// and returns the delete's error (nil when it is gone or was not there).
// A caller whose ctx ends stops waiting; the delete may still happen.
func (d *Deleter) DeleteNow(ctx context.Context, id string) error {
	r := &deleteReq{id: id, done: make(chan struct{})}
	d.mu.Lock()
	d.ids = append(d.ids, id)
	d.waiters = append(d.waiters, r)
	if !d.running {
		d.running = true
		go d.flush()
	}
	d.mu.Unlock()
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Wait returns when every deletion queued before it has been tried, and
// how many tries failed so far.
func (d *Deleter) Wait() (failed int) {
	d.mu.Lock()
	defer d.mu.Unlock()
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
		d.waiters = rest
		d.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
		_, err := d.c.DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
		cancel()
		if err != nil {
			d.mu.Lock()
			d.failed++
			d.mu.Unlock()
		}
		for _, w := range waiters {
			w.err = err
			close(w.done)
		}
	}
}
