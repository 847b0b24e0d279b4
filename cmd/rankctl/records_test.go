package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles makes a directory of record files for the many-file commands.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var manyFiles = map[string]string{
	"a/ok.sgf":         "(;SZ[9]KM[7.5]RE[W+7.5];B[ee];W[cc];B[];W[])",
	"a/fox.SGF":        "(;SZ[9]KM[375]RE[黑中盘胜];B[ee];W[cc])",
	"b/illegal.sgf":    "(;SZ[9]KM[7.5];B[ee];W[ee])",
	"b/two.sgf":        "(;SZ[9]KM[7.5]RE[B+R];B[ee])(;SZ[9]KM[7.5]RE[B+3];B[ee];W[cc];B[];W[])",
	"b/broken.sgf":     "(;SZ[9];B[e!])",
	"c/tygem.gib":      "\\[GAMEINFOMAIN=GRLT:4,ZIPSU:0,GONGJE:65,\\]\nINI 0 1 0 &4\nSTO 0 1 1 3 3\n",
	"c/not-a-game.txt": "ignored: not a record file name",
}

func TestCheckDirectories(t *testing.T) {
	dir := writeFiles(t, manyFiles)
	code, out, errOut := runCmd("check", filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c"))
	if code != exitNo {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "illegal.sgf: move 2 (W E5): occupied") || !strings.Contains(out, "broken.sgf: sgf:") {
		t.Errorf("stdout:\n%s", out)
	}
	if !strings.Contains(errOut, "fox.SGF: assumed: KM[375] read as komi 7.5") ||
		!strings.Contains(errOut, "checked 6 files, 6 games: 5 legal, 1 illegal, 1 files unreadable; 2 games with assumptions;") {
		t.Errorf("stderr:\n%s", errOut)
	}
	code, _, errOut = runCmd("check", "--quiet", filepath.Join(dir, "a"))
	if code != exitOK || strings.Contains(errOut, "checked") {
		t.Errorf("--quiet: exit %d %s", code, errOut)
	}
}

func TestScoreMany(t *testing.T) {
	dir := writeFiles(t, manyFiles)
	code, out, errOut := runCmd("score", "--json", filepath.Join(dir, "a"), filepath.Join(dir, "b"))
	if code != exitNo {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 {
		t.Fatalf("want a line per game and per unreadable file:\n%s", out)
	}
	byFile := map[string]scoreLine{}
	for _, l := range lines {
		var s scoreLine
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatal(err)
		}
		byFile[filepath.Base(s.File)+"#"+string(rune('0'+s.Game))] = s
	}
	if s := byFile["ok.sgf#0"]; s.Agrees == nil || !*s.Agrees || s.Result != "W+7.5" {
		t.Errorf("ok: %+v", s)
	}
	if s := byFile["fox.SGF#0"]; s.Agrees == nil || !*s.Agrees || s.Result != "B+R" || len(s.Assumptions) == 0 {
		t.Errorf("fox: %+v", s)
	}
	if s := byFile["two.sgf#2"]; s.Agrees == nil || *s.Agrees || s.Result == "" {
		t.Errorf("two#2: %+v", s)
	}
	if !strings.Contains(errOut, "scored 5 files, 5 games: 3 agree with their claim, 1 disagree, 1 without a claim or not judged, 1 files unreadable;") {
		t.Errorf("stderr: %s", errOut)
	}
	if code, _, _ := runCmd("score", "--dead", "ee", dir, dir); code != exitUsage {
		t.Errorf("--dead with many files: exit %d", code)
	}
}

// TestScoreOneOfMany: score of one file holding several games shows one
// and says that there are others.
func TestScoreOneOfMany(t *testing.T) {
	dir := writeFiles(t, manyFiles)
	code, out, errOut := runCmd("score", filepath.Join(dir, "b", "two.sgf"))
	if code != exitOK || !strings.Contains(out, "claimed: B+R") || !strings.Contains(errOut, "the file holds 2 games: game 1 shown") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestConvert(t *testing.T) {
	dir := writeFiles(t, manyFiles)
	code, out, errOut := runCmd("convert", filepath.Join(dir, "c", "tygem.gib"), filepath.Join(dir, "a", "fox.SGF"))
	if code != exitOK || strings.Count(out, "(;GM[1]FF[4]") != 2 || !strings.Contains(out, "RE[W+R]") || !strings.Contains(out, "KM[7.5]") ||
		!strings.Contains(errOut, "converted from Tygem .gib") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	outDir := t.TempDir()
	code, _, errOut = runCmd("convert", "--out", outDir, filepath.Join(dir, "c"), filepath.Join(dir, "b", "broken.sgf"))
	if code != exitNo || !strings.Contains(errOut, "broken.sgf") {
		t.Fatalf("exit %d %s", code, errOut)
	}
	written, _ := filepath.Glob(filepath.Join(outDir, "*.sgf"))
	if len(written) != 1 || filepath.Base(written[0]) != "tygem.sgf" {
		t.Fatalf("written %v", written)
	}
	back := readBack(t, written[0])
	if !strings.Contains(back, "RU[Japanese]") || !strings.Contains(back, ";B[dd]") {
		t.Errorf("converted:\n%s", back)
	}
	// Pandanet's time setting is written as TM; a result the reader
	// cannot read, as the file gave it.
	more := writeFiles(t, map[string]string{
		"p.ugf": "[Header]\nSize=9\nPtime=J;240;0;0,J;240;0;0,0,0\n[Data]\nEE,B1,1,0\n",
		"u.sgf": "(;SZ[9]KM[7.5]RE[Game suspended];B[ee])",
	})
	code, out, errOut = runCmd("convert", filepath.Join(more, "p.ugf"), filepath.Join(more, "u.sgf"))
	if code != exitOK || !strings.Contains(out, "TM[14400]") || !strings.Contains(errOut, "Ptime=") || !strings.Contains(out, "RE[Game suspended]") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestConvertKeepsEveryFile: two inputs that would have the same output
// name (t.gib and t.ugf; x.sgf in two directories given by absolute
// paths) each get their own file: none replaces another.
func TestConvertKeepsEveryFile(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a/t.gib": manyFiles["c/tygem.gib"],
		"a/t.ugf": "[Header]\nSize=9\n[Data]\nEE,B1,0\n",
		"a/x.sgf": "(;SZ[9]PB[a];B[ee])",
		"b/x.sgf": "(;SZ[9]PB[b];B[ee])",
	})
	outDir := t.TempDir()
	code, _, errOut := runCmd("convert", "--out", outDir, filepath.Join(dir, "a"), filepath.Join(dir, "b"))
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errOut)
	}
	var got []string
	_ = filepath.WalkDir(outDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			r, _ := filepath.Rel(outDir, p)
			got = append(got, filepath.ToSlash(r))
		}
		return err
	})
	want := []string{"t.sgf", "t.ugf.sgf", "x-2.sgf", "x.sgf"}
	if strings.Join(got, " ") != strings.Join(want, " ") || !strings.Contains(errOut, "t.ugf: written to") {
		t.Fatalf("written %v, want %v\n%s", got, want, errOut)
	}
	if !strings.Contains(readBack(t, filepath.Join(outDir, "x-2.sgf")), "PB[b]") {
		t.Error("x-2.sgf does not hold b's game")
	}
}

func readBack(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
