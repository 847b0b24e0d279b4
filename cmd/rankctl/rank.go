package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/weiqi-platform/rank/ranks"
)

func init() {
	commands["rank"] = command{
		summary: "the rank of a ladder score, or a rank in any notation normalised",
		run:     runRank,
	}
}

// rankAnswer is `rankctl rank --json`.
type rankAnswer struct {
	Score       *int       `json:"score,omitempty"` // the score asked about
	Rank        ranks.Rank `json:"rank"`
	LowestScore *int       `json:"lowest_score,omitempty"` // absent off the ladder
	OnLadder    bool       `json:"on_ladder"`
}

var integerArg = regexp.MustCompile(`^[+-]?[0-9]+$`)

func runRank(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs, asJSON := ratingFlagSet("rankctl rank", stderr, "[--json] SCORE|RANK\n\n"+
		"A SCORE (rankctl rank -- -850) prints its ladder rank; a RANK in any\n"+
		"notation (5k, \"5 kyu\", 5級, 三段, 职业九段, …) prints it normalised\n"+
		"with the lowest score of that rank.")
	pos, code, ok := ratingFlags(fs, args)
	if !ok {
		return code
	}
	arg := strings.TrimSpace(strings.Join(pos, " "))
	if arg == "" {
		return ratingUsage(stderr, fs.Name(), "want a SCORE or a RANK argument")
	}

	var ans rankAnswer
	if integerArg.MatchString(arg) {
		score, err := strconv.Atoi(arg)
		if err != nil {
			return ratingUsage(stderr, fs.Name(), fmt.Sprintf("score %q is out of range", arg))
		}
		ans.Score = &score
		ans.Rank = ranks.FromScore(score)
	} else {
		r, err := ranks.Parse(arg)
		if err != nil {
			return ratingUsage(stderr, fs.Name(), err.Error())
		}
		ans.Rank = r
	}
	if low, err := ans.Rank.LowestScore(); err == nil {
		ans.LowestScore, ans.OnLadder = &low, true
	}

	switch {
	case *asJSON:
		return ratingJSON(stdout, stderr, ans)
	case ans.Score != nil:
		fmt.Fprintln(stdout, ans.Rank)
	case ans.OnLadder:
		fmt.Fprintf(stdout, "%s lowest score %d\n", ans.Rank, *ans.LowestScore)
	default:
		fmt.Fprintf(stdout, "%s (not on the ladder %s…%s)\n", ans.Rank, ranks.LadderBottom, ranks.LadderTop)
	}
	return exitOK
}

// ratingFlagSet makes a subcommand's flag set with its --json flag; -h
// and flag errors print "usage: NAME USAGE" and the flags to stderr.
func ratingFlagSet(name string, stderr io.Writer, usage string) (*flag.FlagSet, *bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs, fs.Bool("json", false, "print JSON")
}

// ratingFlagsOnly is ratingFlags for a subcommand that takes no
// arguments besides its flags.
func ratingFlagsOnly(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	pos, code, ok := ratingFlags(fs, args)
	if ok && len(pos) > 0 {
		return ratingUsage(stderr, fs.Name(), fmt.Sprintf("unexpected argument %q", pos[0])), false
	}
	return code, ok
}

// ratingFlags parses flags anywhere among the arguments (rankctl rank 5k
// --json), not only before them. A negative integer is an argument, not
// a flag, and "--" ends the flags. On failure it returns the exit code:
// exitOK for -h, exitUsage otherwise (the flag package has said why).
func ratingFlags(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	for len(args) > 0 {
		if integerArg.MatchString(args[0]) {
			pos, args = append(pos, args[0]), args[1:]
			continue
		}
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitUsage, false
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), exitOK, true
		}
		if len(rest) == 0 {
			break
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
	return pos, exitOK, true
}

// ratingUsage reports a bad argument and returns exitUsage.
func ratingUsage(stderr io.Writer, cmd, msg string) int {
	fmt.Fprintf(stderr, "%s: %s\n", cmd, msg)
	return exitUsage
}

// ratingJSON prints v as one line of JSON.
func ratingJSON(stdout, stderr io.Writer, v any) int {
	if err := json.NewEncoder(stdout).Encode(v); err != nil {
		fmt.Fprintln(stderr, "rankctl:", err)
		return exitUsage
	}
	return exitOK
}
