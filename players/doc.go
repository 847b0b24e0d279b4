// Package players owns accounts, roles, usernames, password hashing, bearer
// tokens and the login rate-limit policy. Its stores are ports defined here
// (Store, Limiter) and implemented in adapter subpackages: playerdb (MongoDB
// driver) and playerredis (go-redis); playertest is the one contract suite
// every Store implementation must pass, with an in-memory Store held to it
// for tests.
//
// It must not import gin, go-redis, the Mongo driver, cron or FerretDB, nor
// api, jobs or cmd.
package players
