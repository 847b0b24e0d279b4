package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/weiqi-platform/rank/cmd/internal/wire"
	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
	"github.com/weiqi-platform/rank/schools"
)

func init() {
	commands["schoolbench"] = command{summary: "measure class tables, progress series and school CSV on a seeded store", run: runSchoolBench}
}

const schoolBenchUsage = `usage: rankctl schoolbench [flags]

Seeds a store (once: a data dir already seeded is reused) with a school
of --students students in --classes classes, one of them --big strong,
and --entries ledger entries over --months months (exam registrations
and grades for some), then measures through the schools service, in this
process, on the store rankd would use (the embedded FerretDB under
--data-dir with rankd's _id indexes, or --mongo-uri):
  - the class table of the big class,
  - its weekly progress series over the last 12 months,
  - the school's table as CSV (every student),
each first cold (nothing read yet in this process), then --runs times;
p50/p95/max, the store reads each made, and FerretDB's plan of the reads
by _id. Run it twice on one data dir for the cold figures after a
restart without seeding again.

flags:
`

func runSchoolBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("rankctl schoolbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, schoolBenchUsage); fs.PrintDefaults() }
	var c sbConfig
	fs.StringVar(&c.dataDir, "data-dir", "./schoolbench-data", "data dir of the embedded store")
	fs.StringVar(&c.mongoURI, "mongo-uri", "", "MongoDB instead of the embedded store")
	fs.IntVar(&c.students, "students", 5000, "students of the school")
	fs.IntVar(&c.classes, "classes", 200, "classes of the school")
	fs.IntVar(&c.big, "big", 40, "students of the measured class")
	fs.IntVar(&c.entries, "entries", 500_000, "ledger entries, spread over the students")
	fs.IntVar(&c.months, "months", 18, "months the entries span, up to now")
	fs.IntVar(&c.runs, "runs", 30, "warm runs of the table and the series")
	fs.IntVar(&c.csvRuns, "csv-runs", 5, "warm runs of the school CSV")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the generated ledger")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if c.students < c.big || c.classes < 2 || c.big < 1 || c.entries < c.students || c.runs < 1 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "rankctl schoolbench: need students ≥ big ≥ 1, classes ≥ 2, entries ≥ students, runs ≥ 1")
		return exitUsage
	}
	if err := schoolBench(ctx, c, stdout); err != nil {
		fmt.Fprintln(stderr, "rankctl schoolbench:", err)
		return exitNo
	}
	return exitOK
}

type sbConfig struct {
	dataDir, mongoURI                                      string
	students, classes, big, entries, months, runs, csvRuns int
	seed                                                   uint64
}

// counting counts the store reads the schools service causes.
type counting struct {
	rating.BatchStore
	latest, bulk, ledgerCalls, entries atomic.Int64
}

func (c *counting) LatestOf(ctx context.Context, us []string) ([]rating.PlayerState, error) {
	c.bulk.Add(1)
	return c.BatchStore.LatestOf(ctx, us)
}

func (c *counting) Latest(ctx context.Context, u string) (rating.PlayerState, error) {
	c.latest.Add(1)
	return c.BatchStore.Latest(ctx, u)
}

func (c *counting) Ledger(ctx context.Context, u string, before int64, limit int) ([]rating.LedgerEntry, error) {
	c.ledgerCalls.Add(1)
	es, err := c.BatchStore.Ledger(ctx, u, before, limit)
	c.entries.Add(int64(len(es)))
	return es, err
}

type countingExams struct {
	exams.Store
	queries atomic.Int64
}

func (c *countingExams) RegistrationsOf(ctx context.Context, ps []string) ([]exams.Registration, error) {
	c.queries.Add(1)
	return c.Store.RegistrationsOf(ctx, ps)
}

func (c *countingExams) ResultsOf(ctx context.Context, ps []string) ([]exams.Result, error) {
	c.queries.Add(1)
	return c.Store.ResultsOf(ctx, ps)
}

type countingSchools struct {
	schools.Store
	reads atomic.Int64
}

func (c *countingSchools) Class(ctx context.Context, id string) (schools.Class, error) {
	c.reads.Add(1)
	return c.Store.Class(ctx, id)
}

func (c *countingSchools) School(ctx context.Context, id string) (schools.School, error) {
	c.reads.Add(1)
	return c.Store.School(ctx, id)
}

func (c *countingSchools) Classes(ctx context.Context, q schools.ClassQuery) ([]schools.Class, error) {
	c.reads.Add(1)
	return c.Store.Classes(ctx, q)
}

const sbSchool = "bench"

func sbStudent(i int) string { return fmt.Sprintf("bench-s%05d", i) }

func schoolBench(ctx context.Context, c sbConfig, out io.Writer) error {
	log := slog.New(slog.DiscardHandler)
	m, err := wire.OpenMongo(ctx, c.mongoURI, "rank", c.dataDir, log)
	if err != nil {
		return err
	}
	defer func() { _ = m.Close(context.Background()) }()
	r, err := wire.OpenRedis(ctx, "", log)
	if err != nil {
		return err
	}
	defer func() { _ = r.Close() }()
	stores, err := app.OpenStores(ctx, m.DB, r.Client)
	if err != nil {
		return err
	}
	if err := m.TuneIndexes(); err != nil { // the collections OpenStores made
		return err
	}
	bs, ok := stores.Ratings.(rating.BatchStore)
	if !ok {
		return errors.New("the rating store writes no batches")
	}
	cr, ce, cs := &counting{BatchStore: bs}, &countingExams{Store: stores.Exams}, &countingSchools{Store: stores.Schools}
	stores.Ratings, stores.Exams, stores.Schools = cr, ce, cs
	a, err := app.New(stores, app.Config{}, nil, log, nil)
	if err != nil {
		return err
	}
	defer a.Stop() // what the stores deferred, before the database closes
	admin := players.Principal{Username: "bench-root", Role: players.RoleAdmin}
	teacher := players.Principal{Username: "bench-tea", Role: players.RoleTeacher}
	head := players.Principal{Username: "bench-head", Role: players.RoleTeacher}
	if _, err := stores.Schools.School(ctx, sbSchool); errors.Is(err, schools.ErrNotFound) {
		start := time.Now()
		if err := seedSchool(ctx, c, a, stores, bs, admin, head, teacher, out); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		fmt.Fprintf(out, "seeded in %s\n", time.Since(start).Round(time.Second))
	} else if err != nil {
		return err
	} else {
		fmt.Fprintln(out, "store already seeded: measuring after a restart")
	}
	cls, err := a.Schools.Classes(ctx, head, sbSchool)
	if err != nil {
		return err
	}
	var big schools.Class
	total := 0
	for _, x := range cls {
		total += len(x.Students)
		if len(x.Students) > len(big.Students) {
			big = x
		}
	}
	fmt.Fprintf(out, "school %s: %d classes, %d students; the measured class %s has %d\n", sbSchool, len(cls), total, big.ID, len(big.Students))

	loc, _ := time.LoadLocation("Asia/Shanghai")
	today := time.Now().In(loc)
	yearAgo := today.AddDate(-1, 0, 0)
	rg := schools.ProgressQuery{From: yearAgo.Format(schools.DateLayout), To: today.Format(schools.DateLayout), Step: schools.StepWeek}
	reads := func() string {
		return fmt.Sprintf("%d state reads, %d bulk state queries, %d ledger reads returning %d entries, %d school/class reads, %d exam queries",
			cr.latest.Load(), cr.bulk.Load(), cr.ledgerCalls.Load(), cr.entries.Load(), cs.reads.Load(), ce.queries.Load())
	}
	reset := func() {
		cr.latest.Store(0)
		cr.bulk.Store(0)
		cr.ledgerCalls.Store(0)
		cr.entries.Store(0)
		cs.reads.Store(0)
		ce.queries.Store(0)
	}
	measure := func(name string, runs int, f func() (int, error)) error {
		reset()
		t0 := time.Now()
		n, err := f()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(out, "%s, cold: %s (%d rows; %s)\n", name, time.Since(t0).Round(100*time.Microsecond), n, reads())
		var ds []time.Duration
		reset()
		for range runs {
			t0 := time.Now()
			if _, err := f(); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			ds = append(ds, time.Since(t0))
		}
		slices.Sort(ds)
		p := func(q float64) time.Duration {
			return ds[min(len(ds)-1, int(q*float64(len(ds))))].Round(100 * time.Microsecond)
		}
		fmt.Fprintf(out, "%s, %d runs: p50 %s, p95 %s, max %s (per run: %s)\n", name, runs, p(0.5), p(0.95), ds[len(ds)-1].Round(100*time.Microsecond), perRun(reads(), runs))
		return nil
	}
	// What one read by _id costs on this machine now: the unit the
	// figures below are made of.
	t0 := time.Now()
	for i := range 200 {
		if _, err := stores.Ratings.Latest(ctx, sbStudent(i*c.students/200)); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "one read by _id (a player's recorded state): %s on average over 200\n", (time.Since(t0) / 200).Round(10*time.Microsecond))
	if err := measure(fmt.Sprintf("class table (%d students)", len(big.Students)), c.runs, func() (int, error) {
		t, err := a.Schools.Table(ctx, teacher, big.ID, schools.TableQuery{Sort: schools.ColScore, Desc: true, Limit: 50})
		return len(t.Rows), err
	}); err != nil {
		return err
	}
	if err := measure("weekly progress over 12 months", c.runs, func() (int, error) {
		p, err := a.Schools.Progress(ctx, teacher, big.ID, rg)
		n := 0
		for _, s := range p.Series {
			n += len(s.Points)
		}
		return n, err
	}); err != nil {
		return err
	}
	if err := measure("school table as CSV", c.csvRuns, func() (int, error) {
		t, err := a.Schools.SchoolTable(ctx, head, sbSchool, schools.TableQuery{})
		if err != nil {
			return 0, err
		}
		var w countWriter
		return len(t.Rows), schools.WriteTableCSV(&w, t, schools.LangZH)
	}); err != nil {
		return err
	}
	return explainReads(ctx, m, big.ID, out)
}

// perRun divides the counts in a reads line by runs.
func perRun(line string, runs int) string {
	fs := strings.Fields(line)
	for i, f := range fs {
		var n int
		if _, err := fmt.Sscanf(f, "%d", &n); err == nil && fmt.Sprint(n) == f {
			fs[i] = strconv.FormatFloat(float64(n)/float64(runs), 'f', -1, 64)
		}
	}
	return strings.Join(fs, " ")
}

type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// explainReads prints the store's plan of the reads by _id the table
// makes: a player's state, a ledger entry, a class; and of a query on the
// class heads.
func explainReads(ctx context.Context, m *wire.Mongo, classID string, out io.Writer) error {
	for _, q := range []struct {
		coll   string
		filter bson.D
	}{
		{"rating_players", bson.D{{Key: "_id", Value: sbStudent(0)}}},
		{ratingdb.Log, bson.D{{Key: "_id", Value: ratingdb.EntryID(sbStudent(0), 1)}}},
		{"class_heads", bson.D{{Key: "_id", Value: classID}}},
		{"class_heads", bson.D{{Key: "school_id", Value: sbSchool}}},
	} {
		var res bson.M
		err := m.DB.RunCommand(ctx, bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: q.coll}, {Key: "filter", Value: q.filter}}}}).Decode(&res)
		if err != nil {
			return fmt.Errorf("explain: %w", err)
		}
		plan := fmt.Sprint(res["queryPlanner"])
		fmt.Fprintf(out, "explain find %s %v: filterPushdown=%v plan=%s\n", q.coll, q.filter, res["filterPushdown"], plan)
	}
	return nil
}

// seedSchool writes the school, its classes, accounts, ledgers and some
// exam registrations and grades, in bulk through the stores (the ledger
// as valid hash chains).
func seedSchool(ctx context.Context, c sbConfig, a *app.App, stores app.Stores, bs rating.BatchStore, admin, head, teacher players.Principal, out io.Writer) error {
	now := time.Now().UTC().Truncate(time.Millisecond)
	for _, t := range []players.Principal{head, teacher} {
		if err := stores.Accounts.CreateAccount(ctx, players.Account{Username: t.Username, Role: players.RoleTeacher, PasswordHash: "x", CreatedAt: now}); err != nil && !errors.Is(err, players.ErrUsernameTaken) {
			return err
		}
	}
	if err := sbParallel(8, c.students, func(i int) error {
		err := stores.Accounts.CreateAccount(ctx, players.Account{Username: sbStudent(i), Role: players.RolePlayer, PasswordHash: "x", CreatedAt: now})
		if errors.Is(err, players.ErrUsernameTaken) {
			return nil
		}
		return err
	}); err != nil {
		return err
	}
	fmt.Fprintf(out, "seed: %d accounts\n", c.students)
	// Ledgers: entries per student, spread over the months up to now.
	per := c.entries / c.students
	span := time.Duration(c.months) * 30 * 24 * time.Hour
	var written atomic.Int64
	if err := sbParallel(4, c.students, func(i int) error {
		rnd := rand.New(rand.NewPCG(c.seed, uint64(i)))
		st, es := benchLedger(sbStudent(i), per, now.Add(-span), span, rnd, c.students)
		for lo := 0; lo < len(es); lo += 256 {
			if err := bs.AppendEntries(ctx, es[lo:min(lo+256, len(es))]); err != nil {
				return err
			}
		}
		if n := written.Add(int64(len(es))); n/100_000 != (n-int64(len(es)))/100_000 {
			fmt.Fprintf(out, "seed: %d ledger entries\n", n)
		}
		return bs.Commit(ctx, st)
	}); err != nil {
		return err
	}
	sch, err := a.Schools.CreateSchool(ctx, admin, schools.SchoolDraft{ID: sbSchool, Name: "弈林围棋学校", TimeZone: "Asia/Shanghai", Scale: "chinese", HeadTeachers: []string{head.Username}})
	if err != nil {
		return err
	}
	if _, err := a.Schools.AddTeacher(ctx, head, sch.ID, schools.TeacherDraft{Username: teacher.Username}); err != nil {
		return err
	}
	// The big class first, then the rest shared out.
	next := 0
	for k := range c.classes {
		size := c.big
		if k > 0 {
			size = (c.students - c.big) / (c.classes - 1)
			if k <= (c.students-c.big)%(c.classes-1) {
				size++
			}
		}
		cl, err := a.Schools.CreateClass(ctx, teacher, sch.ID, schools.ClassDraft{Name: fmt.Sprintf("班级 %03d", k)})
		if err != nil {
			return err
		}
		var names []string
		for range size {
			names = append(names, sbStudent(next))
			next++
		}
		if _, err := a.Schools.AddStudents(ctx, teacher, cl.ID, names); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "seed: %d classes\n", c.classes)
	// Exams: a fifth of the students registered for a session, half of
	// those graded.
	at := now.Add(-30 * 24 * time.Hour)
	for i := 0; i < c.students; i += 5 {
		p := sbStudent(i)
		if _, _, err := stores.Exams.AddRegistration(ctx, exams.Registration{ID: "bench-1k@x/" + p, ScheduleID: "bench-1k", SessionID: "bench-1k@x",
			SessionAt: at, Player: p, Role: exams.RoleCandidate, At: at.Add(-time.Hour)}); err != nil {
			return err
		}
		if i%10 == 0 {
			if _, err := stores.Exams.AddResult(ctx, exams.Result{ID: "bench-1k@x/" + p, SessionID: "bench-1k@x", ScheduleID: "bench-1k", Player: p,
				Target: ranks.MustParse("1k"), Tally: exams.Tally{Games: 4, Wins: 2}, WinsNeeded: 3, State: exams.ResultFailed, GradedAt: at.Add(24 * time.Hour)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// benchLedger makes a valid ledger of n entries for one player between
// from and from+span, mostly games, and the state at its head.
func benchLedger(name string, n int, from time.Time, span time.Duration, rnd *rand.Rand, students int) (rating.PlayerState, []rating.LedgerEntry) {
	st := rating.NewPlayer(name)
	st.Glicko = rating.Glicko{Rating: 1500, RD: 120, Volatility: 0.06}
	es := make([]rating.LedgerEntry, 0, n)
	step := span / time.Duration(n)
	for i := range n {
		e := rating.LedgerEntry{Username: name, Seq: int64(i + 1), ScoreBefore: st.Score, RankBefore: st.Rank().String(),
			At: from.Add(time.Duration(i)*step + time.Duration(rnd.Int64N(int64(step)))).UTC().Truncate(time.Millisecond), Prev: st.Head}
		if rnd.IntN(40) == 0 {
			e.Cause, e.CauseID, e.Actor, e.Reason, e.Delta = rating.CauseAdjustment, fmt.Sprintf("adj-%s-%d", name, i), "bench-root", "seeded", rnd.IntN(21)-10
		} else {
			e.Cause, e.CauseID, e.Actor = rating.CauseGame, fmt.Sprintf("g-%s-%d", name, i), "go-server"
			e.Opponent = sbStudent(rnd.IntN(students))
			st.Games++
			switch k := rnd.IntN(50); {
			case k == 0:
				e.Result = rating.ResultDraw
				st.Draws++
			case k < 26:
				e.Result, e.Delta = rating.ResultWin, []int{5, 5, 6, 7, 1, 10}[rnd.IntN(6)]
				st.Wins++
			default:
				e.Result, e.Delta = rating.ResultLoss, -[]int{5, 5, 6, 7, 1, 10}[rnd.IntN(6)]
				st.Losses++
			}
		}
		st.Score += e.Delta
		e.ScoreAfter, e.RankAfter, e.Glicko = st.Score, st.Rank().String(), st.Glicko
		e.Hash = e.ComputeHash()
		st.Seq, st.Head, st.UpdatedAt = e.Seq, e.Hash, e.At
		es = append(es, e)
	}
	return st, es
}

// sbParallel runs f(0…n-1) on w goroutines and returns the first error.
func sbParallel(w, n int, f func(i int) error) error {
	next := make(chan int)
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return first
}
