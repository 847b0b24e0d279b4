package rating

import (
	"fmt"
	"math"

	"github.com/weiqi-platform/rank/ranks"
)

// Placement of newcomers (issue 16). By the formula alone a new player
// starts at 1k and moves about 5 points a game, so a strong newcomer
// needs over a hundred games to reach their rank. Instead a new player's
// first PlacementGames rated games are placement games: they are rated
// by the formula as always (the newcomer's own score too, against both
// players' scores before the game), and after the last one the
// newcomer's score is set once, by a ledger entry of cause
// CausePlacement, to the score their Glicko-2 rating suggests (Suggest),
// bounded by PlacementCeiling. From then on only the formula moves it.
// The numbers were chosen with `rankctl ladder-sim` (docs/benchmarks.md).
const (
	// PlacementGames is how many rated games (draws count; void and
	// handicap games are not rated) a new player plays before the
	// placement. Decided with ladder-sim: the placement games are paired
	// at the newcomer's ladder score, about 1k, where a strong player's
	// wins say little, so after 10 games only about half of true-5d
	// newcomers are placed within a rank of their strength; after 15,
	// three in four (the median true 5d is within a rank after 15 games,
	// the median 3k after one). lichess and OGS use 10 to 20.
	PlacementGames = 15

	// PlacementCeiling is the highest score the placement gives: the
	// top of 4d, so a true 5d placed there is within a rank. Higher
	// needs an exam or an admin, so that a run of wins against 1k
	// players never makes a 5d; ladder-sim shows a higher ceiling helps
	// only the few true 6d and above.
	PlacementCeiling = 499

	// PlacementActor is the actor of the placements the rule makes by
	// itself; "system:" cannot begin a username.
	PlacementActor = "system:placement"

	// maxPlacementLedger bounds the ledger read for a placement's
	// evidence (a placing player has PlacementGames−1 games and a few
	// other entries at most).
	maxPlacementLedger = 1000
)

// PlacementRule is the placement's two numbers. The platform's rule is
// DefaultPlacement (the constants above); another one exists only for
// ladder-sim to compare against.
type PlacementRule struct {
	Games   int `json:"games"`
	Ceiling int `json:"ceiling"`
}

// DefaultPlacement is the platform's placement rule.
func DefaultPlacement() PlacementRule {
	return PlacementRule{Games: PlacementGames, Ceiling: PlacementCeiling}
}

// Score is the score the rule gives a player whose Glicko-2 rating after
// the last placement game is g: the suggested score, at most the ceiling.
func (r PlacementRule) Score(g Glicko) (int, error) {
	s, err := Suggest(g)
	if err != nil {
		return 0, err
	}
	return min(s.Score, r.Ceiling), nil
}

// Step is the rule applied to a player's state after one rated game (the
// formula already applied to it): while the player is placing, the game
// is counted, and after the last placement game the score is set to
// Score of the Glicko-2 rating and the placement ends (placed). A player
// not placing is returned as is.
func (r PlacementRule) Step(after PlayerState) (next PlayerState, placed bool, err error) {
	if !after.Placing {
		return after, false, nil
	}
	after.PlacingGames++
	if after.PlacingGames < r.Games {
		return after, false, nil
	}
	score, err := r.Score(after.Glicko)
	if err != nil {
		return PlayerState{}, false, err
	}
	after.Score, after.Placing = score, false
	return after, true, nil
}

// PlacedScore is DefaultPlacement().Score: the one place the platform's
// placement is computed; the service and verification both call it.
func PlacedScore(g Glicko) (int, error) { return DefaultPlacement().Score(g) }

// PlacementDue reports whether a player placing who has now played games
// placement games is to be placed.
func PlacementDue(games int) bool { return games >= PlacementGames }

// PlacementStep is DefaultPlacement().Step; the service's plan applies
// the rule through it, ladder-sim through the rule's Step.
func PlacementStep(after PlayerState) (PlayerState, bool, error) {
	return DefaultPlacement().Step(after)
}

// PlacementProgress is a player's placement as the profile shows it:
// Played of Of placement games, and whether the placement is over (or
// never ran: players from before placement existed, or placed by a
// teacher, an admin or an exam).
type PlacementProgress struct {
	Played int  `json:"played"`
	Of     int  `json:"of"`
	Placed bool `json:"placed"`
}

// Progress is the player's placement progress.
func (p PlayerState) Progress() PlacementProgress {
	return PlacementProgress{Played: p.PlacingGames, Of: PlacementGames, Placed: !p.Placing}
}

// UnsettledRD is the Glicko-2 deviation above which a player's rank is
// shown with a "?" (ShownRank), decided: OGS's provisional cutoff (160).
// A newcomer starts at 350; against new opponents the deviation passes
// below 160 after about nine games, before the PlacementGames end, and
// a player placed by a teacher, an admin or an exam without games keeps
// the "?" until games confirm the rank.
const UnsettledRD = 160.0

// Settled reports whether the player's rank is settled: not placing, and
// a Glicko-2 deviation at or below UnsettledRD.
func (p PlayerState) Settled() bool { return !p.Placing && p.Glicko.RD <= UnsettledRD }

// ShownRank is the ladder rank as pages and the API show it: with a "?"
// while the player is still placing (issue 16: the rank is not known
// yet) or their Glicko-2 deviation is above UnsettledRD (issue 14).
func (p PlayerState) ShownRank() string {
	if !p.Settled() {
		return p.Rank().String() + "?"
	}
	return p.Rank().String()
}

// PairingScore is the score a matchmaking ticket of the player may carry
// so that placement games are informative: the ladder score, or, while
// the player is placing, the score their Glicko-2 rating suggests
// (unbounded: the ceiling bounds the placement, not the opponents).
// rankd's tickets carry the ladder score today; ladder-sim
// --pair-placing=glicko measures this choice (docs/benchmarks.md).
func (p PlayerState) PairingScore() int {
	if p.Placing {
		return LadderScore(p.Glicko.Rating)
	}
	return p.Score
}

// placementEntry is the ledger entry that places a player at score after
// their last placement game (the game's own entry, game, comes just
// before it).
func placementEntry(game LedgerEntry, score int, evidence []string) LedgerEntry {
	s, _ := Suggest(game.Glicko) // checked by PlacedScore
	e := LedgerEntry{
		Username: game.Username, Seq: game.Seq + 1, Cause: CausePlacement, CauseID: game.CauseID, Actor: PlacementActor,
		ScoreBefore: game.ScoreAfter, ScoreAfter: score, RankBefore: game.RankAfter, RankAfter: ranks.FromScore(score).String(),
		Delta: score - game.ScoreAfter, Glicko: game.Glicko, At: game.At, Prev: game.Hash, Evidence: evidence,
		Reason: fmt.Sprintf("placed after %d placement games: Glicko-2 %.0f (RD %.0f) suggests %d (%s); the ceiling is %d (%s)",
			len(evidence), math.Round(game.Glicko.Rating), math.Round(game.Glicko.RD), s.Score, s.Rank,
			PlacementCeiling, ranks.FromScore(PlacementCeiling)),
	}
	e.Hash = e.ComputeHash()
	return e
}

// PlacementFaults checks the placements the rule made (cause
// CausePlacement, actor PlacementActor) in a player's whole ledger,
// oldest first: each comes right after the game entry it names, keeps
// that entry's Glicko-2 rating, sets the score PlacedScore gives for it,
// and lists PlacementGames of the player's games, the last being that
// game; and a player is placed by the rule once. A placement by a person
// or an exam is not the rule's and is not checked here.
func PlacementFaults(entries []LedgerEntry) []*ChainError {
	var out []*ChainError
	fault := func(e LedgerEntry, format string, args ...any) {
		out = append(out, &ChainError{e.Username, e.Seq, CheckPlacement, fmt.Sprintf(format, args...)})
	}
	games := map[string]bool{}
	placed := false
	for i, e := range entries {
		if e.Cause == CauseGame {
			games[e.CauseID] = true
		}
		if e.Cause != CausePlacement || e.Actor != PlacementActor {
			continue
		}
		if placed {
			fault(e, "a second placement by the rule")
		}
		placed = true
		if i == 0 || entries[i-1].Cause != CauseGame || entries[i-1].CauseID != e.CauseID || entries[i-1].Seq != e.Seq-1 {
			fault(e, "does not come right after the entry of its last placement game %s", e.CauseID)
			continue
		}
		game := entries[i-1]
		if e.Glicko != game.Glicko {
			fault(e, "Glicko-2 %+v is not the last placement game's %+v", e.Glicko, game.Glicko)
		}
		want, err := PlacedScore(game.Glicko)
		switch {
		case err != nil:
			fault(e, "the last placement game's Glicko-2 is refused: %v", err)
		case e.ScoreAfter != want:
			fault(e, "places at %d, the rule gives %d for Glicko-2 %.1f", e.ScoreAfter, want, game.Glicko.Rating)
		}
		switch {
		case len(e.Evidence) != PlacementGames:
			fault(e, "lists %d placement games, the rule plays %d", len(e.Evidence), PlacementGames)
		case e.Evidence[len(e.Evidence)-1] != e.CauseID:
			fault(e, "its evidence ends with %s, not its last game %s", e.Evidence[len(e.Evidence)-1], e.CauseID)
		}
		for _, id := range e.Evidence {
			if !games[id] {
				fault(e, "lists game %s, which is not one of the player's earlier games", id)
			}
		}
	}
	return out
}
