package wire

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/internal/embedded"
)

// TestOpenMongoLocksDataDir: rankd and rankctl open the embedded store
// through OpenMongo; while one has a data dir, a second open of it fails
// at once with a message naming the directory and the holding process,
// and after Close it opens again.
func TestOpenMongoLocksDataDir(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	first, err := OpenMongo(ctx, "", "rank", dir, log)
	if err != nil {
		t.Fatal(err)
	}
	second, err := OpenMongo(ctx, "", "rank", dir, log)
	if err == nil {
		_ = second.Close(ctx)
		_ = first.Close(ctx)
		t.Fatal("a second OpenMongo on one data dir succeeded")
	}
	if !errors.Is(err, embedded.ErrLocked) {
		t.Errorf("got %v, want embedded.ErrLocked", err)
	}
	for _, want := range []string{dir, "process " + strconv.Itoa(os.Getpid())} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the message %q does not name %q", err, want)
		}
	}
	if err := first.Close(ctx); err != nil {
		t.Fatal(err)
	}
	again, err := OpenMongo(ctx, "", "rank", dir, log)
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	_ = again.Close(ctx)
}
