package games

import (
	"errors"
	"strings"
	"testing"
)

// stonesFromRows turns a picture ('X' black, 'O' white) into setup stones.
func stonesFromRows(rows ...string) []Stone {
	var st []Stone
	for y, r := range rows {
		for x := 0; x < len(r); x++ {
			switch r[x] {
			case 'X':
				st = append(st, Stone{Black, Point{x, y}})
			case 'O':
				st = append(st, Stone{White, Point{x, y}})
			}
		}
	}
	return st
}

func pt(s string) Point {
	p, err := ParseSGFPoint(s)
	if err != nil {
		panic(err)
	}
	return p
}

// seq parses "B aa, W pass, B bb" into moves.
func seq(s string) []Move {
	var ms []Move
	for _, f := range strings.Split(s, ",") {
		var m Move
		if err := m.UnmarshalText([]byte(strings.TrimSpace(f))); err != nil {
			panic(err)
		}
		ms = append(ms, m)
	}
	return ms
}

func newTestGame(t *testing.T, rules Ruleset, rows ...string) *Game {
	t.Helper()
	g, err := NewGame(len(rows), rules, 0, stonesFromRows(rows...))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		rules Ruleset
		rows  []string
		moves string
		err   error // of the last move; nil: all legal
		after []string
		capB  int // stones Black has captured at the end
		capW  int
	}{
		{
			name: "corner capture", rules: Chinese(),
			rows:  []string{"O....", "X....", ".....", ".....", "....."},
			moves: "B ba",
			after: []string{".X...", "X....", ".....", ".....", "....."}, capB: 1,
		},
		{
			name: "capture the opponent first: both without liberties, the mover's survive", rules: Chinese(),
			rows:  []string{".XO..", "XO...", ".O...", ".....", "....."},
			moves: "B ee, W aa",
			after: []string{"O.O..", "XO...", ".O...", ".....", "....X"}, capW: 1,
		},
		{
			name: "single-stone suicide", rules: Chinese(),
			rows:  []string{".O...", "O....", ".....", ".....", "....."},
			moves: "B aa", err: ErrSuicide,
		},
		{
			name: "multi-stone suicide is illegal under Chinese rules", rules: Chinese(),
			rows:  []string{"XX.O.", "OOO..", ".....", ".....", "....."},
			moves: "B ca", err: ErrSuicide,
		},
		{
			name: "multi-stone suicide is legal under Ing rules and removes the group", rules: Ing(),
			rows:  []string{"XX.O.", "OOO..", ".....", ".....", "....."},
			moves: "B ca",
			after: []string{"...O.", "OOO..", ".....", ".....", "....."}, capW: 3,
		},
		{
			name: "single-stone suicide stays illegal under Ing rules", rules: Ing(),
			rows:  []string{".O...", "O....", ".....", ".....", "....."},
			moves: "B aa", err: ErrSuicide,
		},
		{
			name: "occupied", rules: Chinese(),
			rows:  []string{"X....", ".....", ".....", ".....", "....."},
			moves: "B aa", err: ErrOccupied,
		},
		{
			name: "off the board", rules: Chinese(),
			rows:  []string{".....", ".....", ".....", ".....", "....."},
			moves: "B fa", err: ErrOffBoard,
		},
		{
			name: "wrong turn", rules: Chinese(),
			rows:  []string{".....", ".....", ".....", ".....", "....."},
			moves: "B aa, B bb", err: ErrWrongTurn,
		},
		{
			name: "ko: no retake at once", rules: Japanese(),
			rows:  []string{".XO..", "XO.O.", ".XO..", ".....", "....."},
			moves: "B cb, W bb", err: ErrKo,
		},
		{
			name: "ko: retake after a move elsewhere", rules: Japanese(),
			rows:  []string{".XO..", "XO.O.", ".XO..", ".....", "....."},
			moves: "B cb, W ee, B ed, W bb",
			after: []string{".XO..", "XO.O.", ".XO..", "....X", "....O"}, capB: 1, capW: 1,
		},
		{
			name: "ko: a pass lifts the ban under simple ko", rules: Japanese(),
			rows:  []string{".XO..", "XO.O.", ".XO..", ".....", "....."},
			moves: "B cb, W pass, B pass, W bb",
			after: []string{".XO..", "XO.O.", ".XO..", ".....", "....."}, capB: 1, capW: 1,
		},
		{
			name: "superko: the same retake after passes repeats the position (situational)", rules: Chinese(),
			rows:  []string{".XO..", "XO.O.", ".XO..", ".....", "....."},
			moves: "B cb, W pass, B pass, W bb", err: ErrSuperko,
		},
		{
			name: "superko: the same under positional superko", rules: func() Ruleset { r := Chinese(); r.Ko = KoPositional; return r }(),
			rows:  []string{".XO..", "XO.O.", ".XO..", ".....", "....."},
			moves: "B cb, W pass, B pass, W bb", err: ErrSuperko,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := newTestGame(t, tc.rules, tc.rows...)
			ms := seq(tc.moves)
			var err error
			for i, m := range ms {
				if err = g.Play(m); err != nil {
					if i != len(ms)-1 {
						t.Fatalf("move %d %v: %v", i+1, m, err)
					}
				}
			}
			if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
				t.Fatalf("last move: err %v, want %v", err, tc.err)
			}
			if err != nil && !errors.Is(err, ErrIllegalMove) {
				t.Fatalf("%v does not match ErrIllegalMove", err)
			}
			if tc.after == nil {
				return
			}
			if got := strings.Join(g.Board().Rows(), "\n"); got != strings.Join(tc.after, "\n") {
				t.Fatalf("position\n%s\nwant\n%s", got, strings.Join(tc.after, "\n"))
			}
			if g.Captures(Black) != tc.capB || g.Captures(White) != tc.capW {
				t.Fatalf("captures B=%d W=%d, want %d %d", g.Captures(Black), g.Captures(White), tc.capB, tc.capW)
			}
		})
	}
}

// tripleKo has three kos: Black can take at cb (ko 1) and the third; White
// has just lost ko 2's stone, so White can take there.
var tripleKo = []string{
	".XO...XO.",
	"XO.O.X.XO",
	".XO...XO.",
	".........",
	".XO......",
	"XO.O.....",
	".XO......",
	".........",
	".........",
}

// The cycle: B takes ko 1, W takes ko 2, B takes ko 3, W retakes ko 1, B
// retakes ko 2, W retakes ko 3: the start again, Black to move.
const tripleKoCycle = "B cb, W gb, B cf, W bb, B hb, W bf"

func TestTripleKo(t *testing.T) {
	t.Run("superko forbids closing the cycle", func(t *testing.T) {
		for _, r := range []Ruleset{Chinese(), func() Ruleset { r := Chinese(); r.Ko = KoPositional; return r }()} {
			g := newTestGame(t, r, tripleKo...)
			ms := seq(tripleKoCycle)
			for _, m := range ms[:5] {
				if err := g.Play(m); err != nil {
					t.Fatalf("%v: %v", m, err)
				}
			}
			err := g.Play(ms[5])
			var me *MoveError
			if !errors.As(err, &me) || !errors.Is(err, ErrSuperko) || me.Number != 6 {
				t.Fatalf("%v: got %v, want superko at move 6", r.Ko, err)
			}
		}
	})
	t.Run("simple ko ends the game as a cycle", func(t *testing.T) {
		g := newTestGame(t, Japanese(), tripleKo...)
		ms := seq(tripleKoCycle)
		for round := 0; round < 2; round++ {
			for _, m := range ms {
				if err := g.Play(m); err != nil {
					t.Fatalf("round %d %v: %v", round, m, err)
				}
			}
		}
		at, ok := g.Cycle()
		if !ok || at != 12 {
			t.Fatalf("cycle at %d (%v), want the start position's third occurrence at move 12", at, ok)
		}
		if err := g.Play(ms[0]); !errors.Is(err, ErrGameOver) {
			t.Fatalf("a move after the cycle: %v, want ErrGameOver", err)
		}
	})
}

// A ko retaken over and over with passes as "threats" under QQ rules
// (six passes end play, so passes never end it) must end, not loop.
func TestPassKoCycleEnds(t *testing.T) {
	g := newTestGame(t, QQ(), ".XO..", "XO.O.", ".XO..", ".....", ".....")
	ms := seq("B cb, W pass, B pass, W bb, B pass, W pass")
	for i := 0; i < 100; i++ {
		if err := g.Play(ms[i%len(ms)]); err != nil {
			if !errors.Is(err, ErrGameOver) {
				t.Fatalf("move %d: %v", i+1, err)
			}
			if _, ok := g.Cycle(); !ok {
				t.Fatal("game over without a cycle")
			}
			return
		}
	}
	t.Fatal("100 moves of the same ko cycle and the game did not end")
}

func TestMoveErrorNamesMove(t *testing.T) {
	err := &MoveError{Number: 57, Move: Play(Black, pt("pd")), Size: 19, Err: ErrSuperko}
	if got := err.Error(); got != "move 57 (B Q16): superko" {
		t.Fatalf("got %q", got)
	}
	if got := (&MoveError{Number: 3, Move: PassMove(White), Size: 9, Err: ErrWrongTurn}).Error(); got != "move 3 (W pass): wrong_turn" {
		t.Fatalf("got %q", got)
	}
	for _, e := range []error{ErrOccupied, ErrSuicide, ErrKo, ErrSuperko, ErrOffBoard, ErrWrongTurn} {
		me := &MoveError{Err: e}
		if !errors.Is(me, e) || !errors.Is(me, ErrIllegalMove) || me.Reason() == "" {
			t.Errorf("%v: does not unwrap or has no reason code", e)
		}
	}
}

func TestHandicapPlacement(t *testing.T) {
	tests := []struct {
		size, n int
		want    string
	}{
		{19, 2, "pd dp"},
		{19, 3, "pd dp pp"},
		{19, 4, "pd dp pp dd"},
		{19, 5, "pd dp pp dd jj"},
		{19, 6, "pd dp pp dd dj pj"},
		{19, 7, "pd dp pp dd dj pj jj"},
		{19, 8, "pd dp pp dd dj pj jd jp"},
		{19, 9, "pd dp pp dd dj pj jd jp jj"},
		{13, 4, "jd dj jj dd"},
		{9, 2, "gc cg"},
		{9, 9, "gc cg gg cc ce ge ec eg ee"},
	}
	for _, tc := range tests {
		pts, ok := HandicapPoints(tc.size, tc.n)
		var got []string
		for _, p := range pts {
			got = append(got, p.SGF())
		}
		if !ok || strings.Join(got, " ") != tc.want {
			t.Errorf("%d×%d, %d stones: %v %v, want %s", tc.size, tc.size, tc.n, got, ok, tc.want)
		}
	}
	if _, ok := HandicapPoints(11, 4); ok {
		t.Error("11×11 has no fixed placement")
	}
	g, err := NewGame(19, Chinese(), 4, nil)
	if err != nil || g.ToMove() != White || g.At(pt("dd")) != Black || g.Board().Stones(Black) != 4 {
		t.Fatalf("4 fixed stones: %v, to move %v", err, g.ToMove())
	}
	if _, err := NewGame(11, Chinese(), 4, nil); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("fixed handicap on 11×11: %v", err)
	}
	if _, err := NewGame(19, Chinese(), 3, stonesFromRows("XX")); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("3 handicap with 2 free stones: %v", err)
	}
	g, err = NewGame(9, Chinese(), 1, nil)
	if err != nil || g.ToMove() != Black || g.Board().Stones(Black) != 0 {
		t.Fatalf("让先: Black moves first on an empty board: %v", err)
	}
}

func TestBoardSizes(t *testing.T) {
	for _, n := range []int{MinSize, 9, 13, 19, MaxSize} {
		g, err := NewGame(n, Chinese(), 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		far := Point{n - 1, n - 1}
		if err := g.Play(Play(Black, far)); err != nil || g.At(far) != Black {
			t.Fatalf("%d×%d: corner play: %v", n, n, err)
		}
		if err := g.Play(Play(White, Point{n, 0})); !errors.Is(err, ErrOffBoard) {
			t.Fatalf("%d×%d: off the edge: %v", n, n, err)
		}
	}
	for _, n := range []int{MinSize - 1, MaxSize + 1} {
		if _, err := NewGame(n, Chinese(), 0, nil); !errors.Is(err, ErrInvalidRecord) {
			t.Fatalf("size %d accepted", n)
		}
	}
}
