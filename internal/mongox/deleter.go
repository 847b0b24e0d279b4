package mongox

import (
	"context"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// maxDelete bounds the ids of one combined delete.
const maxDelete = 1000

// Deleter deletes markers by _id later, many in one DeleteMany, without
// making anyone wait: for a marker whose reader drops it anyway once its
// work is seen done (Unfinished, Finished), so that one left behind by a
// crash or a failed delete costs a read, never a wrong answer. While one
// delete is in flight the next ids queue and go together in the next.
type Deleter struct {
	c *mongo.Collection

	mu      sync.Mutex
	ids     []string
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
		d.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), batchTimeout)
		_, err := d.c.DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}}})
		cancel()
		if err != nil {
			d.mu.Lock()
			d.failed++
			d.mu.Unlock()
		}
	}
}
