// Package games is the rules engine of Go: boards, moves, captures, ko and
// superko, rulesets, replay with typed errors, scoring (area, territory, Ing),
// dead-stone proposals and SGF in and out.
//
// It is a pure core: it imports only the standard library. It must not import
// ranks, rating, any other package of this module, or any driver.
package games
