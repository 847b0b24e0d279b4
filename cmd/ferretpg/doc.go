// Command ferretpg is a MongoDB-compatible store server for operators who
// have PostgreSQL but no MongoDB: FerretDB v1 with its PostgreSQL handler,
// listening on a TCP address. rankd (and rankctl) reach it through
// MONGO_URI exactly as they reach a MongoDB; any number of rankd processes
// may share it, and any number of ferretpg processes may share one
// PostgreSQL database.
//
//	ferretpg -listen 127.0.0.1:27018 -postgresql-url postgres://postgres@127.0.0.1:5432/ferretdb
//	MONGO_URI=mongodb://127.0.0.1:27018/ rankd
//
// It prints "ferretpg: listening on mongodb://…" once it answers, and
// stops on SIGINT or SIGTERM. The tests' own store server (.ci/services.sh)
// is this command.
//
// It imports FerretDB only through internal/embedded, and nothing of the
// domain.
package main
