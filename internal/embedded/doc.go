// Package embedded starts the zero-setup stores in-process: FerretDB v1 on
// SQLite files (spoken to through the ordinary MongoDB driver) and miniredis
// (spoken to through the ordinary go-redis client). Product code never sees
// these types: it only gets a URI, so that real and embedded stores share
// one code path. For rankd's database it also tunes FerretDB's SQLite
// indexes (TuneIndexes): the _id index becomes one on the expression
// FerretDB looks documents up by, which its own does not serve, and the
// non-unique secondary indexes, which no query of FerretDB's SQLite
// handler uses, hold no rows, so they cost no write.
//
// It decides how the embedded store's SQLite is opened (sqliteURL),
// including when commits reach the disk (Durability): each one for rankd,
// at the log's checkpoints and at Stop for rankctl import, which can redo
// its work.
//
// StartFerretPG is the same FerretDB with its PostgreSQL handler: the
// store server of cmd/ferretpg and of the tests' second store kind.
//
// One process per data directory: StartFerret holds an exclusive lock on
// a file in FerretDB's directory (LockFile, with the holder's pid) until
// Stop, and a second start fails at once with a *LockedError naming the
// directory and the holder. FerretDB logs through a handler that never
// passes a document on: none of its debug records (protocol dumps,
// filters, SQL arguments: password and token hashes), and a failed
// command as one line with its code, the driver's endSessions at
// Disconnect (which FerretDB v1 does not implement) not at all.
//
// Only cmd and the test-support package internal/testsvc import it, and
// one benchmark (rating/ratingdb's latest_bench_test.go, which needs a
// store of its own with rankd's tuned indexes); no product code of a
// domain package, adapter, api or jobs may.
package embedded
