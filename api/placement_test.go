package api_test

import (
	"fmt"
	"testing"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/rating"
)

// TestPlacementShownUntilPlaced: a newcomer's rank shows with "?" and
// the placement's progress while they play their placement games; after
// the last one the ladder score is set once by a placement entry whose
// evidence is those games, and the "?" goes once the Glicko-2 deviation
// is at most rating.UnsettledRD too (issue 14).
func TestPlacementShownUntilPlaced(t *testing.T) {
	e := newGamesEnv(t)
	profile := func() map[string]any {
		return e.expect(req{method: "GET", path: "/api/v1/players/alice", token: e.alice}, 200, "").JSON
	}
	p := profile()
	if p["rank_shown"] != "1k?" || fmt.Sprint(p["placement"]) != fmt.Sprintf("map[of:%d placed:false played:0]", rating.PlacementGames) {
		t.Fatalf("a newcomer: %v", p)
	}
	for i := range rating.PlacementGames {
		r := randomGame(uint64(500+i), 60, false)
		black, white := "alice", "bob"
		if r.EndBy == games.Black { // alice wins every game
			black, white = white, black
		}
		e.submit(gameBody(r, fmt.Sprintf("place-%d", i), black, white), 201, "")
		if i == rating.PlacementGames-2 {
			if p := profile(); p["placement"].(map[string]any)["played"] != float64(rating.PlacementGames-1) || p["rank_shown"].(string)[len(p["rank_shown"].(string))-1] != '?' {
				t.Fatalf("before the last placement game: %v", p)
			}
		}
	}
	p = profile()
	shown := p["rank"].(string)
	if p["glicko"].(map[string]any)["rd"].(float64) > rating.UnsettledRD {
		shown += "?"
	}
	if p["placement"].(map[string]any)["placed"] != true || p["rank_shown"] != shown {
		t.Fatalf("after the placement games: %v", p)
	}
	hist := e.expect(req{method: "GET", path: "/api/v1/players/alice/audit?cause=placement", token: e.alice}, 200, "").JSON["items"].([]any)
	if len(hist) != 1 {
		t.Fatalf("placement entries %v, want one", hist)
	}
	pe := hist[0].(map[string]any)
	if pe["actor"] != rating.PlacementActor || len(pe["evidence"].([]any)) != rating.PlacementGames || pe["score_after"] != p["score"] {
		t.Fatalf("the placement entry %v (profile %v)", pe, p)
	}
	if p["score"].(float64) <= float64(5*rating.PlacementGames) || p["score"].(float64) > rating.PlacementCeiling {
		t.Fatalf("15 straight wins placed alice at %v, want above the formula's %d and at most the ceiling %d", p["score"], 5*rating.PlacementGames, rating.PlacementCeiling)
	}
}
