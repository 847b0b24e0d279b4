// Package api is the HTTP surface: gin routes, request and response types,
// the auth middleware and the one table from domain errors to HTTP.
//
// It is the only package that imports gin. It must not import the Mongo
// driver, go-redis, cron or FerretDB: it talks to domain services only.
package api
