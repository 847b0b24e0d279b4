// Package mongox is what every Mongo adapter (players/playerdb,
// games/gamedb, rating/ratingdb) shares: telling connection trouble from
// the rest of a driver error and wrapping it with the domain's
// "unavailable" sentinel, and reading a collection of markers (small
// documents `{_id, at}` that stand for work in flight).
//
// It imports only the Mongo driver; adapters import it, domain packages
// never do.
package mongox
