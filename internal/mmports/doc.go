// Package mmports implements the port matchmaking defines with the games
// domain, so matchmaking imports no other domain:
//   - Games (matchmaking.Games): a pairing's game is a pending game of the
//     games intake under the source_id "match:<pairing id>", so making it
//     again after a crash or by a second replica finds the same game; an
//     even game with the rules preset's komi. "Is this player in a game"
//     is the intake's question about pending games not yet ended, exam
//     games included.
//
// It is wiring like internal/examports: only cmd imports it (arch_test.go
// checks that); it imports games and matchmaking, and no driver.
package mmports
