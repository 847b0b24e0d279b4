package mongox

import (
	"context"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestWriterErrorsGoToTheirCaller: three callers' writes go in one bulk
// write; the middle caller's second write cannot be applied ($inc of a
// text). Every
// other write is applied, and only the middle caller is told, at the
// index of its own write.
func TestWriterErrorsGoToTheirCaller(t *testing.T) {
	ctx := context.Background()
	c := testsvc.Mongo(t).Collection("writes")
	if _, err := c.InsertOne(ctx, item{ID: "old", Key: "k-old"}); err != nil {
		t.Fatal(err)
	}
	put := func(id, key string) mongo.WriteModel {
		return mongo.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: id}}).SetReplacement(item{ID: id, Key: key}).SetUpsert(true)
	}
	calls := [][]mongo.WriteModel{
		{put("a", "k-a")},
		{put("b", "k-b"), mongo.NewUpdateOneModel().SetFilter(bson.D{{Key: "_id", Value: "old"}}).SetUpdate(bson.D{{Key: "$inc", Value: bson.D{{Key: "key", Value: 1}}}})},
		{put("d", "k-d"), put("e", "k-e")},
	}
	w := NewWriter(c)
	w.mu.Lock()
	w.running = 1 // held back until all are queued
	w.mu.Unlock()
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, m := range calls {
		wg.Go(func() { errs[i] = w.Write(ctx, m) })
		testsvc.Eventually(t, "queued in order", func() bool { w.mu.Lock(); defer w.mu.Unlock(); return len(w.queue) == i+1 })
	}
	go w.flush()
	wg.Wait()
	if errs[0] != nil || errs[2] != nil {
		t.Errorf("callers without a bad write were told %v, %v", errs[0], errs[2])
	}
	if be, ok := errs[1].(mongo.BulkWriteException); !ok || len(be.WriteErrors) != 1 {
		t.Errorf("the middle caller: %v, want its write's error", errs[1])
	}
	for id, want := range map[string]string{"a": "k-a", "b": "k-b", "d": "k-d", "e": "k-e", "old": "k-old"} {
		var got item
		if err := c.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&got); err != nil || got.Key != want {
			t.Errorf("%s = %+v, %v; want key %s", id, got, err, want)
		}
	}
}
