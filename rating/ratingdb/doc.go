// Package ratingdb is the MongoDB adapter of rating.Store (the official
// driver v2; embedded FerretDB in the zero-setup mode): player states,
// rating operations and the ledger, each write one single-document insert
// or conditional update, so no transaction is ever needed.
//
// It imports rating and the Mongo driver; never api, jobs or cmd.
package ratingdb
