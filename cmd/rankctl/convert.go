package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

func init() {
	commands["convert"] = command{summary: "read game records (SGF, Tygem .gib, Pandanet .ugf/.ugi, any charset) and write SGF", run: runConvert}
}

func runConvert(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write each input's SGF to `DIR` (name.sgf, beside its relative path; a name already written in this run gets name.gib.sgf or name-2.sgf) instead of stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rankctl convert [--out DIR] FILE|DIR...\n\n"+
			"Reads each record file as rankd would (SGF of any server, Tygem .gib, Pandanet .ugf/.ugi;\n"+
			"CA charsets and GB18030 detection) and writes it as SGF FF[4] in UTF-8: to stdout as one\n"+
			"collection, or with --out one file per input. What the reader assumed goes to stderr.\n"+
			"Exit 0 when every file was read, 1 otherwise.")
		fs.PrintDefaults()
	}
	args, err := parseArgs(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(args) == 0 {
		fs.Usage()
		return exitUsage
	}
	files, err := expandPaths(args)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl convert:", err)
		return exitUsage
	}
	code := exitOK
	written := map[string]bool{} // the outputs of this run: none is replaced
	for _, file := range files {
		recs, err := loadRecords(file)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", file, err)
			code = max(code, exitNo)
			continue
		}
		var b bytes.Buffer
		for _, l := range recs {
			fprintAssumptions(stderr, l.name, l.rec)
			b.Write(l.rec.SGF())
		}
		if *out == "" {
			if _, err := stdout.Write(b.Bytes()); err != nil {
				fmt.Fprintln(stderr, "rankctl convert:", err)
				return exitUsage
			}
			continue
		}
		dst := filepath.Join(*out, strings.TrimSuffix(filepath.Clean(file), filepath.Ext(file))+".sgf")
		if filepath.IsAbs(file) {
			dst = filepath.Join(*out, strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))+".sgf")
		}
		if written[dst] {
			// t.gib beside t.ugf, or x.sgf in two directories given by
			// absolute paths: the second would silently replace the first.
			taken := dst
			if ext := filepath.Ext(file); !strings.EqualFold(ext, ".sgf") {
				dst = strings.TrimSuffix(taken, ".sgf") + ext + ".sgf"
			}
			for n := 2; written[dst]; n++ {
				dst = strings.TrimSuffix(taken, ".sgf") + "-" + strconv.Itoa(n) + ".sgf"
			}
			fmt.Fprintf(stderr, "%s: written to %s: %s holds another file's games\n", file, dst, taken)
		}
		written[dst] = true
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			fmt.Fprintln(stderr, "rankctl convert:", err)
			return exitUsage
		}
		if err := os.WriteFile(dst, b.Bytes(), 0o644); err != nil {
			fmt.Fprintln(stderr, "rankctl convert:", err)
			return exitUsage
		}
	}
	return code
}
