package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the SQLite driver FerretDB itself uses
)

// FerretDB v1 keeps a collection as a SQLite table of JSON documents and
// indexes _id as `_ferretdb_sjson->"_id"`, but it looks documents up by _id
// (finds, updates, deletes) with `_ferretdb_sjson->'$._id' = ?`: another
// expression, so SQLite scans the table. An index on the expression it
// queries turns each of those scans into a search.

// idIndexEvery is how often collections created since are indexed.
const idIndexEvery = time.Second

// idIndexPrefix starts the names of the indexes added here; FerretDB's own
// start with the table name.
const idIndexPrefix = "rank_idpath_"

// IndexIDs indexes the _id lookups of every collection of database db,
// now and, until Stop, every idIndexEvery for collections created since.
// Only for a database that is never dropped while FerretDB runs: the
// index is made through a connection of its own to the SQLite file.
func (f *Ferret) IndexIDs(db string) error {
	if f.dir == "" {
		return nil // PostgreSQL (StartFerretPG): FerretDB's own _id index serves
	}
	n, err := indexIDs(f.ctx, filepath.Join(f.dir, db+".sqlite"))
	if err != nil {
		return fmt.Errorf("embedded ferretdb: index _id of %s: %w", db, err)
	}
	if n > 0 {
		f.logger.Debug("indexed _id lookups", "db", db, "collections", n)
	}
	f.loops.Add(1)
	go func() {
		defer f.loops.Done()
		t := time.NewTicker(idIndexEvery)
		defer t.Stop()
		for {
			select {
			case <-f.ctx.Done():
				return
			case <-t.C:
			}
			if _, err := indexIDs(f.ctx, filepath.Join(f.dir, db+".sqlite")); err != nil && f.ctx.Err() == nil {
				f.logger.Warn("index _id lookups", "db", db, "err", err)
			}
		}
	}()
	return nil
}

// indexIDs adds the missing _id path indexes to the SQLite file and
// returns how many it added; a file not there yet (no collection yet) is
// none.
func indexIDs(ctx context.Context, file string) (int, error) {
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	// mode=rw: never create the file, which is FerretDB's to create.
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	missing, err := missingIDIndexes(ctx, db)
	if err != nil {
		return 0, err
	}
	for _, table := range missing {
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (_ferretdb_sjson->'$._id')`, idIndexPrefix+table, table)
		if _, err := db.ExecContext(ctx, q); err != nil {
			return 0, fmt.Errorf("table %s: %w", table, err)
		}
	}
	return len(missing), nil
}

// missingIDIndexes lists the collections' tables without the index.
func missingIDIndexes(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT c.table_name FROM _ferretdb_collections c
		WHERE NOT EXISTS (SELECT 1 FROM sqlite_master m WHERE m.type = 'index' AND m.name = ? || c.table_name)
		AND EXISTS (SELECT 1 FROM sqlite_master t WHERE t.type = 'table' AND t.name = c.table_name)`, idIndexPrefix)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil // no collection yet
		}
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
