package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const golden = "../../games/testdata/golden/"

func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheck(t *testing.T) {
	tests := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"check", golden + "seki-japanese.sgf", golden + "ko-after-passes-japanese.sgf"}, exitOK, ""},
		{[]string{"check", golden + "superko-chinese.sgf"}, exitNo, golden + "superko-chinese.sgf: move 4 (W B4): superko\n"},
		{[]string{"check", golden + "ko-immediate.sgf", golden + "seki-chinese.sgf"}, exitNo, golden + "ko-immediate.sgf: move 2 (W B4): ko\n"},
		{[]string{"check", "--rules", "japanese", golden + "superko-chinese.sgf"}, exitOK, ""},
		{[]string{"check", golden + "bad-offset.sgf"}, exitNo, golden + "bad-offset.sgf: sgf: byte 39: [p!] is not a point\n"},
		{[]string{"check", golden + "chinese-multi-suicide.sgf", "--rules", "ing"}, exitOK, ""},
		{[]string{"check", "no-such-file.sgf"}, exitUsage, ""},
		{[]string{"check"}, exitUsage, ""},
		{[]string{"check", "--rules", "chess", golden + "seki-japanese.sgf"}, exitUsage, ""},
	}
	for _, tc := range tests {
		code, out, errOut := runCmd(tc.args...)
		if code != tc.code || (tc.out != "" || code == exitOK) && out != tc.out {
			t.Errorf("%v: exit %d, stdout %q (stderr %q); want exit %d, stdout %q", tc.args, code, out, errOut, tc.code, tc.out)
		}
	}
}

func TestCheckJSON(t *testing.T) {
	code, out, _ := runCmd("check", "--json", golden+"superko-chinese.sgf", golden+"seki-chinese.sgf", golden+"collection.sgf")
	if code != exitNo {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("want one object per game, got %q", out)
	}
	var bad map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &bad); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"file": golden + "superko-chinese.sgf", "legal": false, "move": 4.0, "color": "W", "point": "bb", "reason": "superko"}
	for k, v := range want {
		if bad[k] != v {
			t.Errorf("%s = %v, want %v (%s)", k, bad[k], v, lines[0])
		}
	}
	var good, second map[string]any
	_ = json.Unmarshal([]byte(lines[1]), &good)
	_ = json.Unmarshal([]byte(lines[3]), &second)
	if good["legal"] != true || good["reason"] != nil || second["game"] != 2.0 {
		t.Errorf("legal lines: %s / %s", lines[1], lines[3])
	}
}

func TestBoard(t *testing.T) {
	code, out, _ := runCmd("board", golden+"ing-multi-suicide.sgf")
	want := "...O.\nOOO..\n.....\n.....\n.....\ncaptures: B=0 W=3\n"
	if code != exitOK || out != want {
		t.Fatalf("exit %d\n%s\nwant\n%s", code, out, want)
	}
	code, out, _ = runCmd("board", "--at", "0", "--json", golden+"ing-multi-suicide.sgf")
	var got boardJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
		t.Fatalf("exit %d %v: %s", code, err, out)
	}
	if got.Size != 5 || got.Rows[0] != "XX.O." || got.ToMove != "B" || got.Captures["W"] != 0 || got.Move != 0 {
		t.Fatalf("got %+v", got)
	}
	if code, out, _ = runCmd("board", "--at", "5", golden+"superko-chinese.sgf"); code != exitUsage {
		t.Fatalf("--at past the end: exit %d %s", code, out)
	}
	if code, out, _ = runCmd("board", golden+"superko-chinese.sgf"); code != exitNo || !strings.Contains(out, "superko") {
		t.Fatalf("illegal record: exit %d %s", code, out)
	}
	if code, out, _ = runCmd("board", "--at", "3", golden+"superko-chinese.sgf"); code != exitOK || !strings.HasPrefix(out, ".XO..\nX.XO.") {
		t.Fatalf("before the illegal move: exit %d\n%s", code, out)
	}
}

func TestScore(t *testing.T) {
	code, out, _ := runCmd("score", "--json", golden+"seki-japanese.sgf")
	var s scoreJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != exitOK {
		t.Fatalf("exit %d %v: %s", code, err, out)
	}
	if s.Result != "W+24" || s.Black.Territory != 12 || s.White.Score != 36 || s.Seki != 2 || s.Rules != "japanese" ||
		s.Claimed != "W+24" || s.Agrees == nil || !*s.Agrees || s.Komi != 0 || s.Handicap != 0 || len(s.Dead) != 0 {
		t.Fatalf("got %+v", s)
	}
	// The same position under Chinese rules and another komi: the seki
	// eyes count, and the claim no longer agrees.
	_, out, _ = runCmd("score", "--json", "--rules", "chinese", "--komi", "7.5", golden+"seki-japanese.sgf")
	s = scoreJSON{}
	_ = json.Unmarshal([]byte(out), &s)
	if s.Result != "W+33.5" || s.Agrees == nil || *s.Agrees || s.MarginStones == nil || *s.MarginStones != -16.75 {
		t.Fatalf("chinese: %s", out)
	}
	// --dead overrides the file's agreed dead stones.
	_, out, _ = runCmd("score", "--json", golden+"dead-stones.sgf")
	s = scoreJSON{}
	_ = json.Unmarshal([]byte(out), &s)
	if s.Result != "W+29.5" || len(s.Dead) != 1 || s.Dead[0] != "af" || s.Black.Prisoners != 1 {
		t.Fatalf("file's dead stones: %s", out)
	}
	_, out, _ = runCmd("score", "--json", "--dead", "", golden+"dead-stones.sgf")
	s = scoreJSON{}
	_ = json.Unmarshal([]byte(out), &s)
	if len(s.Dead) != 0 || s.Black.Prisoners != 0 {
		t.Fatalf("--dead '': %s", out)
	}
	code, out, _ = runCmd("score", golden+"seki-chinese.sgf")
	if code != exitOK || !strings.HasPrefix(out, "W+26\n") || !strings.Contains(out, "claimed: W+26 (agrees)") {
		t.Fatalf("text: exit %d\n%s", code, out)
	}
	// A resignation is taken as claimed, whatever the position counts,
	// as a directory's score judges it; an illegal record is named by its
	// move there too, as check names it.
	dir := t.TempDir()
	res := filepath.Join(dir, "res.sgf")
	if err := os.WriteFile(res, []byte("(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[a]PW[b]RE[B+R];B[ee];W[cc];B[gc];W[cg])"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCmd("score", res)
	if code != exitOK || !strings.HasPrefix(out, "W+7.5\n") || !strings.Contains(out, "claimed: B+R (agrees: the game ended before a count") {
		t.Fatalf("a resignation, one file: exit %d\n%s", code, out)
	}
	ko, err := os.ReadFile(golden + "ko-immediate.sgf")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ko.sgf"), ko, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCmd("score", dir)
	if code != exitNo || !strings.Contains(out, "res.sgf: B+R, claimed B+R: agrees") || !strings.Contains(out, "ko.sgf: move 2 (W B4): ko") {
		t.Fatalf("a directory: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{
		{"score", "--dead", "zz", golden + "seki-chinese.sgf"},
		{"score", "--dead", "E5", golden + "seki-chinese.sgf"},
		{"score", "--komi", "x", golden + "seki-chinese.sgf"},
		{"score"},
	} {
		if code, out, _ := runCmd(bad...); code != exitUsage {
			t.Errorf("%v: exit %d %s", bad, code, out)
		}
	}
}
