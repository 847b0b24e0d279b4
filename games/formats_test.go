package games

import (
	"reflect"
	"testing"
)

// A Tygem .gib file as the client saves it, cut to what the reader uses.
const gibFile = `\HS
\[GAMEINFOMAIN=GBKIND:3,GTYPE:0,GCDT:2016-12-31,GTIME:1200-30-3,GRLT:1,ZIPSU:35,GONGJE:65,\]
\[GAMETAG=S1,R3,D0,G65,W1,Z35,T30-3-1200,C2016:12:31:21:05,\]
\[GAMEBLACKNAME=kimchi (9D)\]
\[GAMEWHITENAME=spicy (8D)\]
\HE
\GS
2 1 0
INI 0 1 0 &4
STO 0 2 1 15 3
STO 0 3 2 3 15
STO 0 4 1 3 3
SKI 0 5
STO 0 6 1 15 15
SKI 0 7
SKI 0 8
\GE
`

func TestReadGIB(t *testing.T) {
	if f := DetectFormat([]byte(gibFile)); f != FormatGIB {
		t.Fatalf("format %s", f)
	}
	recs, err := ReadRecords([]byte(gibFile), ReadOptions{})
	if err != nil || len(recs) != 1 {
		t.Fatalf("%v %d", err, len(recs))
	}
	r := recs[0]
	want := seq("B pd, W dp, B dd, W pass, B pp, W pass, B pass")
	if !reflect.DeepEqual(r.Moves, want) || r.Komi != 6.5 || r.Rules != Japanese() || r.Result != "W+3.5" || r.End != EndScore ||
		r.Black != (Player{"kimchi", "9D"}) || r.White != (Player{"spicy", "8D"}) || r.Date != "2016-12-31" || r.Source != "Tygem .gib" || !hasNote(r, "converted from Tygem") ||
		r.TimeLimit != "1200" || r.Overtime != "3x30 byo-yomi" {
		t.Fatalf("got %+v", r)
	}
	roundTrip(t, r)
	// A handicap game: the stones on the fixed points, White first.
	h := `\[GAMEINFOMAIN=GRLT:3,ZIPSU:0,GONGJE:0,\]` + "\nINI 0 1 3 &4\nSTO 0 1 2 16 16\n"
	recs, err = ReadRecords([]byte(h), ReadOptions{})
	if err != nil || recs[0].Handicap != 3 || len(recs[0].Setup) != 3 || recs[0].Result != "B+R" || recs[0].Moves[0] != Play(White, Point{16, 16}) {
		t.Fatalf("handicap: %v %+v", err, recs[0])
	}
	if _, err := Judge(recs[0]); err != nil {
		t.Fatalf("judge: %v", err)
	}
	if _, err := ReadRecords([]byte(`\[GAMETAG=W1\]`+"\nSTO 0 1 x 3 3\n"), ReadOptions{}); err == nil {
		t.Fatal("a bad move was read")
	}
}

// A Pandanet .ugf file; IGS coordinates count rows from the bottom.
const ugfFile = `[Header]
Lang=JP
Title=Oteai
Place=IGS
Date=2004/01/25,10:00
Rule=JPN
Size=19
Hdcp=2,0.5
Ptime=J;240;0;0,J;240;0;0,0,0
Winner=W,4.5
PlayerB=alpha,3d,
PlayerW=beta,5d,
CoordinateType=IGS
[Data]
PP,B0,0
DD,B0,0
QD,W1,10
DP,B2,12
YA,W3,0
YA,B4,0
[Figure]
`

func TestReadUGF(t *testing.T) {
	if f := DetectFormat([]byte(ugfFile)); f != FormatUGF {
		t.Fatalf("format %s", f)
	}
	recs, err := ReadRecords([]byte(ugfFile), ReadOptions{})
	if err != nil || len(recs) != 1 {
		t.Fatalf("%v %d", err, len(recs))
	}
	r := recs[0]
	// PP counted from the bottom left of a 19×19 board is the SGF "pd".
	wantSetup := []Stone{{Black, pt("pd")}, {Black, pt("dp")}}
	if !reflect.DeepEqual(r.Setup, wantSetup) || r.Handicap != 2 || r.Komi != 0.5 || r.Result != "W+4.5" ||
		!reflect.DeepEqual(r.Moves, seq("W qp, B dd, W pass, B pass")) || r.Black != (Player{"alpha", "3d"}) ||
		r.GameName != "Oteai" || r.Place != "IGS" || r.Date != "2004-01-25" || r.Rules != Japanese() ||
		r.TimeLimit != "14400" || !hasNote(r, "Ptime=J;240;0;0,J;240;0;0,0,0 read as 240 minutes' main time each (TM[14400])") {
		t.Fatalf("got %+v", r)
	}
	roundTrip(t, r)
}

// TestReadUGFTime: Ptime's main time becomes TM; what it cannot say is
// said in a note, never guessed.
func TestReadUGFTime(t *testing.T) {
	for _, tc := range []struct{ ptime, tm, note string }{
		{"J;180;0;0,J;180;0;0,0,0", "10800", "read as 180 minutes' main time each"},
		{"J;60;1;5,J;60;1;5,0,0", "3600", "its other numbers are not read"},
		{"J;60;0;0", "3600", "read as 60 minutes"},
		{"J;240;0;0,J;180;0;0,0,0", "", "different main times: no TM"},
		{"J;0;0;0,J;0;0;0,0,0", "", "no main time"},
		{"fast", "", "not a time setting this reader knows"},
		{"J;x;0;0", "", "not a time setting this reader knows"},
		{"J;360;0;0", "21600", "read as 360 minutes"},
		{"J;361;0;0", "", "beyond 6h0m0s: no TM"},
		{"J;153722867280912931;0;0", "", "beyond 6h0m0s: no TM"}, // *60 overflowed
	} {
		recs, err := ReadRecords([]byte("[Header]\nSize=9\nPtime="+tc.ptime+"\n[Data]\nEE,B1,1,0\n"), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := recs[0]; r.TimeLimit != tc.tm || !hasNote(r, tc.note) || r.Overtime != "" {
			t.Errorf("Ptime=%s: TM %q OT %q, want %q (%q)", tc.ptime, r.TimeLimit, r.Overtime, tc.tm, r.Assumptions)
		}
	}
}

// TestReadRecordsCollection: a file of several games is several records.
func TestReadRecordsCollection(t *testing.T) {
	recs, err := ReadRecords([]byte("(;SZ[9]KM[7.5];B[ee])\n(;SZ[13]KM[6.5];B[gg];W[dd])(;SZ[19]RE[W+R];B[pd])"), ReadOptions{})
	if err != nil || len(recs) != 3 || recs[1].Size != 13 || recs[2].Result != "W+R" {
		t.Fatalf("%v %d", err, len(recs))
	}
}
