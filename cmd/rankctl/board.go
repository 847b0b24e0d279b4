package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/weiqi-platform/rank/games"
)

func init() {
	commands["board"] = command{summary: "print the position of an SGF game after a given move", run: runBoard}
}

type boardJSON struct {
	Size     int            `json:"size"`
	Move     int            `json:"move"`
	Rows     []string       `json:"rows"`
	Captures map[string]int `json:"captures"`
	ToMove   string         `json:"to_move"`
}

func runBoard(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("board", flag.ContinueOnError)
	fs.SetOutput(stderr)
	at := fs.Int("at", -1, "the position after move `M` (moves counted from 1 after the setup stones, passes included; 0: the setup; default: the end)")
	game := fs.Int("game", 1, "which game of a collection")
	asJSON := fs.Bool("json", false, "print JSON: size, move, rows, captures, to_move")
	var rules rulesFlag
	rules.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rankctl board [--at M] [--json] FILE\n\nRows from the top (SGF row a): . empty, X black, O white; then the captures.")
		fs.PrintDefaults()
	}
	files, err := parseArgs(fs, args)
	if err != nil {
		return exitUsage
	}
	r, code := oneRecord(fs, files, *game, &rules, stderr)
	if r == nil {
		return code
	}
	n := len(r.Moves)
	if *at >= 0 {
		if *at > n {
			fmt.Fprintf(stderr, "--at %d: the game has %d moves\n", *at, n)
			return exitUsage
		}
		n = *at
	}
	cut := *r
	cut.Moves = r.Moves[:n]
	g, err := games.Replay(&cut)
	if err != nil {
		fmt.Fprintf(stdout, "%s: %v\n", files[0], err)
		return exitNo
	}
	b := g.Board()
	if *asJSON {
		writeJSON(stdout, boardJSON{
			Size: b.Size(), Move: n, Rows: b.Rows(), ToMove: g.ToMove().String(),
			Captures: map[string]int{"B": b.Captures(games.Black), "W": b.Captures(games.White)},
		})
		return exitOK
	}
	fmt.Fprint(stdout, b.String())
	fmt.Fprintf(stdout, "captures: B=%d W=%d\n", b.Captures(games.Black), b.Captures(games.White))
	return exitOK
}
