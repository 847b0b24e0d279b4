package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"time"

	"github.com/weiqi-platform/rank/cmd/internal/wire"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/embedded"
)

func init() {
	commands["import"] = command{summary: "rate a whole archive of finished games, in the order played (resumable)", run: runImport}
}

const importUsage = `usage: rankctl import [flags] FILE|DIR...

Rates every finished game of the files (SGF, collections of many games
included, Tygem .gib, Pandanet .ugf/.ugi; a directory: every such file
under it) in the order they were played: by date (DT; a game without one
takes its file's modification time), then in file order. The games go
--batch at a time through the batch path: a batch is stored, rated and
marked rated in a handful of store commands.

Each game is known by its content (players, rules, moves, result and
date), so the same game in two files is rated once, and running the
import again, after an interruption or on an archive overlapping one
imported before, rates nothing twice and completes what was left. Run an
interrupted import again before starting rankd on the store.

The players are the records' PB and PW, read as usernames. A player with
no account is refused (unknown_player) unless --create-players, which
makes player accounts that nobody can log in to until an admin gives
them a password.

Directly against the store: --mongo-uri (or $MONGO_URI), or with neither
the embedded store under --data-dir (stop rankd on that data dir first).
A progress line goes to stderr (none with --quiet), the summary to stdout
(--json: as JSON, every refused game with its reason). Exit 0 when every
game was rated or a duplicate, 1 when some were refused, 2 on an error.

flags:
`

// importSummary is what rankctl import reports.
type importSummary struct {
	Files      int                     `json:"files"`
	Unreadable int                     `json:"files_unreadable"`
	Read       int                     `json:"read"`
	Rated      int                     `json:"rated"`
	Duplicates int                     `json:"duplicates"`
	Refused    []intake.ArchiveOutcome `json:"refused"`
	Created    []string                `json:"players_created"`
	Bulk       int                     `json:"rated_in_bulk"`
	Single     int                     `json:"rated_one_by_one"`
	Seconds    float64                 `json:"seconds"`
	PerSecond  float64                 `json:"games_per_second"`
}

func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rankctl import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, importUsage); fs.PrintDefaults() }
	mongoURI := fs.String("mongo-uri", adminGetenv("MONGO_URI"), "MongoDB URI ($MONGO_URI); empty opens the embedded store under --data-dir")
	mongoDB := fs.String("mongo-db", envOr("MONGO_DB", "rank"), "database name ($MONGO_DB)")
	dataDir := fs.String("data-dir", envOr("RANK_DATA_DIR", "./data"), "data dir of the embedded store ($RANK_DATA_DIR)")
	create := fs.Bool("create-players", false, "make an account for each player with none (else their games are refused)")
	trusted := fs.Bool("trust-results", false, "rate a count that does not give the claimed result as claimed, flagged (as a game server's)")
	placement := fs.Bool("placement", true, "new players' first rated games are placement games, as rankd's --placement")
	batch := fs.Int("batch", 1000, "games per batch")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	quiet := fs.Bool("quiet", false, "no progress line")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the import to this file")
	files, err := parseArgs(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if len(files) == 0 || *batch < 1 {
		fs.Usage()
		return exitUsage
	}
	paths, err := expandPaths(files)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl import:", err)
		return exitUsage
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(stderr, "rankctl import:", err)
			return exitUsage
		}
		defer func() { pprof.StopCPUProfile(); _ = f.Close() }()
	}
	defer importGC()()
	began := time.Now()
	var sum importSummary
	gs, refused := readArchive(paths, &sum)
	sum.Refused = refused
	intake.SortArchive(gs)

	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	m, err := wire.OpenMongoWith(ctx, *mongoURI, *mongoDB, *dataDir, log, importDurability)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl import:", err)
		return exitUsage
	}
	defer func() { _ = m.Close(context.Background()) }()
	r, err := wire.OpenRedis(ctx, "", log) // unused by the import; the wiring wants one
	if err != nil {
		fmt.Fprintln(stderr, "rankctl import:", err)
		return exitUsage
	}
	defer func() { _ = r.Close() }()
	var sopts []app.OpenOption
	if m.Embedded {
		// The data directory is locked to this process, as rankd's: the
		// stores' writes take turns in one lane (the games of the next
		// batch are stored beside this one's rating, rateAll).
		sopts = append(sopts, app.SoleWriter())
	}
	stores, err := app.OpenStores(ctx, m.DB, r.Client, sopts...)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl import:", err)
		return exitUsage
	}
	if err := m.TuneIndexes(); err != nil { // the collections OpenStores made
		fmt.Fprintln(stderr, "rankctl import:", err)
		return exitUsage
	}
	a, err := app.New(stores, app.Config{Placement: *placement}, nil, log, nil)
	if err != nil {
		fmt.Fprintln(stderr, "rankctl import:", err)
		return exitUsage
	}
	defer a.Stop() // what the stores deferred, before the database closes
	// What a crash left of operations (an earlier import's included).
	if _, err := a.Ratings.Recover(ctx); err != nil {
		fmt.Fprintln(stderr, "rankctl import: recover:", err)
		return exitUsage
	}
	arch := a.Intake.Archive(intake.ArchiveOptions{CreatePlayers: *create, Trusted: *trusted})
	prog := newProgress(stderr, *quiet, len(gs))
	done, err := rateAll(ctx, arch, gs, *batch, func(n int, out []intake.ArchiveOutcome) {
		for _, o := range out {
			switch o.Status {
			case intake.ArchiveRated:
				sum.Rated++
			case intake.ArchiveDuplicate:
				sum.Duplicates++
			default:
				sum.Refused = append(sum.Refused, o)
			}
		}
		prog.show(n, sum.Rated)
	})
	if err != nil {
		prog.end()
		fmt.Fprintf(stderr, "rankctl import: stopped after %d of %d games: %v\nrun it again to go on: nothing is rated twice\n", done, len(gs), err)
		return exitUsage
	}
	prog.end()
	if err := arch.Close(ctx); err != nil {
		fmt.Fprintf(stderr, "rankctl import: all %d games done, the leaderboard not brought up to date: %v\nrun it again to finish: nothing is rated twice\n", len(gs), err)
		return exitUsage
	}
	// Close the store before saying anything is done: on the embedded
	// store this is what puts the last commits on disk (importDurability).
	a.Stop()
	_ = r.Close()
	if err := m.Close(ctx); err != nil {
		fmt.Fprintf(stderr, "rankctl import: all %d games done, the store not closed cleanly: %v\nrun it again to be sure: nothing is rated twice\n", len(gs), err)
		return exitUsage
	}
	sum.Created, sum.Bulk, sum.Single = arch.Created, arch.Stats.Bulk, arch.Stats.Single
	if sum.Created == nil {
		sum.Created = []string{}
	}
	if sum.Refused == nil {
		sum.Refused = []intake.ArchiveOutcome{}
	}
	sum.Seconds = time.Since(began).Seconds()
	if sum.Seconds > 0 {
		sum.PerSecond = float64(sum.Read) / sum.Seconds
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(sum)
	} else {
		for _, o := range sum.Refused {
			fmt.Fprintf(stdout, "%s: refused: %s: %s\n", o.Source, o.Code, o.Reason)
		}
		// The games read add up: rated, duplicates and refused games; an
		// unreadable file is counted as a file, not as a game.
		fmt.Fprintf(stdout, "read %d games from %d files (%d unreadable): %d rated, %d duplicates, %d refused; %d players created; %.1f s, %.0f games/s\n",
			sum.Read, sum.Files, sum.Unreadable, sum.Rated, sum.Duplicates, len(sum.Refused)-sum.Unreadable, len(sum.Created), sum.Seconds, sum.PerSecond)
	}
	if len(sum.Refused) > 0 {
		return exitNo
	}
	return exitOK
}

// rateAll rates the archive's games batch after batch, in order, and
// hands each batch's outcomes to each with the games done so far. The
// next batch is judged and hashed (Archive.Prepare) and its games stored
// (Archive.Store) on a goroutine of its own while the current one is
// rated (Archive.Rate): the store's work takes one core, the judging
// would otherwise wait for it, and the store has the games' writes to do
// while the rating encodes its own. That goroutine drops each game's
// record from gs once its batch is prepared (gs is spent), so the heap
// the collector marks shrinks as the import goes. On an error it waits
// for that goroutine before it returns, so nothing uses the store after.
// Measured: docs/benchmarks.md, stop 34.
func rateAll(ctx context.Context, arch *intake.Archive, gs []intake.ArchiveGame, size int, each func(done int, out []intake.ArchiveOutcome)) (int, error) {
	type prepared struct {
		p   *intake.Prepared
		n   int
		err error
	}
	pctx, cancel := context.WithCancel(ctx)
	ready := make(chan prepared) // unbuffered: one batch ahead, no more
	go func() {
		defer close(ready)
		for i := 0; i < len(gs); i += size {
			part := gs[i:min(i+size, len(gs))]
			p, err := arch.Prepare(pctx, part)
			// The prepared batch holds what it needs: drop the records,
			// so the heap the collector marks shrinks as the import goes.
			clear(part)
			if err == nil {
				err = arch.Store(pctx, p)
			}
			select {
			case ready <- prepared{p, len(part), err}:
			case <-pctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	stop := func() {
		cancel()
		for range ready {
		}
	}
	defer stop()
	done := 0
	for r := range ready {
		if r.err != nil {
			return done, r.err
		}
		out, err := arch.Rate(ctx, r.p)
		if err != nil {
			return done, err
		}
		done += r.n
		each(done, out)
	}
	return done, nil
}

// importDurability is decided: the embedded store syncs an import's
// commits at its log's checkpoints and at close, not each one. The import
// is resumable (run again, it redoes what is missing and doubles nothing),
// so a machine that stops mid-import and takes its last commits back
// leaves what an earlier stop would have; a process that stops loses
// nothing; and the summary comes only after the store is closed, which
// checkpoints and syncs the whole log. Measured on 100,000 games on the
// quiet machine: 1,691–1,705 → about 1,960 games a second, the same CPU.
const importDurability = embedded.SyncAtCheckpoint

// importGCPercent is the garbage collector's target during an import
// (unless $GOGC says otherwise). Its heap is mostly the archive's
// records, read whole to be sorted and live to the end, which Go's
// default (100) marks again each time the store's short-lived garbage
// doubles the heap. Measured on 20,000 games (3 runs each, median CPU):
// 100: 24.5 s, 200: 22.0 s (peak RSS 230 → 330 MB), 400: 21.8 s (470 MB).
const importGCPercent = 200

// importGC sets the collector's target for an import and returns what
// puts the previous one back.
func importGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(importGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// readArchive reads every game of the files; an unreadable file is
// refused whole.
func readArchive(paths []string, sum *importSummary) ([]intake.ArchiveGame, []intake.ArchiveOutcome) {
	var gs []intake.ArchiveGame
	var refused []intake.ArchiveOutcome
	for _, p := range paths {
		sum.Files++
		recs, err := loadRecords(p)
		if err != nil {
			sum.Unreadable++
			refused = append(refused, intake.ArchiveOutcome{Source: p, Status: intake.ArchiveRefused, Code: intake.RefusalCode(err), Reason: err.Error()})
			if refused[len(refused)-1].Code == "" {
				refused[len(refused)-1].Code = "unreadable"
			}
			continue
		}
		var mtime time.Time
		if info, err := os.Stat(p); err == nil {
			mtime = info.ModTime()
		}
		for _, l := range recs {
			sum.Read++
			g := intake.ArchiveGame{Source: l.name, Record: l.rec, At: mtime}
			if !l.rec.PlayedAt.IsZero() {
				g.At, g.Dated = l.rec.PlayedAt, true
			}
			gs = append(gs, g)
		}
	}
	return gs, refused
}

// progress draws one line on stderr: on a terminal rewritten in place,
// elsewhere a line every few seconds.
type progress struct {
	w     io.Writer
	off   bool
	tty   bool
	total int
	began time.Time
	last  time.Time
}

func newProgress(w io.Writer, quiet bool, total int) *progress {
	p := &progress{w: w, off: quiet, total: total, began: time.Now()}
	if f, ok := w.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) show(done, rated int) {
	if p.off {
		return
	}
	now := time.Now()
	every := 5 * time.Second
	if p.tty {
		every = 200 * time.Millisecond
	}
	if done < p.total && now.Sub(p.last) < every {
		return
	}
	p.last = now
	pct := 100.0
	if p.total > 0 {
		pct = 100 * float64(done) / float64(p.total)
	}
	rate := float64(done) / max(now.Sub(p.began).Seconds(), 1e-3)
	bar := make([]byte, 20)
	for i := range bar {
		bar[i] = '.'
		if float64(i) < pct/5 {
			bar[i] = '#'
		}
	}
	line := fmt.Sprintf("import [%s] %d/%d games (%.0f%%), %d rated, %.0f games/s", bar, done, p.total, pct, rated, rate)
	if p.tty {
		fmt.Fprintf(p.w, "\r%s", line)
	} else {
		fmt.Fprintln(p.w, line)
	}
}

func (p *progress) end() {
	if !p.off && p.tty {
		fmt.Fprintln(p.w)
	}
}
