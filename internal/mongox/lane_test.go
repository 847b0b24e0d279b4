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
