package mongox

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestLaneOneWriteAtATime: the four kinds of batcher on four collections
// share a lane. While the lane is taken none of them sends anything, and
// afterwards no two of their writes are ever in flight at once, however
// many callers write concurrently; every write is done.
func TestLaneOneWriteAtATime(t *testing.T) {
	var inFlight, most, started atomic.Int64
	writes := map[string]bool{"insert": true, "update": true, "delete": true}
	var names sync.Map // request id -> a write
	mon := &event.CommandMonitor{
		Started: func(_ context.Context, e *event.CommandStartedEvent) {
			if !writes[e.CommandName] {
				return
			}
			names.Store(e.RequestID, true)
			started.Add(1)
			n := inFlight.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
		},
		Succeeded: func(_ context.Context, e *event.CommandSucceededEvent) {
			if _, ok := names.LoadAndDelete(e.RequestID); ok {
				inFlight.Add(-1)
			}
		},
		Failed: func(_ context.Context, e *event.CommandFailedEvent) {
			if _, ok := names.LoadAndDelete(e.RequestID); ok {
				inFlight.Add(-1)
			}
		},
	}
	db := testsvc.MongoMonitored(t, testsvc.KindFerretDB, mon)
	ctx := context.Background()
	for _, name := range []string{"ins", "seq", "upd", "del"} {
		if err := db.CreateCollection(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	lane := NewLane()
	in := InLane(lane)
	ins := NewInserter(db.Collection("ins"), in)
	seq := NewSeqInserter(db.Collection("seq"), in, InFlight(4))
	upd := NewWriter(db.Collection("upd"), in, InFlight(4))
	del := NewDeleter(db.Collection("del"), in)

	const callers = 24
	lane.enter() // taken: nothing may be sent until it is left
	var wg sync.WaitGroup
	errs := make(chan error, 3*callers)
	for i := range callers {
		wg.Go(func() {
			if err := ins.Insert(ctx, item{ID: fmt.Sprint(i)}); err != nil {
				errs <- err
			}
		})
		wg.Go(func() {
			if _, err := seq.Insert(ctx, []any{item{ID: fmt.Sprint(i, "a")}, item{ID: fmt.Sprint(i, "b")}}); err != nil {
				errs <- err
			}
		})
		wg.Go(func() {
			m := mongo.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: fmt.Sprint(i)}}).SetReplacement(item{ID: fmt.Sprint(i), Key: "k"}).SetUpsert(true)
			if err := upd.Write(ctx, []mongo.WriteModel{m}); err != nil {
				errs <- err
			}
		})
		del.Delete(fmt.Sprint(i))
	}
	testsvc.Eventually(t, "every batcher waiting for the lane", func() bool {
		ins.mu.Lock()
		a := ins.running && len(ins.queue) > 0
		ins.mu.Unlock()
		seq.mu.Lock()
		b := seq.running > 0
		seq.mu.Unlock()
		upd.mu.Lock()
		c := upd.running > 0
		upd.mu.Unlock()
		del.mu.Lock()
		d := del.running
		del.mu.Unlock()
		return a && b && c && d
	})
	if n := started.Load(); n != 0 {
		t.Fatalf("%d writes sent while the lane was taken", n)
	}
	lane.leave()
	wg.Wait()
	if failed := del.Wait(); failed != 0 {
		t.Errorf("%d deletes failed", failed)
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if m := most.Load(); m != 1 {
		t.Errorf("%d writes in flight at once, want 1", m)
	}
	for name, want := range map[string]int64{"ins": callers, "seq": 2 * callers, "upd": callers} {
		if n, err := db.Collection(name).CountDocuments(ctx, bson.D{}); err != nil || n != want {
			t.Errorf("%s holds %d documents (%v), want %d", name, n, err, want)
		}
	}
}

// inFlightMonitor counts the write commands in flight and the most ever
// at once.
func inFlightMonitor() (*event.CommandMonitor, *atomic.Int64) {
	var inFlight, most atomic.Int64
	var names sync.Map // request id -> a write
	writes := map[string]bool{"insert": true, "update": true, "delete": true}
	done := func(id int64) {
		if _, ok := names.LoadAndDelete(id); ok {
			inFlight.Add(-1)
		}
	}
	return &event.CommandMonitor{
		Started: func(_ context.Context, e *event.CommandStartedEvent) {
			if !writes[e.CommandName] {
				return
			}
			names.Store(e.RequestID, true)
			n := inFlight.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
		},
		Succeeded: func(_ context.Context, e *event.CommandSucceededEvent) { done(e.RequestID) },
		Failed:    func(_ context.Context, e *event.CommandFailedEvent) { done(e.RequestID) },
	}, &most
}

// TestInsertManyTakesItsTurn: bulk inserts (an import's) and a store's
// own writes through Lane.Do, from many goroutines at once, never have
// two writes in flight when they share a lane; without one they do (so
// the test can tell). Every document is written either way.
func TestInsertManyTakesItsTurn(t *testing.T) {
	ctx := context.Background()
	for _, laned := range []bool{true, false} {
		mon, most := inFlightMonitor()
		db := testsvc.MongoMonitored(t, testsvc.KindFerretDB, mon)
		c := db.Collection("bulk")
		if err := db.CreateCollection(ctx, "bulk"); err != nil {
			t.Fatal(err)
		}
		var lane *Lane
		if laned {
			lane = NewLane()
		}
		const writers, rounds, per = 6, 4, 40
		round := func(r int) {
			var wg sync.WaitGroup
			for w := range writers {
				wg.Go(func() {
					docs := make([]any, per)
					for i := range docs {
						docs[i] = item{ID: fmt.Sprintf("%d-%d-%d", r, w, i)}
					}
					for i, err := range InsertMany(ctx, c, docs, InLane(lane)) {
						if err != nil {
							t.Errorf("insert %d of writer %d: %v", i, w, err)
						}
					}
				})
				wg.Go(func() {
					err := lane.Do(func() error {
						_, err := c.InsertOne(ctx, item{ID: fmt.Sprintf("%d-%d-one", r, w)})
						return err
					})
					if err != nil {
						t.Errorf("Do of writer %d: %v", w, err)
					}
				})
			}
			wg.Wait()
		}
		r := 0
		for ; r < rounds || !laned && most.Load() < 2 && r < 200; r++ {
			round(r)
		}
		if n, err := c.CountDocuments(ctx, bson.D{}); err != nil || n != int64(r*writers*(per+1)) {
			t.Errorf("laned %v: %d documents (%v), want %d", laned, n, err, r*writers*(per+1))
		}
		switch m := most.Load(); {
		case laned && m != 1:
			t.Errorf("in a lane: %d writes in flight at once, want 1", m)
		case !laned && m < 2:
			t.Errorf("without a lane: never two writes in flight at once in %d rounds; the test cannot tell", r)
		}
	}
}
