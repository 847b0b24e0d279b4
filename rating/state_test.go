package rating

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

func TestNewState(t *testing.T) {
	s := NewState()
	if s.Score != 0 || s.Glicko != NewGlicko() || s.Rank().String() != "1k" {
		t.Errorf("NewState() = %+v, rank %s", s, s.Rank())
	}
}

func TestApply(t *testing.T) {
	a := State{Score: 120, Glicko: Glicko{1620, 80, 0.06}}
	b := State{Score: 50, Glicko: Glicko{1540, 150, 0.05}}
	one := func(p, o State, score float64) Glicko {
		g, err := Default.Update(p.Glicko, []Result{{Opponent: o.Glicko, Score: score}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	tests := []struct {
		name         string
		game         Game
		dw, dl       int
		rated        bool
		glicko       bool
		scoreW, scoL float64
	}{
		{"ordinary win", long, 3, -3, true, true, Win, Loss},
		{"short win: no ladder gain, Glicko as usual", Game{Moves: 20}, 0, -3, true, true, Win, Loss},
		{"escape: double loss, Glicko as usual", Game{Moves: 90, Escape: true}, 3, -6, true, true, Win, Loss},
		{"draw: Glicko only", Game{Moves: 250, Outcome: Draw}, 0, 0, true, true, Tie, Tie},
		{"void: nothing", Game{Moves: 250, Outcome: Void}, 0, 0, false, false, 0, 0},
		{"handicap: nothing", Game{Moves: 250, Handicap: 3}, 0, 0, false, false, 0, 0},
	}
	for _, tt := range tests {
		got, err := Default.Apply(a, b, tt.game)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := Applied{Winner: a, Loser: b, Deltas: Deltas{tt.dw, tt.dl, tt.rated}}
		want.Winner.Score += tt.dw
		want.Loser.Score += tt.dl
		if tt.glicko {
			want.Winner.Glicko = one(a, b, tt.scoreW)
			want.Loser.Glicko = one(b, a, tt.scoL)
		}
		if got != want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, want)
		}
	}
}

func TestApplyDrawIsSymmetric(t *testing.T) {
	a := State{Score: -300, Glicko: Glicko{1300, 60, 0.06}}
	b := State{Score: 410, Glicko: Glicko{2010, 200, 0.07}}
	g := Game{Moves: 180, Outcome: Draw}
	ab, err1 := Default.Apply(a, b, g)
	ba, err2 := Default.Apply(b, a, g)
	if err1 != nil || err2 != nil || ab.Winner != ba.Loser || ab.Loser != ba.Winner {
		t.Errorf("draw a,b = %+v; b,a = %+v", ab, ba)
	}
	if !(ab.Winner.Glicko.Rating > a.Glicko.Rating && ab.Loser.Glicko.Rating < b.Glicko.Rating) {
		t.Errorf("a draw against a stronger player should raise the weaker: %+v", ab)
	}
}

func TestApplyNewPlayersMirror(t *testing.T) {
	got, err := Default.Apply(NewState(), NewState(), long)
	if err != nil {
		t.Fatal(err)
	}
	w, l := got.Winner, got.Loser
	if w.Score != 5 || l.Score != -5 {
		t.Errorf("scores %d, %d", w.Score, l.Score)
	}
	if math.Abs((w.Glicko.Rating-1500)-(1500-l.Glicko.Rating)) > 1e-9 || w.Glicko.RD != l.Glicko.RD ||
		!(w.Glicko.RD < NewRD) || !(w.Glicko.Rating > 1500) {
		t.Errorf("new players: %+v", got)
	}
}

func TestApplyRejectsAndAppliesNothing(t *testing.T) {
	bad := NewState()
	bad.Glicko.RD = 0
	tests := []struct {
		sys   System
		w, l  State
		game  Game
		field string
	}{
		{Default, NewState(), NewState(), Game{Moves: -3}, "moves"},
		{Default, State{Score: ScoreLimit + 1}, NewState(), long, "winner score"},
		{Default, bad, NewState(), long, "winner rd"},
		{Default, NewState(), bad, long, "loser rd"},
		{System{Tau: -1}, NewState(), NewState(), long, "tau"},
		// A void game still checks its input: bad data is bad data.
		{Default, bad, NewState(), Game{Outcome: Void}, "winner rd"},
	}
	for _, tt := range tests {
		got, err := tt.sys.Apply(tt.w, tt.l, tt.game)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != tt.field {
			t.Errorf("Apply(%+v, %+v, %+v) error %v, want one naming %q", tt.w, tt.l, tt.game, err, tt.field)
		}
		if got != (Applied{}) {
			t.Errorf("Apply returned %+v with its error", got)
		}
	}
}

func TestAppliedJSON(t *testing.T) {
	got, _ := Default.Apply(State{Score: 50, Glicko: NewGlicko()}, State{Score: 120, Glicko: NewGlicko()}, long)
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"winner", "loser", "winner_delta", "loser_delta", "rated"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON %s lacks %q", b, k)
		}
	}
	var back Applied
	if err := json.Unmarshal(b, &back); err != nil || back != got {
		t.Errorf("round trip: %+v, %v; want %+v", back, err, got)
	}
	gb, _ := json.Marshal(Game{Moves: 12, Outcome: Draw})
	if string(gb) != `{"moves":12,"handicap":0,"outcome":"draw"}` {
		t.Errorf("Game JSON %s", gb)
	}
}
