// Package testsvc gives tests the real services they need: a Redis server
// (the real redis-server that `make test` starts, named by
// RANK_TEST_REDIS_URL) and a MongoDB-compatible store (embedded FerretDB, or
// a real MongoDB named by RANK_TEST_MONGO_URI), and a store server of its
// own: FerretDB on PostgreSQL (FerretPGURI: the cmd/ferretpg process named
// by RANK_TEST_FERRETPG_URI, else FerretDB's PostgreSQL handler started in
// the test binary), one of MongoKinds, so that every contract suite runs
// on it. RedisCluster is the real Redis Cluster .ci/services.sh starts,
// which a test has to itself (a cluster has one database).
//
// A missing service fails the test that needs it, saying how to start it
// (`make services`); nothing skips. MiniRedis is the in-process Redis,
// for suites that run against both kinds and for tests whose subject is
// not Redis. Eventually is the one way a test waits for an event, with a
// ceiling only a real hang reaches.
//
// It is test support only: product code must not import it.
package testsvc
