// Package intake takes games in: finished games submitted by a game
// server (JSON or SGF), pending games that a pairing or an exam makes, and
// the check-ins of their players.
//
// Submit judges a record with the rules engine (games.Judge), stores it
// once per source_id (ContentHash tells a retry from a conflict), with
// what the reader assumed to read it (Record.Assumptions, bounded by
// MaxAssumptions and MaxAssumptionText, outside the hash), has the
// rating service apply it exactly once (rating.Service.Apply, keyed by the
// game id) and marks it rated; Recover completes what a crash left between
// those steps. CreatePending stores a game still to be played (its result
// comes in through Submit with its id), ExpirePending voids those whose
// time is up, and Unfinished tells whether a player is in one. CheckIn
// records who showed up for a pending game, which exam grading reads to
// tell the absent side of an unplayed game.
//
// PlayerGames lists a player's games newest first (by state and
// opponent), PendingOf finds a player's pending game in the store (not in
// a matchmaking ticket, which an in-process Redis loses on a restart),
// and Abort voids a pairing's pending game for either player within
// Config.AbortWindow, decided once like a result or an expiry; Aborts
// counts them per player for admins.
// Archive (archive.go) rates a whole archive's games batch after batch in
// the order played (SortArchive): each batch stored in one bulk insert of
// a BulkStore under a source_id taken from the game's content
// (ArchiveSourceID), rated by rating.Service.ApplyBatch and marked rated
// in one more; a game stored before is a duplicate, or, left unrated by
// an interrupted run, rated now. Unknown players are refused, or made
// (players.Service.EnsurePlayers) when asked.
//
// Games are kept through the Store and Presence ports (adapter
// intake/gamedb, contract suite and in-memory store intake/intaketest).
// Accounts (players) and ratings (rating) are called directly: they are
// domains below this one.
//
// intake imports games, games/charset (records in any charset), players
// and rating; it must not import api, jobs, cmd, any adapter or any
// driver.
package intake
