// Package gamedb is the MongoDB adapter of intake.Store (the official
// driver v2; embedded FerretDB in the zero-setup mode). Every decision is
// a single-document insert under a deterministic _id, so no transaction
// and no filtered update is needed: a game is written once under its id
// (source_id is unique by index), and its end and its being rated are
// documents of their own under the game's id (the first insert wins).
//
// Pending games are marked in a small collection of their own until they
// end, so that expiry and "is this player in a game" (Unfinished, asked at
// every matchmaking enqueue) never scan the games; a Store that is the
// database's only writer (SoleWriter: the embedded store) keeps those
// marks in memory as well, so that Unfinished reads nothing for a player
// without one. Likewise every game is
// listed under its two players in a collection of small documents
// (ByPlayer), which a player's games page scans instead of the records;
// an abort is an end like a result or an expiry. A finished game is
// marked unrated until rated; the mark's delete may linger (RatedLinger)
// to share one command with other games', after what the rating left to
// write later is written (BeforeRatedDelete). Only a rating takes a
// mark away: a Create refused for a taken source_id leaves its own.
// On the embedded store its writes take turns with the rating store's in
// one lane (WriteLane).
//
// Presence (intake.Presence) keeps who checked in for a pending game, one
// insert per game and player.
//
// It imports intake, games, internal/mongox and the Mongo driver; never
// api, jobs or cmd.
package gamedb
