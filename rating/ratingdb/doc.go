// Package ratingdb is the MongoDB adapter of rating.Store (the official
// driver v2; embedded FerretDB in the zero-setup mode): player states,
// rating operations and the ledger, all in one collection (Log) so that
// a game's steps go in one ordered insert (ApplyOp), and the players'
// projection. Every decision is an insert under a unique _id; no
// transaction is ever needed. A sole writer (SoleWriter, the embedded
// store) keeps every projection in memory too, ordered for the
// leaderboard. The projections of games written whole may be held back
// and written together (DeferProjections, FlushProjections), at most
// projBatch to a command.
//
// It imports rating, ranks, internal/mongox, the Mongo driver and
// google/btree; never api, jobs or cmd.
package ratingdb
