// Package matchmaking owns tickets, pools, the pairing policy (pure Go,
// injected clock and randomness) and the service that runs them over a
// shared queue. The Redis queue lives in its adapter subpackage
// (matchmaking/redisqueue); the ports it and later wiring implement are in
// ports.go: Queue, History (recent opponents), Games (unfinished game?
// create the pending game of a pairing) and Metrics.
//
// It must not import gin, go-redis, the Mongo driver, cron or FerretDB, nor
// api, jobs or cmd.
//
// # Tickets
//
// A ticket is one player's request: level at enqueue (ladder score, Glicko-2
// rating and RD), pool (board size × time control × rules × rated) and an
// optional range of opponent ladder scores. It is Waiting, then Matched
// (pairing, opponent, colour, and the game once made), Cancelled or
// Expired: after Config.MaxAge, or Config.HeartbeatTimeout after the
// player's last poll (Service.Mine). A player has at most one live ticket
// across all pools, and none while in an unfinished game (Games.Unfinished)
// or while a pairing of theirs is still becoming a game.
//
// # The pairing policy
//
// Two players may meet when they are different players, each one's score
// is inside the other's range, they have not met within Policy.Cooldown,
// and their ladder gap is within both players' windows (Policy.Accepts);
// a window starts at half a rank and widens by Policy.WidenPerMinute up to
// Policy.MaxWindow. Each pass pairs the whole pool at once (Matcher.Pair):
// the most players paired, then the least total ladder gap, then the least
// total Glicko-2 gap.
//
// That optimum is found by a dynamic programme over the players sorted by
// level, whose state is which of the last Policy.Lookback (K) players are
// still unpaired: O(n·2^K·K), about 14 ms for 10,000 players with K = 6
// (docs/benchmarks.md). What it makes exact:
//
//   - Always: it is the optimum over the matchings whose pairs span at most
//     K places in level order, under every constraint at once (windows,
//     ranges, cooldowns, one ticket per player), since each of those only
//     forbids single pairs and the programme checks each pair it uses.
//   - Hence on pools of at most K+1 players it is the true optimum. Tests
//     compare both claims with brute force on random small pools.
//   - With one common window and no ranges or cooldowns, acceptability is
//     interval-closed (if i < j < k in level order and i may meet k, then
//     i may meet j and j may meet k), and the classic exchange argument
//     (replace crossing or nested pairs by neighbouring ones: the gap sum
//     never grows, acceptability is kept) shows that some optimum pairs only
//     neighbours: K = 1 already finds the most pairs and the least ladder
//     gap. The Glicko-2 tie-break can prefer crossing pairs of equal ladder
//     gap, so it is exact only among ties within the lookback.
//   - Per-player windows, ranges and cooldowns break interval-closure: a
//     newcomer with a narrow window between two long-waiters accepts
//     neither, and the two must meet over them. The programme lets a pair
//     jump over up to K-1 players. In a dense pool everyone has acceptable
//     neighbours; long jumps in level are needed where the pool is sparse,
//     and there they are short in places. A player the pass leaves out
//     waits one more pass with a wider window. Exact general matching
//     (blossom, O(n³)) would cover every case but not in a pass over
//     10,000 players.
//
// Colours are decided by nigiri (Nigiri): the stronger player holds the
// stones, the weaker guesses.
//
// # Atomic and once
//
// The service plans with the policy and commits through the Queue: a pass
// runs under a per-pool lease (one planner at a time; taken over when its
// holder stops renewing), and each pair is claimed atomically, both tickets
// re-checked and removed together, so a cancel racing a pass gives a
// cancel or a game, never both, and no ticket is paired twice even if two
// replicas plan at once (the lease is for efficiency; the claim is the
// guard). A claimed pairing stays open until its game exists: the game is
// made through Games.CreatePending, idempotent by the pairing id (a pass
// makes its pairings' games concurrently, so that the store can combine
// their writes), then the meeting is recorded and the pairing closed. If the process dies in
// between, the next pass (Queue.Open) or the players' next poll after
// Config.OpenGrace runs the same steps again.
package matchmaking
