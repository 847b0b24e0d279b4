package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestUnknownCommandIsUsageError(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"nonsense"}, &out, &errb); code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(errb.String(), `unknown command "nonsense"`) {
		t.Fatalf("stderr %q does not name the command", errb.String())
	}
}
