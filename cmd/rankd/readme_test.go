package main

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeQuickStart runs the README's quick start as written: the
// server started with the README's environment, then its shell block with
// curl and jq, against the built rankd (only the address differs).
func TestReadmeQuickStart(t *testing.T) {
	needTools(t, "bash", "curl", "jq")
	readme := readREADME(t)
	start := regexp.MustCompile(`(?m)^ +((?:[A-Z_]+=\S+ )+)go run \./cmd/rankd$`).FindStringSubmatch(readme)
	if start == nil {
		t.Fatal("README has no `... go run ./cmd/rankd` start line")
	}
	env := map[string]string{}
	for _, kv := range strings.Fields(start[1]) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	block := regexp.MustCompile("(?s)<!-- quickstart:begin -->\n```sh\n(.*?)```\n<!-- quickstart:end -->").FindStringSubmatch(readme)
	if block == nil {
		t.Fatal("README has no quickstart block")
	}
	if !strings.Contains(block[1], "localhost:8080") {
		t.Fatal("the quickstart block does not talk to localhost:8080")
	}

	onEachStore(t, env, func(t *testing.T, env map[string]string) { readmeQuickStart(t, env, block[1]) })
}

// readmeQuickStart runs the quick start's block on a rankd with env.
func readmeQuickStart(t *testing.T, env map[string]string, block string) {
	p := startRankd(t, procOptions{Env: env})
	script := strings.ReplaceAll(block, "localhost:8080", strings.TrimPrefix(p.URL, "http://"))
	out, err := exec.Command("bash", "-euo", "pipefail", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("quick start failed: %v\n%s", err, out)
	}
	for _, want := range []string{`"username":"alice"`, `"role":"player"`, `"username":"go-server"`, `"role":"server"`, "204\n", `"source_id":"my-server-42"`, `"source_id":"my-server-43"`, `"delta":-5`, `"games":2`, `"cause":"game"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("quick start output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), `"error"`) {
		t.Errorf("quick start answered an error:\n%s", out)
	}
	p.Stop()
}
