// Package exams runs promotion exams (platform.md flow 4): an admin's
// Schedule fires by a cron expression; each firing opens a Session whose
// registered candidates (and volunteer examiners) are paired into exam
// games of similar level with balanced colours (PairEntrants); the games
// are pending games of the games intake, played and submitted like any
// game; at the session's deadline each game is settled once (an unplayed
// game is a forfeit of the side that did not check in, void when neither
// did) and each candidate graded once; a pass sets the certified rank by
// a ledger entry of the rating service (or waits for an admin's
// approval).
//
// Draft.Build validates a schedule and names each bad field; the
// decisions (game counts, lengths, defaults) are the constants of
// schedule.go. Every step of Service is idempotent and resumable (see
// Store), so the exam job may run it on any replica, again after a crash,
// or twice at once. The store is the Store port (adapter exams/examdb,
// contract suite exams/examtest); cron is read through the Calendar port,
// which jobs implements, since only jobs imports cron.
//
// exams calls intake, rating and players directly (domains below it) and
// imports games and ranks; it must not import api, jobs, cmd, an adapter
// or a driver.
package exams
