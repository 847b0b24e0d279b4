// Package outage is the one kind of "unavailable": a store, the queue or
// the leases could not be reached. Every adapter wraps connection trouble
// with Wrap (through internal/mongox or internal/redisx), domain code
// passes it up unchanged, and api answers it once as 503
// store_unavailable with Retry-After, whichever store it was.
//
// It imports only the standard library, so that anything may use it; it
// knows no driver (internal/mongox decides what connection trouble is for
// MongoDB, internal/redisx for Redis). Besides those two and api, the
// in-memory stores of intaketest, playertest, ratingtest and schooltest
// import it, for their Fail hooks.
package outage
