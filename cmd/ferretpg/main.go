package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/embedded"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "ferretpg:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ferretpg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", envOr("FERRETPG_LISTEN", "127.0.0.1:27018"), "TCP address to listen on (env FERRETPG_LISTEN)")
	pgURL := fs.String("postgresql-url", envOr("FERRETPG_POSTGRESQL_URL", "postgres://postgres@127.0.0.1:5432/ferretdb"),
		"PostgreSQL database to keep the data in (env FERRETPG_POSTGRESQL_URL)")
	verbose := fs.Bool("v", false, "log FerretDB's connections and warnings")
	if err := fs.Parse(args); err != nil {
		return err
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	f, err := embedded.StartFerretPG(*pgURL, *listen, log)
	if err != nil {
		return err
	}
	defer f.Stop()
	// FerretDB connects to PostgreSQL on the first command: ping so that a
	// wrong URL or a PostgreSQL that is down fails here, not at rankd.
	if err := ping(f.URI); err != nil {
		return fmt.Errorf("postgresql %s: %w", *pgURL, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	fmt.Fprintln(stdout, "ferretpg: listening on", f.URI)
	<-ctx.Done()
	return nil
}

// ping lists the databases: a command that reaches PostgreSQL.
func ping(uri string) error {
	c, err := mongo.Connect(options.Client().ApplyURI(uri).SetServerSelectionTimeout(10 * time.Second))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	defer func() { _ = c.Disconnect(ctx) }()
	_, err = c.ListDatabaseNames(ctx, map[string]any{})
	return err
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
