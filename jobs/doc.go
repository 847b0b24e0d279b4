// Package jobs runs scheduled work (promotion exams, expiry, integrity
// checks) on robfig/cron schedules, each firing once across all replicas.
//
// A Job has a name, a cron expression (five fields, "@daily"-style names,
// and a CRON_TZ=Zone prefix; no zone means UTC) and a Run function. cron
// parses the expression and computes the firings; the Runner waits for
// them on an injected Clock (cron's own scheduler reads the wall clock and
// does not tell a job its scheduled time, which is the idempotency key).
//
// Once across replicas: a firing's key is the job name and its scheduled
// time ("exams@2026-03-07T11:00:00Z"), or "name@run:ID" for an on-demand
// RunNow. A replica runs a firing only after taking its lease (Leases: a
// SET NX PX in Redis, see jobs/jobsredis), renews the lease while the job
// runs, and on success marks the key done, so a firing that completed
// never runs again. A holder that dies stops renewing; its firing stays
// in the pending list and the next sweep of any replica (every
// Options.SweepEvery, and at start) takes it over and runs it again with
// the same Firing. A failed run is retried by the sweeps up to
// Options.MaxAttempts, then given up and marked failed. A scheduled firing
// whose lease could not be taken (Redis down) is tried again, from
// Options.RetryEvery doubling, until the job's next firing is due; a
// firing that finished is also kept in the document store (Options.Runs,
// jobs/jobsdb), so a Redis that lost its data never runs it twice.
//
// The contract for Run, which this package cannot enforce:
//   - Idempotent and resumable: a firing may be run again after a crash at
//     any point, even while a holder that lost its lease is still finishing.
//     Every step must be safe to repeat (state kept in the stores, steps
//     keyed by the firing or by the work item) so that a rerun completes
//     what the dead run left and repeats nothing.
//   - Deterministic in the firing: use f.At, not the clock, as "now", so a
//     resumed run does the same work the first one started.
//   - Respect ctx: it is cancelled when the replica stops or loses the
//     lease; return promptly.
//   - Catch up itself: a firing that fell while no replica ran is not
//     replayed, so a job that must not miss work (opening exam sessions)
//     looks for everything due up to f.At, not only what f.At names.
//
// It is the only package that imports cron (Calendar is the cron reading
// that exams asks for through its port). It must not import gin, the Mongo
// driver or any domain package: internal/app wires domain services into
// Jobs.
package jobs
