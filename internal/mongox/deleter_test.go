package mongox

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

func TestDeleterDeletesOnlyTheQueued(t *testing.T) {
	ctx := context.Background()
	c := testsvc.Mongo(t).Collection("marks")
	const n = 40
	for i := range n {
		if err := Mark(ctx, c, fmt.Sprintf("m%d", i), time.Unix(int64(i), 0)); err != nil {
			t.Fatal(err)
		}
	}
	d := NewDeleter(c)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < n; i += 8 { // the even quarters' ids: half of all
				d.Delete(fmt.Sprintf("m%d", i))
			}
		})
	}
	wg.Wait()
	d.Delete("never-marked")
	if failed := d.Wait(); failed != 0 {
		t.Fatalf("%d deletes failed", failed)
	}
	marks, err := Markers(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	left := map[string]bool{}
	for _, m := range marks {
		left[m.ID] = true
	}
	for i := range n {
		id := fmt.Sprintf("m%d", i)
		if want := i%8 >= 4; left[id] != want {
			t.Errorf("%s left: %v, want %v", id, left[id], want)
		}
	}
	if len(marks) != n/2 {
		t.Errorf("%d markers left, want %d", len(marks), n/2)
	}
}

func TestDeleterCountsFailures(t *testing.T) {
	db := testsvc.Mongo(t)
	c, err := mongo.Connect(options.Client().ApplyURI(testsvc.MongoURI(t)))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Disconnect(context.Background()); err != nil {
		t.Fatal(err)
	}
	d := NewDeleter(c.Database(db.Name()).Collection("marks"))
	d.Delete("a")
	if failed := d.Wait(); failed != 1 {
		t.Fatalf("failed = %d on a closed client, want 1", failed)
	}
}

// DeleteNow returns only once its marker is gone, however many callers
// share the delete, and says when the delete failed.
func TestDeleterDeleteNowWaitsForItsDelete(t *testing.T) {
	ctx := context.Background()
	c := testsvc.Mongo(t).Collection("marks")
	const n = 30
	for i := range n {
		if err := Mark(ctx, c, fmt.Sprintf("m%d", i), time.Unix(int64(i), 0)); err != nil {
			t.Fatal(err)
		}
	}
	d := NewDeleter(c)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id := fmt.Sprintf("m%d", i)
			if err := d.DeleteNow(ctx, id); err != nil {
				t.Errorf("DeleteNow(%s): %v", id, err)
				return
			}
			if err := c.FindOne(ctx, map[string]string{"_id": id}).Err(); err != mongo.ErrNoDocuments {
				t.Errorf("%s after DeleteNow: %v, want no document", id, err)
			}
		})
	}
	wg.Wait()
	if err := d.DeleteNow(ctx, "never-marked"); err != nil {
		t.Errorf("DeleteNow of a marker not there: %v", err)
	}

	closed, err := mongo.Connect(options.Client().ApplyURI(testsvc.MongoURI(t)))
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Disconnect(ctx); err != nil {
		t.Fatal(err)
	}
	if err := NewDeleter(closed.Database("x").Collection("marks")).DeleteNow(ctx, "a"); err == nil {
		t.Error("DeleteNow on a closed client: no error")
	}
}

// Later's ids wait out the linger (an hour here: nothing is sent while
// the test looks), then Wait sends them all in one delete and each
// caller hears of its own.
func TestDeleterLaterLingersIntoOneDelete(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	deletes := 0
	mon := &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		if e.CommandName == "delete" {
			mu.Lock()
			deletes++
			mu.Unlock()
		}
	}}
	c := testsvc.MongoMonitored(t, testsvc.KindFerretDB, mon).Collection("marks")
	const n = 25
	for i := range n {
		if err := Mark(ctx, c, fmt.Sprintf("m%d", i), time.Unix(int64(i), 0)); err != nil {
			t.Fatal(err)
		}
	}
	d := NewLingering(c, time.Hour)
	told := make(chan error, n)
	for i := range n {
		d.Later(fmt.Sprintf("m%d", i), func(err error) { told <- err })
	}
	if marks, err := Markers(ctx, c); err != nil || len(marks) != n {
		t.Fatalf("while lingering: %d markers (%v), want all %d", len(marks), err, n)
	}
	if failed := d.Wait(); failed != 0 {
		t.Fatalf("%d deletes failed", failed)
	}
	for range n {
		if err := <-told; err != nil {
			t.Errorf("a caller was told %v", err)
		}
	}
	if marks, err := Markers(ctx, c); err != nil || len(marks) != 0 {
		t.Fatalf("after Wait: %d markers (%v), want none", len(marks), err)
	}
	mu.Lock()
	defer mu.Unlock()
	if deletes != 1 {
		t.Errorf("%d delete commands for %d lingering ids, want 1", deletes, n)
	}
}
