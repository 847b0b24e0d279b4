// Package playertest is the one contract suite for players.Store (Run)
// and the in-memory Store held to it (Memory, memory.go). Every
// implementation runs Run: playerdb on embedded FerretDB, and on a real
// MongoDB when RANK_TEST_MONGO_URI is set; Memory in this package's own
// test. Memory is for tests whose subject is not storage; its Fail hook
// injects an outage at a named method.
//
// It imports players, internal/outage (the outage of the Fail hook) and
// the standard library only (testing for the suite); product code must
// not import it.
package playertest
