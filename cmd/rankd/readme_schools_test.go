package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestReadmeSchools runs the README's schools block as written, after
// its quick start, against the built rankd (only the address differs).
// It runs on the embedded store and on the store server of its own.
func TestReadmeSchools(t *testing.T) {
	needTools(t, "bash", "curl", "jq")
	onEachStore(t, map[string]string{"RANK_ADMIN_USER": "root", "RANK_ADMIN_PASSWORD": "change-me-now"}, readmeSchools)
}

func readmeSchools(t *testing.T, env map[string]string) {
	readme := readREADME(t)
	p := startRankd(t, procOptions{Env: env})
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
	out := run(readmeBlock(t, readme, "schools"))
	for _, want := range []string{
		`"id":"yilin"`, `"scale":"chinese"`, `"name":"周六初级班"`, `"invite_code":"`,
		`{"class":"周六初级班","member":"xiaoming"}`, `{"class":"周六初级班","member":"xiaohong"}`, `{"black":"1k","white":"2k"}`,
		`"username":"xiaoming"`, `"shown_rank":"2k"`, `"last_game":{`, `"result":"loss"`,
		"\ufeff用户名,姓名", "2级", `"by":"week"`, `"rank_changes":[{`, `"cause":"game"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the schools block's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"error"`) {
		t.Errorf("the schools block answered an error:\n%s", out)
	}
	p.Stop()
}
