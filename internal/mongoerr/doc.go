// Package mongoerr is what every Mongo adapter (players/playerdb,
// games/gamedb, rating/ratingdb) does with a driver error: tell
// connection trouble from the rest and wrap it with the domain's
// "unavailable" sentinel.
//
// It imports only the Mongo driver; adapters import it, domain packages
// never do.
package mongoerr
