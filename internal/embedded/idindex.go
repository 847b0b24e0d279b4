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

// FerretDB v1 keeps a collection as a SQLite table of JSON documents. It
// indexes _id as `_ferretdb_sjson->"_id"` but looks documents up (finds,
// updates, deletes) with `_ferretdb_sjson->'$._id' = ?`: another
// expression, so SQLite scans the table. And it answers every other
// filter and sort by reading the whole table in Go: no query of its SQLite
// handler ever uses a secondary index, so each one only costs writes (a
// random b-tree insert per document). TuneIndexes fixes both in the SQLite
// file, keeping every index's name so FerretDB's own metadata, listings
// and drops stay true:
//   - the _id index becomes a unique index on the expression the lookups
//     use (one index for uniqueness and lookups, not two);
//   - a non-unique secondary index becomes an empty one (`WHERE 0`);
//   - unique secondary indexes stay: they refuse duplicates.

// tuneEvery is how often collections created since are tuned.
const tuneEvery = time.Second

// idIndexPrefix starts the names of the _id path indexes earlier versions
// added beside FerretDB's own; TuneIndexes drops them.
const idIndexPrefix = "rank_idpath_"

// idExpr is the expression FerretDB looks _id up by.
const idExpr = `_ferretdb_sjson->'$._id'`

// emptyWhere ends a secondary index that holds no rows.
const emptyWhere = " WHERE 0"

// TuneIndexes tunes the indexes of every collection of database db, now
// and, until Stop, every tuneEvery for collections created since. Only
// for a database that is never dropped while FerretDB runs: the indexes
// are changed through a connection of its own to the SQLite file.
func (f *Ferret) TuneIndexes(db string) error {
	if f.dir == "" {
		return nil // PostgreSQL (StartFerretPG): its planner uses FerretDB's indexes
	}
	if err := f.TuneNow(db); err != nil {
		return err
	}
	file := filepath.Join(f.dir, db+".sqlite")
	f.loops.Add(1)
	go func() {
		defer f.loops.Done()
		t := time.NewTicker(tuneEvery)
		defer t.Stop()
		for {
			select {
			case <-f.ctx.Done():
				return
			case <-t.C:
			}
			if _, err := tuneIndexes(f.ctx, file); err != nil && f.ctx.Err() == nil {
				f.logger.Warn("tune indexes", "db", db, "err", err)
			}
		}
	}()
	return nil
}

// TuneNow tunes the indexes of database db at once, for a caller that has
// just made its collections and would not wait for TuneIndexes's sweep.
func (f *Ferret) TuneNow(db string) error {
	if f.dir == "" {
		return nil
	}
	n, err := tuneIndexes(f.ctx, filepath.Join(f.dir, db+".sqlite"))
	if err != nil {
		return fmt.Errorf("embedded ferretdb: tune the indexes of %s: %w", db, err)
	}
	if n > 0 {
		f.logger.Info("tuned indexes", "db", db, "changed", n)
	}
	return nil
}

// index is one index of a collection's table, as sqlite_master has it.
type index struct {
	table, name, sql string
}

// change is the statements that tune ix, none when it is as it should be.
func (ix index) change() []string {
	drop := fmt.Sprintf(`DROP INDEX %q`, ix.name)
	switch {
	case strings.HasPrefix(ix.name, idIndexPrefix):
		return []string{drop}
	case ix.name == ix.table+"__id_":
		if strings.Contains(ix.sql, idExpr) {
			return nil
		}
		return []string{drop, fmt.Sprintf(`CREATE UNIQUE INDEX %q ON %q (%s)`, ix.name, ix.table, idExpr)}
	case strings.HasPrefix(ix.sql, "CREATE UNIQUE "), strings.HasSuffix(ix.sql, emptyWhere):
		return nil
	default:
		return []string{drop, ix.sql + emptyWhere}
	}
}

// tuneIndexes tunes the indexes of the SQLite file and returns how many it
// changed; a file not there yet (no collection yet) is none. The indexes
// are read and changed in one write transaction: no moment is without an
// _id index, and two tuners at once (the sweep and TuneNow, or two
// processes) cannot both drop the same index.
func tuneIndexes(ctx context.Context, file string) (int, error) {
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	// mode=rw: never create the file, which is FerretDB's to create.
	db, err := sql.Open("sqlite", "file:"+file+"?mode=rw&_txlock=immediate&_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback() }()
	ixs, err := indexes(ctx, tx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, ix := range ixs {
		c := ix.change()
		for _, stmt := range c {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return 0, fmt.Errorf("table %s: %s: %w", ix.table, stmt, err)
			}
		}
		if len(c) > 0 {
			n++
		}
	}
	if n == 0 {
		return 0, nil
	}
	return n, tx.Commit()
}

// indexes lists the indexes of the collections' tables.
func indexes(ctx context.Context, tx *sql.Tx) ([]index, error) {
	rows, err := tx.QueryContext(ctx, `SELECT m.tbl_name, m.name, m.sql FROM sqlite_master m
		JOIN _ferretdb_collections c ON c.table_name = m.tbl_name
		WHERE m.type = 'index' AND m.sql IS NOT NULL ORDER BY m.tbl_name, m.name`)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil // no collection yet
		}
		return nil, err
	}
	defer rows.Close()
	var out []index
	for rows.Next() {
		var ix index
		if err := rows.Scan(&ix.table, &ix.name, &ix.sql); err != nil {
			return nil, err
		}
		out = append(out, ix)
	}
	return out, rows.Err()
}
