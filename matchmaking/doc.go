// Package matchmaking owns tickets and the pairing policy (pure Go, injected
// clock); the Redis-backed queue lives in its adapter subpackage.
//
// It must not import gin, go-redis, the Mongo driver, cron or FerretDB.
package matchmaking
