package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// plan is SQLite's plan for FerretDB's own lookup by _id in coll's table.
func plan(t *testing.T, file, coll string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var table string
	if err := db.QueryRow(`SELECT table_name FROM _ferretdb_collections WHERE name = ?`, coll).Scan(&table); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(fmt.Sprintf(`EXPLAIN QUERY PLAN SELECT _ferretdb_sjson FROM %q WHERE _ferretdb_sjson->'$._id' = ?`, table), `"a"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, detail)
	}
	return strings.Join(out, "; ")
}

func TestIndexIDs(t *testing.T) {
	dir := t.TempDir()
	f, err := StartFerret(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	ctx := context.Background()
	c, err := mongo.Connect(options.Client().ApplyURI(f.URI))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Disconnect(ctx) }()
	db := c.Database("idx")
	// Before the database exists: nothing to do, no file made.
	if err := f.IndexIDs("idx"); err != nil {
		t.Fatalf("IndexIDs before the database: %v", err)
	}
	coll := db.Collection("things")
	for _, id := range []string{"a", "b", "c"} {
		if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "n", Value: len(id)}}); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "idx.sqlite")
	if p := plan(t, file, "things"); !strings.Contains(p, "SCAN") {
		t.Fatalf("before indexing, plan %q: want FerretDB's scan (else this test checks nothing)", p)
	}
	n, err := indexIDs(ctx, file)
	if err != nil || n != 1 {
		t.Fatalf("indexIDs = %d, %v; want 1 table indexed", n, err)
	}
	if p := plan(t, file, "things"); !strings.Contains(p, "USING INDEX "+idIndexPrefix) {
		t.Fatalf("after indexing, plan %q: want a search by %s…", p, idIndexPrefix)
	}
	if n, err := indexIDs(ctx, file); err != nil || n != 0 {
		t.Fatalf("indexIDs again = %d, %v; want nothing more to do", n, err)
	}
	// FerretDB still reads, updates, deletes and refuses duplicates.
	var got struct {
		N int `bson:"n"`
	}
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "b"}}).Decode(&got); err != nil || got.N != 1 {
		t.Fatalf("find b = %+v, %v", got, err)
	}
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "b"}}); !mongo.IsDuplicateKeyError(err) {
		t.Fatalf("duplicate insert: %v, want a duplicate key error", err)
	}
	if r, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: "c"}}, bson.D{{Key: "$set", Value: bson.D{{Key: "n", Value: 7}}}}); err != nil || r.ModifiedCount != 1 {
		t.Fatalf("update c = %+v, %v", r, err)
	}
	if r, err := coll.DeleteOne(ctx, bson.D{{Key: "_id", Value: "a"}}); err != nil || r.DeletedCount != 1 {
		t.Fatalf("delete a = %+v, %v", r, err)
	}
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "a"}}).Err(); !errors.Is(err, mongo.ErrNoDocuments) {
		t.Fatalf("find deleted a: %v", err)
	}
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "c"}}).Decode(&got); err != nil || got.N != 7 {
		t.Fatalf("find c = %+v, %v", got, err)
	}
	// A collection made later is indexed by the loop IndexIDs started.
	if _, err := db.Collection("later").InsertOne(ctx, bson.D{{Key: "_id", Value: "x"}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if strings.Contains(plan(t, file, "later"), "USING INDEX "+idIndexPrefix) {
			break
		}
		if i == 300 {
			t.Fatal("collection made later: not indexed after 30 sweeps' time")
		}
		time.Sleep(idIndexEvery / 10)
	}
}
