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
// Rank.Band gives the ladder scores a rank reads from (open at the
// ladder's ends), OneBelow the rank one step down its scale. Promotion
// exams are package exams.
//
// A school may show ranks in its own Scale (scale.go): the ladder's
// 9k…9d, a 10k…8d server scale or the Chinese amateur grades, through one
// table (Scale.Show); Rank.Chinese prints 5级, 3段.
//
// It imports only the standard library and nothing of this module: it is
// a pure core, and does no I/O.
package ranks
