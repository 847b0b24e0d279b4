// Package testsvc gives tests the real services they need: a Redis server
// (the real redis-server that `make test` starts, named by
// RANK_TEST_REDIS_URL) and a MongoDB-compatible store (embedded FerretDB, or
// a real MongoDB named by RANK_TEST_MONGO_URI).
//
// When RANK_TEST_REQUIRE_SERVICES=1 (set by `make test`, so on CI) a missing
// service fails the test; otherwise the test skips and says why, or, for
// Redis, falls back to in-process miniredis and says so.
//
// It is test support only: product code must not import it.
package testsvc
