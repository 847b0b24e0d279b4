package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/cmd/internal/wire"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

// sgfGame is a random legal short game between black and white, dated.
func sgfGame(seed uint64, black, white, date string) *games.Record {
	r := games.RandomRecord(rand.New(rand.NewPCG(seed, 1)), 9, 30, false)
	r.Black.Name, r.White.Name, r.Date = black, white, date
	return r
}

func writeSGF(t *testing.T, path string, recs ...*games.Record) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := games.WriteSGF(f, recs...); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// storedLedger reads every ledger entry of the store under the data dir.
func storedLedger(t *testing.T, uri, db, dataDir string) []rating.LedgerEntry {
	t.Helper()
	ctx := context.Background()
	m, err := wire.OpenMongo(ctx, uri, db, dataDir, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = m.Close(context.Background()) }()
	s, err := ratingdb.New(ctx, m.DB)
	if err != nil {
		t.Fatal(err)
	}
	var out []rating.LedgerEntry
	if err := s.EachEntry(ctx, func(e rating.LedgerEntry) error { out = append(out, e); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func importJSON(t *testing.T, args ...string) (int, importSummary, string) {
	t.Helper()
	code, out, errs := runCtl(append([]string{"import", "--json"}, args...)...)
	var sum importSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("import: exit %d, no JSON summary: %v\n%s\n%s", code, err, out, errs)
	}
	return code, sum, errs
}

// TestImportArchive: a directory with a multi-game file whose games are
// out of date order, a copy of one of its games in another file, a file
// that is no record and a game naming a stranger. Without
// --create-players the unknown players' games are refused; with it they
// are rated once each in the order played; a rerun rates nothing again;
// recompute finds the ledger as stored.
func TestImportArchive(t *testing.T) {
	dir, data := t.TempDir(), t.TempDir()
	late, early, middle := sgfGame(1, "ann", "ben", "2021-03-04"), sgfGame(2, "ben", "ann", "2021-03-01"), sgfGame(3, "ann", "cho", "2021-03-02")
	writeSGF(t, filepath.Join(dir, "a.sgf"), late, early, middle)
	writeSGF(t, filepath.Join(dir, "sub", "copy.sgf"), sgfGame(2, "ben", "ann", "2021-03-01"))
	writeSGF(t, filepath.Join(dir, "sub", "z.sgf"), sgfGame(4, "cho", "Not A Username!", "2021-03-05"))
	if err := os.WriteFile(filepath.Join(dir, "broken.sgf"), []byte("(;GM[1]SZ[19];B[zz"), 0o644); err != nil {
		t.Fatal(err)
	}

	code, sum, errs := importJSON(t, "--data-dir", data, dir)
	if code != exitNo || sum.Rated != 0 || len(sum.Refused) != 6 || sum.Read != 5 || sum.Files != 4 || sum.Unreadable != 1 {
		t.Fatalf("without --create-players: exit %d, %+v\n%s", code, sum, errs)
	}
	for _, o := range sum.Refused[1:] {
		if o.Code != "unknown_player" {
			t.Fatalf("refused %+v, want unknown_player", o)
		}
	}
	// The summary line's games add up; the unreadable file is a file.
	if code, out, _ := runCtl("import", "--data-dir", t.TempDir(), dir); code != exitNo ||
		!strings.Contains(out, "read 5 games from 4 files (1 unreadable): 0 rated, 0 duplicates, 5 refused;") {
		t.Fatalf("summary line: exit %d\n%s", code, out)
	}

	code, sum, errs = importJSON(t, "--create-players", "--batch", "2", "--data-dir", data, dir)
	if code != exitNo || sum.Rated != 3 || sum.Duplicates != 1 || len(sum.Refused) != 2 || len(sum.Created) != 3 || sum.Bulk != 3 {
		t.Fatalf("with --create-players: exit %d, %+v\n%s", code, sum, errs)
	}
	refused := map[string]string{}
	for _, o := range sum.Refused {
		refused[filepath.Base(o.Source)] = o.Code
	}
	if refused["broken.sgf"] != "invalid_sgf" || refused["z.sgf"] != "unknown_player" {
		t.Fatalf("refusals %v, want broken.sgf invalid_sgf and z.sgf unknown_player", refused)
	}
	if !strings.Contains(errs, "import [####################] 5/5 games (100%)") {
		t.Fatalf("no progress line: %q", errs)
	}
	// In the order played: ann's games are early, middle, late.
	var annGames []string
	for _, e := range storedLedger(t, "", "rank", data) {
		if e.Username == "ann" && e.Cause == rating.CauseGame {
			annGames = append(annGames, e.At.Format("2006-01-02"))
		}
	}
	if fmt.Sprint(annGames) != "[2021-03-01 2021-03-02 2021-03-04]" {
		t.Fatalf("ann's games rated in the order %v", annGames)
	}
	before := storedLedger(t, "", "rank", data)

	code, sum, _ = importJSON(t, "--create-players", "--data-dir", data, dir)
	if code != exitNo || sum.Rated != 0 || sum.Duplicates != 4 || len(sum.Created) != 0 {
		t.Fatalf("the rerun: exit %d, %+v", code, sum)
	}
	if after := storedLedger(t, "", "rank", data); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatal("the rerun changed the ledger")
	}
	if code, out, errs := runCtl("recompute", "--data-dir", data); code != exitOK || !strings.HasSuffix(out, "players: as stored\n") {
		t.Fatalf("recompute: exit %d, %q, %q", code, out, errs)
	}
	code, out, _ := runCtl("import", "--create-players", "--data-dir", data, filepath.Join(dir, "a.sgf"))
	if code != exitOK || !strings.HasPrefix(out, "read 3 games from 1 files (0 unreadable): 0 rated, 3 duplicates, 0 refused; 0 players created;") {
		t.Fatalf("the multi-game file again: exit %d, %q", code, out)
	}
}

// TestImportKilledAndRerun: an import killed (SIGKILL) in the middle and
// run again gives exactly the ledger of one uninterrupted import.
func TestImportKilledAndRerun(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "rankctl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build rankctl: %v\n%s", err, out)
	}
	archive := filepath.Join(dir, "archive")
	if code, out, errs := runCtl("gen", "--games", "800", "--players", "40", "--per-file", "50", archive); code != exitOK {
		t.Fatalf("gen: %d %q %q", code, out, errs)
	}
	clean, killed := filepath.Join(dir, "clean"), filepath.Join(dir, "killed")
	if code, out, errs := runCtl("import", "--quiet", "--create-players", "--batch", "50", "--data-dir", clean, archive); code != exitOK {
		t.Fatalf("the clean import: %d %q %q", code, out, errs)
	}
	want := storedLedger(t, "", "rank", clean)

	cmd := exec.Command(bin, "import", "--create-players", "--batch", "50", "--data-dir", killed, archive)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	progressed := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := false
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "import [") && !once {
				once = true
				close(progressed)
			}
		}
	}()
	select {
	case <-progressed: // a batch is in: the next one is under way
	case <-time.After(testsvc.Ceiling):
		t.Fatal("the import showed no progress")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	partial := storedLedger(t, "", "rank", killed)
	if len(partial) >= len(want) {
		t.Fatalf("the import finished before the kill (%d entries)", len(partial))
	}
	code, out, errs := runCtl("import", "--quiet", "--create-players", "--batch", "50", "--data-dir", killed, archive)
	if code != exitOK {
		t.Fatalf("the rerun: %d %q %q", code, out, errs)
	}
	got := storedLedger(t, "", "rank", killed)
	if len(got) != len(want) {
		t.Fatalf("after the rerun %d entries, one run writes %d", len(got), len(want))
	}
	for i := range got {
		if got[i].Hash != want[i].Hash {
			t.Fatalf("entry %d after the rerun:\n%+v\none run writes\n%+v", i, got[i], want[i])
		}
	}
	if code, out, errs := runCtl("recompute", "--data-dir", killed); code != exitOK {
		t.Fatalf("recompute: exit %d, %q, %q", code, out, errs)
	}
}

// TestImportMongo: the same import against a store named by --mongo-uri,
// and recompute there.
func TestImportMongo(t *testing.T) {
	db := testsvc.Mongo(t)
	uri := testsvc.MongoURI(t)
	dir := t.TempDir()
	writeSGF(t, filepath.Join(dir, "a.sgf"), sgfGame(1, "ann", "ben", "2021-03-04"), sgfGame(2, "ben", "ann", "2021-03-01"), sgfGame(3, "ann", "cho", "2021-03-02"))
	code, sum, errs := importJSON(t, "--create-players", "--mongo-uri", uri, "--mongo-db", db.Name(), dir)
	if code != exitOK || sum.Rated != 3 || sum.Bulk != 3 {
		t.Fatalf("import: exit %d, %+v\n%s", code, sum, errs)
	}
	if got := storedLedger(t, uri, db.Name(), ""); len(got) != 6 {
		t.Fatalf("%d ledger entries, want 6", len(got))
	}
	if code, out, errs := runCtl("recompute", "--mongo-uri", uri, "--mongo-db", db.Name()); code != exitOK {
		t.Fatalf("recompute: exit %d, %q, %q", code, out, errs)
	}
}

// An import runs with the collector's target importGCPercent, unless
// $GOGC names one, and puts the previous target back.
func TestImportGC(t *testing.T) {
	t.Setenv("GOGC", "")
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	restore := importGC()
	if got := debug.SetGCPercent(importGCPercent); got != importGCPercent {
		t.Errorf("during an import the target is %d, want %d", got, importGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after an import the target is %d, want 100 back", got)
	}
	t.Setenv("GOGC", "50")
	restore = importGC()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with $GOGC set the import changed the target to %d", got)
	}
	restore()
}

// TestImportSummaryAfterClose: the import closes its store before it
// prints its summary, so that the embedded store's last commits, synced
// only at its checkpoints (importDurability), are in the database, not
// in SQLite's log, once the summary says they are done: killed the
// moment the summary appears, the import leaves no log behind and every
// game rated.
func TestImportSummaryAfterClose(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "rankctl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build rankctl: %v\n%s", err, out)
	}
	archive, data := filepath.Join(dir, "archive"), filepath.Join(dir, "data")
	if code, out, errs := runCtl("gen", "--games", "300", "--players", "30", "--per-file", "50", archive); code != exitOK {
		t.Fatalf("gen: %d %q %q", code, out, errs)
	}
	cmd := exec.Command(bin, "import", "--quiet", "--create-players", "--data-dir", data, archive)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	summary := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "read ") {
				summary <- sc.Text()
				return
			}
		}
		close(summary)
	}()
	select {
	case line, ok := <-summary:
		if !ok || !strings.Contains(line, "300 rated") {
			t.Fatalf("summary %q, want 300 rated", line)
		}
	case <-time.After(testsvc.Ceiling):
		t.Fatal("no summary")
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	wal := filepath.Join(data, wire.FerretDir, "rank.sqlite-wal")
	if _, err := os.Stat(wal); !os.IsNotExist(err) {
		t.Fatalf("SQLite's log %s is there after the summary (%v): the store was not closed first", wal, err)
	}
	clean := filepath.Join(dir, "clean")
	if code, out, errs := runCtl("import", "--quiet", "--create-players", "--data-dir", clean, archive); code != exitOK {
		t.Fatalf("the clean import: %d %q %q", code, out, errs)
	}
	if got, want := storedLedger(t, "", "rank", data), storedLedger(t, "", "rank", clean); len(got) != len(want) {
		t.Fatalf("%d ledger entries, an import that ends by itself writes %d", len(got), len(want))
	}
}
