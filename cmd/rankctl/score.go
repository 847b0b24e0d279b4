package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/weiqi-platform/rank/games"
)

func init() {
	commands["score"] = command{summary: "count the final position of an SGF game and compare with its result", run: runScore}
}

// scoreOptions are score's flags. Each way of naming the dead stones is
// one flag handled in deadStones, so another source (an estimate by the
// engine) is one more flag and one more case there.
type scoreOptions struct {
	rules  rulesFlag
	komi   string
	dead   string
	game   int
	asJSON bool
	// estimate: --estimate-dead and its tuning (estimate.go).
	estimate estimateFlags
	// set records which flags were given on the command line.
	set map[string]bool
}

func (o *scoreOptions) register(fs *flag.FlagSet) {
	o.rules.register(fs)
	fs.StringVar(&o.komi, "komi", "", "komi in points (default: the file's KM)")
	fs.StringVar(&o.dead, "dead", "", "dead stones `P,P,...` as SGF points (pd) or vertices (Q16); a stone marks its chain (default: the file's TB/TW marks)")
	fs.IntVar(&o.game, "game", 1, "which game of a collection")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON")
	o.estimate.register(fs)
}

// deadStones decides the dead stones: the engine's proposal (--estimate-dead),
// --dead, else those the record agreed.
func (o *scoreOptions) deadStones(r *games.Record) ([]games.Point, error) {
	if o.estimate.on {
		if o.set["dead"] {
			return nil, fmt.Errorf("--dead and --estimate-dead exclude each other")
		}
		return o.estimate.dead(r), nil
	}
	if o.set["dead"] {
		pts, err := parsePoints(o.dead, r.Size)
		if err != nil {
			return nil, fmt.Errorf("--dead: %v", err)
		}
		return pts, nil
	}
	return r.Dead, nil
}

type sideJSON struct {
	Score     float64 `json:"score"`
	Stones    int     `json:"stones"`
	Territory int     `json:"territory"`
	Prisoners int     `json:"prisoners"`
	Dame      float64 `json:"dame"`
	Penalty   float64 `json:"penalty"`
}

type scoreJSON struct {
	Result       string   `json:"result"`
	Margin       float64  `json:"margin"`
	MarginStones *float64 `json:"margin_stones,omitempty"` // area scoring
	Black        sideJSON `json:"black"`
	White        sideJSON `json:"white"`
	Dame         int      `json:"dame"`
	Seki         int      `json:"seki"`
	Dead         []string `json:"dead"`
	Rules        string   `json:"rules"`
	Scoring      string   `json:"scoring"`
	Komi         float64  `json:"komi"`
	Handicap     int      `json:"handicap"`
	Compensation float64  `json:"compensation"`
	Claimed      string   `json:"claimed,omitempty"`
	Agrees       *bool    `json:"agrees"` // null when the file claims no result
	Assumptions  []string `json:"assumptions,omitempty"`
}

func side(s games.SideScore) sideJSON {
	return sideJSON{Score: s.Score, Stones: s.Stones, Territory: s.Territory, Prisoners: s.Prisoners, Dame: s.Dame, Penalty: s.Penalty}
}

func runScore(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := scoreOptions{set: map[string]bool{}}
	o.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rankctl score [--rules R] [--komi K] [--dead P,P,...|--estimate-dead] [--json] FILE\n"+
			"       rankctl score [--rules R] [--komi K] [--estimate-dead] [--json] FILE|DIR FILE|DIR...\n\n"+
			"Counts the final position with the dead stones removed and prints the result.\n"+
			"Given several files or a directory, judges every game of them (with --estimate-dead,\n"+
			"counted games that mark no dead stones get the engine's proposal), prints one line\n"+
			"per game, and ends with a summary line on stderr.")
		fs.PrintDefaults()
	}
	files, err := parseArgs(fs, args)
	if err != nil {
		return exitUsage
	}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	komi := func(r *games.Record) bool {
		if o.set["komi"] {
			k, err := strconv.ParseFloat(o.komi, 64)
			if err != nil {
				fmt.Fprintf(stderr, "--komi %q is not a number\n", o.komi)
				return false
			}
			r.Komi = k
		}
		return true
	}
	if batch(files) {
		return scoreMany(&o, files, komi, stdout, stderr)
	}
	r, code := oneRecord(fs, files, o.game, &o.rules, stderr)
	if r == nil {
		return code
	}
	if !komi(r) {
		return exitUsage
	}
	dead, err := o.deadStones(r)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	g, err := games.Replay(r)
	if err != nil {
		fmt.Fprintf(stdout, "%s: %v\n", files[0], err)
		return exitNo
	}
	s, err := games.ScorePosition(g.Board(), games.ScoreParams{Rules: r.Rules, Komi: r.Komi, Handicap: r.Handicap, Dead: dead, Penalties: r.Penalties})
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", files[0], err)
		return exitUsage
	}
	out := scoreJSON{
		Result: s.Result.String(), Margin: s.Margin, Black: side(s.Black), White: side(s.White),
		Dame: s.Dame, Seki: s.Seki, Dead: []string{}, Rules: r.Rules.String(), Scoring: r.Rules.Scoring.String(),
		Komi: r.Komi, Handicap: r.Handicap, Compensation: s.Compensation, Claimed: r.Result, Assumptions: r.Assumptions,
	}
	if r.Rules.Scoring == games.ScoringArea {
		st := s.MarginStones()
		out.MarginStones = &st
	}
	for _, p := range s.Dead {
		out.Dead = append(out.Dead, p.String())
	}
	notCounted := false
	if claim, ok, err := games.ParseResult(r.Result); err == nil && ok {
		a := scoreAgrees(claim, s.Result)
		out.Agrees = &a
		notCounted = claim.End != games.EndScore && claim.End != games.EndVoid
	}
	if o.asJSON {
		writeJSON(stdout, out)
		return exitOK
	}
	fprintAssumptions(stderr, files[0], r)
	fmt.Fprintf(stdout, "%s\n", out.Result)
	for _, sd := range []struct {
		name string
		s    games.SideScore
	}{{"black", s.Black}, {"white", s.White}} {
		if r.Rules.Scoring == games.ScoringArea {
			fmt.Fprintf(stdout, "%s: %g = %d stones + %d territory + %g dame", sd.name, sd.s.Score, sd.s.Stones, sd.s.Territory, sd.s.Dame)
		} else {
			fmt.Fprintf(stdout, "%s: %g = %d territory + %d prisoners", sd.name, sd.s.Score, sd.s.Territory, sd.s.Prisoners)
		}
		if sd.s.Penalty != 0 {
			fmt.Fprintf(stdout, ", penalty %g", sd.s.Penalty)
		}
		fmt.Fprintln(stdout)
	}
	if r.Rules.Scoring == games.ScoringArea {
		fmt.Fprintf(stdout, "margin: %g points (%g stones)\n", s.Margin, s.MarginStones())
	} else {
		fmt.Fprintf(stdout, "margin: %g points\n", s.Margin)
	}
	fmt.Fprintf(stdout, "rules: %s (%s), komi %g, handicap %d, compensation %g, dame %d, seki %d, dead %d\n",
		out.Rules, out.Scoring, r.Komi, r.Handicap, s.Compensation, s.Dame, s.Seki, len(s.Dead))
	if out.Agrees != nil {
		verdict := "agrees"
		switch {
		case notCounted:
			verdict = "agrees: the game ended before a count and is taken as claimed; the count above is of the position as it stands"
		case !*out.Agrees:
			verdict = "disagrees"
		}
		fmt.Fprintf(stdout, "claimed: %s (%s)\n", r.Result, verdict)
	}
	return exitOK
}

// scoreAgrees: the count gives the claimed winner (or a draw for a drawn
// claim) and, when the claim states a margin, that margin. A claim that
// is no count (a resignation, time, a forfeit, a draw by decision) agrees whatever the
// position counts, as the judge takes it (and a directory's score
// says): the game stopped before the count.
func scoreAgrees(claim, count games.Result) bool {
	if claim.End == games.EndVoid {
		return false
	}
	if claim.End != games.EndScore {
		return true
	}
	if claim.Winner != count.Winner {
		return false
	}
	if claim.NoMargin || claim.Winner == games.Empty {
		return true
	}
	return claim.Margin == count.Margin
}

// batch reports whether score's arguments name many games: more than one
// path, or a directory.
func batch(args []string) bool {
	if len(args) != 1 {
		return len(args) > 1
	}
	info, err := os.Stat(args[0])
	return err == nil && info.IsDir()
}

// scoreLine is one line of `rankctl score --json` over many files.
type scoreLine struct {
	File         string   `json:"file"`
	Game         int      `json:"game,omitempty"`
	Result       string   `json:"result,omitempty"`
	Claimed      string   `json:"claimed,omitempty"`
	Agrees       *bool    `json:"agrees,omitempty"` // null without a claim or without a judgement
	ProposedDead []string `json:"proposed_dead,omitempty"`
	KomiFits     *float64 `json:"komi_fits,omitempty"`
	Error        string   `json:"error,omitempty"`
	Assumptions  []string `json:"assumptions,omitempty"`
}

// scoreMany judges every game of the files: the count of counted games
// (with the proposal for those that mark no dead stones, under
// --estimate-dead) against the claim. Exit 0 when every claim agrees, 1
// otherwise.
func scoreMany(o *scoreOptions, args []string, komi func(*games.Record) bool, stdout, stderr io.Writer) int {
	if o.set["dead"] || o.set["game"] {
		fmt.Fprintln(stderr, "rankctl score: --dead and --game name one game; give one file")
		return exitUsage
	}
	files, err := expandPaths(args)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl score:", err)
		return exitUsage
	}
	opt := games.JudgeOptions{ProposeDead: o.estimate.on, Estimate: games.EstimateOptions{Playouts: o.estimate.playouts, Seed: o.estimate.seed}}
	code := exitOK
	var sum summary
	sum.start()
	for _, file := range files {
		sum.files++
		recs, err := loadRecords(file)
		if err != nil {
			sum.unreadable++
			code = max(code, exitNo)
			o.line(stdout, scoreLine{File: file, Error: err.Error()})
			continue
		}
		for _, l := range recs {
			sum.games++
			r := l.rec
			line := scoreLine{File: file, Claimed: r.Result, Assumptions: r.Assumptions}
			if len(recs) > 1 {
				line.Game = l.game
			}
			if len(r.Assumptions) > 0 {
				sum.assumed++
			}
			if err := o.rules.apply(r); err != nil {
				fmt.Fprintln(stderr, err)
				return exitUsage
			}
			if !komi(r) {
				return exitUsage
			}
			v, err := games.JudgeWith(r, opt)
			var rme *games.ResultMismatchError
			switch {
			case errors.As(err, &rme):
				f := false
				line.Agrees, line.Result, line.KomiFits, line.Error = &f, rme.Computed, rme.KomiFits, err.Error()
				sum.no++
				code = max(code, exitNo)
			case err != nil:
				// An illegal move is the record's first fault, as check
				// says, before a missing end or result.
				if _, rerr := games.Replay(r); rerr != nil {
					err = rerr
				}
				line.Error = err.Error()
				sum.other++
				code = max(code, exitNo)
			default:
				line.Result = v.Result
				for _, p := range v.ProposedDead {
					line.ProposedDead = append(line.ProposedDead, p.String())
				}
				if r.Result != "" {
					t := true
					line.Agrees = &t
					sum.yes++
				} else {
					sum.other++
				}
			}
			if !o.asJSON {
				fprintAssumptions(stderr, l.name, r)
			}
			o.line(stdout, line, l.name)
		}
	}
	sum.print(stderr, "scored", "agree with their claim", "disagree", "without a claim or not judged")
	return code
}

// line prints one game of scoreMany: JSON, or "name: result (claimed …)".
func (o *scoreOptions) line(w io.Writer, l scoreLine, name ...string) {
	if o.asJSON {
		writeJSON(w, l)
		return
	}
	n := l.File
	if len(name) > 0 {
		n = name[0]
	}
	switch {
	case l.Agrees != nil && *l.Agrees:
		fmt.Fprintf(w, "%s: %s, claimed %s: agrees", n, l.Result, l.Claimed)
	case l.Agrees != nil:
		fmt.Fprintf(w, "%s: %s, claimed %s: disagrees", n, l.Result, l.Claimed)
		if l.KomiFits != nil {
			fmt.Fprintf(w, " (komi %g would give the claim)", *l.KomiFits)
		}
	case l.Error != "":
		fmt.Fprintf(w, "%s: %s", n, l.Error)
	default:
		fmt.Fprintf(w, "%s: %s, no claim", n, l.Result)
	}
	if len(l.ProposedDead) > 0 {
		fmt.Fprintf(w, "; proposed dead %s", strings.Join(l.ProposedDead, ","))
	}
	fmt.Fprintln(w)
}
