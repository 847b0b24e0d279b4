package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// needTools fails unless every tool is on PATH.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (`make services` installs it)", tool)
		}
	}
}

// readREADME returns the repository's README.
func readREADME(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readmeBlock returns the shell block between <!-- name:begin --> and
// <!-- name:end --> in the README.
func readmeBlock(t *testing.T, readme, name string) string {
	t.Helper()
	m := regexp.MustCompile("(?s)<!-- " + name + ":begin -->\n```sh\n(.*?)```\n<!-- " + name + ":end -->").FindStringSubmatch(readme)
	if m == nil {
		t.Fatalf("README has no %s block", name)
	}
	return m[1]
}

// TestReadmeExamsAndAudit runs the README's exams and audit block as
// written, after its quick start, against the built rankd (only the
// address differs); rankctl runs from the repository root.
func TestReadmeExamsAndAudit(t *testing.T) {
	needTools(t, "bash", "curl", "jq", "go")
	readme := readREADME(t)
	p := startRankd(t, procOptions{Env: map[string]string{"RANK_ADMIN_USER": "root", "RANK_ADMIN_PASSWORD": "change-me-now"}})
	host := strings.TrimPrefix(p.URL, "http://")
	run := func(block string) string {
		t.Helper()
		cmd := exec.Command("bash", "-euo", "pipefail", "-c", strings.ReplaceAll(block, "localhost:8080", host))
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("README block failed: %v\n%s", err, out)
		}
		return string(out)
	}
	run(readmeBlock(t, readme, "quickstart"))
	out := run(readmeBlock(t, readme, "exams"))
	for _, want := range []string{
		`"id":"weekly-1k"`, `"next_session":`, `"player":"alice","role":"candidate"`, `"status":"done"`,
		`"cause":"adjustment"`, `"reason":"a server outage cost him a game"`, `"cause":"annulment"`,
		"player,seq,cause,cause_id", `"ok":true`, "verified 2 players, 7 ledger entries, 2 games: ok",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the exams block's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"error"`) {
		t.Errorf("the exams block answered an error:\n%s", out)
	}
	out = run(readmeBlock(t, readme, "matchmaking"))
	for _, want := range []string{
		`"state":"waiting"`, `"rank_range":{"min_score":-400,"max_score":199}`, `"state":"matched"`, `"opponent":"bob"`,
		`"status":"pending"`, `"pool":"19/600+3x30/chinese/r"`, `"waiting":0`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the matchmaking block's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"error"`) {
		t.Errorf("the matchmaking block answered an error:\n%s", out)
	}
	p.Stop()
}
