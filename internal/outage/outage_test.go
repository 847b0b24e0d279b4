package outage_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/weiqi-platform/rank/internal/outage"
)

func TestWrapKeepsTheCauseAndMatches(t *testing.T) {
	err := fmt.Errorf("intake: %w", outage.Wrap("redis", "redisqueue: add", io.ErrUnexpectedEOF))
	if !outage.Is(err) || !errors.Is(err, outage.ErrUnavailable) {
		t.Fatalf("%v does not match the outage kind", err)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("%v lost the driver's error", err)
	}
	var e *outage.Error
	if !errors.As(err, &e) || e.Store != "redis" || e.Op != "redisqueue: add" {
		t.Fatalf("errors.As = %+v", e)
	}
	if outage.Wrap("mongo", "x", nil) != nil {
		t.Fatal("Wrap(nil) is not nil")
	}
	if outage.Is(io.EOF) {
		t.Fatal("a plain error counts as an outage")
	}
}
