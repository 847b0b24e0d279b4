//go:build race

package games

// raceBuild: the race detector slows the engine about tenfold, so the
// longest measurements take a sample under it.
const raceBuild = true
