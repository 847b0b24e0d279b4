// Package apptest builds the whole application for tests, through the one
// wiring (internal/app): on the real test stores (embedded FerretDB or
// RANK_TEST_MONGO_URI, and the test redis-server) for tests whose subject
// is storage, exactly-once or the wiring itself, or on the in-memory
// stores (which pass the same contract suites) and an in-process Redis
// for tests of services and handlers.
//
// It is test support: only test files import it. It imports internal/app,
// internal/testsvc and the contract-suite packages' in-memory stores.
package apptest
