package embedded

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/FerretDB/FerretDB/ferretdb"
	"github.com/alicebob/miniredis/v2"
)

// Ferret is a running embedded FerretDB.
type Ferret struct {
	URI    string
	dir    string
	logger *slog.Logger
	lock   *dirLock
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	loops  sync.WaitGroup
}

// Durability is when the embedded store's commits reach the disk.
type Durability int

const (
	// SyncEachCommit: a commit is on disk when it returns (rankd).
	SyncEachCommit Durability = iota
	// SyncAtCheckpoint: commits reach the disk with the log's checkpoints
	// and at Stop, which checkpoints the whole log. A process that stops
	// loses nothing; a machine that stops (power, kernel) can take the
	// last commits back, never leaving a torn one. Only for a writer that
	// can be run again to redo them and reports its work after Stop:
	// rankctl import.
	SyncAtCheckpoint
)

// StartFerret starts FerretDB with the SQLite backend keeping its files in
// dir, listening on a free loopback port, every commit synced. It first
// locks dir (LockFile) until Stop: while another process, or another
// Ferret of this one, has it, StartFerret fails at once with a
// *LockedError naming the holder. The logger may be nil (silent).
func StartFerret(dir string, logger *slog.Logger) (*Ferret, error) {
	return StartFerretWith(dir, logger, SyncEachCommit)
}

// StartFerretWith is StartFerret with the commits synced as d says.
func StartFerretWith(dir string, logger *slog.Logger, d Durability) (*Ferret, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("embedded ferretdb: %w", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("embedded ferretdb: %w", err)
	}
	lock, err := lockDir(abs)
	if err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Handler:   "sqlite",
		SQLiteURL: sqliteURL(abs, d),
		Logger:    slog.New(ferretLog{h: logger.Handler()}), // never a document
	})
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("embedded ferretdb: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	// MongoDBURI blocks until the listener is ready.
	return &Ferret{URI: f.MongoDBURI(), dir: abs, logger: logger, lock: lock, ctx: ctx, cancel: cancel, done: done}, nil
}

// Stop shuts FerretDB down, waits for it to close its files and releases
// the directory. SQLite's last connection to close copies the whole log
// into the database and syncs both (also under SyncAtCheckpoint).
func (f *Ferret) Stop() {
	f.cancel()
	f.loops.Wait()
	<-f.done
	f.lock.release()
}

// Redis is a running in-process Redis server.
type Redis struct {
	URL string
	m   *miniredis.Miniredis
}

// StartRedis starts miniredis on a free loopback port.
func StartRedis() (*Redis, error) {
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		return nil, fmt.Errorf("embedded redis: %w", err)
	}
	return &Redis{URL: "redis://" + m.Addr() + "/0", m: m}, nil
}

// Stop closes the server.
func (r *Redis) Stop() { r.m.Close() }

// sqliteURL is FerretDB's SQLite URL for the directory abs.
//
// _txlock=immediate: a write transaction takes SQLite's write lock when it
// begins, so concurrent writers wait in the busy handler instead of
// failing to upgrade a read lock and retrying (measured: 160 parallel game
// submissions in 10.7 s instead of 16.7 s).
//
// temp_store(memory): every insert of FerretDB's is one statement of up to
// 100 rows in a transaction, which SQLite backs with a statement journal
// in a temporary file (a pwrite per page); in memory it costs no system
// call, and nothing reads it after a crash (it only undoes a failed
// statement). Measured: an import's CPU a game 14% less.
//
// wal_autocheckpoint(10000): the log is copied into the database when it
// holds 10,000 pages (40 MB) instead of 1,000, so a page that many
// commits change (the b-trees' upper pages) is copied once per 40 MB,
// not once per 4; each commit is still synced, so nothing committed is
// lost. Measured: an import's CPU 17% less again (20,000 games, median
// of three, 25.8 → 21.4 s); the log file stays up to 40 MB.
//
// synchronous(NORMAL), under SyncAtCheckpoint only: in WAL mode a commit
// then writes the log without a sync, and the log is synced at each
// checkpoint; SQLite's default (FULL) syncs it at every commit. Measured:
// an import of 100,000 games 59 → 51 s, the same CPU (the wall no
// longer waits for the syncs).
//
// Under SyncAtCheckpoint the log also grows to 50,000 pages (200 MB)
// before a checkpoint: fewer copies of the pages every commit changes.
// Measured: an import of 100,000 games 1,308–1,326 → 1,366–1,445 games
// a second (stop 27). Stop checkpoints it whatever its size.
func sqliteURL(abs string, d Durability) string {
	pages := 10000
	sync := ""
	if d == SyncAtCheckpoint {
		pages, sync = 50000, "&_pragma=synchronous(normal)"
	}
	return fmt.Sprintf("file:%s/?_txlock=immediate&_pragma=temp_store(memory)&_pragma=wal_autocheckpoint(%d)%s", abs, pages, sync)
}
