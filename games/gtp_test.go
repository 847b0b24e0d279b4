package games

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// A minimal Go Text Protocol client for GNU Go, for the cross-checks. It
// sends commands in batches (a writer goroutine feeds the pipe while the
// caller reads the answers), so a batch costs one round trip however long
// it is.

// gnugoPath finds the gnugo binary: on PATH, else where Debian puts it.
func gnugoPath() (string, error) {
	if p, err := exec.LookPath("gnugo"); err == nil {
		return p, nil
	}
	const debian = "/usr/games/gnugo"
	if _, err := os.Stat(debian); err == nil {
		return debian, nil
	}
	return "", errors.New("gnugo is neither on PATH nor at /usr/games/gnugo (make services installs it)")
}

// needGnugo returns the gnugo path or fails the test saying why.
func needGnugo(t testing.TB) string {
	t.Helper()
	p, err := gnugoPath()
	if err != nil {
		t.Fatalf("%v (`make services` installs GNU Go)", err)
	}
	return p
}

// gtpEngine is one running GTP engine.
type gtpEngine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	mu  sync.Mutex
}

func startGTP(path string, args ...string) (*gtpEngine, error) {
	cmd := exec.Command(path, append([]string{"--mode", "gtp"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &gtpEngine{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16)}, nil
}

// startGnugo starts GNU Go and stops it when the test ends.
func startGnugo(t testing.TB, args ...string) *gtpEngine {
	t.Helper()
	e, err := startGTP(needGnugo(t), args...)
	if err != nil {
		t.Fatalf("start gnugo: %v", err)
	}
	t.Cleanup(e.close)
	return e
}

func (e *gtpEngine) close() {
	e.in.Close()
	_ = e.cmd.Wait()
}

// gtpReply is one answer: ok for "=", the text after the status sign.
type gtpReply struct {
	ok   bool
	text string
}

// do sends the commands and returns one reply per command, in order.
func (e *gtpEngine) do(cmds ...string) ([]gtpReply, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(e.in, 1<<16)
		for _, c := range cmds {
			if _, err := w.WriteString(c); err != nil {
				werr <- err
				return
			}
			if err := w.WriteByte('\n'); err != nil {
				werr <- err
				return
			}
		}
		werr <- w.Flush()
	}()
	replies := make([]gtpReply, 0, len(cmds))
	for range cmds {
		r, err := e.read()
		if err != nil {
			return replies, err
		}
		replies = append(replies, r)
	}
	return replies, <-werr
}

// read reads one reply: a status line, more lines, then an empty line.
func (e *gtpEngine) read() (gtpReply, error) {
	var lines []string
	for {
		line, err := e.out.ReadString('\n')
		if err != nil {
			return gtpReply{}, fmt.Errorf("gtp: reading reply: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(lines) == 0 {
				continue // blank lines between replies
			}
			break
		}
		lines = append(lines, line)
	}
	first := lines[0]
	if first[0] != '=' && first[0] != '?' {
		return gtpReply{}, fmt.Errorf("gtp: reply starts with %q", first)
	}
	lines[0] = strings.TrimSpace(first[1:])
	return gtpReply{ok: first[0] == '=', text: strings.TrimSpace(strings.Join(lines, "\n"))}, nil
}

// must runs the commands and fails the test on any error reply.
func (e *gtpEngine) must(t testing.TB, cmds ...string) []string {
	t.Helper()
	rs, err := e.do(cmds...)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(rs))
	for i, r := range rs {
		if !r.ok {
			t.Fatalf("gtp %q: %s", cmds[i], r.text)
		}
		out[i] = r.text
	}
	return out
}

// gtpColor is the GTP colour word.
func gtpColor(c Color) string {
	if c == White {
		return "white"
	}
	return "black"
}

// gtpVertices reads a list of vertices ("A1 B2") into points.
func gtpVertices(s string, size int) ([]Point, error) {
	var pts []Point
	for _, f := range strings.Fields(s) {
		p, err := ParseVertex(f, size)
		if err != nil {
			return nil, err
		}
		pts = append(pts, p)
	}
	return pts, nil
}
