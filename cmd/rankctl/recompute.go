package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/weiqi-platform/rank/cmd/internal/wire"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

func init() {
	commands["recompute"] = command{summary: "replay the whole ledger from its games and changes and report every difference", run: runRecompute}
}

const recomputeUsage = `usage: rankctl recompute [flags]

Replays the whole ledger into fresh states: every player from their first
state, every game, placement, adjustment, exam and annulment in the
ledger's order, from its stored input (players, result, the game's
facts; the change asked for) through the pure formula (ladder, Glicko-2,
the placement rule). Reports every difference from what is stored: each
ledger entry's score, delta, rank, Glicko-2, result and certified rank,
each player's latest state and latest-state record. Nothing is written.
Exit 0 when the replay gives exactly what is stored, 1 when it does not.

Directly against the store: --mongo-uri (or $MONGO_URI), or with neither
the embedded store under --data-dir (stop rankd on that data dir first).

flags:
`

func runRecompute(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rankctl recompute", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, recomputeUsage); fs.PrintDefaults() }
	mongoURI := fs.String("mongo-uri", adminGetenv("MONGO_URI"), "MongoDB URI ($MONGO_URI); empty opens the embedded store under --data-dir")
	mongoDB := fs.String("mongo-db", envOr("MONGO_DB", "rank"), "database name ($MONGO_DB)")
	dataDir := fs.String("data-dir", envOr("RANK_DATA_DIR", "./data"), "data dir of the embedded store ($RANK_DATA_DIR)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rankctl recompute: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	m, err := wire.OpenMongo(ctx, *mongoURI, *mongoDB, *dataDir, log)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl recompute:", err)
		return exitUsage
	}
	defer func() { _ = m.Close(context.Background()) }()
	store, err := ratingdb.New(ctx, m.DB)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl recompute:", err)
		return exitUsage
	}
	rep, err := rating.NewService(store, rating.ServiceConfig{}).Recompute(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl recompute:", err)
		return exitUsage
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(struct {
			rating.RecomputeReport
			OK bool `json:"ok"`
		}{rep, rep.OK()})
	} else {
		for _, d := range rep.Differences {
			where := d.Player
			if d.Seq > 0 {
				where = fmt.Sprintf("%s entry %d", d.Player, d.Seq)
			}
			fmt.Fprintf(stdout, "%s: %s: stored %s, replayed %s\n", where, d.Field, d.Stored, d.Replayed)
		}
		verdict := "as stored"
		if !rep.OK() {
			verdict = fmt.Sprintf("%d differences", len(rep.Differences))
		}
		fmt.Fprintf(stdout, "replayed %d operations, %d ledger entries, %d players: %s\n", rep.Operations, rep.Entries, rep.Players, verdict)
	}
	if !rep.OK() {
		return exitNo
	}
	return exitOK
}
