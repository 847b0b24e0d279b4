package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
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

// indexSQL is what sqlite_master holds for coll's index named name
// (FerretDB's name, without its table prefix), "" when there is none.
func indexSQL(t *testing.T, file, coll, name string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out string
	err = db.QueryRow(`SELECT m.sql FROM sqlite_master m JOIN _ferretdb_collections c ON m.tbl_name = c.table_name
		WHERE c.name = ? AND m.name = c.table_name || ?`, coll, name).Scan(&out)
	if errors.Is(err, sql.ErrNoRows) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// startConnected starts an embedded FerretDB of the test's own and a
// client of it, both stopped when the test ends.
func startConnected(t *testing.T) (*Ferret, *mongo.Client) {
	t.Helper()
	f, err := StartFerret(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Stop)
	c, err := mongo.Connect(options.Client().ApplyURI(f.URI))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Disconnect(context.Background()) })
	return f, c
}

func TestTuneIndexes(t *testing.T) {
	ctx := context.Background()
	f, c := startConnected(t)
	dir := f.dir
	db := c.Database("idx")
	// Before the database exists: nothing to do, no file made.
	if err := f.TuneIndexes("idx"); err != nil {
		t.Fatalf("TuneIndexes before the database: %v", err)
	}
	coll := db.Collection("things")
	if _, err := coll.Indexes().CreateMany(ctx, []mongo.IndexModel{
		{Keys: bson.D{{Key: "n", Value: 1}}, Options: options.Index().SetName("n")},
		{Keys: bson.D{{Key: "u", Value: 1}}, Options: options.Index().SetName("u").SetUnique(true)},
	}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b", "c"} {
		if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "n", Value: len(id)}, {Key: "u", Value: "u" + id}}); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "idx.sqlite")
	// An earlier version's second _id index, which tuning drops.
	legacy := func() string {
		db, err := sql.Open("sqlite", "file:"+file+"?mode=rw")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var table, n string
		if err := db.QueryRow(`SELECT table_name FROM _ferretdb_collections WHERE name = 'things'`).Scan(&table); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(fmt.Sprintf(`CREATE INDEX %q ON %q (_ferretdb_sjson->'$._id')`, idIndexPrefix+table, table)); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = ?`, idIndexPrefix+table).Scan(&n); err != nil || n != "1" {
			t.Fatalf("legacy index: %s, %v", n, err)
		}
		return idIndexPrefix + table
	}()
	if p := plan(t, file, "things"); !strings.Contains(p, "USING INDEX "+legacy) {
		t.Fatalf("before tuning, plan %q: want the legacy index (else this test checks nothing)", p)
	}
	if s := indexSQL(t, file, "things", "_n"); s == "" || strings.HasSuffix(s, emptyWhere) {
		t.Fatalf("before tuning, index n is %q: want FerretDB's full index", s)
	}
	n, err := tuneIndexes(ctx, file)
	if err != nil || n != 3 {
		t.Fatalf("tuneIndexes = %d, %v; want 3 changed (_id, n, the legacy index)", n, err)
	}
	if p := plan(t, file, "things"); !strings.Contains(p, "USING INDEX") || !strings.Contains(p, "__id_") {
		t.Fatalf("after tuning, plan %q: want a search by FerretDB's own _id index", p)
	}
	if s := indexSQL(t, file, "things", "__id_"); !strings.HasPrefix(s, "CREATE UNIQUE INDEX") || !strings.Contains(s, idExpr) {
		t.Fatalf("after tuning, the _id index is %q: want unique on %s", s, idExpr)
	}
	if s := indexSQL(t, file, "things", "_n"); !strings.HasSuffix(s, emptyWhere) {
		t.Fatalf("after tuning, index n is %q: want it empty (%s)", s, emptyWhere)
	}
	if s := indexSQL(t, file, "things", "_u"); !strings.HasPrefix(s, "CREATE UNIQUE INDEX") || strings.HasSuffix(s, emptyWhere) {
		t.Fatalf("after tuning, unique index u is %q: want it as FerretDB made it", s)
	}
	if p := plan(t, file, "things"); strings.Contains(p, idIndexPrefix) {
		t.Fatalf("after tuning, plan %q still uses the legacy index", p)
	}
	if n, err := tuneIndexes(ctx, file); err != nil || n != 0 {
		t.Fatalf("tuneIndexes again = %d, %v; want nothing more to do", n, err)
	}
	// FerretDB still lists every index, reads, updates, deletes and refuses
	// duplicates of _id and of a unique field.
	cur, err := coll.Indexes().List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var listed []struct {
		Name string `bson:"name"`
	}
	if err := cur.All(ctx, &listed); err != nil || len(listed) != 3 {
		t.Fatalf("listIndexes = %+v, %v; want _id_, n and u", listed, err)
	}
	var got struct {
		N int `bson:"n"`
	}
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "b"}}).Decode(&got); err != nil || got.N != 1 {
		t.Fatalf("find b = %+v, %v", got, err)
	}
	if err := coll.FindOne(ctx, bson.D{{Key: "n", Value: 1}}).Decode(&got); err != nil || got.N != 1 {
		t.Fatalf("find n=1 (through the emptied index's field) = %+v, %v", got, err)
	}
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "b"}}); !mongo.IsDuplicateKeyError(err) {
		t.Fatalf("duplicate _id: %v, want a duplicate key error", err)
	}
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "d"}, {Key: "u", Value: "ua"}}); !mongo.IsDuplicateKeyError(err) {
		t.Fatalf("duplicate u: %v, want a duplicate key error", err)
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
	if err := coll.Indexes().DropOne(ctx, "n"); err != nil {
		t.Fatalf("drop the emptied index: %v", err)
	}
	// A collection made later is tuned by the loop TuneIndexes started.
	if _, err := db.Collection("later").InsertOne(ctx, bson.D{{Key: "_id", Value: "x"}}); err != nil {
		t.Fatal(err)
	}
	// A generous ceiling: the sweep runs every second, but CI machines are
	// often fully loaded.
	for deadline := time.Now().Add(2 * time.Minute); ; {
		if strings.Contains(indexSQL(t, file, "later", "__id_"), idExpr) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("collection made later: not tuned within 2 minutes")
		}
		time.Sleep(tuneEvery / 10)
	}
}

// Tuners at once (TuneIndexes's sweep, TuneNow, another process) never
// fail on an index another one has just changed, and the work is done once.
func TestTuneIndexesConcurrently(t *testing.T) {
	ctx := context.Background()
	f, c := startConnected(t)
	dir := f.dir
	for _, name := range []string{"a", "b", "c", "d"} {
		coll := c.Database("idx").Collection(name)
		if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "n", Value: 1}}, Options: options.Index().SetName("n")}); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "idx.sqlite")
	var wg sync.WaitGroup
	ns := make([]int, 4)
	errs := make([]error, 4)
	for i := range ns {
		wg.Go(func() { ns[i], errs[i] = tuneIndexes(ctx, file) })
	}
	wg.Wait()
	total := 0
	for i := range ns {
		if errs[i] != nil {
			t.Fatalf("tuner %d: %v", i, errs[i])
		}
		total += ns[i]
	}
	if total != 8 {
		t.Fatalf("the tuners changed %d indexes in all (%v); want 8: each of 4 collections' _id and n once", total, ns)
	}
}
