package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/rating"
)

// TestVerifyJobKeepsCheckpoints: each verify firing appends a signed
// checkpoint to the file and checks the last one kept there; a line in
// the file not signed with the key is reported.
func TestVerifyJobKeepsCheckpoints(t *testing.T) {
	file := filepath.Join(t.TempDir(), "audit-checkpoints.jsonl")
	st := apptest.Memory(t, apptest.Config(app.Config{AuditKey: []byte("the audit key of this test, 32 bytes+"), CheckpointFile: file}))
	ctx := context.Background()
	d := 10
	if _, err := st.Ratings.Change(ctx, rating.ChangeInput{Key: "k1", Player: "alice", Cause: rating.CauseAdjustment, Delta: &d, Reason: "r", Actor: "root"}); err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{"v1", "v2"} {
		rep, err := st.Jobs.RunNow(ctx, "verify", id)
		if err != nil || rep.Err != nil {
			t.Fatalf("verify %s: %v %v", id, err, rep.Err)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != i+1 || !strings.Contains(lines[i], `"alice":{"seq":1`) {
			t.Fatalf("checkpoint file after %s:\n%s", id, b)
		}
	}
	reports, err := st.Ratings.Reports(ctx, 1)
	if err != nil || len(reports) != 1 || !reports[0].OK() {
		t.Fatalf("report with a kept checkpoint: %+v, %v", reports, err)
	}
	// A forged line (its MAC changed) is reported by the next firing.
	b, _ := os.ReadFile(file)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	forged := strings.Replace(lines[len(lines)-1], `"seq":1`, `"seq":7`, 1)
	if err := os.WriteFile(file, []byte(strings.Join(append(lines, forged), "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Jobs.RunNow(ctx, "verify", "v3"); err != nil {
		t.Fatal(err)
	}
	reports, err = st.Ratings.Reports(ctx, 1)
	if err != nil || len(reports) != 1 || reports[0].OK() || reports[0].Mismatches[0].Check != rating.CheckRollback {
		t.Fatalf("report with a forged checkpoint: %+v, %v", reports, err)
	}
}
