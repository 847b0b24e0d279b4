package embedded

import (
	"database/sql"
	"net/url"
	"testing"
)

// The URL FerretDB gets opens SQLite with its statement journals in
// memory (temp_store 2), checkpoints every 10,000 pages and write
// transactions that lock at BEGIN.
func TestSQLiteURLPragmas(t *testing.T) {
	u, err := url.Parse(sqliteURL(t.TempDir()))
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
	defer db.Close()
	var store int
	if err := db.QueryRow(`PRAGMA temp_store`).Scan(&store); err != nil {
		t.Fatal(err)
	}
	if store != 2 {
		t.Errorf("temp_store = %d, want 2 (memory)", store)
	}
	var pages int
	if err := db.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if pages != 10000 {
		t.Errorf("wal_autocheckpoint = %d, want 10000", pages)
	}
}
