package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"sync"
	"time"
)

// A Job is named work run at the firings of its cron Spec, or only on
// demand when Spec is empty. Run must be idempotent and resumable: see the
// package doc.
type Job struct {
	Name string // [a-z0-9][a-z0-9._-]*, at most 63 characters
	Spec string // cron expression (CRON_TZ= allowed); "" for on-demand only
	Run  func(ctx context.Context, f Firing) error
}

// Clock tells the runner the time and waits; tests inject a fake one.
// It decides when firings are due. Lease lifetimes are Redis' own real
// time, so renewing and sweeping for dead holders use real timers.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// SystemClock is the real clock.
var SystemClock Clock = systemClock{}

// Defaults of Options, decided here.
const (
	DefaultLeaseTTL    = 30 * time.Second
	DefaultMaxAttempts = 3
	DefaultRetention   = 7 * 24 * time.Hour // how long a done marker stops a firing from running again
	// DefaultRetryEvery: a firing whose store could not be reached (Redis
	// down) is tried again after this, doubling up to a minute, until the
	// job's next firing is due (issue 11: it was lost).
	DefaultRetryEvery = time.Second
	maxRetryEvery     = time.Minute
	sweepLimit        = 100 // pending firings looked at per sweep
)

// Options tune a Runner; the zero value gives the defaults.
type Options struct {
	Clock       Clock         // default SystemClock
	Owner       string        // this replica's lease token; default host-pid-random
	LeaseTTL    time.Duration // a dead holder's firing is taken over after this; default 30s
	SweepEvery  time.Duration // how often to look for firings whose holder died; default LeaseTTL
	MaxAttempts int           // failed runs of one firing before it is given up; default 3
	Retention   time.Duration // done markers are kept this long; default 7 days
	RetryEvery  time.Duration // first wait before a firing the store refused is tried again; default 1s
	// Runs keeps finished firings in the document store, so a finished
	// firing never runs again even when Redis lost its done markers; nil:
	// Leases alone decide.
	Runs   Runs
	Logger *slog.Logger // default discards
}

// ErrLeaseLost is a Report's error when the runner lost a firing's lease
// while running it (it could not renew in time); whoever took it over
// finishes the firing.
var ErrLeaseLost = errors.New("lease lost while running")

// Report says what became of one firing.
type Report struct {
	Firing Firing
	Claim  Claim // Taken: this runner ran it; Held or Done: it did not
	Err    error // the job's error when Taken (nil on success)
}

// Runner runs registered jobs at their firings, each firing once across
// every Runner sharing the same Leases.
type Runner struct {
	leases Leases
	opt    Options

	mu   sync.Mutex
	jobs map[string]*entry
	wg   sync.WaitGroup
}

type entry struct {
	job   Job
	sched *Schedule // nil for on-demand only
}

// New returns a Runner keeping its leases in leases.
func New(leases Leases, opt Options) *Runner {
	if opt.Clock == nil {
		opt.Clock = SystemClock
	}
	if opt.Owner == "" {
		host, _ := os.Hostname()
		opt.Owner = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), randomID())
	}
	if opt.LeaseTTL <= 0 {
		opt.LeaseTTL = DefaultLeaseTTL
	}
	if opt.SweepEvery <= 0 {
		opt.SweepEvery = opt.LeaseTTL
	}
	if opt.MaxAttempts <= 0 {
		opt.MaxAttempts = DefaultMaxAttempts
	}
	if opt.Retention <= 0 {
		opt.Retention = DefaultRetention
	}
	if opt.RetryEvery <= 0 {
		opt.RetryEvery = DefaultRetryEvery
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	return &Runner{leases: leases, opt: opt, jobs: map[string]*entry{}}
}

func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Add registers a job. It must be called before Run.
func (r *Runner) Add(j Job) error {
	if !validName.MatchString(j.Name) {
		return fmt.Errorf("%w: name %q: want [a-z0-9][a-z0-9._-]*, at most 63 characters", ErrBadJob, j.Name)
	}
	if j.Run == nil {
		return fmt.Errorf("%w: %s has no Run", ErrBadJob, j.Name)
	}
	e := &entry{job: j}
	if j.Spec != "" {
		s, err := ParseSpec(j.Spec)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrBadJob, j.Name, err)
		}
		e.sched = &s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.jobs[j.Name]; dup {
		return fmt.Errorf("%w: %s added twice", ErrBadJob, j.Name)
	}
	r.jobs[j.Name] = e
	return nil
}

// JobInfo describes a registered job.
type JobInfo struct {
	Name string
	Spec string
	Next time.Time // next scheduled firing after now; zero for on-demand only
}

// Jobs lists the registered jobs by name.
func (r *Runner) Jobs() []JobInfo {
	now := r.opt.Clock.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]JobInfo, 0, len(r.jobs))
	for _, e := range r.jobs {
		info := JobInfo{Name: e.job.Name, Spec: e.job.Spec}
		if e.sched != nil {
			info.Next = e.sched.Next(now).UTC()
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Name < out[k].Name })
	return out
}

func (r *Runner) lookup(name string) (*entry, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.jobs[name]
	if !ok {
		return nil, fmt.Errorf("jobs: %w: %q", ErrUnknownJob, name)
	}
	return e, nil
}

// Run fires the scheduled jobs until ctx ends, and every SweepEvery takes
// over firings whose holder died (also once at start, which resumes what a
// crash of this or another replica left half done). It returns after the
// firings it started have returned.
func (r *Runner) Run(ctx context.Context) error {
	r.mu.Lock()
	var scheduled []*entry
	for _, e := range r.jobs {
		if e.sched != nil {
			scheduled = append(scheduled, e)
		}
	}
	r.mu.Unlock()
	var loops sync.WaitGroup
	for _, e := range scheduled {
		loops.Go(func() { r.loop(ctx, e) })
	}
	loops.Go(func() { r.sweepLoop(ctx) })
	loops.Wait()
	r.wg.Wait()
	return nil
}

// loop waits for each firing of e on the clock and starts it.
func (r *Runner) loop(ctx context.Context, e *entry) {
	last := r.opt.Clock.Now()
	for {
		next := e.sched.Next(last)
		if next.IsZero() {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-r.opt.Clock.After(next.Sub(r.opt.Clock.Now())):
		}
		last = next // never Next of a clock read that could lag next: one firing, one key
		f := Firing{Job: e.job.Name, At: next.UTC()}
		r.wg.Go(func() { r.fireRetrying(ctx, e, f) })
	}
}

// fireRetrying fires f, and while the store cannot be asked (an outage:
// the lease could not be taken or the outcome not recorded) tries again,
// in real time like the leases, until the job's next firing is due; the
// next firing's own run catches up from there (see the package doc).
func (r *Runner) fireRetrying(ctx context.Context, e *entry, f Firing) {
	until := e.sched.Next(f.At)
	wait := r.opt.RetryEvery
	for {
		rep, err := r.fire(ctx, e, f)
		r.logReport(rep, err)
		if err == nil || ctx.Err() != nil {
			return
		}
		if !until.IsZero() && !r.opt.Clock.Now().Add(wait).Before(until) {
			r.opt.Logger.Error("jobs: firing given up: its store stayed unreachable until the next firing", "key", f.Key(), "err", err)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, maxRetryEvery)
	}
}

func (r *Runner) sweepLoop(ctx context.Context) {
	t := time.NewTicker(r.opt.SweepEvery)
	defer t.Stop()
	for {
		if _, err := r.Resume(ctx); err != nil && ctx.Err() == nil {
			r.opt.Logger.Warn("jobs: sweep", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Resume takes over the pending firings whose holder is gone (their lease
// expired or was released) and runs them; it returns the reports of the
// ones it ran. Firings of jobs this runner does not know are left alone.
func (r *Runner) Resume(ctx context.Context) ([]Report, error) {
	pending, err := r.leases.Pending(ctx, sweepLimit)
	if err != nil {
		return nil, fmt.Errorf("jobs: pending firings: %w", err)
	}
	var (
		mu   sync.Mutex
		ran  []Report
		errs []error
		wg   sync.WaitGroup
	)
	for _, f := range pending {
		e, err := r.lookup(f.Job)
		if err != nil {
			continue
		}
		wg.Go(func() {
			rep, err := r.fire(ctx, e, f)
			r.logReport(rep, err)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
			} else if rep.Claim == Taken {
				ran = append(ran, rep)
			}
		})
	}
	wg.Wait()
	sort.Slice(ran, func(i, k int) bool { return ran[i].Firing.Key() < ran[k].Firing.Key() })
	return ran, errors.Join(errs...)
}

// Fire runs job name's firing scheduled at at, unless it ran already or
// runs elsewhere. The scheduler calls it at each firing; operations and
// tests may call it for a given time.
func (r *Runner) Fire(ctx context.Context, name string, at time.Time) (Report, error) {
	e, err := r.lookup(name)
	if err != nil {
		return Report{}, err
	}
	return r.fire(ctx, e, Firing{Job: name, At: at.UTC().Truncate(time.Second)})
}

// RunNow runs job name on demand, now, under the firing key of runID (a
// fresh one when empty): the same runID runs once, so a retried request
// passes the same id. It returns when the run ends.
func (r *Runner) RunNow(ctx context.Context, name, runID string) (Report, error) {
	e, err := r.lookup(name)
	if err != nil {
		return Report{}, err
	}
	if runID == "" {
		runID = randomID()
	}
	if !validRunID.MatchString(runID) {
		return Report{}, fmt.Errorf("jobs: %w: run id %q: want [A-Za-z0-9._-], 1 to 100 characters", ErrBadJob, runID)
	}
	f := Firing{Job: name, At: r.opt.Clock.Now().UTC().Truncate(time.Second), RunID: runID}
	return r.fire(ctx, e, f)
}

// fire takes f's lease, runs the job while renewing it, and settles the
// firing: done on success, an attempt counted on failure, released when
// the runner is stopping. The error is the store's; the job's is in the
// Report.
func (r *Runner) fire(ctx context.Context, e *entry, f Firing) (Report, error) {
	rep := Report{Firing: f}
	key, owner, ttl := f.Key(), r.opt.Owner, r.opt.LeaseTTL
	if r.opt.Runs != nil {
		finished, err := r.opt.Runs.Finished(ctx, key)
		if err != nil {
			return rep, fmt.Errorf("jobs: read run %s: %w", key, err)
		}
		if finished {
			rep.Claim = Done
			return rep, nil
		}
	}
	claim, err := r.leases.Take(ctx, f, owner, ttl)
	if err != nil {
		return rep, fmt.Errorf("jobs: take %s: %w", key, err)
	}
	rep.Claim = claim
	if claim != Taken {
		return rep, nil
	}

	runCtx, cancel := context.WithCancelCause(ctx)
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		r.renew(runCtx, cancel, key)
	}()
	rep.Err = runSafely(runCtx, e.job, f)
	lost := errors.Is(context.Cause(runCtx), ErrLeaseLost)
	cancel(nil)
	<-renewed

	// Settle even when ctx is cancelled: the outcome must reach the store.
	sctx, done := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer done()
	switch {
	case lost:
		rep.Err = errors.Join(ErrLeaseLost, rep.Err)
		return rep, nil
	case rep.Err == nil:
		if r.opt.Runs != nil {
			if err = r.opt.Runs.MarkFinished(sctx, key, r.opt.Clock.Now()); err != nil {
				break // the lease expires and a sweep runs it again: idempotent
			}
		}
		err = r.leases.Finish(sctx, key, owner, r.opt.Retention)
	case ctx.Err() != nil:
		err = r.leases.Release(sctx, key, owner)
	default:
		_, err = r.leases.Fail(sctx, key, owner, rep.Err.Error(), r.opt.MaxAttempts, r.opt.Retention)
	}
	if err != nil {
		return rep, fmt.Errorf("jobs: settle %s: %w", key, err)
	}
	return rep, nil
}

// renew keeps key's lease alive every third of its lifetime until ctx ends,
// and cancels the run with ErrLeaseLost once it no longer holds it.
func (r *Runner) renew(ctx context.Context, cancel context.CancelCauseFunc, key string) {
	t := time.NewTicker(r.opt.LeaseTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ok, err := r.leases.Renew(ctx, key, r.opt.Owner, r.opt.LeaseTTL)
		switch {
		case err != nil && ctx.Err() == nil:
			r.opt.Logger.Warn("jobs: renew lease", "key", key, "err", err) // next tick retries
		case err == nil && !ok:
			cancel(ErrLeaseLost)
			return
		}
	}
}

// runSafely runs the job, turning a panic into an error so the firing is
// settled as a failure instead of taking the replica down.
func runSafely(ctx context.Context, j Job, f Firing) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("jobs: %s panicked: %v", j.Name, p)
		}
	}()
	return j.Run(ctx, f)
}

func (r *Runner) logReport(rep Report, err error) {
	switch {
	case err != nil:
		r.opt.Logger.Error("jobs: firing", "key", rep.Firing.Key(), "err", err)
	case rep.Claim == Taken && rep.Err != nil:
		r.opt.Logger.Warn("jobs: firing failed", "key", rep.Firing.Key(), "err", rep.Err)
	case rep.Claim == Taken:
		r.opt.Logger.Info("jobs: firing done", "key", rep.Firing.Key())
	}
}
