package main

import (
	"context"
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/gamedb"
	"github.com/weiqi-platform/rank/internal/examports"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobsredis"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/ranks/examdb"
)

// The scheduled jobs and when they fire, decided. Every replica runs the
// scheduler; each firing runs once across them (jobs.Runner with Redis
// leases), and an admin can run any of them on demand.
const (
	// examsSpec: the exam tick opens due sessions and grades those past
	// their deadline, so a minute is the exams' resolution.
	examsSpec = "* * * * *"
	// expireSpec: pending games and matchmaking tickets whose time is up
	// (Main.Expire).
	expireSpec = "* * * * *"
	// recoverSpec: what a crash left (unfinished rating operations,
	// games stored but not rated) is completed at start and then every
	// five minutes.
	recoverSpec = "*/5 * * * *"
	// verifySpec: the nightly verification of the ledger, at 03:00 UTC.
	verifySpec = "0 3 * * *"
)

// examParts are the exams, check-ins and scheduled jobs of a Main.
type examParts struct {
	// Clock is what the jobs, the exams, check-ins, games intake and
	// ratings read as now; nil is the system clock. Tests set a fake one
	// before Run.
	Clock jobs.Clock
	Exams *ranks.ExamService
	Jobs  *jobs.Runner

	attendance games.Attendance
	stopJobs   context.CancelFunc
	jobsDone   chan struct{}
}

func (m *Main) clock() jobs.Clock {
	if m.Clock == nil {
		return jobs.SystemClock
	}
	return m.Clock
}

// now is the injected clock's time.
func (m *Main) now() time.Time { return m.clock().Now() }

// openExams wires the exam service to its store and to the real ports
// (games intake, check-ins, ratings), then the job runner on Redis.
func (m *Main) openExams(ctx context.Context, directory games.Players) error {
	gstore, err := gamedb.New(ctx, m.mongo.DB)
	if err != nil {
		return err
	}
	presence, err := gamedb.NewPresence(ctx, m.mongo.DB)
	if err != nil {
		return err
	}
	estore, err := examdb.Open(ctx, m.mongo.DB)
	if err != nil {
		return err
	}
	m.attendance = games.Attendance{Games: gstore, Presence: presence, Now: m.now}
	m.Exams = examports.NewService(examports.Wiring{Store: estore, Intake: m.Intake, Presence: m.attendance,
		Ratings: m.Ratings, Directory: directory, Clock: m.clock()})
	m.Jobs = jobs.New(jobsredis.New(m.redis.Client, ""), jobs.Options{Clock: m.clock(), Logger: m.Logger})
	for _, j := range []jobs.Job{
		{Name: "exams", Spec: examsSpec, Run: func(ctx context.Context, f jobs.Firing) error { return m.Exams.Tick(ctx, f.At) }},
		{Name: "expire", Spec: expireSpec, Run: func(ctx context.Context, _ jobs.Firing) error { return m.Expire(ctx) }},
		{Name: "recover", Spec: recoverSpec, Run: func(ctx context.Context, _ jobs.Firing) error { return m.Recover(ctx) }},
		{Name: "verify", Spec: verifySpec, Run: m.verifyJob},
	} {
		if err := m.Jobs.Add(j); err != nil {
			return err
		}
	}
	return nil
}

// verifyJob verifies the whole ledger and keeps the report under the
// firing's key (so a resumed firing keeps one report).
func (m *Main) verifyJob(ctx context.Context, f jobs.Firing) error {
	rep, err := m.Ratings.VerifyAndKeep(ctx, f.Key())
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if !rep.OK() {
		m.Logger.Warn("verification found mismatches", "report", rep.ID, "mismatches", len(rep.Mismatches))
	}
	return nil
}

// startJobs runs the scheduler until stopJobsNow.
func (m *Main) startJobs() {
	ctx, cancel := context.WithCancel(context.Background())
	m.stopJobs, m.jobsDone = cancel, make(chan struct{})
	go func() {
		defer close(m.jobsDone)
		_ = m.Jobs.Run(ctx)
	}()
}

// stopJobsNow stops the scheduler and waits for the firings it started:
// a firing cut short releases its lease, and another replica (or the next
// start) resumes it.
func (m *Main) stopJobsNow() {
	if m.stopJobs == nil {
		return
	}
	m.stopJobs()
	<-m.jobsDone
	m.stopJobs = nil
}
