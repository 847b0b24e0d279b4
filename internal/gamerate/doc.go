// Package gamerate adapts the other domains to the ports games defines:
// rating's Service to games.Rater (a stored game becomes a rating
// operation keyed by its id) and players' Store to games.Players (who may
// play). So games never imports rating or players.
//
// It is wiring, used by cmd and by tests that need the real wiring (api's
// HTTP tests); domain packages, adapters and api never import it
// (arch_test.go checks that).
package gamerate
