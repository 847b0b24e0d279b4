package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/gamedb"
	"github.com/weiqi-platform/rank/internal/examports"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobsredis"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/ranks/examdb"
	"github.com/weiqi-platform/rank/ranks/examtest"
	"github.com/weiqi-platform/rank/rating"
)

// auditRig is the exam service, the check-ins and the job runner behind
// the exam and audit routes, on the env's real stores, with a clock the
// tests set (the exam service's, the check-ins' and the runner's).
type auditRig struct {
	db     *mongo.Database
	clock  *examtest.Clock
	exams  *ranks.ExamService
	runner *jobs.Runner
}

// runnerClock is the rig's clock as the job runner's: on-demand runs
// read Now; nothing here waits for a scheduled firing.
type runnerClock struct{ c *examtest.Clock }

func (r runnerClock) Now() time.Time                     { return r.c.Now() }
func (runnerClock) After(time.Duration) <-chan time.Time { return make(chan time.Time) }

// wireAudit fills the deps of the exam and audit routes the way rankd
// wires them.
func wireAudit(t *testing.T, d *api.Deps, db *mongo.Database, rdb redis.UniversalClient, intake *games.Intake, ratings *rating.Service, directory games.Players) *auditRig {
	t.Helper()
	ctx := context.Background()
	gstore, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	presence, err := gamedb.NewPresence(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	estore, err := examdb.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	r := &auditRig{db: db, clock: examtest.NewClock(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))}
	attendance := games.Attendance{Games: gstore, Presence: presence, Now: r.clock.Now}
	r.exams = examports.NewService(examports.Wiring{Store: estore, Intake: intake, Presence: attendance,
		Ratings: ratings, Directory: directory, Clock: r.clock})
	r.runner = jobs.New(jobsredis.New(rdb, ""), jobs.Options{Clock: runnerClock{r.clock}})
	for _, j := range []jobs.Job{
		{Name: "exams", Spec: "* * * * *", Run: func(ctx context.Context, f jobs.Firing) error { return r.exams.Tick(ctx, f.At) }},
		{Name: "verify", Spec: "0 3 * * *", Run: func(ctx context.Context, f jobs.Firing) error {
			_, err := ratings.VerifyAndKeep(ctx, f.Key())
			return err
		}},
	} {
		if err := r.runner.Add(j); err != nil {
			t.Fatal(err)
		}
	}
	d.Exams, d.ExamGameID, d.CheckIns, d.Audit, d.Jobs = r.exams, examports.GameID, attendance, ratings, r.runner
	return r
}
