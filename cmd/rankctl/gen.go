package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/weiqi-platform/rank/games"
)

func init() {
	commands["gen"] = command{summary: "write an archive of random legal short games (SGF collections) for import", run: runGen}
}

const genUsage = `usage: rankctl gen [flags] DIR

Writes --games random legal short games (games.RandomRecord: 9x9, up to
--moves moves, ended by resignation or a count) among --players players
(PB/PW archive-NNNNN) into SGF collections of --per-file games under DIR,
each dated (DT) one of --days days; the files hold the games out of date
order, as real archives do. The same --seed writes the same archive.

flags:
`

func runGen(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rankctl gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, genUsage); fs.PrintDefaults() }
	n := fs.Int("games", 1000, "games to write")
	nPlayers := fs.Int("players", 500, "players")
	perFile := fs.Int("per-file", 100, "games per SGF file")
	moves := fs.Int("moves", 60, "at most this many moves a game")
	days := fs.Int("days", 365, "the games' dates spread over this many days from 2024-01-01")
	seed := fs.Uint64("seed", 1, "random seed")
	pos, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(pos) != 1 || *n < 0 || *nPlayers < 2 || *perFile < 1 || *moves < 1 || *days < 1 {
		fs.Usage()
		return exitUsage
	}
	dir := pos[0]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "rankctl gen:", err)
		return exitUsage
	}
	rng := rand.New(rand.NewPCG(*seed, 15))
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	files := 0
	for i := 0; i < *n; i += *perFile {
		recs := make([]*games.Record, 0, min(*perFile, *n-i))
		for range cap(recs) {
			r := games.RandomRecord(rng, 9, 10+rng.IntN(max(*moves-9, 1)), rng.IntN(4) == 0)
			b := rng.IntN(*nPlayers)
			w := (b + 1 + rng.IntN(*nPlayers-1)) % *nPlayers
			r.Black.Name, r.White.Name = genPlayer(b), genPlayer(w)
			r.Date = start.AddDate(0, 0, rng.IntN(*days)).Format("2006-01-02")
			recs = append(recs, r)
		}
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("archive-%05d.sgf", files)))
		if err == nil {
			err = games.WriteSGF(f, recs...)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(stderr, "rankctl gen:", err)
			return exitUsage
		}
		files++
	}
	fmt.Fprintf(stdout, "wrote %d games among %d players in %d files under %s\n", *n, *nPlayers, files, dir)
	return exitOK
}

func genPlayer(i int) string { return fmt.Sprintf("archive-%05d", i) }
