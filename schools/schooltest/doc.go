// Package schooltest is the one contract suite for schools.Store (Run)
// and the in-memory Store held to it (Memory). schooldb runs Run on
// embedded FerretDB (and on a real MongoDB when RANK_TEST_MONGO_URI is
// set); Memory runs it in this package's own test. Memory is for tests
// whose subject is not storage; its Fail hook injects an outage at a
// named method.
//
// It imports schools, ranks (the Scale of the suite's schools),
// internal/outage (the outage of the Fail hook) and the standard library
// only (testing for the suite); product code must not import it.
package schooltest
