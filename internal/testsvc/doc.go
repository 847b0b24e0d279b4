// Package testsvc gives tests the real services they need: a Redis server
// (the real redis-server that `make test` starts, named by
// RANK_TEST_REDIS_URL) and a MongoDB-compatible store (embedded FerretDB, or
// a real MongoDB named by RANK_TEST_MONGO_URI).
//
// A missing service fails the test that needs it, saying how to start it
// (`make services`); nothing skips. MiniRedis is the in-process Redis,
// for suites that run against both kinds and for tests whose subject is
// not Redis. Eventually is the one way a test waits for an event, with a
// ceiling only a real hang reaches.
//
// It is test support only: product code must not import it.
package testsvc
