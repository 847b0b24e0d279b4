package rating_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// placing is a service that places newcomers.
func placing(t *testing.T) (*rating.Service, rating.Store) {
	t.Helper()
	store := newStore(t)
	return rating.NewService(store, rating.ServiceConfig{Now: fixedClock, Placement: true}), store
}

// TestPlacement: a newcomer's first PlacementGames games move their score
// by the formula, with the rank shown with "?"; the last one also places
// them once at the bounded suggestion of their Glicko-2 rating, by a
// ledger entry whose evidence is the games; their opponent's delta is the
// formula's against the newcomer's score before the game; later games
// are the formula alone.
func TestPlacement(t *testing.T) {
	svc, _ := placing(t)
	st, err := svc.PlayerOrNew(bg, "newbie")
	if err != nil {
		t.Fatal(err)
	}
	if !st.Placing || st.Progress() != (rating.PlacementProgress{Played: 0, Of: rating.PlacementGames}) || st.ShownRank() != "1k?" {
		t.Fatalf("a newcomer before any game: %+v, %+v, %q", st, st.Progress(), st.ShownRank())
	}
	var ids []string
	score := 0
	var last rating.GameResult
	for i := range rating.PlacementGames {
		id := fmt.Sprint("g", i)
		ids = append(ids, id)
		// newbie wins against a new opponent each time.
		r, err := svc.Apply(bg, game(id, "newbie", fmt.Sprint("opp", i), rating.SideBlack))
		if err != nil {
			t.Fatal(err)
		}
		d, _ := rating.Ladder(score, 0, rating.Game{Moves: 150})
		if r.Black.Delta != d.Winner || r.White.Delta != d.Loser || r.White.Score != d.Loser {
			t.Fatalf("game %d: deltas %+d/%+d, the formula gives %+d/%+d against %d", i, r.Black.Delta, r.White.Delta, d.Winner, d.Loser, score)
		}
		score += d.Winner
		last = r
		if i < rating.PlacementGames-1 {
			if r.Black.Score != score || !r.Black.Placing || r.Black.PlacingGames != i+1 || r.Black.ShownRank() != "1k?" {
				t.Fatalf("after placement game %d: %+v", i+1, r.Black.PlayerState)
			}
		}
	}
	placed := last.Black.PlayerState
	want, err := rating.PlacedScore(placed.Glicko)
	if err != nil {
		t.Fatal(err)
	}
	if placed.Placing || placed.Score != want || want == score || placed.Progress() != (rating.PlacementProgress{Played: rating.PlacementGames, Of: rating.PlacementGames, Placed: true}) ||
		placed.ShownRank() != ranks.FromScore(want).String() || placed.Seq != int64(rating.PlacementGames+1) {
		t.Fatalf("after the last placement game: %+v (the rule gives %d, the formula had %d)", placed, want, score)
	}
	// Straight wins against 1k newcomers: Glicko-2 beyond 2000 (5d),
	// placed at the ceiling, 4d.
	if placed.Glicko.Rating <= 2000 || placed.Score != rating.PlacementCeiling {
		t.Errorf("%d wins place at %d (%s) from %+v, want the ceiling", rating.PlacementGames, placed.Score, placed.Rank(), placed.Glicko)
	}
	h, err := svc.History(bg, "newbie", 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	p, g := h[0], h[1]
	if p.Cause != rating.CausePlacement || p.Actor != rating.PlacementActor || p.CauseID != ids[len(ids)-1] || !slices.Equal(p.Evidence, ids) ||
		p.ScoreBefore != score || p.ScoreAfter != want || p.Delta != want-score || p.Glicko != g.Glicko || p.Prev != g.Hash ||
		!strings.Contains(p.Reason, fmt.Sprint(rating.PlacementGames, " placement games")) {
		t.Fatalf("placement entry %+v after %+v", p, g)
	}
	if g.Cause != rating.CauseGame || g.ScoreAfter != score {
		t.Fatalf("the last placement game's entry %+v", g)
	}
	// Applying the last game again changes nothing and places no one twice.
	again, err := svc.Apply(bg, game(ids[len(ids)-1], "newbie", fmt.Sprint("opp", rating.PlacementGames-1), rating.SideBlack))
	if err != nil || again != last {
		t.Fatalf("again: %+v, %v; want %+v", again, err, last)
	}
	// After the placement the formula alone, from the placed score.
	r, err := svc.Apply(bg, game("after", "newbie", "opp0", rating.SideWhite))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := rating.Ladder(-5, want, rating.Game{Moves: 150})
	if r.Black.Score != want+d.Loser || r.Black.Seq != placed.Seq+1 || r.Black.PlacingGames != rating.PlacementGames || r.Black.Placing {
		t.Fatalf("the game after the placement: %+v", r.Black.PlayerState)
	}
	rep, err := svc.VerifyAll(bg, "t")
	if err != nil || !rep.OK() || rep.Games != rating.PlacementGames+1 {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
}

// TestPlacementCeiling: the rule never places above PlacementCeiling and
// places below it where Glicko-2 says.
func TestPlacementCeiling(t *testing.T) {
	for _, tc := range []struct {
		rating float64
		want   int
	}{
		{2400, rating.PlacementCeiling},
		{1500 + rating.PlacementCeiling + 0.4, rating.PlacementCeiling},
		{1500 + rating.PlacementCeiling - 1, rating.PlacementCeiling - 1},
		{1500, 0},
		{1212.6, -287},
		{500, -1000},
	} {
		got, err := rating.PlacedScore(rating.Glicko{Rating: tc.rating, RD: 120, Volatility: 0.06})
		if err != nil || got != tc.want {
			t.Errorf("PlacedScore(%v) = %d, %v; want %d", tc.rating, got, err, tc.want)
		}
	}
	if _, err := rating.PlacedScore(rating.Glicko{Rating: 1500, RD: -1, Volatility: 0.06}); err == nil {
		t.Error("a corrupt Glicko-2 state is placed")
	}
	if r := ranks.FromScore(rating.PlacementCeiling); r != ranks.MustParse("4d") {
		t.Errorf("the ceiling is %s, the doc says 4d", r)
	}
}

// TestPlacementByAPerson: a placement by an admin (or any change of the
// ladder score) before or during the placement games ends them; a
// certification alone does not.
func TestPlacementByAPerson(t *testing.T) {
	svc, _ := placing(t)
	c, err := svc.Change(bg, rating.ChangeInput{Key: "x", Player: "cert", Cause: rating.CauseExam, Certify: ranks.MustParse("2k"),
		Reason: "passed", Actor: "system:exams"})
	if err != nil || !c.Players[0].Placing {
		t.Fatalf("a certification alone: %+v, %v; want still placing", c, err)
	}
	three := -200
	c, err = svc.Change(bg, rating.ChangeInput{Key: "p", Player: "pupil", Cause: rating.CausePlacement, Score: &three,
		Reason: "plays 3k at the club", Actor: "teacher1"})
	if err != nil || c.Players[0].Placing || c.Players[0].Score != -200 || c.Players[0].ShownRank() != "3k?" {
		// Placed, but no game has settled the deviation: still "?".
		t.Fatalf("placed by a teacher: %+v, %v", c, err)
	}
	if _, err := svc.Apply(bg, game("g0", "mid", "other", rating.SideBlack)); err != nil {
		t.Fatal(err)
	}
	c, err = svc.Change(bg, rating.ChangeInput{Key: "a", Player: "mid", Cause: rating.CauseAdjustment, Delta: intp(100), Reason: "known 1d", Actor: "root"})
	if err != nil || c.Players[0].Placing || c.Players[0].PlacingGames != 1 {
		t.Fatalf("adjusted during placement: %+v, %v", c, err)
	}
	for i := range rating.PlacementGames + 1 {
		for _, n := range []string{"pupil", "mid"} {
			r, err := svc.Apply(bg, game(fmt.Sprint(n, i), n, fmt.Sprint(n, "opp", i), rating.SideWhite))
			if err != nil {
				t.Fatal(err)
			}
			if r.Black.Placing || r.Black.PlacingGames > 1 {
				t.Fatalf("%s placing again after a person placed them: %+v", n, r.Black.PlayerState)
			}
		}
	}
	for _, n := range []string{"pupil", "mid"} {
		h, err := svc.History(bg, n, 0, 50)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range h {
			if e.Actor == rating.PlacementActor {
				t.Fatalf("%s was placed by the rule after a person: %+v", n, e)
			}
		}
	}
	if rep, err := svc.VerifyAll(bg, "t"); err != nil || !rep.OK() {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
}

// TestPlacementOff: without ServiceConfig.Placement nobody places.
func TestPlacementOff(t *testing.T) {
	svc := rating.NewService(newStore(t), rating.ServiceConfig{Now: fixedClock})
	var r rating.GameResult
	var err error
	score := 0
	for i := range rating.PlacementGames + 1 {
		if r, err = svc.Apply(bg, game(fmt.Sprint("g", i), "newbie", fmt.Sprint("opp", i), rating.SideBlack)); err != nil {
			t.Fatal(err)
		}
		if r.Black.Placing || r.Black.PlacingGames != 0 {
			t.Fatalf("placing without placement: %+v", r.Black.PlayerState)
		}
		d, _ := rating.Ladder(score, 0, rating.Game{Moves: 150})
		score += d.Winner
	}
	if r.Black.Score != score || r.Black.Seq != int64(rating.PlacementGames+1) || r.Black.ShownRank() != "1k" {
		t.Fatalf("newbie after %d games: %+v", rating.PlacementGames+1, r.Black.PlayerState)
	}
}

// TestPlacementAfterAnAnnulment: an annulled placement game still counts
// (Glicko-2 keeps it) and is in the evidence.
func TestPlacementAfterAnAnnulment(t *testing.T) {
	svc, _ := placing(t)
	var ids []string
	for i := range rating.PlacementGames {
		id := fmt.Sprint("g", i)
		ids = append(ids, id)
		r, err := svc.Apply(bg, game(id, "newbie", fmt.Sprint("opp", i), rating.SideWhite))
		if err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			c, err := svc.Annul(bg, rating.AnnulInput{GameID: "g1", Actor: "root", Reason: "wrong result"})
			if err != nil || c.Players[0].Username != "newbie" || c.Players[0].PlacingGames != 3 || !c.Players[0].Placing {
				t.Fatalf("annulment: %+v, %v", c, err)
			}
		}
		if i == rating.PlacementGames-1 {
			want, _ := rating.PlacedScore(r.Black.Glicko)
			if r.Black.Placing || r.Black.Score != want || want >= -100 {
				t.Fatalf("ten losses place at %+v, want %d (below 1k)", r.Black.PlayerState, want)
			}
		}
	}
	h, err := svc.History(bg, "newbie", 0, 1)
	if err != nil || !slices.Equal(h[0].Evidence, ids) {
		t.Fatalf("placement evidence %v, %v; want %v", h[0].Evidence, err, ids)
	}
	if rep, err := svc.VerifyAll(bg, "t"); err != nil || !rep.OK() {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
}

// TestPlacementJSON: the state and the progress as the API shows them.
func TestPlacementJSON(t *testing.T) {
	st := rating.NewPlayer("newbie")
	st.Placing, st.PlacingGames = true, 3
	b, _ := json.Marshal(st)
	if !strings.Contains(string(b), `"placing":true,"placing_games":3`) {
		t.Errorf("state JSON %s", b)
	}
	b, _ = json.Marshal(st.Progress())
	if string(b) != fmt.Sprintf(`{"played":3,"of":%d,"placed":false}`, rating.PlacementGames) {
		t.Errorf("progress JSON %s", b)
	}
	b, _ = json.Marshal(rating.NewPlayer("old"))
	if strings.Contains(string(b), "placing") {
		t.Errorf("a placed player's JSON names placing: %s", b)
	}
}

// TestPlacementFaults: the check of the rule's placements on crafted
// ledgers (hashes aside: ChainFaults checks those).
func TestPlacementFaults(t *testing.T) {
	gl := rating.Glicko{Rating: 1800.4, RD: 140, Volatility: 0.06}
	ledger := func() []rating.LedgerEntry {
		var es []rating.LedgerEntry
		var ids []string
		for i := range rating.PlacementGames {
			id := fmt.Sprint("g", i)
			ids = append(ids, id)
			es = append(es, rating.LedgerEntry{Username: "p", Seq: int64(i + 1), Cause: rating.CauseGame, CauseID: id, ScoreAfter: 5 * (i + 1), Glicko: gl})
		}
		return append(es, rating.LedgerEntry{Username: "p", Seq: int64(len(es) + 1), Cause: rating.CausePlacement, CauseID: ids[len(ids)-1],
			Actor: rating.PlacementActor, ScoreBefore: 50, ScoreAfter: 300, Delta: 250, Glicko: gl, Evidence: ids})
	}
	if f := rating.PlacementFaults(ledger()); len(f) != 0 {
		t.Fatalf("a right placement: %v", f)
	}
	for _, tc := range []struct {
		name string
		edit func([]rating.LedgerEntry) []rating.LedgerEntry
		want string
	}{
		{"score", func(es []rating.LedgerEntry) []rating.LedgerEntry { es[len(es)-1].ScoreAfter = 301; return es }, "the rule gives 300"},
		{"glicko", func(es []rating.LedgerEntry) []rating.LedgerEntry { es[len(es)-1].Glicko.RD = 100; return es }, "is not the last placement game's"},
		{"few games", func(es []rating.LedgerEntry) []rating.LedgerEntry {
			es[len(es)-1].Evidence = es[len(es)-1].Evidence[1:]
			return es
		}, fmt.Sprintf("lists %d placement games", rating.PlacementGames-1)},
		{"foreign game", func(es []rating.LedgerEntry) []rating.LedgerEntry {
			es[len(es)-1].Evidence = append([]string{"x"}, es[len(es)-1].Evidence[1:]...)
			return es
		}, "lists game x"},
		{"not after its game", func(es []rating.LedgerEntry) []rating.LedgerEntry { es[len(es)-1].CauseID = "g3"; return es }, "does not come right after"},
		{"twice", func(es []rating.LedgerEntry) []rating.LedgerEntry {
			p := es[len(es)-1]
			p.Seq++
			return append(es, p)
		}, "a second placement"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := rating.PlacementFaults(tc.edit(ledger()))
			if len(f) == 0 || !strings.Contains(f[0].Reason, tc.want) || f[0].Check != rating.CheckPlacement {
				t.Fatalf("faults %v, want one saying %q", f, tc.want)
			}
		})
	}
	// A placement by a person is not the rule's to check.
	es := ledger()
	es[len(es)-1].Actor, es[len(es)-1].ScoreAfter = "root", 900
	if f := rating.PlacementFaults(es); len(f) != 0 {
		t.Fatalf("an admin's placement checked as the rule's: %v", f)
	}
}

// TestPlacementRuleStep: the pure rule counts a placing player's games
// and places them after the last; it leaves everyone else alone.
func TestPlacementRuleStep(t *testing.T) {
	rule := rating.PlacementRule{Games: 3, Ceiling: 250}
	st := rating.NewPlayer("p")
	st.Score, st.Glicko.Rating = 15, 1800
	if got, placed, err := rule.Step(st); err != nil || placed || got != st {
		t.Fatalf("a player not placing: %+v, %v, %v", got, placed, err)
	}
	st.Placing = true
	for i := 1; i <= 3; i++ {
		got, placed, err := rule.Step(st)
		if err != nil || got.PlacingGames != i || placed != (i == 3) {
			t.Fatalf("game %d: %+v, %v, %v", i, got, placed, err)
		}
		if i < 3 && (got.Score != 15 || !got.Placing) {
			t.Fatalf("placed early at game %d: %+v", i, got)
		}
		if i == 3 && (got.Score != 250 || got.Placing) {
			t.Fatalf("the last game: %+v, want placed at the ceiling 250 (suggestion 300)", got)
		}
		st = got
		st.Placing = i < 3
	}
	st = rating.NewPlayer("q")
	st.Placing, st.PlacingGames, st.Glicko.Rating = true, 2, 1420.4
	if got, placed, _ := rule.Step(st); !placed || got.Score != -80 {
		t.Fatalf("below the ceiling: %+v, want -80", got)
	}
}

// TestPairingScore: the ladder score, or the Glicko-2 suggestion while
// placing.
func TestPairingScore(t *testing.T) {
	st := rating.NewPlayer("p")
	st.Score, st.Glicko.Rating = 40, 2012.6
	if got := st.PairingScore(); got != 40 {
		t.Errorf("placed: %d, want the ladder score 40", got)
	}
	st.Placing = true
	if got := st.PairingScore(); got != 513 {
		t.Errorf("placing: %d, want the suggestion 513 (beyond the ceiling: pairing is not bounded)", got)
	}
}
