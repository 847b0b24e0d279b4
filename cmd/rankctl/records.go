package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/charset"
)

// Helpers shared by the game-record commands (check, board, score).

// parseArgs parses flags that may stand before, between or after the
// positional arguments ("rankctl check a.sgf --json b.sgf").
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// loaded is one game of a file.
type loaded struct {
	name string // the file, with "#n" when the file holds several games
	game int    // 1-based index in the file
	rec  *games.Record
}

// readOptions: files are decoded from any charset their CA names (GBK,
// Big5, Shift_JIS, …) or their bytes suggest.
var readOptions = games.ReadOptions{Decode: charset.Decode}

// recordExts are the file names a directory argument is searched for.
var recordExts = []string{".sgf", ".gib", ".ugf", ".ugi"}

// expandPaths turns the arguments into files: a directory stands for
// every record file under it (by name: .sgf, .gib, .ugf, .ugi, any case),
// in lexical order; a file stands for itself, whatever its name.
func expandPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil || !info.IsDir() {
			out = append(out, a) // a missing file is reported when read
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && slices.Contains(recordExts, strings.ToLower(filepath.Ext(p))) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// loadRecords reads every game of a record file (SGF, .gib, .ugf).
func loadRecords(path string) ([]loaded, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	recs, err := games.ReadRecords(data, readOptions)
	if err != nil {
		return nil, err
	}
	out := make([]loaded, len(recs))
	for i, r := range recs {
		out[i] = loaded{name: path, game: i + 1, rec: r}
		if len(recs) > 1 {
			out[i].name = path + "#" + strconv.Itoa(i+1)
		}
	}
	return out, nil
}

// rulesFlag overrides a record's ruleset when set.
type rulesFlag struct{ value string }

func (f *rulesFlag) register(fs *flag.FlagSet) {
	fs.StringVar(&f.value, "rules", "", "ruleset: chinese, japanese, ing, qq, or parameters such as \"chinese ko=simple\" (default: the file's RU when it names one of ours, else chinese)")
}

func (f *rulesFlag) apply(r *games.Record) error {
	if f.value == "" {
		return nil
	}
	rs, err := games.ParseRuleset(f.value)
	if err != nil {
		return fmt.Errorf("--rules: %w", err)
	}
	r.Rules = rs
	return nil
}

// parsePoints reads "pd,dd" (SGF letters) or "Q16,D16" (vertices).
func parsePoints(s string, size int) ([]games.Point, error) {
	var pts []games.Point
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		var p games.Point
		var err error
		if strings.ContainsAny(f, "0123456789") {
			p, err = games.ParseVertex(f, size)
		} else if p, err = games.ParseSGFPoint(f); err == nil && !p.On(size) {
			err = fmt.Errorf("%s is off the %d×%d board", f, size, size)
		}
		if err != nil {
			return nil, fmt.Errorf("bad point %q: %v", f, err)
		}
		pts = append(pts, p)
	}
	return pts, nil
}

func writeJSON(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", b)
}

func fprintAssumptions(w io.Writer, name string, r *games.Record) {
	for _, a := range r.Assumptions {
		fmt.Fprintf(w, "%s: assumed: %s\n", name, a)
	}
}

// oneRecord loads game number game of the single file in files and
// applies --rules; on failure it has reported why and returns the exit code.
func oneRecord(flags *flag.FlagSet, files []string, game int, rules *rulesFlag, stderr io.Writer) (*games.Record, int) {
	if len(files) != 1 {
		flags.Usage()
		return nil, exitUsage
	}
	recs, err := loadRecords(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", files[0], err)
		return nil, exitUsage
	}
	if game < 1 || game > len(recs) {
		fmt.Fprintf(stderr, "%s: --game %d: the file holds %d game(s)\n", files[0], game, len(recs))
		return nil, exitUsage
	}
	if len(recs) > 1 {
		// The other games are not shown: say so, and how to see them.
		fmt.Fprintf(stderr, "%s: the file holds %d games: game %d shown (--game N for another)\n", files[0], len(recs), game)
	}
	r := recs[game-1].rec
	if err := rules.apply(r); err != nil {
		fmt.Fprintln(stderr, err)
		return nil, exitUsage
	}
	return r, exitOK
}
