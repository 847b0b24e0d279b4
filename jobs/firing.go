package jobs

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// A Firing is one run of a job: the one scheduled at At, or an on-demand
// run named by RunID. Its Key is the idempotency key every replica derives
// alike, so a firing is taken, run and marked done once across them.
type Firing struct {
	Job   string
	At    time.Time // scheduled time (UTC, whole seconds); for an on-demand run, when it was asked for
	RunID string    // on-demand runs only
}

// OnDemand reports whether the firing was asked for (RunNow) rather than
// scheduled.
func (f Firing) OnDemand() bool { return f.RunID != "" }

// Key is the firing's idempotency key: "job@2026-03-07T11:00:00Z" for a
// scheduled firing, "job@run:ID" for an on-demand one.
func (f Firing) Key() string {
	if f.RunID != "" {
		return f.Job + "@run:" + f.RunID
	}
	return f.Job + "@" + f.At.UTC().Format(time.RFC3339)
}

// ParseKey is the inverse of Firing.Key, for stores that keep only keys.
// An on-demand key gives a Firing without At.
func ParseKey(key string) (Firing, error) {
	name, rest, ok := strings.Cut(key, "@")
	if !ok || !validName.MatchString(name) {
		return Firing{}, fmt.Errorf("jobs: bad firing key %q", key)
	}
	if id, ok := strings.CutPrefix(rest, "run:"); ok {
		if !validRunID.MatchString(id) {
			return Firing{}, fmt.Errorf("jobs: bad run id in firing key %q", key)
		}
		return Firing{Job: name, RunID: id}, nil
	}
	at, err := time.Parse(time.RFC3339, rest)
	if err != nil {
		return Firing{}, fmt.Errorf("jobs: bad time in firing key %q: %v", key, err)
	}
	return Firing{Job: name, At: at.UTC()}, nil
}

var (
	validName  = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)
	validRunID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
)

// Claim is what Leases.Take found.
type Claim int

const (
	Taken Claim = iota + 1 // the caller holds the lease now and must run the firing
	Held                   // another live holder has it
	Done                   // the firing completed (or gave up) before; never run it again
)

func (c Claim) String() string {
	switch c {
	case Taken:
		return "taken"
	case Held:
		return "held"
	case Done:
		return "done"
	}
	return fmt.Sprintf("Claim(%d)", int(c))
}

// Leases is the port the runner keeps firings in: a lease per firing that
// expires unless renewed, a done marker, a list of firings taken but not
// done (so a dead holder's firing is found and resumed), and a count of
// failed attempts. jobs/jobsredis implements it on Redis. Every method is
// atomic on the store: two replicas calling Take for one key at once get
// one Taken.
type Leases interface {
	// Take claims f for owner for ttl, unless it is done or held by a
	// live lease, and records it as pending.
	Take(ctx context.Context, f Firing, owner string, ttl time.Duration) (Claim, error)
	// Renew extends owner's lease on key by ttl; false when owner no
	// longer holds it.
	Renew(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	// Finish marks key done (kept for retention), drops it from the pending
	// list and releases owner's lease.
	Finish(ctx context.Context, key, owner string, retention time.Duration) error
	// Fail counts a failed attempt and releases owner's lease. Once the
	// count reaches maxAttempts the firing is marked done (failed) with
	// reason and dropped from the pending list; final says so.
	Fail(ctx context.Context, key, owner, reason string, maxAttempts int, retention time.Duration) (final bool, err error)
	// Release gives owner's lease up without counting an attempt (a
	// replica shutting down), leaving the firing pending for another.
	Release(ctx context.Context, key, owner string) error
	// Pending lists up to limit firings taken but not done, oldest first.
	Pending(ctx context.Context, limit int) ([]Firing, error)
}

// ErrUnknownJob is returned for a job name no Add registered.
var ErrUnknownJob = errors.New("unknown job")

// ErrBadJob is returned (wrapped) by Add for a job that cannot be run.
var ErrBadJob = errors.New("bad job")

// Runs is where the runner keeps the firings that finished, in the
// document store (jobs/jobsdb): the done markers in Leases live in Redis,
// and a Redis that lost its data would let a retried admin run (the same
// Idempotency-Key) or a resumed firing run twice. Optional (Options.Runs).
type Runs interface {
	// Finished reports whether key was marked finished.
	Finished(ctx context.Context, key string) (bool, error)
	// MarkFinished records key as finished at at; marking it again is no
	// error and keeps the first time.
	MarkFinished(ctx context.Context, key string, at time.Time) error
}
