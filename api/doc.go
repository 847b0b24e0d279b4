// Package api is the HTTP surface: gin routes, request and response types,
// the auth middleware and role guards, request ids and access logs, the
// body limit, cursor paging, the OpenAPI document, and the one table from
// domain errors to HTTP status and JSON (errors.go).
//
// A Server is built from Deps, a struct of domain interfaces, so that new
// routes plug in by adding a field and a route line. Exams (exams.go) and
// the audit trail with its admin tools (audit.go) are such routes; every
// admin tool requires a reason, and a player's own audit trail is at
// GET /players/{username}/audit (the player or an admin). Schools and
// classes (schools.go) are routes over schools.Service, which decides who
// may do what; exam nominations ask it whether the teacher teaches the
// nominee. A player's own routes (me.go: /me, display name, password, a
// player's games and rating history, aborts) and the public reads
// (reader: without a token when Deps.PublicReads) and CORS (cors, for
// Deps.CORSOrigins) live in me.go. It is the only package
// that imports gin. It must not import the Mongo driver, go-redis,
// FerretDB or Prometheus, nor cron directly (it imports jobs to run a job
// on demand; schedules belong to jobs): it talks to domain services and
// small interfaces only.
package api
