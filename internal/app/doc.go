// Package app is the one place that wires the application: New builds
// every service (accounts, ratings, the games intake, exams, schools,
// matchmaking, integrity reviews, the jobs) and the HTTP handler (the API
// and the web pages) from the stores, one clock, one logger and one
// metrics registry. rankd uses it, rankctl's import and schoolbench too,
// and so does every test that needs the whole stack (internal/apptest),
// on the real stores
// (OpenStores: MongoDB or FerretDB, Redis) or on the in-memory ones.
// On a store that no other process writes (SoleWriter: rankd's embedded
// one) the services keep in memory what they would otherwise read back on
// every request: the pending games' marks, valid tokens until they
// expire.
//
// It sees everything, as cmd does: it imports the domain packages, their
// adapters and the drivers they need. Product code outside cmd must not
// import it (no domain package, adapter, api, web or jobs); tests may, and
// those of api, exams, intake, matchmaking, schools and web do, to run on
// the whole stack (arch_test.go allows it).
package app
