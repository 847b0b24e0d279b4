package mongox

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

type item struct {
	ID  string `bson:"_id"`
	Key string `bson:"key"`
}

// queued starts one Insert per doc, held back until all are queued, so
// that they go in one combined insert, and returns each one's error.
func queued(t *testing.T, b *Inserter, docs []any) []error {
	t.Helper()
	b.mu.Lock()
	b.running = true // the flush is started below, by hand
	b.mu.Unlock()
	errs := make([]error, len(docs))
	var wg sync.WaitGroup
	for i, d := range docs {
		wg.Go(func() { errs[i] = b.Insert(context.Background(), d) })
	}
	for {
		b.mu.Lock()
		n := len(b.queue)
		b.mu.Unlock()
		if n == len(docs) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	go b.flush()
	wg.Wait()
	return errs
}

func count(t *testing.T, c *mongo.Collection, filter bson.D) int64 {
	t.Helper()
	n, err := c.CountDocuments(context.Background(), filter)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestInserterDuplicatesGoToTheirCaller(t *testing.T) {
	ctx := context.Background()
	c := testsvc.Mongo(t).Collection("items")
	if _, err := c.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "key", Value: 1}}, Options: options.Index().SetName("key").SetUnique(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.InsertOne(ctx, item{ID: "old", Key: "k-old"}); err != nil {
		t.Fatal(err)
	}
	b := NewInserter(c)
	// 0, 2 new; 1 an _id already stored; 3 a taken unique key; 4 and 5
	// the same new _id in one batch: one wins (the first queued), the
	// other is told.
	docs := []any{
		item{ID: "a", Key: "k-a"}, item{ID: "old", Key: "k-x"}, item{ID: "b", Key: "k-b"},
		item{ID: "c", Key: "k-old"}, item{ID: "d", Key: "k-d1"}, item{ID: "d", Key: "k-d2"},
	}
	errs := queued(t, b, docs)
	winner := "k-d1"
	if errs[4] != nil {
		winner = "k-d2"
		errs[4], errs[5] = errs[5], errs[4]
	}
	for i, wantDup := range []bool{false, true, false, true, false, true} {
		if got := mongo.IsDuplicateKeyError(errs[i]); got != wantDup || !wantDup && errs[i] != nil {
			t.Errorf("doc %d (%+v): err %v, want duplicate %v", i, docs[i], errs[i], wantDup)
		}
		var we mongo.WriteException
		if wantDup && (!errors.As(errs[i], &we) || len(we.WriteErrors) != 1 || we.WriteErrors[0].Index != 0) {
			t.Errorf("doc %d: err %#v, want InsertOne's shape: one write error at index 0", i, errs[i])
		}
	}
	for id, want := range map[string]string{"a": "k-a", "b": "k-b", "d": winner, "old": "k-old"} {
		var got item
		if err := c.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&got); err != nil || got.Key != want {
			t.Errorf("%s = %+v, %v; want key %s", id, got, err, want)
		}
	}
	if n := count(t, c, bson.D{}); n != 4 {
		t.Errorf("%d documents, want 4", n)
	}
}

func TestInserterBadDocumentFailsOnlyItsCaller(t *testing.T) {
	c := testsvc.Mongo(t).Collection("items")
	b := NewInserter(c)
	bad := struct {
		ID string   `bson:"_id"`
		F  chan int `bson:"f"`
	}{ID: "bad", F: make(chan int)}
	if err := b.Insert(context.Background(), bad); err == nil {
		t.Fatal("a document that cannot be encoded: no error")
	}
	errs := queued(t, b, []any{item{ID: "x"}, item{ID: "y"}})
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("good documents after a bad one: %v", errs)
	}
	if n := count(t, c, bson.D{}); n != 2 {
		t.Errorf("%d documents, want 2", n)
	}
}

func TestInserterConcurrent(t *testing.T) {
	c := testsvc.Mongo(t).Collection("items")
	b := NewInserter(c)
	const callers, each = 16, 20
	var wg sync.WaitGroup
	errs := make(chan error, 2*callers*each)
	for g := range callers {
		wg.Go(func() {
			for i := range each {
				// Every id twice, by two callers: one wins, one is told.
				for _, k := range []int{g, (g + 1) % callers} {
					id := fmt.Sprintf("%d-%d", k, i)
					err := b.Insert(context.Background(), item{ID: id, Key: fmt.Sprintf("by %d", g)})
					if err != nil && !mongo.IsDuplicateKeyError(err) {
						errs <- err
					}
					if err == nil {
						errs <- nil
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		if err != nil {
			t.Fatalf("insert: %v", err)
		}
		ok++
	}
	if ok != callers*each {
		t.Errorf("%d inserts succeeded, want %d (one per id)", ok, callers*each)
	}
	if n := count(t, c, bson.D{}); n != callers*each {
		t.Errorf("%d documents, want %d", n, callers*each)
	}
}

func TestInserterErrors(t *testing.T) {
	db := testsvc.Mongo(t)
	b := NewInserter(db.Collection("items"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Insert(ctx, item{ID: "late"}); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled caller: %v, want nil or context.Canceled", err)
	}
	// A client gone: every caller gets the error, seen as unavailable.
	c, err := mongo.Connect(options.Client().ApplyURI(testsvc.MongoURI(t)))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Disconnect(context.Background()); err != nil {
		t.Fatal(err)
	}
	gone := NewInserter(c.Database(db.Name()).Collection("items"))
	errs := queued(t, gone, []any{item{ID: "p"}, item{ID: "q"}})
	for i, err := range errs {
		if err == nil || !Unavailable(err) {
			t.Errorf("caller %d on a closed client: %v, want an unavailable error", i, err)
		}
	}
}

func TestSplitErrors(t *testing.T) {
	dup := mongo.WriteError{Index: 2, Code: 11000, Message: "E11000 duplicate key"}
	wce := &mongo.WriteConcernError{Code: 64, Message: "waiting for replication timed out"}
	other := errors.New("connection reset")
	cases := []struct {
		name string
		err  error
		want []string // per document: "" nil, "dup", "wce", "dup+wce", "all"
	}{
		{"nil", nil, []string{"", "", ""}},
		{"not per document", other, []string{"all", "all", "all"}},
		{"one duplicate", mongo.BulkWriteException{WriteErrors: []mongo.BulkWriteError{{WriteError: dup}}}, []string{"", "", "dup"}},
		{"write concern", mongo.BulkWriteException{WriteConcernError: wce, WriteErrors: []mongo.BulkWriteError{{WriteError: dup}}}, []string{"wce", "wce", "dup+wce"}},
		{"index out of range", mongo.BulkWriteException{WriteErrors: []mongo.BulkWriteError{{WriteError: mongo.WriteError{Index: 7, Code: 11000}}}}, []string{"all", "all", "all"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := splitErrors(tc.err, 3)
			for i, w := range tc.want {
				var we mongo.WriteException
				isWE := errors.As(got[i], &we)
				ok := false
				switch w {
				case "":
					ok = got[i] == nil
				case "all":
					ok = reflect.DeepEqual(got[i], tc.err)
				case "dup":
					ok = isWE && mongo.IsDuplicateKeyError(got[i]) && we.WriteConcernError == nil && we.WriteErrors[0].Index == 0
				case "wce":
					ok = isWE && len(we.WriteErrors) == 0 && we.WriteConcernError == wce
				case "dup+wce":
					ok = isWE && mongo.IsDuplicateKeyError(got[i]) && we.WriteConcernError == wce
				}
				if !ok {
					t.Errorf("document %d: %#v, want %s", i, got[i], w)
				}
			}
		})
	}
}

func TestInserterInsertAll(t *testing.T) {
	ctx := context.Background()
	c := testsvc.Mongo(t).Collection("items")
	if _, err := c.InsertOne(ctx, item{ID: "old"}); err != nil {
		t.Fatal(err)
	}
	b := NewInserter(c)
	bad := struct {
		ID string   `bson:"_id"`
		F  chan int `bson:"f"`
	}{ID: "bad", F: make(chan int)}
	errs := b.InsertAll(ctx, []any{item{ID: "a"}, item{ID: "old"}, bad, item{ID: "b"}})
	if errs[0] != nil || errs[3] != nil {
		t.Errorf("new documents: %v, %v; want nil", errs[0], errs[3])
	}
	if !mongo.IsDuplicateKeyError(errs[1]) {
		t.Errorf("stored _id: %v, want a duplicate key error", errs[1])
	}
	if errs[2] == nil || mongo.IsDuplicateKeyError(errs[2]) {
		t.Errorf("a document that cannot be encoded: %v, want its encoding error", errs[2])
	}
	if n := count(t, c, bson.D{}); n != 3 {
		t.Errorf("%d documents, want 3", n)
	}
}
