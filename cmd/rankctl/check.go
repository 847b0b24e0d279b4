package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/weiqi-platform/rank/games"
)

func init() {
	commands["check"] = command{summary: "replay SGF game records and report the first illegal move", run: runCheck}
}

// checkResult is one line of `rankctl check --json`.
type checkResult struct {
	File        string   `json:"file"`
	Game        int      `json:"game,omitempty"` // set when a file holds several games
	Legal       bool     `json:"legal"`
	Move        int      `json:"move,omitempty"`
	Color       string   `json:"color,omitempty"`
	Point       *string  `json:"point,omitempty"` // "" for a pass
	Reason      string   `json:"reason,omitempty"`
	Error       string   `json:"error,omitempty"` // a file that is not a valid record
	Assumptions []string `json:"assumptions,omitempty"`
}

func runCheck(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "one JSON object per file (per game) on each line")
	var rules rulesFlag
	rules.register(fs)
	quiet := fs.Bool("quiet", false, "no summary line")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rankctl check [--json] [--rules R] [--quiet] FILE|DIR...\n\nReplays each record (SGF, Tygem .gib, Pandanet .ugf/.ugi; a directory: every such file under it)\nand ends with a summary line on stderr. Exit 0 when all are legal, 1 otherwise.")
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
		fmt.Fprintln(stderr, "rankctl check:", err)
		return exitUsage
	}
	code := exitOK
	var sum summary
	sum.start()
	defer func() {
		if !*quiet {
			sum.print(stderr, "checked", "legal", "illegal")
		}
	}()
	for _, file := range files {
		sum.files++
		recs, err := loadRecords(file)
		if err != nil {
			var se *games.SGFError
			if errors.As(err, &se) {
				code = max(code, exitNo)
			} else {
				code = exitUsage
			}
			sum.unreadable++
			report(stdout, *asJSON, checkResult{File: file, Error: err.Error()})
			continue
		}
		for _, l := range recs {
			sum.games++
			if len(l.rec.Assumptions) > 0 {
				sum.assumed++
			}
			res := checkResult{File: file, Legal: true, Assumptions: l.rec.Assumptions}
			if len(recs) > 1 {
				res.Game = l.game
			}
			if err := rules.apply(l.rec); err != nil {
				fmt.Fprintln(stderr, err)
				return exitUsage
			}
			if !*asJSON {
				fprintAssumptions(stderr, l.name, l.rec)
			}
			if _, err := games.Replay(l.rec); err != nil {
				sum.no++
				res.Legal = false
				code = max(code, exitNo)
				var me *games.MoveError
				if errors.As(err, &me) {
					res.Move, res.Color, res.Reason = me.Number, me.Move.Color.String(), me.Reason()
					p := ""
					if !me.Move.Pass {
						p = me.Move.Point.String()
					}
					res.Point = &p
				}
				res.Error = err.Error()
			}
			if res.Legal {
				sum.yes++
			}
			if *asJSON {
				writeJSON(stdout, res)
			} else if !res.Legal {
				fmt.Fprintf(stdout, "%s: %s\n", l.name, res.Error)
			}
		}
	}
	return code
}

// summary counts what a command over many files found, for its last line.
type summary struct {
	files, games, unreadable int
	yes, no, other, assumed  int
	began                    time.Time
	cpu                      float64
}

func (s *summary) start() { s.began, s.cpu = time.Now(), cpuSeconds() }

// print writes "checked 3 files, 5 games: 4 legal, 1 illegal, 0 files
// unreadable; 2 games with assumptions; 0.01 s (0.01 s CPU), 500 games
// per CPU second". Per CPU second is the rate of one core, whatever else
// the machine runs (GOMAXPROCS=1 keeps the work on one).
func (s *summary) print(w io.Writer, verb, yes, no string, other ...string) {
	el, cpu := time.Since(s.began).Seconds(), cpuSeconds()-s.cpu
	fmt.Fprintf(w, "%s %d files, %d games: %d %s, %d %s", verb, s.files, s.games, s.yes, yes, s.no, no)
	if len(other) > 0 {
		fmt.Fprintf(w, ", %d %s", s.other, other[0])
	}
	fmt.Fprintf(w, ", %d files unreadable; %d games with assumptions; %.2f s (%.2f s CPU)", s.unreadable, s.assumed, el, cpu)
	if cpu > 0 && s.games > 0 {
		fmt.Fprintf(w, ", %.0f games per CPU second", float64(s.games)/cpu)
	}
	fmt.Fprintln(w)
}

func report(w io.Writer, asJSON bool, r checkResult) {
	if asJSON {
		writeJSON(w, r)
		return
	}
	fmt.Fprintf(w, "%s: %s\n", r.File, r.Error)
}
