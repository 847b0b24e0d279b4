// Package examports implements the ports the exam service (ranks) defines
// with the other domains, so ranks imports none of them:
//   - Games (ranks.ExamGames): an exam game is a pending game of the games
//     intake under the source_id "exam:<exam game id>" (so its game id is
//     derived and creating it again is a no-op), expiring at the session's
//     deadline; its outcome is read off the stored game (an annulled game
//     is void), and for an unfinished one, who checked in (games.Attendance).
//   - Players (ranks.ExamPlayers): the ladder score and certified rank from
//     the rating service; unknown accounts from the games directory.
//   - Certifier (ranks.Certifier): a certification is a rating.Change of
//     cause "exam", keyed by the result, so it is a ledger (audit) entry
//     written once, through the same holds and versions as games.
//
// It is wiring like internal/gamerate: only cmd imports it (arch_test.go
// checks that); it imports games, ranks, rating and jobs (for its cron
// Calendar), and no driver.
package examports
