// Package mongox is what every Mongo adapter (the store adapters, …db)
// shares: telling connection trouble from the rest of a driver error and
// marking it as the one outage kind (Wrap, internal/outage), reading a
// collection of markers (small documents `{_id, at}` that stand for work
// in flight), and sharing write transactions between concurrent callers:
// Inserter (group commit of inserts), SeqInserter (of ordered sequences of
// inserts, each leaving a prefix of itself), Writer (of idempotent
// replaces and updates) and Deleter (markers deleted later, in batches,
// optionally after a hook that makes lasting what their absence says). A
// Lane makes the batchers of one database take turns, for a store of one
// writer. CompactBody reads a document that keeps the fields no query
// reads as one JSON text (FerretDB v1 pays for every field): its top
// fields and the text. InsertMany inserts a bulk writer's documents, in
// a lane as commands built outside it.
//
// It imports the Mongo driver and internal/outage; adapters import it,
// and the one wiring (internal/app) to give the embedded store's stores
// one Lane; domain packages never do.
package mongox
