package mongox

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestInsertManySortsByIDAndAnswersEachCaller: the insert command carries
// the documents sorted by _id, and each error still reaches the caller's
// index (a stored _id, a document that cannot be encoded); through the
// driver's InsertMany and through the commands built for a lane alike.
func TestInsertManySortsByIDAndAnswersEachCaller(t *testing.T) {
	for _, lane := range []*Lane{nil, NewLane()} {
		t.Run(fmt.Sprintf("lane=%v", lane != nil), func(t *testing.T) { insertManySorted(t, lane) })
	}
}

func insertManySorted(t *testing.T, lane *Lane) {
	ctx := context.Background()
	var mu sync.Mutex
	var sent [][]string // the _ids of each insert command, in order
	db := testsvc.MongoMonitored(t, testsvc.KindFerretDB, &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		if e.CommandName != "insert" {
			return
		}
		var ids []string
		if docs, err := e.Command.LookupErr("documents"); err == nil {
			vals, _ := docs.Array().Values()
			for _, v := range vals {
				ids = append(ids, v.Document().Lookup("_id").StringValue())
			}
		}
		mu.Lock()
		sent = append(sent, ids)
		mu.Unlock()
	}})
	c := db.Collection("items")
	if _, err := c.InsertOne(ctx, item{ID: "m-old"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	sent = nil
	mu.Unlock()
	bad := struct {
		ID string   `bson:"_id"`
		F  chan int `bson:"f"`
	}{ID: "bad", F: make(chan int)}
	docs := []any{item{ID: "z-1"}, item{ID: "m-old"}, item{ID: "a-2", Key: "x"}, bad, item{ID: "q-3"}, item{ID: "b-4"}}
	errs := InsertMany(ctx, c, docs, InLane(lane))
	for i, want := range []string{"", "duplicate", "", "encoding", "", ""} {
		switch want {
		case "":
			if errs[i] != nil {
				t.Errorf("doc %d: %v, want nil", i, errs[i])
			}
		case "duplicate":
			if !mongo.IsDuplicateKeyError(errs[i]) {
				t.Errorf("doc %d: %v, want a duplicate key error", i, errs[i])
			}
		case "encoding":
			if errs[i] == nil || mongo.IsDuplicateKeyError(errs[i]) {
				t.Errorf("doc %d: %v, want its encoding error", i, errs[i])
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sent) != 1 {
		t.Fatalf("%d insert commands, want 1: %v", len(sent), sent)
	}
	want := []string{"a-2", "b-4", "m-old", "q-3", "z-1"}
	if !slices.Equal(sent[0], want) {
		t.Errorf("insert sent %v, want sorted by _id: %v", sent[0], want)
	}
	var got item
	if err := c.FindOne(ctx, bson.D{{Key: "_id", Value: "a-2"}}).Decode(&got); err != nil || got.Key != "x" {
		t.Errorf("a-2 = %+v, %v; want key x", got, err)
	}
	if n := count(t, c, bson.D{}); n != 5 {
		t.Errorf("%d documents, want 5", n)
	}
}

// TestInsertManyInLaneSplits: documents that exceed one command's bound
// go in several commands built for the lane, and each error still reaches
// the caller's index, in a later command too.
func TestInsertManyInLaneSplits(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	commands := 0
	db := testsvc.MongoMonitored(t, testsvc.KindFerretDB, &event.CommandMonitor{Started: func(_ context.Context, e *event.CommandStartedEvent) {
		if e.CommandName == "insert" {
			mu.Lock()
			commands++
			mu.Unlock()
		}
	}})
	c := db.Collection("big")
	if _, err := c.InsertOne(ctx, item{ID: "d-85"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	commands = 0
	mu.Unlock()
	const n, size = 90, 100 << 10 // 9 MB in all
	docs := make([]any, n)
	for i := range docs {
		docs[n-1-i] = item{ID: fmt.Sprintf("d-%02d", i), Key: strings.Repeat("x", size)}
	}
	errs := InsertMany(ctx, c, docs, InLane(NewLane()))
	for i, err := range errs {
		dup := i == n-1-85
		if dup != mongo.IsDuplicateKeyError(err) || !dup && err != nil {
			t.Errorf("doc %d (%s): %v; want a duplicate key error: %v", i, docs[i].(item).ID, err, dup)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if want := 1 + n*size/laneCommandBytes; commands != want {
		t.Errorf("%d insert commands, want %d", commands, want)
	}
	if got := count(t, c, bson.D{}); got != n {
		t.Errorf("%d documents, want %d", got, n)
	}
}
