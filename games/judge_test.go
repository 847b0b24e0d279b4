package games

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	base := func(f func(r *Record)) *Record {
		r := &Record{Size: 9, Rules: Chinese(), Komi: 7.5, Moves: seq("B ee, W cc, B pass, W pass"), End: EndScore}
		f(r)
		return r
	}
	// Black's stone on ee and White's on cc, nothing else: each is alone
	// and the whole board is dame, so White wins by komi.
	tests := []struct {
		name    string
		rec     *Record
		want    Verdict
		err     error
		field   string // for an InvalidRecordError
		claimed string // for a ResultMismatchError
	}{
		{name: "counted, claim agrees", rec: base(func(r *Record) { r.Result = "W+7.5" }),
			want: Verdict{Winner: White, Margin: 7.5, Result: "W+7.5", End: EndScore, Moves: 4}},
		{name: "counted, no claim", rec: base(func(r *Record) {}),
			want: Verdict{Winner: White, Margin: 7.5, Result: "W+7.5", End: EndScore, Moves: 4}},
		{name: "counted, winner-only claim", rec: base(func(r *Record) { r.Result = "W+" }),
			want: Verdict{Winner: White, Margin: 7.5, Result: "W+7.5", End: EndScore, Moves: 4}},
		{name: "counted, wrong margin", rec: base(func(r *Record) { r.Result = "W+3.5" }), err: ErrResultMismatch, claimed: "W+3.5"},
		{name: "counted, wrong winner", rec: base(func(r *Record) { r.Result = "B+R" }), err: ErrResultMismatch, claimed: "B+R"},
		{name: "dead stones change the count", rec: base(func(r *Record) { r.Dead = []Point{pt("cc")}; r.Result = "B+73.5" }),
			want: Verdict{Winner: Black, Margin: 73.5, Result: "B+73.5", End: EndScore, Moves: 4}},
		{name: "resignation", rec: base(func(r *Record) { r.Moves = r.Moves[:2]; r.End, r.EndBy, r.Result = EndResign, Black, "W+R" }),
			want: Verdict{Winner: White, Result: "W+R", End: EndResign, Moves: 2}},
		{name: "resignation, claim names the resigner as winner", rec: base(func(r *Record) { r.End, r.EndBy, r.Result = EndResign, Black, "B+R" }),
			err: ErrResultMismatch, claimed: "B+R"},
		{name: "time", rec: base(func(r *Record) { r.End, r.EndBy, r.Result = EndTime, White, "B+T" }),
			want: Verdict{Winner: Black, Result: "B+T", End: EndTime, Moves: 4}},
		{name: "escape is written as a forfeit", rec: base(func(r *Record) { r.End, r.EndBy, r.Result = EndEscape, White, "B+F" }),
			want: Verdict{Winner: Black, Result: "B+F", End: EndEscape, Moves: 4}},
		{name: "void", rec: base(func(r *Record) { r.End, r.Result = EndVoid, "Void" }),
			want: Verdict{Result: "Void", End: EndVoid, Moves: 4}},
		{name: "draw", rec: base(func(r *Record) { r.End, r.Result = EndDraw, "0" }),
			want: Verdict{Result: "0", End: EndDraw, Moves: 4}},
		{name: "second warning loses", rec: base(func(r *Record) { r.Penalties.BlackWarnings = 2; r.Result = "W+F" }),
			want: Verdict{Winner: White, Result: "W+F", End: EndScore, Moves: 4}},
		{name: "handicap stones are not moves", rec: &Record{Size: 19, Rules: Chinese(), Handicap: 2, Moves: seq("W qf, B pass, W pass"), End: EndResign, EndBy: White, Result: "B+R"},
			want: Verdict{Winner: Black, Result: "B+R", End: EndResign, Moves: 3}},
		{name: "illegal move", rec: base(func(r *Record) { r.Moves = seq("B ee, W ee") }), err: ErrOccupied},
		{name: "no end", rec: base(func(r *Record) { r.End = "" }), err: ErrInvalidRecord, field: "end"},
		{name: "unknown end", rec: base(func(r *Record) { r.End = "boredom" }), err: ErrInvalidRecord, field: "end"},
		{name: "resign without a side", rec: base(func(r *Record) { r.End = EndResign }), err: ErrInvalidRecord, field: "end_by"},
		{name: "side for a count", rec: base(func(r *Record) { r.EndBy = Black }), err: ErrInvalidRecord, field: "end_by"},
		{name: "dead stones in a resigned game", rec: base(func(r *Record) { r.End, r.EndBy, r.Dead = EndResign, Black, []Point{pt("cc")} }),
			err: ErrInvalidRecord, field: "dead"},
		{name: "dead mark on an empty point", rec: base(func(r *Record) { r.Dead = []Point{pt("aa")} }), err: ErrInvalidRecord, field: "dead"},
		{name: "bad result", rec: base(func(r *Record) { r.Result = "Black wins" }), err: ErrInvalidRecord, field: "result"},
		{name: "bad komi", rec: base(func(r *Record) { r.Komi = 7.25 }), err: ErrInvalidRecord, field: "komi"},
		{name: "bad size", rec: base(func(r *Record) { r.Size = 4 }), err: ErrInvalidRecord, field: "size"},
		{name: "bad rules", rec: base(func(r *Record) { r.Rules = Ruleset{} }), err: ErrInvalidRecord, field: "rules"},
		{name: "bad handicap", rec: base(func(r *Record) { r.Handicap = 10 }), err: ErrInvalidRecord, field: "handicap"},
		{name: "negative penalties", rec: base(func(r *Record) { r.Penalties.WhiteOvertime = -1 }), err: ErrInvalidRecord, field: "penalties"},
		{name: "move without colour", rec: base(func(r *Record) { r.Moves[1].Color = Empty }), err: ErrInvalidRecord, field: "moves"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Judge(tc.rec)
			if tc.err == nil {
				if err != nil {
					t.Fatal(err)
				}
				v.Score = nil
				if v != tc.want {
					t.Fatalf("got %+v\nwant %+v", v, tc.want)
				}
				return
			}
			if !errors.Is(err, tc.err) {
				t.Fatalf("got %v, want %v", err, tc.err)
			}
			var ire *InvalidRecordError
			if tc.field != "" && (!errors.As(err, &ire) || ire.Field != tc.field) {
				t.Fatalf("got %v, want an invalid %s", err, tc.field)
			}
			var rme *ResultMismatchError
			if tc.claimed != "" && (!errors.As(err, &rme) || rme.Claimed != tc.claimed || rme.Computed == "") {
				t.Fatalf("got %v, want a mismatch naming the claim %s and the computed result", err, tc.claimed)
			}
		})
	}
}

func TestJudgeCycle(t *testing.T) {
	moves := seq(tripleKoCycle + ", " + tripleKoCycle)
	r := &Record{Size: 9, Rules: Japanese(), Komi: 6.5, Setup: stonesFromRows(tripleKo...), Moves: moves, End: EndVoid}
	v, err := Judge(r)
	if err != nil || v.Result != "Void" || v.Cycle != 12 || v.Winner != Empty {
		t.Fatalf("triple ko: %+v %v", v, err)
	}
	r.Rules.CycleDraw = true
	if v, err := Judge(r); !errors.Is(err, ErrResultMismatch) {
		t.Fatalf("cycle as a draw, record says void: %+v %v", v, err)
	}
	r.End = EndDraw
	if v, err := Judge(r); err != nil || v.Result != "0" || v.End != EndDraw {
		t.Fatalf("cycle as a draw: %+v %v", v, err)
	}
	r.Rules.CycleDraw, r.End, r.Result = false, EndScore, "W+6.5"
	if _, err := Judge(r); !errors.Is(err, ErrResultMismatch) {
		t.Fatalf("a counted claim after a cycle: %v", err)
	}
	r.End, r.Result = EndVoid, ""
	r.Moves = append(r.Moves, seq("B cb")...)
	var ire *InvalidRecordError
	if _, err := Judge(r); !errors.As(err, &ire) || ire.Field != "moves" {
		t.Fatalf("a move after the cycle: %v", err)
	}
}

// A Record travels as JSON (the server's API): it must come back equal.
func TestRecordJSON(t *testing.T) {
	custom, _ := ParseRuleset("qq komi=6.5 tie=B")
	r := &Record{
		Size: 19, Rules: custom, Komi: 6.5, Handicap: 2, Setup: []Stone{{Black, pt("pd")}, {Black, pt("dp")}},
		Moves: seq("W qf, B pass, W pass"), End: EndScore, Dead: []Point{pt("qf")}, Result: "B+361",
		Black: Player{"黑", "2d"}, White: Player{"white", "1k"}, Date: "2026-11-29",
		Penalties: Penalties{WhiteOvertime: 1},
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*r, back) {
		t.Fatalf("JSON round trip\n%s\nbefore %+v\nafter  %+v", data, *r, back)
	}
	if !strings.Contains(string(data), `"moves":["W qf","B pass","W pass"]`) || !strings.Contains(string(data), `"rules":"qq komi=6.5 tie=B"`) {
		t.Fatalf("JSON form: %s", data)
	}
}
