package embedded

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/FerretDB/FerretDB/ferretdb"
)

// StartFerretPG starts FerretDB with its PostgreSQL handler, keeping its
// data in the PostgreSQL database that pgURL names (for example
// postgres://postgres@127.0.0.1:5432/ferretdb), and listening on listen
// (host:port; port 0 picks a free one). What it serves is a MongoDB
// wire-protocol server like any other: clients reach it by its URI. Many
// FerretDB processes may share one PostgreSQL database (no directory lock:
// PostgreSQL keeps the data consistent). The logger may be nil (silent).
func StartFerretPG(pgURL, listen string, logger *slog.Logger) (*Ferret, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: listen},
		Handler:       "postgresql",
		PostgreSQLURL: pgURL,
		Logger:        slog.New(ferretLog{h: logger.Handler()}), // never a document
	})
	if err != nil {
		return nil, fmt.Errorf("ferretdb on postgresql: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	return &Ferret{URI: f.MongoDBURI(), logger: logger, ctx: ctx, cancel: cancel, done: done}, nil
}
