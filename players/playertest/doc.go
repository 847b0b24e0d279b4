// Package playertest is the one contract suite for players.Store: every
// implementation runs Run against a real server (playerdb runs it on
// embedded FerretDB, and on a real MongoDB when RANK_TEST_MONGO_URI is
// set).
//
// It imports players and testing only; product code must not import it.
package playertest
