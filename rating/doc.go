// Package rating owns the ladder's points-difference formula and the
// Glicko-2 rating kept beside it.
//
// It is a pure core: it imports only the standard library and ranks.
package rating
