// Package mongox is what every Mongo adapter (players/playerdb,
// games/gamedb, rating/ratingdb) shares: telling connection trouble from
// the rest of a driver error and wrapping it with the domain's
// "unavailable" sentinel, reading a collection of markers (small
// documents `{_id, at}` that stand for work in flight), and sharing write
// transactions between concurrent callers: Inserter (group commit of
// inserts), SeqInserter (of ordered sequences of inserts, each leaving a
// prefix of itself), Writer (of idempotent replaces and updates) and
// Deleter (markers deleted later, in batches, optionally after a hook
// that makes lasting what their absence says). A Lane makes the batchers
// of one database take turns, for a store of one writer.
//
// It imports only the Mongo driver; adapters import it, and the one
// wiring (internal/app) to give the embedded store's stores one Lane;
// domain packages never do.
package mongox
