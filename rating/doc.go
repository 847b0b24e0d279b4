// Package rating owns the ladder's points-difference formula and the
// Glicko-2 rating kept beside it, and the rating service that applies
// finished games to players exactly once, with its ledger. The formula
// (ladder.go, glicko2.go, state.go, suggest.go) is pure: no I/O, no clock,
// no context. The service (service.go, store.go, ledger.go) does I/O only
// through the Store port it defines; its Mongo adapter is ratingdb and
// ratingtest is the contract suite every Store passes, with an in-memory
// Store held to it for tests.
//
// # Exactly once, in order, without transactions
//
// Service.Apply stores an operation keyed by the game id, holds both
// players' latest state versions (an insert per player and version),
// stores the plan computed by System.Apply once, appends both ledger
// entries and writes both next versions; every step is an insert that a
// retry or another runner repeats harmlessly, so Service.Recover (at
// start, or from a job) completes whatever a crash left. The ledger is a
// hash chain per player (LedgerEntry.ComputeHash, VerifyChain). Against
// whoever can write the database (issue 11, audit_key.go, checkpoint.go):
// each entry carries a MAC with the audit key the database never holds
// (ServiceConfig.AuditKey), a game's entries bind the stored game's
// content (GameHash, checked through ServiceConfig.GameHash), and signed
// Checkpoints of every head, kept outside, show a rollback. Limits of an
// admin's change are in limits.go.
// docs/architecture.md gives the whole plan and why it avoids guarded
// updates.
//
// # Changes, annulments and the audit trail
//
// Every change of a ladder score, ladder rank or certified rank is an
// operation through the same holds and versions: Apply (a game),
// Change (one player: an adjustment, a placement, an exam's certification
// or a revocation, once per idempotency key) and Annul (a game's deltas
// reversed for both players by compensating entries, once per game;
// Glicko-2 is left and later games are not recomputed, unless by
// AnnulRecompute: every later game of the players it touches gets its
// ladder deltas again, each difference an audited adjustment of its own). Each writes one
// ledger entry per player with its cause, actor, before and after
// (score, rank, certified rank), reason and evidence, chained by hash:
// the ledger is the audit trail (Audit pages it across players). The
// certified rank lives in PlayerState and moves only by such entries.
// A game's entry also says how the game went for the player (Result:
// win, loss or draw), since a zero delta may be either a draw or a win
// that gains nothing. A change may be allowed only before the player's
// first rated game (ChangeInput.BeforeFirstGame: a teacher's starting
// rank, refused with ErrPlayed), decided in its plan. Latest reads a
// player's recorded state in one store read, for reads of many players.
// VerifyAll checks the whole store (chains, scores against placement plus
// ledger, certified ranks, each game's deltas against the formula and
// its Glicko-2 after-states against the algorithm, the rule's
// placements, each annulment against its game) and lists every Mismatch
// in a Report.
//
// # Archives: many games at once, and a replay
//
// ApplyBatch (batch.go) applies a batch of games in order by the same
// steps as Apply, each step for the whole batch in one bulk write of a
// BulkStore (operations, holds — a player's later versions held for
// their later games of the batch —, plans computed in memory, entries,
// states, done), so a crash leaves what Recover or a rerun completes; a
// batch meeting an operation already stored or a player held by another
// goes through Apply game by game. An archive's games (actor
// ArchiveActor) stamp their entries with the game's time instead of the
// clock, so a rerun after a crash writes the ledger one run writes.
// Recompute (recompute.go) replays the whole ledger from the operations'
// inputs through the formula into fresh states and lists every
// Difference from the stored entries and states.
//
// # Placement of newcomers
//
// With ServiceConfig.Placement, a new player's first PlacementGames rated
// games are placement games (placement.go): PlayerState.Placing and
// PlacingGames show the progress (Progress, and ShownRank's "?"). Each is
// rated by the formula as always, the newcomer's own score too; the plan
// of the last one also places them once: a second ledger entry in their
// step (Step.Then, cause CausePlacement, actor PlacementActor, evidence
// the placement games) sets the score to PlacedScore of their Glicko-2
// rating, at most PlacementCeiling, in the same idempotent operation as
// the game. A change of the ladder score by a person or an exam ends the
// placement. PlacementRule.Step is the rule as a pure function, which
// rankctl ladder-sim plays.
//
// # Series from the ledger
//
// RatingHistory is a player's score, ladder rank and Glicko-2 at the end
// of each day or week of a range (series.go), with the marks a graph
// shows (exams, placements, adjustments, annulments, revocations, rank
// changes). It and the schools' class tables and progress read one
// implementation: Runs, a player's state and entries back to an instant,
// kept in memory (entries never change) and read by _id from the head
// down (runs.go). A rank is shown with "?" while the player places or
// their deviation is above UnsettledRD; RankNote is the profile's
// sentence on which number is what, in Chinese and English.
//
// # The ladder
//
// Ladder is rating.md §2 as one function: the winner's and loser's
// scores and the game's facts (moves, handicap, draw/void, escape) give
// both deltas. Every number and every "decided" point of the spec is a
// named constant or function in ladder.go (StartScore, FlatBandBelow …
// EscapeFactor, winnerHigher, isHandicap, winnerGains). A consequence
// worth knowing: since the rank never falls as the score rises, "the
// winner is higher" is simply "the winner's score is higher", so the
// deltas depend only on the score difference and the facts.
//
// # Glicko-2
//
// System.Update is Glickman's algorithm ("Example of the Glicko-2
// system", step numbers in the code), τ configurable (DefaultTau 0.5),
// new players 1500 / 350 / 0.06. The platform treats every game as its
// own rating period, as large servers do. Expected gives the expected
// score between two players, counting both deviations.
//
// # One game, both players
//
// State is a player's rating state (ladder score and Glicko-2) and
// System.Apply the one function a server calls per finished game: it
// returns both new states and the ladder deltas, so the rules live here
// only. Ladder and Glicko-2 are both computed from the states before the
// game; a void or handicap game moves neither, a draw only Glicko-2.
//
// # Calibration: Glicko-2 to ladder rank
//
// Suggest maps a Glicko-2 rating to a ladder score and rank. The
// calibration is linear and fixed by two choices:
//
//   - Anchor: rating 1500 (a new Glicko-2 player) is ladder score 0 (a
//     new ladder player, 1k), so the two systems agree on newcomers.
//   - Slope: one Glicko-2 point is one ladder point (GlickoPerLadderPoint),
//     so a rank (100 ladder points) is 100 rating points, and a player one
//     rank above an equally certain opponent is expected to score about
//     0.64 against them — a modest edge, as a one-rank gap is in even
//     games.
//
// So 9k starts at rating 700, 1d at 1600 and 9d at 2400. The rank at
// each end of the 95% interval (rating ± 2·RD) comes with it: a new
// player's spans 8k…7d, which is the honest answer.
// The suggestion is advice for placement and for flagging a ladder rank
// far from a player's results; it never moves a score. Once real games
// exist the slope should be refitted (ladder score against rating for
// players with RD below 100); it is one constant.
//
// It imports only the standard library and ranks.
package rating
