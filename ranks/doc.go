// Package ranks owns kyu/dan/pro ranks: parsing every common notation,
// printing, and the ladder table that maps a ladder score to a rank.
//
// A Rank is a small comparable value on one of three scales: kyu (25k
// weakest … 1k), amateur dan (1d … 9d) and professional dan (1p … 9p).
// Parse reads 5k, 5K, "5 kyu", 3d, "3 dan", 9p, 5级, 5級, 三段, 3段, 初段,
// 职业九段 and their kin; String and MarshalText print 5k, 3d, 9p.
//
// The ladder (rating.md §1) is 9k … 9d, 100 points a rank, 1k from 0:
// FromScore reads a score's rank off the table, clamping the rank (never
// the score) at 9k and 9d, and Rank.LowestScore gives the score a rank
// starts at. The table is written once, in ladder.go.
//
// Promotion exams (exam*.go): ExamDraft.Build validates an admin's exam
// schedule and names each bad field; PairExam pairs a session's candidates
// (distinct opponents of similar level, balanced colours); Settle and
// TallyGames grade them. ExamService ties these to the ports it defines
// and others implement: ExamStore (ranks/examdb), ExamGames (pending games
// and their outcomes), ExamPlayers (ladder score, certified rank),
// Certifier (the ledger) and Calendar (cron, from jobs). Its steps are
// idempotent and resumable, so the exam job can run them on any replica.
//
// It imports only the standard library and nothing of this module; the
// exam service does I/O only through its ports.
package ranks
