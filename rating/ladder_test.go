package rating

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/ranks"
)

// long is a game long enough for the winner to gain.
var long = Game{Moves: 200}

// The worked examples of rating.md §2, row by row.
func TestWorkedExamples(t *testing.T) {
	tests := []struct {
		sw, sl         int
		rankW, rankL   string // as the spec annotates them
		game           Game
		winner, loser  int
		diff           int
		higher, lower  bool // the spec says "winner higher" / "winner lower"
		equalRankLower bool // "equal rank, winner lower score"
	}{
		{sw: 0, rankW: "1k", sl: 30, rankL: "1k", game: long, diff: 30, winner: 5, loser: -5},
		{sw: 120, rankW: "1d", sl: 50, rankL: "1k", game: long, higher: true, diff: 70, winner: 3, loser: -3},
		{sw: 50, rankW: "1k", sl: 120, rankL: "1d", game: long, lower: true, diff: 70, winner: 7, loser: -7},
		{sw: 400, rankW: "4d", sl: 150, rankL: "1d", game: long, higher: true, diff: 250, winner: 0, loser: -1},
		{sw: 150, rankW: "1d", sl: 400, rankL: "4d", game: long, lower: true, diff: 250, winner: 10, loser: -10},
		{sw: 300, rankW: "3d", sl: 180, rankL: "1d", game: long, higher: true, diff: 120, winner: 1, loser: -1},
		{sw: -850, rankW: "9k", sl: -790, rankL: "9k", game: long, equalRankLower: true, diff: 60, winner: 6, loser: -6},
		{sw: 0, sl: 0, game: Game{Moves: 35}, winner: 0, loser: -5},
		{sw: 0, sl: 0, game: Game{Moves: 200, Escape: true}, winner: 5, loser: -10},
	}
	for _, tt := range tests {
		if tt.rankW != "" && (ranks.FromScore(tt.sw).String() != tt.rankW || ranks.FromScore(tt.sl).String() != tt.rankL) {
			t.Errorf("%d, %d: ranks %s, %s; the spec says %s, %s", tt.sw, tt.sl,
				ranks.FromScore(tt.sw), ranks.FromScore(tt.sl), tt.rankW, tt.rankL)
		}
		if d := tt.sw - tt.sl; tt.diff != 0 && d != tt.diff && -d != tt.diff {
			t.Errorf("%d, %d: diff is not %d", tt.sw, tt.sl, tt.diff)
		}
		h := winnerHigher(tt.sw, tt.sl)
		if tt.higher && !h || (tt.lower || tt.equalRankLower) && h {
			t.Errorf("winnerHigher(%d, %d) = %v", tt.sw, tt.sl, h)
		}
		if tt.equalRankLower && ranks.FromScore(tt.sw) != ranks.FromScore(tt.sl) {
			t.Errorf("%d, %d: ranks differ", tt.sw, tt.sl)
		}
		got, err := Ladder(tt.sw, tt.sl, tt.game)
		want := Deltas{Winner: tt.winner, Loser: tt.loser, Rated: true}
		if err != nil || got != want {
			t.Errorf("Ladder(%d, %d, %+v) = %+v, %v; want %+v", tt.sw, tt.sl, tt.game, got, err, want)
		}
	}
}

// Every band edge of the table, with the winner higher and lower, at
// several places on the ladder (the deltas depend only on the difference).
func TestBandEdges(t *testing.T) {
	tests := []struct {
		diff                int
		higherWin, lowerWin int // winner's gain = loser's loss, except where noted
		higherLoss          int
	}{
		{diff: 0, higherWin: 5, lowerWin: 5, higherLoss: 5},
		{diff: 1, higherWin: 5, lowerWin: 5, higherLoss: 5},
		{diff: 49, higherWin: 5, lowerWin: 5, higherLoss: 5},
		{diff: 50, higherWin: 5, lowerWin: 5, higherLoss: 5}, // continuous at 50
		{diff: 59, higherWin: 5, lowerWin: 5, higherLoss: 5},
		{diff: 60, higherWin: 4, lowerWin: 6, higherLoss: 4},
		{diff: 99, higherWin: 1, lowerWin: 9, higherLoss: 1},
		{diff: 100, higherWin: 1, lowerWin: 10, higherLoss: 1},
		{diff: 150, higherWin: 1, lowerWin: 10, higherLoss: 1},
		{diff: 200, higherWin: 1, lowerWin: 10, higherLoss: 1},
		{diff: 201, higherWin: 0, lowerWin: 10, higherLoss: 1},
		{diff: 5000, higherWin: 0, lowerWin: 10, higherLoss: 1},
	}
	for _, base := range []int{-2000, -850, -130, 0, 17, 450, 880, 3000} {
		for _, tt := range tests {
			// Winner higher (for diff 0 "higher" and "lower" agree).
			got, err := Ladder(base+tt.diff, base, long)
			if want := (Deltas{tt.higherWin, -tt.higherLoss, true}); err != nil || got != want {
				t.Errorf("diff %d, winner higher at %d: %+v, %v; want %+v", tt.diff, base, got, err, want)
			}
			got, err = Ladder(base, base+tt.diff, long)
			if want := (Deltas{tt.lowerWin, -tt.lowerWin, true}); err != nil || got != want {
				t.Errorf("diff %d, winner lower at %d: %+v, %v; want %+v", tt.diff, base, got, err, want)
			}
		}
	}
}

func TestSpecialCases(t *testing.T) {
	tests := []struct {
		name          string
		sw, sl        int
		game          Game
		winner, loser int
		rated         bool
	}{
		{"39 moves: winner gains nothing", 0, 0, Game{Moves: MinMovesToGain - 1}, 0, -5, true},
		{"40 moves: ordinary", 0, 0, Game{Moves: MinMovesToGain}, 5, -5, true},
		{"no moves at all", 50, 120, Game{}, 0, -7, true},
		{"short game, winner higher far", 400, 150, Game{Moves: 10}, 0, -1, true},
		{"handicap 2", 0, 0, Game{Moves: 200, Handicap: 2}, 0, 0, false},
		{"handicap 9", -500, 600, Game{Moves: 200, Handicap: 9}, 0, 0, false},
		{"让先 is a handicap game", 0, 0, Game{Moves: 200, Handicap: 1}, 0, 0, false},
		{"escape in a handicap game", 0, 0, Game{Moves: 200, Handicap: 3, Escape: true}, 0, 0, false},
		{"draw", 0, 300, Game{Moves: 200, Outcome: Draw}, 0, 0, true},
		{"short draw", 0, 300, Game{Moves: 3, Outcome: Draw}, 0, 0, true},
		{"handicap draw", 0, 300, Game{Moves: 200, Outcome: Draw, Handicap: 4}, 0, 0, false},
		{"void", 0, 300, Game{Moves: 200, Outcome: Void}, 0, 0, false},
		{"escape, winner lower", 150, 400, Game{Moves: 200, Escape: true}, 10, -20, true},
		{"escape, winner higher far", 400, 150, Game{Moves: 200, Escape: true}, 0, -2, true},
		{"escape, close band", 120, 50, Game{Moves: 200, Escape: true}, 3, -6, true},
		{"escape before move 40: no gain, double loss", 0, 0, Game{Moves: 12, Escape: true}, 0, -10, true},
	}
	for _, tt := range tests {
		got, err := Ladder(tt.sw, tt.sl, tt.game)
		if want := (Deltas{tt.winner, tt.loser, tt.rated}); err != nil || got != want {
			t.Errorf("%s: Ladder(%d, %d, %+v) = %+v, %v; want %+v", tt.name, tt.sw, tt.sl, tt.game, got, err, want)
		}
	}
}

func TestLadderRejects(t *testing.T) {
	tests := []struct {
		sw, sl int
		game   Game
		field  string
	}{
		{ScoreLimit + 1, 0, long, "winner score"},
		{0, -ScoreLimit - 1, long, "loser score"},
		{math.MinInt, 0, long, "winner score"},
		{0, math.MaxInt, long, "loser score"},
		{0, 0, Game{Moves: -1}, "moves"},
		{0, 0, Game{Moves: 100, Handicap: -1}, "handicap"},
		{0, 0, Game{Moves: 100, Outcome: 3}, "outcome"},
		{0, 0, Game{Moves: 100, Outcome: Draw, Escape: true}, "escape"},
		{0, 0, Game{Moves: 100, Outcome: Void, Escape: true}, "escape"},
	}
	for _, tt := range tests {
		got, err := Ladder(tt.sw, tt.sl, tt.game)
		var ie *InputError
		if !errors.Is(err, ErrInvalidGame) || !errors.As(err, &ie) || ie.Field != tt.field {
			t.Errorf("Ladder(%d, %d, %+v) error %v, want one naming %q", tt.sw, tt.sl, tt.game, err, tt.field)
		}
		if got != (Deltas{}) {
			t.Errorf("Ladder(%d, %d, %+v) = %+v with an error", tt.sw, tt.sl, tt.game, got)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "rating: "+tt.field+" ") {
			t.Errorf("message %q does not start with the field", err)
		}
	}
	if _, err := Ladder(ScoreLimit, -ScoreLimit, long); err != nil {
		t.Errorf("scores at the limit: %v", err)
	}
}

// checkProperties checks the properties issue 3 lists for one input; the
// property test and the fuzz target share it.
func checkProperties(t *testing.T, w, l int, g Game) {
	t.Helper()
	d, err := Ladder(w, l, g)
	if err != nil {
		if !errors.Is(err, ErrInvalidGame) {
			t.Fatalf("Ladder(%d, %d, %+v): error %v is not ErrInvalidGame", w, l, g, err)
		}
		return
	}
	if again, _ := Ladder(w, l, g); again != d {
		t.Fatalf("Ladder(%d, %d, %+v) gave %+v, then %+v", w, l, g, d, again)
	}
	if d.Winner < 0 || d.Loser > 0 {
		t.Fatalf("Ladder(%d, %d, %+v) = %+v: a winner lost or a loser gained", w, l, g, d)
	}
	if d.Winner > UpsetPoints || d.Loser < -UpsetPoints*EscapeFactor {
		t.Fatalf("Ladder(%d, %d, %+v) = %+v: beyond the table", w, l, g, d)
	}
	unrated := g.Outcome != Decisive || g.Handicap > 0
	if unrated && (d.Winner != 0 || d.Loser != 0) {
		t.Fatalf("Ladder(%d, %d, %+v) = %+v: a draw, void or handicap game moved a score", w, l, g, d)
	}
	if d.Rated != (g.Outcome != Void && g.Handicap == 0) {
		t.Fatalf("Ladder(%d, %d, %+v).Rated = %v", w, l, g, d.Rated)
	}
	if unrated {
		return
	}
	plain := g
	plain.Escape = false
	p, err := Ladder(w, l, plain)
	if err != nil {
		t.Fatal(err)
	}
	if g.Escape && (d.Winner != p.Winner || d.Loser != EscapeFactor*p.Loser) {
		t.Fatalf("escape: %+v, plain win %+v: want the same gain and a doubled loss", d, p)
	}
	if p.Loser == 0 {
		t.Fatalf("Ladder(%d, %d, %+v): the loser lost nothing", w, l, plain)
	}
	full := plain
	full.Moves = max(full.Moves, MinMovesToGain)
	f, _ := Ladder(w, l, full)
	if g.Moves < MinMovesToGain && (p.Winner != 0 || p.Loser != f.Loser) {
		t.Fatalf("short game %+v, full game %+v: want no gain and the same loss", p, f)
	}
	// Only the two scores' difference matters (see winnerHigher).
	if winnerHigher(w, l) != (w > l) {
		t.Fatalf("winnerHigher(%d, %d) = %v", w, l, !(w > l))
	}
	for _, shift := range []int{-1000, -100, -1, 1, 99, 1000} {
		if abs(w+shift) > ScoreLimit || abs(l+shift) > ScoreLimit {
			continue
		}
		if s, _ := Ladder(w+shift, l+shift, g); s != d {
			t.Fatalf("Ladder(%d, %d) = %+v but shifted by %d = %+v", w, l, d, shift, s)
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func TestLadderProperties(t *testing.T) {
	games := []Game{
		long, {Moves: 39}, {Moves: 0}, {Moves: 40, Escape: true}, {Moves: 5, Escape: true},
		{Moves: 200, Handicap: 1}, {Moves: 200, Handicap: 5, Escape: true},
		{Moves: 200, Outcome: Draw}, {Moves: 200, Outcome: Void},
	}
	for w := -1300; w <= 1300; w += 23 {
		for l := -1300; l <= 1300; l += 29 {
			for _, g := range games {
				checkProperties(t, w, l, g)
			}
		}
	}
}

func FuzzLadder(f *testing.F) {
	f.Add(0, 30, 200, 0, uint8(0), false)
	f.Add(120, 50, 200, 0, uint8(0), false)
	f.Add(-850, -790, 200, 0, uint8(0), false)
	f.Add(0, 0, 35, 0, uint8(0), true)
	f.Add(0, 0, 200, 1, uint8(1), false)
	f.Add(400, 150, 200, 0, uint8(2), false)
	f.Add(ScoreLimit, -ScoreLimit, 1, 0, uint8(0), true)
	f.Fuzz(func(t *testing.T, w, l, moves, handicap int, outcome uint8, escape bool) {
		checkProperties(t, w, l, Game{Moves: moves, Handicap: handicap, Outcome: Outcome(outcome), Escape: escape})
	})
}

func TestOutcomeText(t *testing.T) {
	for o := Decisive; o <= Void; o++ {
		b, err := o.MarshalText()
		var back Outcome
		if err != nil || back.UnmarshalText(b) != nil || back != o {
			t.Errorf("%v: text %q, %v; back %v", o, b, err, back)
		}
	}
	var o Outcome
	if err := o.UnmarshalText([]byte("won")); !errors.Is(err, ErrInvalidGame) || !strings.Contains(err.Error(), `"won"`) {
		t.Errorf("UnmarshalText(won) error %v", err)
	}
	if _, err := Outcome(9).MarshalText(); err == nil {
		t.Error("MarshalText(9): no error")
	}
	if Outcome(9).String() != "Outcome(9)" {
		t.Errorf("Outcome(9) prints %q", Outcome(9).String())
	}
}
