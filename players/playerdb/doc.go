// Package playerdb implements players.Store on MongoDB (or FerretDB, the
// same driver and code path): collection "accounts" keyed by the
// case-folded username, collection "tokens" keyed by the token hash. It
// maps driver errors to the players sentinels so that no driver message
// leaves it.
//
// It imports players, internal/mongox and the Mongo driver; it must not
// import api, jobs, gin, go-redis or FerretDB.
package playerdb
