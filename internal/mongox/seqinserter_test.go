package mongox

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

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
			c := seqWithOne(t, kind, "b2")
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

// TestSeqInserterPrefixesPastOneBatch: more sequences than fit in 100
// documents, queued together, one of the first meeting a document
// already stored. Each sequence leaves a prefix of itself, the failing
// one exactly up to its duplicate, on every store kind: FerretDB v1
// carries on with an ordered insert's next batch of 100 after a failure
// in the first (TestOrderedInsertPastOneBatch), so the SeqInserter never
// sends it more than one batch.
func TestSeqInserterPrefixesPastOneBatch(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			c := seqWithOne(t, kind, "s01-d2")
			b := NewSeqInserter(c)
			const seqs, per = 40, 6 // 240 documents
			b.mu.Lock()
			b.running = 1 // held back until all are queued
			b.mu.Unlock()
			ns, errs := make([]int, seqs), make([]error, seqs)
			var wg sync.WaitGroup
			for i := range seqs {
				docs := make([]any, per)
				for j := range per {
					docs[j] = item{ID: fmt.Sprintf("s%02d-d%d", i, j)}
				}
				wg.Go(func() { ns[i], errs[i] = b.Insert(ctx, docs) })
				testsvc.Eventually(t, "queued", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.queue) == i+1 })
			}
			go b.flush()
			wg.Wait()
			for i := range seqs {
				want, stored := per, 0
				if i == 1 {
					want = 2 // d0 and d1; d2 was there
					if !mongo.IsDuplicateKeyError(errs[i]) {
						t.Errorf("sequence 1: %v, want its duplicate", errs[i])
					}
				} else if errs[i] != nil {
					t.Errorf("sequence %d: %v", i, errs[i])
				}
				for j := range per {
					n := count(t, c, bson.D{{Key: "_id", Value: fmt.Sprintf("s%02d-d%d", i, j)}})
					if i == 1 && j == 2 {
						continue // the one stored before
					}
					if n == 1 && j >= want {
						t.Errorf("sequence %d: document %d stored after its stop at %d", i, j, want)
					}
					stored += int(n)
				}
				if ns[i] != want || i != 1 && stored != per || i == 1 && stored != want {
					t.Errorf("sequence %d: %d in (answer %d), want %d", i, stored, ns[i], want)
				}
			}
		})
	}
}

// TestOrderedInsertPastOneBatch pins down why maxOrdered exists: an
// ordered insert of 150 documents whose 10th is a duplicate stores
// nothing after it on MongoDB, but FerretDB v1 stores the documents of
// its second batch (101-150). If FerretDB stops doing so, maxOrdered
// may go.
func TestOrderedInsertPastOneBatch(t *testing.T) {
	ctx := context.Background()
	c := testsvc.MongoOf(t, testsvc.KindFerretDB).Collection("ordered")
	if _, err := c.InsertOne(ctx, item{ID: "d009"}); err != nil {
		t.Fatal(err)
	}
	docs := make([]any, 150)
	for i := range docs {
		docs[i] = item{ID: fmt.Sprintf("d%03d", i)}
	}
	_, err := c.InsertMany(ctx, docs, options.InsertMany().SetOrdered(true))
	if !mongo.IsDuplicateKeyError(err) {
		t.Fatalf("the insert: %v, want a duplicate", err)
	}
	after := count(t, c, bson.D{{Key: "_id", Value: bson.D{{Key: "$gt", Value: "d009"}}}})
	if after != 50 {
		t.Fatalf("%d documents stored after the duplicate; FerretDB v1 stores the next batch's 50 (if now 0, maxOrdered may go)", after)
	}
}

// seqWithOne is a fresh collection of the store kind holding one item,
// under id: the duplicate a sequence is to meet.
func seqWithOne(t *testing.T, kind, id string) *mongo.Collection {
	t.Helper()
	c := testsvc.MongoOf(t, kind).Collection("seq")
	if _, err := c.InsertOne(context.Background(), item{ID: id}); err != nil {
		t.Fatal(err)
	}
	return c
}
