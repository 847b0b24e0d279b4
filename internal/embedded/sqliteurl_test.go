package embedded

import (
	"database/sql"
	"net/url"
	"testing"
)

// The URL FerretDB gets opens SQLite with its statement journals in
// memory (temp_store 2) and write transactions that lock at BEGIN.
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
}
