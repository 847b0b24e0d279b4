package integrity_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/integrity"
	"github.com/weiqi-platform/rank/rating"
)

var (
	t0      = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	settled = rating.Glicko{Rating: 1600, RD: 60, Volatility: 0.06}
)

// games builds n games of black against white, one a minute from start;
// each is edited by edit(i, game) (nil: white wins, counted, 200 moves).
func games(prefix, black, white string, n int, start time.Time, edit func(i int, g *integrity.Game)) []integrity.Game {
	var out []integrity.Game
	for i := range n {
		g := integrity.Game{ID: fmt.Sprintf("%s%03d", prefix, i), Winner: white, Moves: 200, End: integrity.EndCount,
			Black: integrity.Side{Player: black, Glicko: settled, Score: 100, Games: 100},
			White: integrity.Side{Player: white, Glicko: settled, Score: 100, Games: 100},
			Ended: start.Add(time.Duration(i) * time.Minute)}
		if edit != nil {
			edit(i, &g)
		}
		out = append(out, g)
	}
	return out
}

// background is ordinary games of everyone named against a pool of
// others: evens, each side winning half, so that the players have other
// games and losses.
func background(names ...string) []integrity.Game {
	var out []integrity.Game
	for _, n := range names {
		for j := range 20 {
			opp := fmt.Sprintf("bg%02d", j)
			w := n
			if j%2 == 0 {
				w = opp
			}
			out = append(out, games("bg-"+n+opp, n, opp, 1, t0.Add(-240*time.Hour), func(_ int, g *integrity.Game) { g.Winner = w })...)
		}
	}
	return out
}

func detect(t *testing.T, in integrity.Input) map[string][]integrity.Flag {
	t.Helper()
	flags, err := integrity.Detect(in, integrity.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	by := map[string][]integrity.Flag{}
	for _, f := range flags {
		by[f.Player] = append(by[f.Player], f)
	}
	return by
}

func tests(fs []integrity.Flag) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Test)
	}
	return out
}

// TestFarmingTests: an accomplice with other games who loses 20 games in
// a row to the same player, half resigned at move 20, raises the pair
// and the early-resignation tests; a captive new account the captive
// ones; the same players trading wins raise nothing.
func TestFarmingTests(t *testing.T) {
	in := integrity.Input{Games: append(background("acc", "farmer"),
		games("f", "acc", "farmer", 20, t0, func(i int, g *integrity.Game) {
			if i%2 == 0 {
				g.End, g.Moves = integrity.EndResign, 20
			}
		})...)}
	by := detect(t, in)
	got := tests(by["farmer"])
	for _, want := range []string{integrity.TestPairZ, integrity.TestPairEarly, integrity.TestOpponentsEarly} {
		if !slices.Contains(got, want) {
			t.Errorf("the farmer's flags %v lack %s", got, want)
		}
	}
	for _, f := range by["farmer"] {
		if f.Kind != integrity.Farming || f.Test == integrity.TestPairZ && (len(f.Evidence) != 20 || f.Statistic < 4 || f.Threshold != 4 ||
			f.Evidence[0].Expected != 0.5 || f.Evidence[0].Actual != 1 || !slices.Equal(f.Others, []string{"acc"}) || !strings.Contains(f.Detail, "z ")) {
			t.Errorf("flag %+v", f)
		}
	}
	if len(by["acc"]) != 0 {
		// acc lost 20 games, some early: their own losses are the
		// farmer's flag, but they may be a sandbagger too.
		for _, f := range by["acc"] {
			if f.Kind != integrity.Sandbagging {
				t.Errorf("the accomplice flagged as %+v", f)
			}
		}
	}

	// A captive new account: plays only the farmer.
	in = integrity.Input{Games: append(background("farmer"), games("c", "sock", "farmer", 20, t0, func(i int, g *integrity.Game) {
		g.Black.Games = i / 2
		if i%4 != 3 {
			g.End, g.Moves = integrity.EndResign, 15
		}
	})...)}
	got = tests(detect(t, in)["farmer"])
	for _, want := range []string{integrity.TestCaptiveEarly, integrity.TestNewAccountsZ} {
		if !slices.Contains(got, want) {
			t.Errorf("against a captive new account, the farmer's flags %v lack %s", got, want)
		}
	}

	// Friends trading wins, some early resignations on both sides.
	in = integrity.Input{Games: append(background("ann", "ben"), games("h", "ann", "ben", 20, t0, func(i int, g *integrity.Game) {
		if i%2 == 0 {
			g.Winner = "ann"
		}
		if i%7 == 0 {
			g.End, g.Moves = integrity.EndResign, 25
		}
	})...)}
	if by := detect(t, in); len(by["ann"])+len(by["ben"]) != 0 {
		t.Errorf("honest friends flagged: %+v %+v", by["ann"], by["ben"])
	}
}

// TestSandbaggingTests: losing far below one's level, resigning in the
// opening, and losing in the week before an eligibility check or when a
// win would cross into the next rank.
func TestSandbaggingTests(t *testing.T) {
	// 30 even games, all lost, half resigned at move 12.
	in := integrity.Input{Games: games("s", "bagger", "opp", 30, t0, func(i int, g *integrity.Game) {
		g.White.Player = fmt.Sprint("opp", i)
		g.Winner = g.White.Player
		if i%2 == 0 {
			g.End, g.Moves = integrity.EndResign, 12
		}
	})}
	got := tests(detect(t, in)["bagger"])
	for _, want := range []string{integrity.TestLossZ, integrity.TestEarlyLosses} {
		if !slices.Contains(got, want) {
			t.Errorf("flags %v lack %s", got, want)
		}
	}

	// Ordinary results all month (half won), but the week before the
	// check lost, all resigned early.
	check := t0.Add(30 * 24 * time.Hour)
	var gs []integrity.Game
	for day := range 30 {
		gs = append(gs, games(fmt.Sprint("d", day, "-"), "bagger", fmt.Sprint("o", day), 2, t0.Add(time.Duration(day)*24*time.Hour), func(i int, g *integrity.Game) {
			if day < 23 && i == 0 {
				g.Winner = "bagger"
			}
			if day >= 23 {
				g.End, g.Moves = integrity.EndResign, 10
			}
		})...)
	}
	by := detect(t, integrity.Input{Games: gs, Checks: []integrity.Check{{Player: "bagger", At: check}}})
	got = tests(by["bagger"])
	for _, want := range []string{integrity.TestWindowZ, integrity.TestWindowEarly} {
		if !slices.Contains(got, want) {
			t.Errorf("before a check: flags %v lack %s", got, want)
		}
	}
	for _, f := range by["bagger"] {
		if f.Test == integrity.TestWindowZ && (len(f.Evidence) != 14 || f.Statistic > -3.5) {
			t.Errorf("window flag %+v: want the 14 games of the week before the check", f)
		}
	}
	// The same games without the check: the window is empty, and the
	// losses of the last week alone are not the whole month's z.
	if got := tests(detect(t, integrity.Input{Games: gs})["bagger"]); slices.Contains(got, integrity.TestWindowZ) {
		t.Errorf("no check, yet %v", got)
	}

	// Near a rank boundary: a score within 10 of the next rank.
	gs = games("b", "bagger", "opp", 32, t0, func(i int, g *integrity.Game) {
		g.White.Player = fmt.Sprint("opp", i)
		g.Winner = g.White.Player
		g.Black.Score = 95 // 1k, 5 below 1d
		if i%2 == 0 {
			g.Black.Score, g.Winner = 40, "bagger"
		}
	})
	if got := tests(detect(t, integrity.Input{Games: gs})["bagger"]); !slices.Contains(got, integrity.TestWindowZ) {
		t.Errorf("losing every game a win would lift them to 1d: flags %v", got)
	}
}

// TestExamCollusionTests: two exam games of the same pair, one resigned
// at move 15, or both upsets Glicko-2 gives 2% each, flag both players.
func TestExamCollusionTests(t *testing.T) {
	weak := rating.Glicko{Rating: 1300, RD: 60, Volatility: 0.06}
	strong := rating.Glicko{Rating: 2000, RD: 60, Volatility: 0.06}
	for _, tc := range []struct {
		name string
		edit func(i int, g *integrity.Game)
		test string
	}{
		{"early", func(i int, g *integrity.Game) {
			g.Exam = true
			if i == 1 {
				g.End, g.Moves = integrity.EndResign, 15
			}
		}, integrity.TestExamEarly},
		{"improbable", func(i int, g *integrity.Game) {
			g.Exam, g.Black.Glicko, g.White.Glicko = true, strong, weak
		}, integrity.TestExamImprobable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			by := detect(t, integrity.Input{Games: games("x", "a", "b", 2, t0, tc.edit)})
			for _, p := range []string{"a", "b"} {
				fs := by[p]
				if len(fs) != 1 || fs[0].Kind != integrity.ExamCollusion || fs[0].Test != tc.test || len(fs[0].Evidence) != 2 || len(fs[0].Others) != 1 {
					t.Errorf("%s: %+v", p, fs)
				}
			}
		})
	}
	// The same two games, not exams, or one exam game: nothing.
	for _, gs := range [][]integrity.Game{
		games("x", "a", "b", 2, t0, func(i int, g *integrity.Game) { g.End, g.Moves = integrity.EndResign, 15 }),
		games("x", "a", "b", 1, t0, func(i int, g *integrity.Game) { g.Exam, g.End, g.Moves = true, integrity.EndResign, 15 }),
	} {
		if by := detect(t, integrity.Input{Games: gs}); len(by["a"]) != 0 {
			t.Errorf("%+v flagged %+v", gs, by["a"])
		}
	}
}

// TestDetectRefusesBadGames: each unreadable game is an *InputError
// naming the game and the field.
func TestDetectRefusesBadGames(t *testing.T) {
	ok := games("g", "a", "b", 1, t0, nil)[0]
	for _, tc := range []struct {
		field string
		edit  func(*integrity.Game)
	}{
		{"id", func(g *integrity.Game) { g.ID = "" }},
		{"players", func(g *integrity.Game) { g.White.Player = "" }},
		{"players", func(g *integrity.Game) { g.White.Player = "a" }},
		{"winner", func(g *integrity.Game) { g.Winner = "c" }},
		{"moves", func(g *integrity.Game) { g.Moves = -1 }},
		{"ended", func(g *integrity.Game) { g.Ended = time.Time{} }},
		{"glicko", func(g *integrity.Game) { g.Black.Glicko.RD = 0 }},
	} {
		g := ok
		tc.edit(&g)
		_, err := integrity.Detect(integrity.Input{Games: []integrity.Game{ok, g}}, integrity.Defaults())
		var ie *integrity.InputError
		if !errors.As(err, &ie) || ie.Field != tc.field || ie.Index != 1 || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: %v", tc.field, err)
		}
	}
}

// TestFlagsAreOrderedAndKeyed: the same input in another order gives the
// same flags, with stable keys.
func TestFlagsAreOrderedAndKeyed(t *testing.T) {
	gs := append(background("acc", "farmer"), games("f", "acc", "farmer", 20, t0, func(i int, g *integrity.Game) {
		g.End, g.Moves = integrity.EndResign, 20
	})...)
	a, err := integrity.Detect(integrity.Input{Games: gs}, integrity.Defaults())
	if err != nil || len(a) == 0 {
		t.Fatalf("%v, %v", a, err)
	}
	rev := slices.Clone(gs)
	slices.Reverse(rev)
	b, _ := integrity.Detect(integrity.Input{Games: rev}, integrity.Defaults())
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("the order of the input changed the flags")
	}
	keys := map[string]bool{}
	for _, f := range a {
		k := f.Key()
		if keys[k] || !strings.HasPrefix(k, string(f.Kind)+"/"+f.Test+"/"+f.Player+"/") {
			t.Errorf("key %q of %+v", k, f)
		}
		keys[k] = true
	}
}
