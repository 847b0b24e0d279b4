// Package jobsdb is the MongoDB adapter of jobs.Runs (embedded FerretDB in
// the zero-setup mode): one document per finished firing, inserted once
// under its key, so what makes a retried run safe outlives Redis.
//
// It imports jobs, internal/mongox and the Mongo driver; never api, a
// domain package or cmd.
package jobsdb
