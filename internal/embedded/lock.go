package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockFile is the file in FerretDB's directory that StartFerret holds an
// exclusive lock on while FerretDB runs, with the holder's pid and
// program name in it: SQLite's own locks keep two processes from tearing
// a write, but not from each keeping its own view of the files (FerretDB
// caches its collection list), which is what made a second process on one
// data dir corrupt the first one's answers.
const LockFile = "rank.lock"

// ErrLocked matches a *LockedError.
var ErrLocked = errors.New("data directory in use")

// LockedError: another process (or another StartFerret in this one)
// holds the directory. PID is 0 when the holder had not written its pid yet.
type LockedError struct {
	Dir     string
	PID     int
	Program string
}

func (e *LockedError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = "process " + strconv.Itoa(e.PID)
		if e.Program != "" {
			holder += " (" + e.Program + ")"
		}
	}
	return fmt.Sprintf("embedded ferretdb: the data directory %s is in use by %s: stop it first, or use another data directory", e.Dir, holder)
}

// Unwrap gives ErrLocked.
func (e *LockedError) Unwrap() error { return ErrLocked }

// dirLock is a held lock on a directory.
type dirLock struct{ f *os.File }

// lockDir takes the exclusive lock on dir's LockFile without waiting, and
// writes this process's pid and program into it; a held lock is a
// *LockedError naming the holder.
func lockDir(dir string) (*dirLock, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("embedded ferretdb: %w", err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("embedded ferretdb: lock %s: %w", f.Name(), err)
	}
	if held {
		e := holder(f)
		f.Close()
		e.Dir = dir
		return nil, e
	}
	// The file is kept, never removed: removing it would let a process that
	// opened the old file and one that creates a new one both lock.
	me := strconv.Itoa(os.Getpid()) + " " + filepath.Base(os.Args[0]) + "\n"
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(me), 0)
	}
	if err != nil {
		unlock(f)
		f.Close()
		return nil, fmt.Errorf("embedded ferretdb: write %s: %w", f.Name(), err)
	}
	return &dirLock{f: f}, nil
}

// holder reads who holds the lock from the file.
func holder(f *os.File) *LockedError {
	b := make([]byte, 256)
	n, _ := f.ReadAt(b, 0)
	fields := strings.Fields(string(b[:n]))
	e := &LockedError{}
	if len(fields) > 0 {
		e.PID, _ = strconv.Atoi(fields[0])
	}
	if len(fields) > 1 {
		e.Program = fields[1]
	}
	return e
}

// release empties the file and drops the lock.
func (l *dirLock) release() {
	if l == nil || l.f == nil {
		return
	}
	_ = l.f.Truncate(0)
	unlock(l.f)
	_ = l.f.Close()
	l.f = nil
}
