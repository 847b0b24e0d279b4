package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

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
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rankctl check [--json] [--rules R] FILE...\n\nReplays each record. Exit 0 when all are legal, 1 otherwise.")
		fs.PrintDefaults()
	}
	files, err := parseArgs(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(files) == 0 {
		fs.Usage()
		return exitUsage
	}
	code := exitOK
	for _, file := range files {
		recs, err := loadRecords(file)
		if err != nil {
			var se *games.SGFError
			if errors.As(err, &se) {
				code = max(code, exitNo)
			} else {
				code = exitUsage
			}
			report(stdout, *asJSON, checkResult{File: file, Error: err.Error()})
			continue
		}
		for _, l := range recs {
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
			if *asJSON {
				writeJSON(stdout, res)
			} else if !res.Legal {
				fmt.Fprintf(stdout, "%s: %s\n", l.name, res.Error)
			}
		}
	}
	return code
}

func report(w io.Writer, asJSON bool, r checkResult) {
	if asJSON {
		writeJSON(w, r)
		return
	}
	fmt.Fprintf(w, "%s: %s\n", r.File, r.Error)
}
