// Package reviews owns the admins' review queue of integrity flags: the
// flags integrity.Detect raised, each stored once under an id made from
// its key (so a nightly run over an overlapping window adds only what is
// new), listed for review (open, confirmed, dismissed; by kind and
// player; newest first, with a cursor) and resolved once, with the
// admin's verdict and reason, which is the audit of the decision. A flag
// never changes a score: confirming one is a person's judgement, and any
// adjustment or annulment that follows goes through rating's own audited
// changes. The Store port is defined here; reviewsdb is its Mongo adapter
// and reviewstest the contract suite every Store passes.
//
// Resolutions are decided by an insert (the first stays); the status kept
// on a flag's document is a hint for listing, which a reader checks
// against the resolution and repairs (FerretDB v1 does not apply a
// filtered update atomically: see docs/architecture.md).
//
// Scan (scan.go), the nightly run, gives integrity.Detect the rated games
// of rating, how each ended from intake (in games' terms) and the exams'
// eligibility checks, so it imports exams, games, intake, integrity and
// rating; never a driver, api, jobs or cmd.
package reviews
