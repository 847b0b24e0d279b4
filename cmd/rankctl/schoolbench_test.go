package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestSchoolBenchSmall runs the schools benchmark on a small school, on
// a fresh embedded store and then again on the same (seeded) one.
func TestSchoolBenchSmall(t *testing.T) {
	dir := t.TempDir()
	for i, want := range []string{"seeded in", "store already seeded"} {
		var out, errs bytes.Buffer
		code := run(context.Background(), []string{"schoolbench", "--data-dir", dir, "--students", "30", "--classes", "3", "--big", "12",
			"--entries", "600", "--runs", "2", "--csv-runs", "1"}, &out, &errs)
		if code != exitOK {
			t.Fatalf("run %d: exit %d\n%s%s", i, code, out.String(), errs.String())
		}
		for _, w := range []string{want, "the measured class", "has 12", "class table (12 students), cold:", "weekly progress over 12 months, 2 runs: p50",
			"school table as CSV, cold:", "(30 rows;", "filterPushdown=true", "USING INDEX rating_players_"} {
			if !strings.Contains(out.String(), w) {
				t.Errorf("run %d: output lacks %q:\n%s", i, w, out.String())
			}
		}
	}
	var errs bytes.Buffer
	if code := run(context.Background(), []string{"schoolbench", "--students", "3", "--big", "5"}, &bytes.Buffer{}, &errs); code != exitUsage {
		t.Errorf("big > students: exit %d, %s", code, errs.String())
	}
}
