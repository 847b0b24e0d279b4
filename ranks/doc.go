// Package ranks owns kyu/dan/pro ranks: parsing every common notation,
// printing, and the ladder table that maps a ladder score to a rank.
//
// It is a pure core: it imports only the standard library and nothing of
// this module.
package ranks
