package games

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// quirk is one file written the way some server or editor writes it, what
// the reader must make of it, and the note it must leave: a quirk is never
// read silently.
type quirk struct {
	name  string
	in    string
	note  string // a substring of one of the record's assumptions
	check func(t *testing.T, r *Record)
}

func runQuirks(t *testing.T, tests []quirk) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRecord([]byte(tc.in))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if tc.note != "" && !hasNote(r, tc.note) {
				t.Errorf("no assumption mentions %q: %q", tc.note, r.Assumptions)
			}
			if tc.check != nil {
				tc.check(t, r)
			}
			roundTrip(t, r)
		})
	}
}

func wantResult(res string, end EndReason, by Color) func(t *testing.T, r *Record) {
	return func(t *testing.T, r *Record) {
		t.Helper()
		if r.Result != res || r.End != end || r.EndBy != by {
			t.Errorf("result %q end %q by %v, want %q %q %v (%q)", r.Result, r.End, r.EndBy, res, end, by, r.Assumptions)
		}
	}
}

func TestReadResultQuirks(t *testing.T) {
	const head = "(;GM[1]SZ[9]KM[7.5]"
	const moves = ";B[ee];W[cc])"
	const passes = ";B[ee];W[cc];B[];W[])"
	runQuirks(t, []quirk{
		{"Unfinished", head + "RE[Unfinished]" + moves, "no result yet", wantResult("", "", Empty)},
		{"Game suspended", head + "RE[Game suspended]" + moves, "no result yet", wantResult("", "", Empty)},
		{"X+ is unknown", head + "RE[X+3]" + moves, "names no winner", wantResult("", "", Empty)},
		{"B alone without passes", head + "RE[B]" + moves, "not how the game ended", wantResult("", "", Empty)},
		{"W alone after passes: a count", head + "RE[W]" + passes, "win by counting", wantResult("W+", EndScore, Empty)},
		{"B+Illegal", head + "RE[B+Illegal]" + moves, "read as B+F", wantResult("B+F", EndForfeit, White)},
		{"W+Time Over", head + "RE[W+Time Over]" + moves, "read as W+T", wantResult("W+T", EndTime, Black)},
		{"B+bye", head + "RE[B+bye]" + moves, "read as B+F", wantResult("B+F", EndForfeit, White)},
		{"B+R (timeout)", head + "RE[B+R (timeout)]" + moves, "remark says time", wantResult("B+T", EndTime, White)},
		{"W+Resignation", head + "RE[W+Resignation]" + moves, "read as W+R", wantResult("W+R", EndResign, Black)},
		{"B+Offline", head + "RE[B+Offline]" + moves, "read as B+F", wantResult("B+F", EndEscape, White)},
		{"W+3.5 points", head + "RE[W+3.5 points]" + passes, "read as W+3.5", wantResult("W+3.5", EndScore, Empty)},
		{"B+J (judged): winner only", head + "RE[B+J]" + moves, "neither a margin nor how", wantResult("", "", Empty)},
		{"W+0.02: margin unreadable", head + "RE[W+0.02]" + passes, "not a number of half points", wantResult("W+", EndScore, Empty)},
		{"黑中盘胜", head + "RE[黑中盘胜]" + moves, "read as B+R", wantResult("B+R", EndResign, White)},
		{"白中盘胜", head + "RE[白中盘胜]" + moves, "read as W+R", wantResult("W+R", EndResign, Black)},
		{"白胜3又1/4子", head + "RE[白胜3又1/4子]" + passes, "in stones", wantResult("W+6.5", EndScore, Empty)},
		{"黑胜1/4子", head + "RE[黑胜1/4子]" + passes, "in stones", wantResult("B+0.5", EndScore, Empty)},
		{"黑胜2目半", head + "RE[黑胜2目半]" + passes, "read as B+2.5", wantResult("B+2.5", EndScore, Empty)},
		{"白中盘胜(超时): on time, as B+R (timeout)", head + "RE[白中盘胜(超时)]" + moves, "read as W+T", wantResult("W+T", EndTime, Black)},
		{"W+3 1/2", head + "RE[W+3 1/2]" + passes, "read as W+3.5", wantResult("W+3.5", EndScore, Empty)},
		{"B+2½ points", head + "RE[B+2½ points]" + passes, "read as B+2.5", wantResult("B+2.5", EndScore, Empty)},
		{"白超时胜", head + "RE[白超时胜]" + moves, "read as W+T", wantResult("W+T", EndTime, Black)},
		{"黑超时负: White wins", head + "RE[黑超时负]" + moves, "read as W+T", wantResult("W+T", EndTime, Black)},
		{"和棋", head + "RE[和棋]" + passes, "draw", wantResult("0", EndScore, Empty)},
		{"无胜负", head + "RE[无胜负]" + moves, "Void", wantResult("Void", EndVoid, Empty)},
		{"黒中押し勝ち", head + "RE[黒中押し勝ち]" + moves, "read as B+R", wantResult("B+R", EndResign, White)},
		{"백 불계승", head + "RE[백 불계승]" + moves, "read as W+R", wantResult("W+R", EndResign, Black)},
		{"Fox stones margin B+0.75 under area counting", head + "RU[Chinese]RE[B+0.75]" + passes, "in stones", wantResult("B+1.5", EndScore, Empty)},
		{"Fox stones margin W+1.25", head + "RU[Chinese]RE[W+1.25]" + passes, "in stones", wantResult("W+2.5", EndScore, Empty)},
		{"quarter margin under territory counting: winner only", head + "RU[Japanese]RE[W+1.25]" + passes, "not a number of half points", wantResult("W+", EndScore, Empty)},
		{"Fox B+0.0 before the end: winner only", "(;AP[YuanYu]SZ[9]KM[750]RU[Japanese]RE[B+0.0]" + moves, "win by 0 points", wantResult("", "", Empty)},
		{"Fox W+0.0 after passes: a count, margin not given", head + "RE[W+0.0]" + passes, "win by 0 points", wantResult("W+", EndScore, Empty)},
		{"B+0 under Ing: the tie goes to Black", head + "RU[Ing]RE[B+0]" + passes, "", wantResult("B+0", EndScore, Empty)},
		{"standard results leave no note", head + "RE[B+R]" + moves, "", func(t *testing.T, r *Record) {
			if r.Result != "B+R" || len(r.Assumptions) != 0 {
				t.Errorf("%q %q", r.Result, r.Assumptions)
			}
		}},
	})
}

func wantKomi(k float64) func(t *testing.T, r *Record) {
	return func(t *testing.T, r *Record) {
		t.Helper()
		if r.Komi != k {
			t.Errorf("komi %v, want %v (%q)", r.Komi, k, r.Assumptions)
		}
	}
}

func TestReadKomiQuirks(t *testing.T) {
	runQuirks(t, []quirk{
		{"Fox KM[375]: 3.75 stones", "(;SZ[19]KM[375]RU[Chinese];B[pd])", "3.75 stones", wantKomi(7.5)},
		{"Fox KM[325]: 3.25 stones", "(;SZ[19]KM[325];B[pd])", "3.25 stones", wantKomi(6.5)},
		{"KM[650]", "(;SZ[19]KM[650];B[pd])", "times 100", wantKomi(6.5)},
		{"KM[750]", "(;SZ[19]KM[750];B[pd])", "times 100", wantKomi(7.5)},
		{"KM[3.75]: stones", "(;SZ[19]KM[3.75];B[pd])", "quarter komi", wantKomi(7.5)},
		{"KM[abc]: the ruleset's komi", "(;SZ[19]RU[Japanese]KM[abc];B[pd])", "not a number", wantKomi(6.5)},
		{"KM[333]: the ruleset's komi", "(;SZ[19]KM[333];B[pd])", "too large", wantKomi(7.5)},
		{"KM[7.3]: the ruleset's komi", "(;SZ[19]KM[7.3];B[pd])", "nor a number of quarter stones", wantKomi(7.5)},
		{"KM[]", "(;SZ[19]KM[];B[pd])", "is empty", wantKomi(7.5)},
		{"KM[6.5] is no quirk", "(;SZ[19]KM[6.5];B[pd])", "", func(t *testing.T, r *Record) {
			if r.Komi != 6.5 || len(r.Assumptions) != 0 {
				t.Errorf("%v %q", r.Komi, r.Assumptions)
			}
		}},
	})
}

func wantMoves(s string) func(t *testing.T, r *Record) {
	return func(t *testing.T, r *Record) {
		t.Helper()
		if want := seq(s); !reflect.DeepEqual(r.Moves, want) {
			t.Errorf("moves %v, want %v (%q)", r.Moves, want, r.Assumptions)
		}
		if _, err := Replay(r); err != nil {
			t.Errorf("does not replay: %v", err)
		}
	}
}

func TestTurnOrderQuirks(t *testing.T) {
	runQuirks(t, []quirk{
		{"PL[W] honoured", "(;SZ[9]PL[W]AB[cc]AW[gg];W[ee];B[ce])", "", func(t *testing.T, r *Record) {
			if r.First != White || r.Handicap != 0 {
				t.Errorf("first %v handicap %d", r.First, r.Handicap)
			}
			wantMoves("W ee, B ce")(t, r)
		}},
		{"White first without PL, after AB and AW", "(;SZ[19]AB[dd][pp][dp]AW[pd][qq];W[qf];B[fc])", "no PL says so", func(t *testing.T, r *Record) {
			if r.First != White || r.Handicap != 0 {
				t.Errorf("first %v handicap %d", r.First, r.Handicap)
			}
			wantMoves("W qf, B fc")(t, r)
		}},
		{"Fox handicap as Black's first moves with HA[0]", "(;SZ[19]KM[0]HA[0]RU[Chinese];B[pd];B[pq];B[dd];B[dp];W[qo];B[qp])", "4-stone handicap placed by Black", func(t *testing.T, r *Record) {
			if r.Handicap != 4 || len(r.Setup) != 4 || r.First != Empty {
				t.Errorf("handicap %d setup %v first %v", r.Handicap, r.Setup, r.First)
			}
			wantMoves("W qo, B qp")(t, r)
		}},
		{"HA[3] and Black's first three moves: the handicap stones", "(;SZ[19]KM[0.5]HA[3]RU[Chinese];B[pd];B[dp];B[pp];W[qo];B[qp])", "HA[3] and Black's first 3 moves", func(t *testing.T, r *Record) {
			if r.Handicap != 3 || len(r.Setup) != 3 || r.Setup[1] != (Stone{Black, pt("dp")}) || r.First != Empty {
				t.Errorf("handicap %d setup %v first %v", r.Handicap, r.Setup, r.First)
			}
			wantMoves("W qo, B qp")(t, r)
		}},
		{"HA[3] and Black's first two moves: omitted passes", "(;SZ[19]HA[3]AB[dd][pp][dp];B[pd];B[qf];W[qo])", "pass by the other assumed", nil},
		{"a colour playing twice: an omitted pass", "(;SZ[9];B[ee];W[cc];W[gg];B[cg])", "pass by the other assumed before move 3", wantMoves("B ee, W cc, B pass, W gg, B cg")},
		{"empty node in an FF[3] file: a pass", "(;FF[3]SZ[9];B[ee];;B[cc];W[gg])", "FF[3] file", wantMoves("B ee, W pass, B cc, W gg")},
		{"empty node in an FF[4] file is nothing", "(;FF[4]SZ[9];B[ee];;W[cc])", "", wantMoves("B ee, W cc")},
	})
}

func TestMalformedQuirks(t *testing.T) {
	runQuirks(t, []quirk{
		{"AB twice in a node: merged", "(;SZ[9]AB[aa]AB[bb]PL[W];W[ee])", "points merged", func(t *testing.T, r *Record) {
			if len(r.Setup) != 2 {
				t.Errorf("setup %v", r.Setup)
			}
		}},
		{"AP twice (Fox): the first kept", "(;SZ[19]AP[GNU Go:3.8]KM[375]AP[foxwq];B[pd])", "dropped AP[foxwq]", func(t *testing.T, r *Record) {
			if r.Source != "GNU Go:3.8" {
				t.Errorf("source %q", r.Source)
			}
		}},
		{"KM twice", "(;SZ[9]KM[6.5]KM[0.5];B[ee])", "dropped KM[0.5]", wantKomi(6.5)},
		{"PB twice", "(;SZ[9]PB[a]PB[b];B[ee])", "dropped PB[b]", func(t *testing.T, r *Record) {
			if r.Black.Name != "a" {
				t.Errorf("black %q", r.Black.Name)
			}
		}},
		{"C twice in a node: the first kept", "(;SZ[9];B[ee]C[one]C[two])", "C given twice in one node (byte 20): the first kept", func(t *testing.T, r *Record) {
			if len(r.Comments) != 1 || r.Comments[0] != (Comment{1, "one"}) {
				t.Errorf("comments %v", r.Comments)
			}
		}},
		{"C in the root and GC: both kept", "(;SZ[9]GC[game]C[root];B[ee])", "", func(t *testing.T, r *Record) {
			if len(r.Comments) != 1 || r.Comments[0] != (Comment{0, "game\nroot"}) || len(r.Assumptions) > 1 {
				t.Errorf("comments %v %q", r.Comments, r.Assumptions)
			}
		}},
		{"PW, RE, DT, BR, EV twice in a node: the first kept", "(;SZ[9]PW[a]PW[b]RE[B+R]RE[W+R]DT[2024-01-02]DT[1999-01-01]BR[3d]BR[5d]EV[x]EV[y];B[ee])", "dropped RE[W+R]", func(t *testing.T, r *Record) {
			if r.White.Name != "a" || r.Result != "B+R" || r.Date != "2024-01-02" || r.Black.Rank != "3d" || r.Event != "x" {
				t.Errorf("%+v", r)
			}
			for _, id := range []string{"PW", "DT", "BR", "EV"} {
				if !hasNote(r, id+" given 2 times: the first kept") {
					t.Errorf("no note on %s: %q", id, r.Assumptions)
				}
			}
		}},
		{"BL twice in a node: the first kept", "(;SZ[9];B[ee]BL[30]BL[10])", "BL given twice in one node", func(t *testing.T, r *Record) {
			if len(r.Clock) != 1 || r.Clock[0].Seconds != 30 {
				t.Errorf("clock %v", r.Clock)
			}
		}},
		{"B twice in a node: the first kept", "(;SZ[9];B[ee]B[aa])", "B given twice in one node", wantMoves("B ee")},
		{"B and W in one node: two moves", "(;SZ[9];B[ee]W[aa])", "both B and W", wantMoves("B ee, W aa")},
		{"game info given again in a later node", "(;SZ[9]KM[6.5];B[ee]KM[7.5])", "dropped KM[7.5]", wantKomi(6.5)},
		{"property name longer than two letters", "(;SZ[9]MULTIGOGM[1]KM[6.5];B[ee])", "", wantKomi(6.5)},
		{"HA[3] with two AB stones: the stones stand", "(;SZ[19]HA[3]AB[dd][pp];W[pd])", "a 2-stone handicap assumed", func(t *testing.T, r *Record) {
			if r.Handicap != 2 || len(r.Setup) != 2 {
				t.Errorf("handicap %d setup %v", r.Handicap, r.Setup)
			}
		}},
		{"HA[4] on 11×11 without stones: even", "(;SZ[11]HA[4];B[ee])", "no fixed placement", func(t *testing.T, r *Record) {
			if r.Handicap != 0 {
				t.Errorf("handicap %d", r.Handicap)
			}
		}},
		{"HA[x] ignored", "(;SZ[9]HA[x];B[ee])", "HA[x]", nil},
		{"AE before play removes a setup stone", "(;SZ[9]AB[aa][bb]AE[aa];B[ee])", "AE before play", func(t *testing.T, r *Record) {
			if len(r.Setup) != 1 || r.Setup[0] != (Stone{Black, pt("bb")}) {
				t.Errorf("setup %v", r.Setup)
			}
		}},
		{"AB after moves that is the next move", "(;SZ[9];B[ee];W[cc];AB[gg];W[cg])", "read as B's move", wantMoves("B ee, W cc, B gg, W cg")},
		{"AE after moves on an empty point changes nothing", "(;SZ[9];B[ee];AE[aa];W[cc])", "changes nothing", wantMoves("B ee, W cc")},
		{"AE after moves removing a stone: read up to it", "(;SZ[9];B[ee];W[cc];AE[ee];B[gg])", "read up to move 2", wantMoves("B ee, W cc")},
		{"stray ')' at the end", "(;SZ[9];B[ee]))", "stray ')'", wantMoves("B ee")},
		{"text after the last game", "(;SZ[9];B[ee]) -- sent from my phone", "after the last game tree", wantMoves("B ee")},
		{"root node without ';'", "(SZ[9]KM[6.5];B[ee])", "without ';'", func(t *testing.T, r *Record) {
			if r.Size != 9 || r.Komi != 6.5 || len(r.Moves) != 1 {
				t.Errorf("size %d komi %v moves %v", r.Size, r.Komi, r.Moves)
			}
		}},
		{"property without value", "(;SZ[9]KM;B[ee])", "has no value", nil},
		{"UTF-8 byte order mark", "\uFEFF(;SZ[9]PB[柯洁];B[ee])", "byte order mark", func(t *testing.T, r *Record) {
			if r.Black.Name != "柯洁" {
				t.Errorf("black %q", r.Black.Name)
			}
		}},
	})
}

func utf16File(s string, big, bom bool) []byte {
	var out []byte
	if bom {
		if big {
			out = append(out, 0xFE, 0xFF)
		} else {
			out = append(out, 0xFF, 0xFE)
		}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if big {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestReadUTF16(t *testing.T) {
	const sgf = "(;SZ[9]PB[李昌镐]PW[Cho];B[ee])"
	for _, tc := range []struct {
		big, bom bool
		note     string
	}{{false, true, "UTF-16 with a byte order mark"}, {true, true, "UTF-16 with a byte order mark"}, {false, false, "without a byte order mark"}, {true, false, "without a byte order mark"}} {
		r, err := ParseRecord(utf16File(sgf, tc.big, tc.bom))
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		if r.Black.Name != "李昌镐" || r.White.Name != "Cho" || len(r.Moves) != 1 || !hasNote(r, tc.note) {
			t.Errorf("%+v: %q %q %v %q", tc, r.Black.Name, r.White.Name, r.Moves, r.Assumptions)
		}
	}
}

func TestReadLatin1AndUnknownCharset(t *testing.T) {
	r, err := ParseRecord([]byte("(;CA[ISO-8859-1]SZ[9]PB[J\xf6rg];B[ee])"))
	if err != nil || r.Black.Name != "Jörg" {
		t.Fatalf("latin-1: %v %q", err, r.Black.Name)
	}
	// Without a decoder, GBK bytes cannot be read: replaced, and said so.
	r, err = ParseRecord([]byte("(;CA[GBK]SZ[9]PB[\xbf\xc2\xbd\xdc];B[ee])"))
	if err != nil || !strings.Contains(r.Black.Name, "\uFFFD") || !hasNote(r, "CA[GBK]") {
		t.Fatalf("gbk without a decoder: %v %q %q", err, r.Black.Name, r.Assumptions)
	}
}

func TestRulesetQuirks(t *testing.T) {
	runQuirks(t, []quirk{
		{"RU[AGA]", "(;SZ[19]RU[AGA]HA[3];W[qf])", "", func(t *testing.T, r *Record) {
			if r.Rules != AGA() || r.Komi != 0.5 || !hasNote(r, "komi 0.5 assumed") {
				t.Errorf("rules %v komi %v %q", r.Rules, r.Komi, r.Assumptions)
			}
		}},
		{"RU[NZ]", "(;SZ[19]RU[NZ];B[pd])", "", func(t *testing.T, r *Record) {
			if r.Rules != NZ() || r.Komi != 7 || !r.Rules.MultiStoneSuicide {
				t.Errorf("rules %v komi %v", r.Rules, r.Komi)
			}
		}},
		{"RU[Korean]", "(;SZ[19]RU[Korean]KM[6.5];B[pd])", "Korean rules are counted as the Japanese preset", func(t *testing.T, r *Record) {
			if r.Rules.Scoring != ScoringTerritory {
				t.Errorf("rules %v", r.Rules)
			}
		}},
		{"RU[Japanese Rules]", "(;SZ[19]RU[Japanese_rules]KM[6.5];B[pd])", "", func(t *testing.T, r *Record) {
			if r.Rules != Japanese() || hasNote(r, "Korean") {
				t.Errorf("rules %v", r.Rules)
			}
		}},
	})
}

func TestRecordKeepsWhatItSays(t *testing.T) {
	in := "(;GM[1]FF[4]SZ[19]KM[6.5]RU[Japanese]PB[Honinbo Shusaku]BR[4d]PW[Gennan Inseki]WR[8d]DT[1846-09-11,12,14]" +
		"EV[Castle game]RO[1]PC[Edo]GN[Ear-reddening game]TM[3600]OT[5x30 byo-yomi]AP[CGoban:3]GC[the famous one]C[root]" +
		"RE[B+R];B[qd]BL[3590]C[a comment];W[dc]WL[3580.5]OW[5];B[pq])"
	r, err := ParseRecord([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := Record{Event: "Castle game", Round: "1", Place: "Edo", GameName: "Ear-reddening game", TimeLimit: "3600",
		Overtime: "5x30 byo-yomi", Source: "CGoban:3", Date: "1846-09-11,12,14", PlayedAt: time.Date(1846, 9, 11, 0, 0, 0, 0, time.UTC)}
	got := Record{Event: r.Event, Round: r.Round, Place: r.Place, GameName: r.GameName, TimeLimit: r.TimeLimit,
		Overtime: r.Overtime, Source: r.Source, Date: r.Date, PlayedAt: r.PlayedAt}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("info\n got %+v\nwant %+v", got, want)
	}
	if c := []Comment{{0, "the famous one\nroot"}, {1, "a comment"}}; !reflect.DeepEqual(r.Comments, c) {
		t.Errorf("comments %+v", r.Comments)
	}
	if c := []Clock{{1, Black, 3590, 0}, {2, White, 3580.5, 5}}; !reflect.DeepEqual(r.Clock, c) {
		t.Errorf("clock %+v", r.Clock)
	}
	if len(r.Assumptions) != 0 {
		t.Errorf("notes %q", r.Assumptions)
	}
	roundTrip(t, r)
	// Fox's byo-yomi, TC periods of TT seconds, is kept as OT.
	runQuirks(t, []quirk{
		{"Fox TC and TT", "(;AP[YuanYu]SZ[19]TM[600]TC[3]TT[30];B[pd])", "Fox's byo-yomi", func(t *testing.T, r *Record) {
			if r.TimeLimit != "600" || r.Overtime != "3x30 byo-yomi" {
				t.Errorf("TM %q OT %q", r.TimeLimit, r.Overtime)
			}
		}},
	})
	// A date that is no date: PlayedAt zero, and said.
	r, err = ParseRecord([]byte("(;SZ[9]DT[last spring];B[ee])"))
	if err != nil || !r.PlayedAt.IsZero() || !hasNote(r, "date played is unknown") {
		t.Errorf("bad date: %v %v %q", err, r.PlayedAt, r.Assumptions)
	}
	// SGF's dates without a day: the first day they name, and said.
	for dt, want := range map[string]time.Time{"1846": time.Date(1846, 1, 1, 0, 0, 0, 0, time.UTC), "1846-09,10": time.Date(1846, 9, 1, 0, 0, 0, 0, time.UTC)} {
		r, err = ParseRecord([]byte("(;SZ[9]DT[" + dt + "];B[ee])"))
		if err != nil || !r.PlayedAt.Equal(want) || r.Date != dt || !hasNote(r, "gives no day") {
			t.Errorf("DT[%s]: %v %v %q", dt, err, r.PlayedAt, r.Assumptions)
		}
	}
	for dt, want := range map[string]time.Time{
		"2024-01-02": time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), "2024.1.2": time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC),
		"2024/01/02 13:45": time.Date(2024, 1, 2, 13, 45, 0, 0, time.UTC), "2024年1月2日": time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC),
	} {
		if got, ok := parseDate(dt); !ok || !got.Equal(want) {
			t.Errorf("DT[%s]: %v %v", dt, got, ok)
		}
	}
}

// TestLongTextQuirks: text past its decided length is cut, with a note,
// never refused and never kept whole.
func TestLongTextQuirks(t *testing.T) {
	event := strings.Repeat("杯", MaxInfoText+50)
	comment := strings.Repeat("好", MaxCommentText+1)
	runQuirks(t, []quirk{
		{"EV longer than MaxInfoText", "(;SZ[9]EV[" + event + "];B[ee])", "EV is 250 characters", func(t *testing.T, r *Record) {
			if r.Event != event[:len("杯")*MaxInfoText] {
				t.Errorf("event kept %d characters", len([]rune(r.Event)))
			}
		}},
		{"a comment longer than MaxCommentText", "(;SZ[9];B[ee]C[" + comment + "])", "the comment after move 1", func(t *testing.T, r *Record) {
			if len(r.Comments) != 1 || len([]rune(r.Comments[0].Text)) != MaxCommentText {
				t.Errorf("comments %d, the first %d characters", len(r.Comments), len([]rune(r.Comments[0].Text)))
			}
		}},
		{"values at their limits: kept whole, no note", "(;SZ[9]KM[7]PC[" + strings.Repeat("x", MaxInfoText) + "];B[ee]C[" + strings.Repeat("y", MaxCommentText) + "])", "", func(t *testing.T, r *Record) {
			if len(r.Place) != MaxInfoText || len(r.Comments) != 1 || len(r.Comments[0].Text) != MaxCommentText || len(r.Assumptions) != 0 {
				t.Errorf("place %d, comments %v, assumptions %q", len(r.Place), len(r.Comments), r.Assumptions)
			}
		}},
	})
}

// TestSGFOneCommentPerNode: two comments after one move go out as one C,
// since the reader keeps only the first C of a node.
func TestSGFOneCommentPerNode(t *testing.T) {
	r := &Record{Size: 9, Rules: Chinese(), Komi: 7.5, Moves: seq("B ee"), Comments: []Comment{{1, "a"}, {0, "game"}, {1, "b"}}}
	back, err := ParseRecord(r.SGF())
	if err != nil {
		t.Fatal(err)
	}
	if want := []Comment{{0, "game"}, {1, "a\nb"}}; !reflect.DeepEqual(back.Comments, want) || hasNote(back, "given twice") {
		t.Errorf("comments %v, want %v (%q)\n%s", back.Comments, want, back.Assumptions, r.SGF())
	}
}

// TestUnknownResultWrittenBack: a result the reader cannot read is kept
// in the SGF it writes, as the file gave it; a known one as before.
func TestUnknownResultWrittenBack(t *testing.T) {
	const moves = ";B[ee];W[cc])"
	for _, tc := range []struct{ in, re string }{
		{"(;SZ[9]KM[7.5]RE[Unfinished]" + moves, "RE[Unfinished]"},
		{"(;SZ[9]KM[7.5]RE[ Game suspended ]" + moves, "RE[Game suspended]"},
		{"(;SZ[9]KM[7.5]RE[X+3]" + moves, "RE[X+3]"},
		{"(;SZ[9]KM[7.5]RE[B]" + moves, "RE[B]"},
		{"(;AP[YuanYu]SZ[9]KM[750]RU[Japanese]RE[B+0.0]" + moves, "RE[B+0.0]"},
		{"(;SZ[9]KM[7.5]RE[Unfinished];B[ee];W[cc];B[];W[])", "RE[Unfinished]"},
		{"(;SZ[9]KM[7.5]RE[黑中盘胜]" + moves, "RE[B+R]"},
	} {
		r, err := ParseRecord([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		out := string(r.SGF())
		if !strings.Contains(out, tc.re) || strings.Count(out, "RE[") != 1 {
			t.Errorf("%s: wrote %s, want %s", tc.in, out, tc.re)
		}
		roundTrip(t, r)
	}
	// A text that reads as a result the record does not claim is not
	// written: the SGF would claim what the record does not.
	r := &Record{Size: 9, Rules: Chinese(), Komi: 7.5, Moves: seq("B ee"), ResultText: "B+R"}
	if out := string(r.SGF()); strings.Contains(out, "RE[") {
		t.Errorf("wrote %s", out)
	}
}
