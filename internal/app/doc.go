// Package app is the one place that wires the application: New builds
// every service (accounts, ratings, the games intake, exams,
// schools, matchmaking, the jobs) and the HTTP handler from the stores, one clock,
// one logger and one metrics registry. rankd uses it, and so does every
// test that needs the whole stack (internal/apptest), on the real stores
// (OpenStores: MongoDB or FerretDB, Redis) or on the in-memory ones.
// On a store that no other process writes (SoleWriter: rankd's embedded
// one) the services keep in memory what they would otherwise read back on
// every request: the pending games' marks, valid tokens until they
// expire.
//
// It sees everything, as cmd does: it imports the domain packages, their
// adapters and the drivers they need. No domain package, adapter, api or
// jobs may import it.
package app
