package mongox

import (
	"context"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestSeqInserterLeavesPrefixes: three sequences go in one ordered
// insert; the middle one meets an _id already stored. The first is in,
// the middle one stops at its duplicate (what follows it is not
// written), and the last, not tried by the server, goes in the next
// insert. On every store kind, since the prefix is the server's doing.
func TestSeqInserterLeavesPrefixes(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			c := testsvc.MongoOf(t, kind).Collection("seq")
			if _, err := c.InsertOne(ctx, item{ID: "b2"}); err != nil {
				t.Fatal(err)
			}
			b := NewSeqInserter(c)
			seqs := [][]any{
				{item{ID: "a1"}, item{ID: "a2"}},
				{item{ID: "b1"}, item{ID: "b2"}, item{ID: "b3"}},
				{item{ID: "c1"}, item{ID: "c2"}},
			}
			// Held back until all three are queued, so they go together.
			b.mu.Lock()
			b.running = 1
			b.mu.Unlock()
			ns, errs := make([]int, len(seqs)), make([]error, len(seqs))
			var wg sync.WaitGroup
			for i, s := range seqs {
				wg.Go(func() { ns[i], errs[i] = b.Insert(ctx, s) })
				// In this order: each queued before the next starts.
				testsvc.Eventually(t, "queued", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.queue) == i+1 })
			}
			go b.flush()
			wg.Wait()
			if ns[0] != 2 || errs[0] != nil {
				t.Errorf("first: %d in, %v; want 2, nil", ns[0], errs[0])
			}
			if ns[1] != 1 || !mongo.IsDuplicateKeyError(errs[1]) {
				t.Errorf("middle: %d in, %v; want 1 and a duplicate", ns[1], errs[1])
			}
			if ns[2] != 2 || errs[2] != nil {
				t.Errorf("last: %d in, %v; want 2, nil", ns[2], errs[2])
			}
			for id, want := range map[string]int64{"a1": 1, "a2": 1, "b1": 1, "b2": 1, "b3": 0, "c1": 1, "c2": 1} {
				if n := count(t, c, bson.D{{Key: "_id", Value: id}}); n != want {
					t.Errorf("%s: %d stored, want %d", id, n, want)
				}
			}
		})
	}
}
