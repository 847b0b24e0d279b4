package games

import (
	"errors"
	"testing"
)

// TestRulesVectors: every test vector of rules.md §8 (19×19, 361 points).
// Counts are as the documents give them; a count of B leaves 361−B to
// White when there is no dame.
func TestRulesVectors(t *testing.T) {
	tests := []struct {
		name         string
		rules        Ruleset
		black, white float64 // each side's count (area) or points (territory)
		komi         float64
		handicap     int
		want         string
		stones       float64 // margin in stones, area scoring (0: not checked)
	}{
		{"area, even: B 185, komi 3¾", Chinese(), 185, 176, 7.5, 0, "B+1.5", 0.75},
		{"area, even: B 184, komi 3¾", Chinese(), 184, 177, 7.5, 0, "W+0.5", -0.25},
		{"area, seki half point: B 184½, komi 3¾", Chinese(), 184.5, 176.5, 7.5, 0, "B+0.5", 0.25},
		{"area, 6 handicap: W 178, no komi, 3 stones back", Chinese(), 183, 178, 0, 6, "W+1", -0.5},
		{"seed 004, area, komi 3¾: W+¼ stone", Chinese(), 140 + 44, 140 + 37, 7.5, 0, "W+0.5", -0.25},
		{"seed 004, territory, komi 6.5, equal prisoners", Japanese(), 44 + 10, 37 + 10, 6.5, 0, "B+0.5", 0},
		{"seed 004, area, komi 3¼ stones: B+¼ stone", Chinese(), 184, 177, 6.5, 0, "B+0.5", 0.25},
		{"seed 004, territory, komi 6.5 points", Japanese(), 44, 37, 6.5, 0, "B+0.5", 0},
		{"Ing: komi 8, B − W = 8: Black wins", Ing(), 184.5, 176.5, 8, 0, "B+0", 0},
		{"Ing: komi 8, B − W = 7: White wins", Ing(), 184, 177, 8, 0, "W+1", 0},
		{"Chinese: equal to the base is a draw", Chinese(), 184.25 + 0.25, 176.5, 8, 0, "0", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Score{Komi: tc.komi, Compensation: compensation(tc.rules, tc.handicap)}
			s.Black.Score, s.White.Score = tc.black, tc.white
			s.settle(tc.rules, Penalties{})
			if got := s.Result.String(); got != tc.want {
				t.Fatalf("got %s (margin %v), want %s", got, s.Margin, tc.want)
			}
			if tc.stones != 0 && s.MarginStones() != tc.stones {
				t.Fatalf("margin %v stones, want %v", s.MarginStones(), tc.stones)
			}
		})
	}
}

// wall19 is a 19×19 position with no dame: Black's wall on column
// blackCol in the top rows rows and on blackCol+1 below, White's just
// right of it. Black's area is rows×(blackCol+1) + (19−rows)×(blackCol+2).
func wall19(rows, blackCol int) []string {
	var out []string
	for y := 0; y < 19; y++ {
		b := blackCol
		if y >= rows {
			b++
		}
		line := make([]byte, 19)
		for x := range line {
			switch {
			case x == b:
				line[x] = 'X'
			case x == b+1:
				line[x] = 'O'
			default:
				line[x] = '.'
			}
		}
		out = append(out, string(line))
	}
	return out
}

// sekiBoard: an inner white group (eye aa) and an inner black group (eye
// ea) share the liberty ca and live in seki; Black owns the lower left,
// White the right.
var sekiBoard = []string{
	".O.X.XO..",
	"OOOXXXO..",
	"XXXOOOO..",
	"..XO.....",
	"..XO.....",
	"..XO.....",
	"..XO.....",
	"..XO.....",
	"..XO.....",
}

func TestScorePosition(t *testing.T) {
	tests := []struct {
		name     string
		rows     []string
		params   ScoreParams
		want     string
		b, w     SideScore
		dame     int
		seki     int
		captures [3]int // prisoners taken in play, by colour
	}{
		{
			name: "area, even, B 185", rows: wall19(5, 8), params: ScoreParams{Rules: Chinese(), Komi: 7.5},
			want: "B+1.5", b: SideScore{Stones: 19, Territory: 166, Score: 185}, w: SideScore{Stones: 19, Territory: 157, Score: 176},
		},
		{
			name: "area, even, B 184", rows: wall19(6, 8), params: ScoreParams{Rules: Chinese(), Komi: 7.5},
			want: "W+0.5", b: SideScore{Stones: 19, Territory: 165, Score: 184}, w: SideScore{Stones: 19, Territory: 158, Score: 177},
		},
		{
			name: "area, 6 handicap, W 178: White wins by half a stone", rows: wall19(7, 8), params: ScoreParams{Rules: Chinese(), Handicap: 6},
			want: "W+1", b: SideScore{Stones: 19, Territory: 164, Score: 183}, w: SideScore{Stones: 19, Territory: 159, Score: 178},
		},
		{
			name: "territory: seki eyes count for no one", rows: sekiBoard, params: ScoreParams{Rules: Japanese()},
			want: "W+24", b: SideScore{Stones: 14, Territory: 12, Score: 12}, w: SideScore{Stones: 16, Territory: 36, Score: 36}, dame: 1, seki: 2,
		},
		{
			name: "area: seki eyes are the owner's, the shared liberty is split", rows: sekiBoard, params: ScoreParams{Rules: Chinese()},
			want: "W+26", b: SideScore{Stones: 14, Territory: 13, Dame: 0.5, Score: 27.5}, w: SideScore{Stones: 16, Territory: 37, Dame: 0.5, Score: 53.5}, dame: 1,
		},
		{
			name: "territory: dead stones are prisoners and their points territory", params: ScoreParams{Rules: Japanese(), Komi: 6.5, Dead: []Point{{0, 5}}},
			rows: []string{
				".O.X.XO..",
				"OOOXXXO..",
				"XXXOOOO..",
				"..XO.....",
				"..XO.....",
				"O.XO.....",
				"..XO.....",
				"..XO.....",
				"..XO.....",
			},
			want: "W+29.5", b: SideScore{Stones: 14, Territory: 12, Prisoners: 1, Score: 13}, w: SideScore{Stones: 16, Territory: 36, Score: 36}, dame: 1, seki: 2,
		},
		{
			name: "territory: open dame between two living walls is no seki", params: ScoreParams{Rules: Japanese()},
			rows: []string{"..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O...."},
			want: "W+18", b: SideScore{Stones: 9, Territory: 18, Score: 18}, w: SideScore{Stones: 9, Territory: 36, Score: 36}, dame: 9,
		},
		{
			// Black's stone on the right has its last liberty inside
			// Black's territory: Black must fill it, or White captures.
			name: "territory: a point Black must fill is no territory", params: ScoreParams{Rules: Japanese()},
			rows: []string{"...XO..", "...XO..", "...XO..", "..X.XO.", "...XO..", "...XO..", "...XO.."},
			want: "B+7", b: SideScore{Stones: 8, Territory: 20, Fills: 1, Score: 20}, w: SideScore{Stones: 7, Territory: 13, Score: 13},
		},
		{
			// Black's stone (4,3) has its last liberty inside Black's
			// territory once White fills both dame, but Black, taking
			// either of them itself, joins the stone to the wall.
			name: "territory: no fill where two dame could each join the chain to the wall", params: ScoreParams{Rules: Japanese()},
			rows: []string{"...XO..", "...XO..", "...X.O.", "..X.XO.", "...X.O.", "...XO..", "...XO.."},
			want: "B+10", b: SideScore{Stones: 8, Territory: 21, Score: 21}, w: SideScore{Stones: 7, Territory: 11, Score: 11}, dame: 2,
		},
		{
			name: "area: the fill is a point either way", params: ScoreParams{Rules: Chinese()},
			rows: []string{"...XO..", "...XO..", "...XO..", "..X.XO.", "...XO..", "...XO..", "...XO.."},
			want: "B+9", b: SideScore{Stones: 8, Territory: 21, Score: 29}, w: SideScore{Stones: 7, Territory: 13, Score: 20},
		},
		{
			// The black corner group has one eye: filling it would be
			// suicide, so nothing is filled (the group is dead, which is
			// the dead stones' business, not the count's).
			name: "territory: no fill where filling is suicide", params: ScoreParams{Rules: Japanese()},
			rows: []string{".XO....", "XXO....", "OOO....", ".......", ".......", ".......", "......."},
			want: "W+39", b: SideScore{Stones: 3, Territory: 1, Score: 1}, w: SideScore{Stones: 5, Territory: 40, Score: 40},
		},
		{
			// The dead white stone at (3,4) has one liberty, (3,3); once
			// White fills the dame (4,5), Black's chain (4,3)-(4,4) has
			// that point only: Black must take the stone there, a fill.
			name: "territory: a chain put in atari by the dame takes the dead stone next to it", params: ScoreParams{Rules: Japanese(), Dead: []Point{{3, 4}}},
			rows: []string{"..XO...", "..XO...", "..XXO..", "..X.XO.", "..XoXO.", "..XX.O.", "..XXOO."},
			want: "B+4", b: SideScore{Stones: 12, Territory: 15, Fills: 1, Prisoners: 1, Score: 16}, w: SideScore{Stones: 8, Territory: 12, Score: 12}, dame: 1,
		},
		{
			// White's stone (1,1) has one liberty, (0,1), Black's
			// dead stones around it, and no dame near: White need not
			// fill (Black's capture there is no threat, or White would
			// have answered it in play).
			name: "territory: dead stones around a chain in atari in its own territory force no fill", params: ScoreParams{Rules: Japanese(), Dead: []Point{{1, 0}, {2, 1}, {1, 2}}},
			rows: []string{"Ox.O.X.", ".OxO.X.", "OxOO.X.", "O.O.X..", "...OX..", "...OX..", "...OX.."},
			want: "W+7", b: SideScore{Stones: 7, Territory: 11, Score: 11}, w: SideScore{Stones: 12, Territory: 15, Prisoners: 3, Score: 18}, dame: 4,
		},
		{
			name: "area: dame split half and half", params: ScoreParams{Rules: Chinese(), Komi: 7.5},
			rows: []string{"..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O...."},
			want: "W+25.5", b: SideScore{Stones: 9, Territory: 18, Dame: 4.5, Score: 31.5}, w: SideScore{Stones: 9, Territory: 36, Dame: 4.5, Score: 49.5}, dame: 9,
		},
		{
			// Three one-point dame: played out, the side to move takes two.
			name: "area, Black to move: the odd dame is Black's", params: ScoreParams{Rules: Chinese(), ToMove: Black},
			rows: []string{"..XXO..", "..X.O..", "..XXO..", "..X.O..", "..XXO..", "..X.O..", "..XXO.."},
			want: "B+5", b: SideScore{Stones: 11, Territory: 14, Dame: 2, Score: 27}, w: SideScore{Stones: 7, Territory: 14, Dame: 1, Score: 22}, dame: 3,
		},
		{
			name: "area, White to move: the odd dame is White's", params: ScoreParams{Rules: Chinese(), ToMove: White},
			rows: []string{"..XXO..", "..X.O..", "..XXO..", "..X.O..", "..XXO..", "..X.O..", "..XXO.."},
			want: "B+3", b: SideScore{Stones: 11, Territory: 14, Dame: 1, Score: 26}, w: SideScore{Stones: 7, Territory: 14, Dame: 2, Score: 23}, dame: 3,
		},
		{
			name: "area, no side to move: the odd dame is split", params: ScoreParams{Rules: Chinese()},
			rows: []string{"..XXO..", "..X.O..", "..XXO..", "..X.O..", "..XXO..", "..X.O..", "..XXO.."},
			want: "B+4", b: SideScore{Stones: 11, Territory: 14, Dame: 1.5, Score: 26.5}, w: SideScore{Stones: 7, Territory: 14, Dame: 1.5, Score: 22.5}, dame: 3,
		},
		{
			// White's dame (4,2) puts Black's stone (4,3) in atari: Black
			// connects at (3,3), in its own territory, and White takes
			// the other dame (4,5) too.
			name: "area: a dame that forces an answer gains a tempo", params: ScoreParams{Rules: Chinese(), ToMove: White},
			rows: []string{"...XO..", "...XO..", "...X.O.", "..X.XO.", "...XO..", "...X.O.", "...XO.."},
			want: "B+9", b: SideScore{Stones: 8, Territory: 21, Score: 29}, w: SideScore{Stones: 7, Territory: 11, Dame: 2, Score: 20}, dame: 2,
		},
		{
			name: "area: the same, Black to move", params: ScoreParams{Rules: Chinese(), ToMove: Black},
			rows: []string{"...XO..", "...XO..", "...X.O.", "..X.XO.", "...XO..", "...X.O.", "...XO.."},
			want: "B+13", b: SideScore{Stones: 8, Territory: 21, Dame: 2, Score: 31}, w: SideScore{Stones: 7, Territory: 11, Score: 18}, dame: 2,
		},
		{
			// Nine open points in one region: an unfinished boundary,
			// not dame to play out.
			name: "area, Black to move: an open region of seven points or more stays split", params: ScoreParams{Rules: Chinese(), Komi: 7.5, ToMove: Black},
			rows: []string{"..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O....", "..X.O...."},
			want: "W+25.5", b: SideScore{Stones: 9, Territory: 18, Dame: 4.5, Score: 31.5}, w: SideScore{Stones: 9, Territory: 36, Dame: 4.5, Score: 49.5}, dame: 9,
		},
		{
			name: "Chinese: a warning costs one stone", rows: wall19(5, 8), params: ScoreParams{Rules: Chinese(), Komi: 7.5, Penalties: Penalties{BlackWarnings: 1}},
			want: "W+0.5", b: SideScore{Stones: 19, Territory: 166, Penalty: 2, Score: 185}, w: SideScore{Stones: 19, Territory: 157, Score: 176},
		},
		{
			name: "Chinese: a second warning loses", rows: wall19(5, 8), params: ScoreParams{Rules: Chinese(), Komi: 7.5, Penalties: Penalties{WhiteWarnings: 2}},
			want: "B+F", b: SideScore{Stones: 19, Territory: 166, Score: 185}, w: SideScore{Stones: 19, Territory: 157, Penalty: 4, Score: 176},
		},
		{
			name: "Ing: 2 points per overtime period", rows: wall19(5, 8), params: ScoreParams{Rules: Ing(), Komi: 8, Penalties: Penalties{BlackOvertime: 1, WhiteOvertime: 2}},
			want: "B+3", b: SideScore{Stones: 19, Territory: 166, Penalty: 2, Score: 185}, w: SideScore{Stones: 19, Territory: 157, Penalty: 4, Score: 176},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := BoardFromRows(tc.rows)
			if err != nil {
				t.Fatal(err)
			}
			s, err := ScorePosition(b, tc.params)
			if err != nil {
				t.Fatal(err)
			}
			if s.Result.String() != tc.want || s.Black != tc.b || s.White != tc.w || s.Dame != tc.dame || s.Seki != tc.seki {
				t.Fatalf("got %s black %+v white %+v dame %d seki %d\nwant %s black %+v white %+v dame %d seki %d",
					s.Result, s.Black, s.White, s.Dame, s.Seki, tc.want, tc.b, tc.w, tc.dame, tc.seki)
			}
		})
	}
}

func TestScoreDeadStones(t *testing.T) {
	b, err := BoardFromRows(sekiBoard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ScorePosition(b, ScoreParams{Rules: Chinese(), Dead: []Point{{4, 4}}}); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("dead mark on an empty point: %v", err)
	}
	// Marking one stone marks its chain: the whole outer black wall.
	s, err := ScorePosition(b, ScoreParams{Rules: Chinese(), Dead: []Point{{2, 5}, {2, 6}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Dead) != 9 || s.White.Prisoners != 9 {
		t.Fatalf("dead %v, white prisoners %d; want the 9 stones of the chain", s.Dead, s.White.Prisoners)
	}
}
