package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/weiqi-platform/rank/cmd/internal/wire"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playerdb"
)

func init() {
	commands["admin"] = command{summary: "create the first admin account (admin create)", run: runAdmin}
}

// Where admin create reads what is not in its arguments; tests replace
// them.
var (
	adminStdin  io.Reader = os.Stdin
	adminGetenv           = os.Getenv
)

const adminUsage = `usage: rankctl admin create [flags]

Creates an admin account in the store, or leaves an existing admin as it
is (safe to run again). The password comes from $RANK_ADMIN_PASSWORD or,
with --password-stdin, from the first line of standard input: never from
an argument, which other users can see in the process list.

With no --mongo-uri (or $MONGO_URI) it opens the embedded store under
--data-dir: stop rankd on that data dir first.

flags:
`

func runAdmin(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprint(stderr, strings.SplitN(adminUsage, "\n", 2)[0]+"\n")
		return exitUsage
	}
	fs := flag.NewFlagSet("rankctl admin create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, adminUsage); fs.PrintDefaults() }
	username := fs.String("username", adminGetenv("RANK_ADMIN_USER"), "admin username ($RANK_ADMIN_USER)")
	fromStdin := fs.Bool("password-stdin", false, "read the password from the first line of standard input")
	mongoURI := fs.String("mongo-uri", adminGetenv("MONGO_URI"), "MongoDB URI ($MONGO_URI); empty opens the embedded store under --data-dir")
	mongoDB := fs.String("mongo-db", envOr("MONGO_DB", "rank"), "database name ($MONGO_DB)")
	dataDir := fs.String("data-dir", envOr("RANK_DATA_DIR", "./data"), "data dir of the embedded store ($RANK_DATA_DIR)")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rankctl admin create: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	if *username == "" {
		fmt.Fprintln(stderr, "rankctl admin create: --username (or $RANK_ADMIN_USER) is required")
		return exitUsage
	}
	password := adminGetenv("RANK_ADMIN_PASSWORD")
	if *fromStdin {
		line, err := bufio.NewReader(adminStdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintln(stderr, "rankctl admin create: reading the password:", err)
			return exitUsage
		}
		password = strings.TrimRight(line, "\r\n")
	}
	if password == "" {
		fmt.Fprintln(stderr, "rankctl admin create: no password: set $RANK_ADMIN_PASSWORD or use --password-stdin")
		return exitUsage
	}

	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	m, err := wire.OpenMongo(ctx, *mongoURI, *mongoDB, *dataDir, log)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl admin create:", err)
		return exitUsage
	}
	defer func() { _ = m.Close(context.Background()) }()
	store, err := playerdb.New(ctx, m.DB)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl admin create:", err)
		return exitUsage
	}
	// No limiter: this tool never logs in.
	created, err := players.NewService(store, nil, players.Config{}).EnsureAdmin(ctx, *username, password)
	switch {
	case errors.Is(err, players.ErrUsernameTaken):
		fmt.Fprintln(stderr, "rankctl admin create:", err)
		return exitNo
	case errors.Is(err, players.ErrInvalid):
		fmt.Fprintln(stderr, "rankctl admin create:", err)
		return exitUsage
	case err != nil:
		fmt.Fprintln(stderr, "rankctl admin create:", err)
		return exitUsage
	case created:
		fmt.Fprintf(stdout, "created admin %s\n", strings.ToLower(*username))
	default:
		fmt.Fprintf(stdout, "admin %s exists; left unchanged\n", strings.ToLower(*username))
	}
	return exitOK
}

func envOr(name, def string) string {
	if v := adminGetenv(name); v != "" {
		return v
	}
	return def
}
