// Package integrity finds results that look arranged: farming (one
// account winning far more than Glicko-2 expects against opponents who
// play almost only them, or against new accounts), sandbagging (losing
// far below one's Glicko-2 level, resigning early in games one was
// expected to win, losing when a win would cross a rank boundary or in
// the days before an exam's eligibility check) and exam collusion (exam
// games between the same two players with improbable results or
// resigned very early). The Chinese Rules (art. 23) forbid
// arranged games (下假棋, 君子协定); rating.md §4 promises that Glicko-2
// flags them.
//
// It is pure: Detect takes the games (Game: players, winner, both
// players' Glicko-2 state, ladder score and rated games before it, moves,
// end reason, exam or not, times) and the eligibility checks, and returns
// Flags, each with its evidence: the games, the expected and actual
// results, the statistic and the threshold it crossed. Every threshold
// is a field of Thresholds with its default in thresholds.go. A flag is
// for a person to review: nothing here changes a score.
//
// The statistic of most tests is a z-score of results against Glicko-2's
// expectation: z = (Σ actual − Σ expected) / √Σ expected·(1 − expected),
// with expected = rating.Expected of the two states before each game. An
// honest player's z over any set of their games chosen without looking
// at the results is near a standard normal, so the thresholds (about 4)
// are crossed by chance a few times in 100,000 sets; the test suite
// measures the rates on a simulated population with planted cheats.
//
// It imports only the standard library, ranks and rating (for Glicko-2's
// expectation and the ladder table); never a store, api, jobs or cmd.
package integrity
