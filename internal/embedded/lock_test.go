package embedded

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// holdEnv makes the test binary a helper process that starts FerretDB on
// the directory it names, says "locked" and holds it until stdin closes.
const holdEnv = "RANK_EMBEDDED_TEST_HOLD_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(holdEnv); dir != "" {
		f, err := StartFerret(dir, nil)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("locked")
		_, _ = io.Copy(io.Discard, os.Stdin)
		f.Stop()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// lockedBy asserts err is the *LockedError of dir held by pid.
func lockedBy(t *testing.T, err error, dir string, pid int) {
	t.Helper()
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) {
		t.Fatalf("second start: got %v, want a *LockedError", err)
	}
	abs, _ := filepath.Abs(dir)
	if le.Dir != abs || le.PID != pid || le.Program != filepath.Base(os.Args[0]) {
		t.Fatalf("got %+v, want dir %s held by %d (%s)", le, abs, pid, filepath.Base(os.Args[0]))
	}
	for _, want := range []string{abs, "process " + strconv.Itoa(pid)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message %q does not name %q", err, want)
		}
	}
}

// TestSecondStartRefused: while one Ferret runs on a directory, a second
// StartFerret on it (here in the same process: flock is per open file)
// fails at once naming the directory and the holder; after Stop it starts.
func TestSecondStartRefused(t *testing.T) {
	dir := t.TempDir()
	first, err := StartFerret(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := StartFerret(dir, nil)
	if err == nil {
		second.Stop()
		first.Stop()
		t.Fatal("a second StartFerret on one directory succeeded")
	}
	lockedBy(t, err, dir, os.Getpid())
	first.Stop()
	again, err := StartFerret(dir, nil)
	if err != nil {
		t.Fatalf("after Stop: %v", err)
	}
	again.Stop()
}

// TestLockHeldByAnotherProcess: another process holding the directory is
// named by its pid, and its death (a kill, no Stop) frees the directory.
func TestLockHeldByAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdEnv+"="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	_, err = StartFerret(dir, nil)
	lockedBy(t, err, dir, cmd.Process.Pid)

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	f, err := StartFerret(dir, nil)
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	f.Stop()
}
