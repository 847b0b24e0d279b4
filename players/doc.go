// Package players owns accounts, roles, password hashing and bearer tokens.
//
// It must not import gin, go-redis, the Mongo driver, cron or FerretDB; its
// stores are ports implemented in adapter subpackages.
package players
