// Package ratingtest is the contract suite every rating.Store
// implementation must pass (Run; RunBatch adds rating.BatchStore's
// batched writes): the single-document steps the rating service builds
// exactly-once from, each tried twice and against the wrong caller. It
// also owns Memory (memory.go), an in-memory rating.BatchStore held to
// the same suite, for tests whose subject is not storage; its Fail hook
// injects an outage at a named method. ratingdb runs RunBatch on a real
// store, this package's own test on Memory.
//
// It imports rating, ranks (certified ranks in the suite's states),
// internal/outage (the outage of the Fail hook) and the standard library
// only (testing for the suite); never a driver, and product code must not
// import it. memory.go needs nothing of it but rating and internal/outage,
// so it can move with its port.
package ratingtest
