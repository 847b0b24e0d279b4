// Package gamedb is the MongoDB adapter of games.Store (the official
// driver v2; embedded FerretDB in the zero-setup mode). Every write is a
// single-document insert or conditional update, so no transaction is
// needed: source_id is unique by index, and a pending game is finished
// only while its status is still pending.
//
// Pending games are marked in a small collection of their own until they
// end, so that expiry and "is this player in a game" (Unfinished, asked at
// every matchmaking enqueue) never scan the games.
//
// Presence (games.Presence) keeps who checked in for a pending game, one
// insert per game and player.
//
// It imports games and the Mongo driver; never api, jobs or cmd.
package gamedb
