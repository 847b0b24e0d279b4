package embedded

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The URL FerretDB gets opens SQLite with its statement journals in
// memory (temp_store 2) and write transactions that lock at BEGIN; it
// syncs every commit (synchronous FULL, 2) and checkpoints every 10,000
// pages, unless the durability is SyncAtCheckpoint (NORMAL, 1; every
// 50,000 pages).
func TestSQLiteURLPragmas(t *testing.T) {
	for _, tc := range []struct {
		d           Durability
		sync, pages int
	}{{SyncEachCommit, 2, 10000}, {SyncAtCheckpoint, 1, 50000}} {
		u, err := url.Parse(sqliteURL(t.TempDir(), tc.d))
		if err != nil {
			t.Fatal(err)
		}
		if got := u.Query().Get("_txlock"); got != "immediate" {
			t.Errorf("_txlock = %q, want immediate", got)
		}
		u.Path += "t.sqlite" // FerretDB names a file per database under the directory
		db, err := sql.Open("sqlite", u.String())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []struct {
			pragma string
			want   int
		}{{"temp_store", 2}, {"wal_autocheckpoint", tc.pages}, {"synchronous", tc.sync}} {
			var got int
			if err := db.QueryRow(`PRAGMA ` + p.pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != p.want {
				t.Errorf("durability %d: %s = %d, want %d", tc.d, p.pragma, got, p.want)
			}
		}
		_ = db.Close()
	}
}

// TestStopCheckpointsTheLog: under SyncAtCheckpoint the commits wait in
// SQLite's log; Stop copies the whole log into the database (the log file
// is gone after it, which SQLite does only after a checkpoint of all of
// it, synced), and a store started again has every document.
func TestStopCheckpointsTheLog(t *testing.T) {
	dir := t.TempDir()
	wal := filepath.Join(dir, "rank.sqlite-wal")
	docs := make([]any, 500)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: i}, {Key: "pad", Value: "a document of a few bytes"}}
	}
	f, err := StartFerretWith(dir, nil, SyncAtCheckpoint)
	if err != nil {
		t.Fatal(err)
	}
	talk(t, f, func(ctx context.Context, db *mongo.Database) {
		if _, err := db.Collection("c").InsertMany(ctx, docs); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(wal); err != nil || st.Size() == 0 {
			t.Fatalf("before Stop: want the commits in the log %s, have %v %v", wal, st, err)
		}
	})
	if _, err := os.Stat(wal); !os.IsNotExist(err) {
		t.Fatalf("after Stop: the log %s is still there (%v): not checkpointed", wal, err)
	}

	if f, err = StartFerret(dir, nil); err != nil {
		t.Fatal(err)
	}
	talk(t, f, func(ctx context.Context, db *mongo.Database) {
		if n, err := db.Collection("c").CountDocuments(ctx, bson.D{}); err != nil || n != int64(len(docs)) {
			t.Fatalf("after a restart: %d documents (%v), want %d", n, err, len(docs))
		}
	})
}
