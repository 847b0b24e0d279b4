// Package apptest builds the whole application for tests, through the one
// wiring (internal/app): on the real test stores (embedded FerretDB or
// RANK_TEST_MONGO_URI, and the test redis-server) for tests whose subject
// is storage, exactly-once or the wiring itself, or on the in-memory
// stores (which pass the same contract suites) and an in-process Redis
// for tests of services and handlers.
//
// It is test support: only test files import it. It imports, among
// others, internal/app, internal/testsvc, the contract-suite packages'
// in-memory stores, the Redis adapters (the in-memory stack runs them on
// the in-process Redis) and the collection names of ratingdb and gamedb
// (tamper.go, for tests that alter what is stored).
package apptest
