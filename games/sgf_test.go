package games

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseSGF(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(t *testing.T, r *Record)
	}{
		{
			name: "game info, moves and passes",
			in:   "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[Ke Jie]BR[9p]PW[Shin Jinseo]WR[9p]DT[2024-01-02]RE[B+R];B[ee];W[];B[tt])",
			check: func(t *testing.T, r *Record) {
				want := []Move{Play(Black, pt("ee")), PassMove(White), PassMove(Black)}
				if r.Size != 9 || r.Komi != 7.5 || r.Rules != Chinese() || !reflect.DeepEqual(r.Moves, want) {
					t.Fatalf("got size %d komi %v rules %v moves %v", r.Size, r.Komi, r.Rules, r.Moves)
				}
				if r.Black != (Player{"Ke Jie", "9p"}) || r.White != (Player{"Shin Jinseo", "9p"}) || r.Date != "2024-01-02" {
					t.Fatalf("players %v %v date %q", r.Black, r.White, r.Date)
				}
				if r.End != EndResign || r.EndBy != White || r.Result != "B+R" {
					t.Fatalf("end %v by %v result %q", r.End, r.EndBy, r.Result)
				}
			},
		},
		{
			name: "escaped text and soft line breaks",
			in:   "(;PB[Lee \\] Sedol\\\\]PW[Go\\\nSeigen];B[pd])",
			check: func(t *testing.T, r *Record) {
				if r.Black.Name != `Lee ] Sedol\` || r.White.Name != "GoSeigen" {
					t.Fatalf("names %q %q", r.Black.Name, r.White.Name)
				}
			},
		},
		{
			name: "main line of a game tree",
			in:   "(;SZ[9];B[ee](;W[cc];B[gg](;W[cg])(;W[gc]))(;W[gg]))",
			check: func(t *testing.T, r *Record) {
				want := seq("B ee, W cc, B gg, W cg")
				if !reflect.DeepEqual(r.Moves, want) {
					t.Fatalf("main line %v, want %v", r.Moves, want)
				}
			},
		},
		{
			name: "B[tt] is a point above 19×19",
			in:   "(;SZ[21];B[tt])",
			check: func(t *testing.T, r *Record) {
				if r.Moves[0].Pass || r.Moves[0].Point != (Point{19, 19}) {
					t.Fatalf("got %v", r.Moves[0])
				}
			},
		},
		{
			name: "komi written times 100",
			in:   "(;SZ[19]KM[750];B[pd])",
			check: func(t *testing.T, r *Record) {
				if r.Komi != 7.5 || !hasNote(r, "KM[750]") {
					t.Fatalf("komi %v notes %v", r.Komi, r.Assumptions)
				}
			},
		},
		{
			name: "handicap without AB: fixed points",
			in:   "(;SZ[19]HA[2]KM[0.5];W[qd])",
			check: func(t *testing.T, r *Record) {
				want := []Stone{{Black, pt("pd")}, {Black, pt("dp")}}
				if r.Handicap != 2 || !reflect.DeepEqual(r.Setup, want) || !hasNote(r, "fixed star points") {
					t.Fatalf("handicap %d setup %v notes %v", r.Handicap, r.Setup, r.Assumptions)
				}
			},
		},
		{
			name: "AB without HA and White first: handicap",
			in:   "(;SZ[19]AB[dd][pp][dp]KM[0];W[pd])",
			check: func(t *testing.T, r *Record) {
				if r.Handicap != 3 || len(r.Setup) != 3 || !hasNote(r, "handicap assumed") {
					t.Fatalf("handicap %d notes %v", r.Handicap, r.Assumptions)
				}
			},
		},
		{
			name: "compressed point list",
			in:   "(;SZ[9]AB[aa:bb]AW[ee])",
			check: func(t *testing.T, r *Record) {
				if len(r.Setup) != 5 || r.Setup[3] != (Stone{Black, pt("bb")}) || r.Setup[4] != (Stone{White, pt("ee")}) {
					t.Fatalf("setup %v", r.Setup)
				}
			},
		},
		{
			name: "missing KM, RU and RE; final passes: a counted game under Chinese rules assumed",
			in:   "(;SZ[9];B[ee];W[];B[])",
			check: func(t *testing.T, r *Record) {
				if r.Komi != 7.5 || r.End != EndScore || len(r.Assumptions) != 2 {
					t.Fatalf("komi %v end %v notes %v", r.Komi, r.End, r.Assumptions)
				}
			},
		},
		{
			name: "counted result without final passes is accepted with a note",
			in:   "(;SZ[9]KM[7.5]RE[W+7.5];B[ee])",
			check: func(t *testing.T, r *Record) {
				if r.End != EndScore || !hasNote(r, "ended by agreement") {
					t.Fatalf("end %v notes %v", r.End, r.Assumptions)
				}
			},
		},
		{
			name: "unknown ruleset: Chinese assumed",
			in:   "(;SZ[9]RU[Tibetan]KM[7])",
			check: func(t *testing.T, r *Record) {
				if r.Rules != Chinese() || !hasNote(r, "RU[Tibetan]") {
					t.Fatalf("rules %v notes %v", r.Rules, r.Assumptions)
				}
			},
		},
		{
			name: "dead stones from territory marks",
			in:   "(;SZ[5]KM[0]AB[ca][cb][cc][cd][ce]AW[ac][eb];B[];W[]TB[aa][ac][ae]TW[dc][eb])",
			check: func(t *testing.T, r *Record) {
				// ac: a white stone on Black's territory; eb: White's own stone, not dead.
				if !reflect.DeepEqual(r.Dead, []Point{pt("ac")}) || r.End != EndScore {
					t.Fatalf("dead %v end %v", r.Dead, r.End)
				}
			},
		},
		{
			name: "escape is carried by ER",
			in:   "(;SZ[19]KM[7.5]RE[B+F]ER[escape:W];B[pd])",
			check: func(t *testing.T, r *Record) {
				if r.End != EndEscape || r.EndBy != White {
					t.Fatalf("end %v by %v", r.End, r.EndBy)
				}
			},
		},
		{
			name: "lower-case letters in property names (FF[3]) are ignored",
			in:   "(;GaMe[1]SiZe[9];B[ee])",
			check: func(t *testing.T, r *Record) {
				if r.Size != 9 || len(r.Moves) != 1 {
					t.Fatalf("size %d moves %v", r.Size, r.Moves)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRecord([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, r)
		})
	}
}

func hasNote(r *Record, s string) bool {
	for _, a := range r.Assumptions {
		if strings.Contains(a, s) {
			return true
		}
	}
	return false
}

func TestParseSGFCollection(t *testing.T) {
	recs, err := ParseSGF([]byte("garbage before (;SZ[9];B[ee])\n(;SZ[13];B[gg];W[dd])\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Size != 9 || recs[1].Size != 13 || len(recs[1].Moves) != 2 {
		t.Fatalf("got %d games", len(recs))
	}
	if _, err := ParseRecord([]byte("(;SZ[9])(;SZ[9])")); !errors.Is(err, ErrBadSGF) {
		t.Fatalf("two games for one record: %v", err)
	}
}

func TestParseSGFErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "no game"},
		{"(;SZ[19];B[pd]", 14, "not closed"}, // perhaps cut short: never read as a shorter game
		{"(;SZ[19];B[pd", 10, "not closed by ']'"},
		{"(;SZ[19];B[p!])", 10, "not a point"},
		{"(;GM[2])", 4, "not a game of Go"},
		{"(;SZ[30])", 4, "board size"},
		{"(;SZ[9:13])", 4, "square"},
		{"(;SZ[9]AB[jj])", 9, "off the 9×9"},
		{"(;B[ee];C[x](;W[aa]);B[bb])", 20, "cannot follow a variation"},
		{"((;B[aa]))", 1, "must start with a node"},
		{"(;RU[chinese ko=sideways])", 4, "RU["},
		{"(;ER[lost])", 4, "end reason"},
		{"(", 1, "not closed"},
		{"(;SZ[9]AB[aa:zz])", 9, "not a rectangle"},
	}
	for _, tc := range tests {
		_, err := ParseSGF([]byte(tc.in))
		var se *SGFError
		if !errors.As(err, &se) || !errors.Is(err, ErrBadSGF) {
			t.Errorf("%q: %v, want an SGFError", tc.in, err)
			continue
		}
		if se.Offset != tc.offset || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%q: byte %d %q, want byte %d and %q", tc.in, se.Offset, se.Msg, tc.offset, tc.msg)
		}
	}
}

// roundTrip checks that writing a parsed record and parsing it again gives
// the same record (what a reader assumed is not written back).
func roundTrip(t *testing.T, r *Record) {
	t.Helper()
	out := r.SGF()
	back, err := ParseRecord(out)
	if err != nil {
		t.Fatalf("re-reading our own SGF: %v\n%s", err, out)
	}
	a, b := *r, *back
	a.Assumptions, b.Assumptions = nil, nil
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("round trip changed the record\nbefore %+v\nafter  %+v\nsgf %s", a, b, out)
	}
}

func TestSGFRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/selfplay/*.sgf")
	files2, _ := filepath.Glob("testdata/golden/*.sgf")
	for _, f := range append(files, files2...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := ParseSGF(data)
		if err != nil {
			continue // the golden files include bad SGF on purpose
		}
		for _, r := range recs {
			roundTrip(t, r)
		}
	}
	custom, _ := ParseRuleset("japanese ko=positional komi=5.5 cycle=draw")
	for _, r := range []*Record{
		{Size: 19, Rules: Chinese(), Komi: 0, Handicap: 4, Setup: []Stone{{Black, pt("dd")}, {Black, pt("pp")}, {Black, pt("dp")}, {Black, pt("pd")}},
			Moves: seq("W qf, B pass"), End: EndTime, EndBy: White, Result: "B+T", Black: Player{"黑", "3d"}, White: Player{"a]b\\c", ""}},
		{Size: 7, Rules: custom, Komi: 5.5, Moves: seq("B dd, W pass, B pass"), End: EndScore, Result: "B+42.5"},
		{Size: 7, Rules: Ing(), Komi: 8, Moves: seq("B dd"), End: EndDraw, Result: "0"},
		{Size: 9, Rules: QQ(), Komi: 7.5, Moves: seq("B ee"), End: EndEscape, EndBy: Black, Result: "W+F"},
		{Size: 9, Rules: Japanese(), Komi: 6.5, Moves: seq("B ee"), End: EndVoid, Result: "Void"},
		{Size: 5, Rules: Chinese(), Komi: 0, Moves: seq("B bb, W cc, B pass, W pass"), End: EndScore, Dead: []Point{pt("cc")}, Result: "B+25"},
	} {
		roundTrip(t, r)
		if v, err := Judge(r); err != nil {
			t.Errorf("%s: %v", r.SGF(), err)
		} else if r.Result != v.Result {
			t.Errorf("%s: judged %s", r.SGF(), v.Result)
		}
	}
}

func TestWriteSGFCollection(t *testing.T) {
	a := &Record{Size: 9, Rules: Chinese(), Komi: 7.5, Moves: seq("B ee"), End: EndResign, EndBy: White, Result: "B+R"}
	b := &Record{Size: 13, Rules: Japanese(), Komi: 6.5, Moves: seq("B gg, W dd"), End: EndResign, EndBy: Black, Result: "W+R"}
	var buf bytes.Buffer
	if err := WriteSGF(&buf, a, b); err != nil {
		t.Fatal(err)
	}
	recs, err := ParseSGF(buf.Bytes())
	if err != nil || len(recs) != 2 || recs[1].Rules != Japanese() || len(recs[1].Moves) != 2 {
		t.Fatalf("collection back: %v %v", recs, err)
	}
}
