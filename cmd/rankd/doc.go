// Command rankd is the platform's server: accounts and tokens, finished
// and pending games in, ratings and the ledger, promotion exams, schools,
// matchmaking, the admins' review queue and scheduled jobs, over the HTTP
// API and the web pages. With nothing configured it
// runs on embedded stores (FerretDB on SQLite files under ./data, and an
// in-process Redis); MONGO_URI and REDIS_URL point it at real servers
// through the same code. See `rankd -h` for every setting.
//
// It stops gracefully on SIGINT or SIGTERM: it stops accepting, lets
// requests in flight finish (up to the shutdown timeout), then closes the
// stores.
//
// As a command it may import anything, but it builds the application only
// through the one wiring (internal/app), on stores opened by
// cmd/internal/wire; the domain packages it imports give it only the
// defaults and limits of its settings.
package main
