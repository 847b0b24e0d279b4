package api_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/intake"
)

// TestGameShowsAssumptions: a game submitted as a quirky SGF shows what
// the reader assumed, in the submission's answer and on GET; a plain
// file, or a game sent as JSON fields, shows none; a file of hundreds of
// quirks shows the bounded list.
func TestGameShowsAssumptions(t *testing.T) {
	e := newGamesEnv(t)
	sgf := func(source, body string, status int) map[string]any {
		t.Helper()
		out := e.expect(req{method: "POST", path: "/api/v1/games?source_id=" + source, token: e.server, body: body,
			header: map[string]string{"Content-Type": "application/x-go-sgf"}}, status, "")
		return out.JSON["game"].(map[string]any)
	}
	get := func(id string) map[string]any {
		t.Helper()
		return e.expect(req{method: "GET", path: "/api/v1/games/" + id, token: e.alice}, 200, "").JSON
	}
	strs := func(v any) []string {
		var out []string
		for _, a := range v.([]any) {
			out = append(out, a.(string))
		}
		return out
	}
	quirky := "(;GM[1]FF[4]SZ[9]KM[375]RU[Chinese]PB[alice]PW[bob]RE[W+R];B[ee];W[gg];W[cc];B[dd])"
	plain := "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[alice]PW[bob]RE[W+R];B[ee];W[gg];B[];W[cc];B[dd])"

	posted := sgf("fox-1", quirky, 201)
	for what, g := range map[string]map[string]any{"the answer": posted, "GET": get(posted["id"].(string))} {
		as, ok := g["assumptions"]
		if !ok {
			t.Fatalf("%s: no assumptions: %v", what, g)
		}
		if got := strs(as); len(got) != 2 || !strings.Contains(got[0], "a pass by the other assumed before move 3") || !strings.Contains(got[1], "KM[375] read as komi 7.5") {
			t.Errorf("%s: assumptions %q", what, got)
		}
	}
	if again := sgf("fox-1", plain, 200); again["id"] != posted["id"] {
		t.Errorf("the plain file under the same source_id is game %v, not the retry of %v", again["id"], posted["id"])
	}
	for what, g := range map[string]map[string]any{
		"a plain file": sgf("plain-1", plain, 201),
		"JSON fields":  e.submit(gameBody(randomGame(3, 40, false), "json-1", "alice", "bob"), 201, "").JSON["game"].(map[string]any),
	} {
		if as, ok := get(g["id"].(string))["assumptions"]; ok {
			t.Errorf("%s shows assumptions %v", what, as)
		}
	}

	var many strings.Builder
	many.WriteString("(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[alice]PW[bob]RE[W+R]")
	for i := range 40 {
		fmt.Fprintf(&many, ";%s[%c%c]PL", "BW"[i%2:i%2+1], 'a'+i%9, 'a'+2*(i/9)) // PL without a value: one note each
	}
	many.WriteString(")")
	as := strs(get(sgf("hostile-1", many.String(), 201)["id"].(string))["assumptions"])
	if len(as) != intake.MaxAssumptions || as[len(as)-1] != fmt.Sprintf("and %d more assumptions, not kept", 40-(intake.MaxAssumptions-1)) {
		t.Errorf("%d assumptions shown, the last %q", len(as), as[len(as)-1])
	}
}
