package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

func init() {
	commands["rate"] = command{
		summary: "apply the ladder formula to one game: deltas, new scores and ranks",
		run:     runRate,
	}
}

// rateAnswer is `rankctl rate --json`; the field names are issue 3's.
type rateAnswer struct {
	WinnerDelta int        `json:"winner_delta"`
	LoserDelta  int        `json:"loser_delta"`
	WinnerScore int        `json:"winner_score"`
	LoserScore  int        `json:"loser_score"`
	WinnerRank  ranks.Rank `json:"winner_rank"`
	LoserRank   ranks.Rank `json:"loser_rank"`
	Rated       bool       `json:"rated"`
}

// rateFlagOf names the flag behind each field rating reports an error in.
var rateFlagOf = map[string]string{
	"winner score": "--winner",
	"loser score":  "--loser",
	"moves":        "--moves",
	"handicap":     "--handicap",
	"escape":       "--escape",
}

func runRate(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs, asJSON := ratingFlagSet("rankctl rate", stderr, "--winner W --loser L [--moves N] [--handicap H] [--escape] [--draw] [--void] [--json]\n\n"+
		"Applies the ladder formula (rating.md §2) to one game and prints both\n"+
		"deltas and the new scores and ranks.")
	winner := fs.Int("winner", 0, "the winner's ladder score before the game (required)")
	loser := fs.Int("loser", 0, "the loser's ladder score before the game (required)")
	moves := fs.Int("moves", rating.MinMovesToGain, "moves played after the handicap stones (plays and passes)")
	handicap := fs.Int("handicap", 0, "handicap stones; 1 is 让先 (a handicap game is not rated)")
	escape := fs.Bool("escape", false, "the loser abandoned the game (逃跑): their deduction is doubled")
	draw := fs.Bool("draw", false, "the game was a draw (--winner and --loser are just the two players)")
	void := fs.Bool("void", false, "the game is void (no result, annulled)")
	if code, ok := ratingFlagsOnly(fs, args, stderr); !ok {
		return code
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range []string{"winner", "loser"} {
		if !set[name] {
			return ratingUsage(stderr, fs.Name(), "--"+name+" is required")
		}
	}
	switch {
	case *draw && *void:
		return ratingUsage(stderr, fs.Name(), "--draw and --void exclude each other")
	case *escape && (*draw || *void):
		return ratingUsage(stderr, fs.Name(), "--escape is a loss; it cannot go with --draw or --void")
	}

	game := rating.Game{Moves: *moves, Handicap: *handicap, Escape: *escape}
	if *draw {
		game.Outcome = rating.Draw
	} else if *void {
		game.Outcome = rating.Void
	}
	d, err := rating.Ladder(*winner, *loser, game)
	if err != nil {
		var ie *rating.InputError
		if errors.As(err, &ie) && rateFlagOf[ie.Field] != "" {
			return ratingUsage(stderr, fs.Name(), rateFlagOf[ie.Field]+": "+ie.Reason)
		}
		return ratingUsage(stderr, fs.Name(), err.Error())
	}
	ans := rateAnswer{
		WinnerDelta: d.Winner,
		LoserDelta:  d.Loser,
		WinnerScore: *winner + d.Winner,
		LoserScore:  *loser + d.Loser,
		Rated:       d.Rated,
	}
	ans.WinnerRank, ans.LoserRank = ranks.FromScore(ans.WinnerScore), ranks.FromScore(ans.LoserScore)
	if *asJSON {
		return ratingJSON(stdout, stderr, ans)
	}

	names := [2]string{"winner", "loser"}
	if *draw || *void {
		names = [2]string{"player 1", "player 2"}
	}
	row := func(name string, before, delta, after int) {
		fmt.Fprintf(stdout, "%-8s %6d (%s) %+4d → %6d (%s)\n", name, before, ranks.FromScore(before), delta, after, ranks.FromScore(after))
	}
	row(names[0], *winner, d.Winner, ans.WinnerScore)
	row(names[1], *loser, d.Loser, ans.LoserScore)
	fmt.Fprintln(stdout, rateNote(game))
	return exitOK
}

// rateNote says in words why the deltas are what they are.
func rateNote(g rating.Game) string {
	switch {
	case g.Outcome == rating.Void:
		return "not rated: a void game changes nobody's score"
	case g.Handicap > 0:
		return "not rated: handicap games are not rated"
	case g.Outcome == rating.Draw:
		return "rated: a draw changes nobody's ladder score"
	}
	note := "rated"
	if g.Moves < rating.MinMovesToGain {
		note += fmt.Sprintf("; won in fewer than %d moves, the winner gains nothing", rating.MinMovesToGain)
	}
	if g.Escape {
		note += "; the loser escaped, their deduction is doubled"
	}
	return note
}
