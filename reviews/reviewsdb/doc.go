// Package reviewsdb is the MongoDB adapter of reviews.Store (embedded
// FerretDB in the zero-setup mode): one document per flag, inserted once
// under its id, and one per resolution, inserted once under the flag's
// id; the flag's status field is a hint for listing, written after the
// resolution and checked against it by every read.
//
// It imports reviews, internal/mongox and the Mongo driver; never api,
// jobs or cmd.
package reviewsdb
