// Package outage is the one kind of "unavailable": a store, the queue or
// the leases could not be reached. Every adapter wraps connection trouble
// with Wrap, domain code passes it up unchanged, and api answers it once as
// 503 store_unavailable with Retry-After, whichever store it was.
//
// It imports only the standard library, so that every domain package and
// adapter may use it; it knows no driver (adapters decide what connection
// trouble is: internal/mongox for MongoDB, internal/redisx for Redis).
package outage
