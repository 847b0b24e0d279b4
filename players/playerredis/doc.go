// Package playerredis implements players.Limiter on Redis through go-redis:
// one counter key per (key, window), incremented and given an expiry in one
// MULTI, so that every rankd replica shares the same counts.
//
// It imports players, internal/redisx and go-redis; it must not import
// api, jobs, gin, the Mongo driver or FerretDB.
package playerredis
