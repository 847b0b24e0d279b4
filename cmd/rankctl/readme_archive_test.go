package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeArchive runs the README's "Rate a whole archive" commands as
// written (gen first, with fewer games; the data dir and the archive in
// a temporary directory).
func TestReadmeArchive(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(b), "## Rate a whole archive\n")
	if !ok {
		t.Fatal("the README has no archive block")
	}
	block, _, _ = strings.Cut(block, "\n## ")
	dir := t.TempDir()
	var cmds [][]string
	for _, line := range strings.Split(block, "\n") {
		rest, ok := strings.CutPrefix(line, "    go run ./cmd/rankctl ")
		if !ok {
			continue
		}
		rest, _, _ = strings.Cut(rest, "#")
		rest = strings.ReplaceAll(rest, "--games 100000", "--games 300")
		var args []string
		for _, f := range strings.Fields(rest) {
			switch f {
			case "./data":
				f = filepath.Join(dir, "data")
			case "archive/":
				f = filepath.Join(dir, "archive")
			}
			args = append(args, f)
		}
		if args[0] == "gen" {
			cmds = append([][]string{args}, cmds...)
		} else {
			cmds = append(cmds, args)
		}
	}
	if len(cmds) != 3 {
		t.Fatalf("the block has %d rankctl commands, want gen, import, recompute", len(cmds))
	}
	for _, args := range cmds {
		if code, out, errs := runCtl(args...); code != exitOK {
			t.Fatalf("rankctl %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out, errs)
		}
	}
}
