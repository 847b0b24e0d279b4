package games

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzReplay plays arbitrary move sequences: byte 0 picks the board size,
// byte 1 the ruleset, then each byte pair is a point (255 255 a pass, a
// coordinate past the edge an off-board try). Illegal moves are refused
// and the same player moves again. After every legal move: no stone
// without liberties stays on the board, the chain bookkeeping and hash
// match the stones, and stones placed = stones on the board + captured.
func FuzzReplay(f *testing.F) {
	f.Add([]byte{4, 0, 1, 1, 2, 2, 1, 2, 2, 1, 0, 1, 255, 255})
	f.Add([]byte{0, 2, 0, 0, 1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 1, 2, 2, 1})
	f.Add([]byte{14, 1, 3, 3, 15, 15, 3, 15, 15, 3, 9, 9, 255, 255, 255, 255})
	rulesets := []Ruleset{Chinese(), Japanese(), Ing(), QQ(), func() Ruleset { r := Chinese(); r.Ko = KoPositional; return r }()}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		size := MinSize + int(data[0])%(MaxSize-MinSize+1)
		g, err := NewGame(size, rulesets[int(data[1])%len(rulesets)], 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		placed := 0
		for i := 2; i+1 < len(data); i += 2 {
			m := Move{Color: g.ToMove()}
			if data[i] == 255 && data[i+1] == 255 {
				m.Pass = true
			} else {
				m.Point = Point{int(data[i]) % (size + 1), int(data[i+1]) % (size + 1)}
			}
			if err := g.Play(m); err != nil {
				if ReasonCode(err) == "" {
					t.Fatalf("move %v: error without a reason: %v", m, err)
				}
				if _, over := g.Cycle(); over {
					return
				}
				continue
			}
			if !m.Pass {
				placed++
			}
			checkInvariants(t, &g.board)
			b := &g.board
			if on, caught := b.stones[Black]+b.stones[White], b.captured[Black]+b.captured[White]; placed != on+caught {
				t.Fatalf("placed %d stones, %d on the board + %d captured", placed, on, caught)
			}
		}
	})
}

// FuzzParseSGF: any input parses or fails with an SGFError, never a
// panic; what parses writes out and parses back to the same records.
func FuzzParseSGF(f *testing.F) {
	for _, s := range []string{
		"(;GM[1]FF[4]SZ[9]KM[7.5]RE[B+R];B[ee];W[];B[tt])",
		"(;SZ[19]HA[2]KM[0.5];W[qd](;B[dd])(;B[pp]))",
		"(;PB[a\\]b]PW[c\\\nd];B[aa:bb])(;SZ[5];B[])",
		"(;SZ[5]KM[0]AB[ca][cb][cc][cd][ce]AW[ac][eb];B[];W[]TB[aa][ac][ae]TW[dc][eb])",
		"(;SZ[9]RE[W+F]ER[escape:B];B[ee])",
		// Quirks of real files (sgfquirks_test.go).
		"(;FF[3]SZ[9]KM[375]RE[黑中盘胜]AP[a]AP[b];B[ee];;W[cc];W[gg]C[x]BL[10]OB[2])",
		"(SZ[19]HA[0];B[pd];B[dp];W[qo]AB[aa];AE[pd];B[cc]))",
		"\uFEFF(;PL[W]AB[aa]AB[bb]AW[cc]RE[W+1.25]DT[2024-01-02];W[ee];B[];W[dd]TB[aa:bb]",
		"(;SZ[9]RE[B+R (timeout)]MULTIGOGM[1]HA[3]AB[aa][bb];W[ee]) junk (;SZ[5]RE[W])",
	} {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("testdata/selfplay/*.sgf")
	for _, file := range files[:3] {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ParseSGF(data)
		if err != nil {
			if _, ok := err.(*SGFError); !ok {
				t.Fatalf("error %T %v is not an *SGFError", err, err)
			}
			return
		}
		for _, r := range recs {
			roundTrip(t, r)
		}
	})
}

// FuzzReadRecords: any file read through ReadRecords (SGF, .gib, .ugf)
// gives records or an *SGFError, never a panic, and every record writes
// out and reads back to itself.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(gibFile))
	f.Add([]byte(ugfFile))
	f.Add([]byte("(;SZ[9]PB[\xbf\xc2];B[ee])"))
	f.Add(utf16File("(;SZ[9]PB[李];B[ee])", false, true))
	// A cut UTF-8 name, a win by 0, HA[n] as Black's first moves, a year.
	f.Add([]byte("(;CA[UTF-8]PB[扫地僧]PW[东\xe7\x8f]KM[0]RE[B+0.0]DT[1846];B[dd])"))
	f.Add([]byte("(;SZ[19]HA[2]RE[W+0]DT[1846-09];B[pd];B[dp];W[qo];B[];W[])"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := ReadRecords(data, ReadOptions{})
		if err != nil {
			if _, ok := err.(*SGFError); !ok {
				t.Fatalf("error %T %v is not an *SGFError", err, err)
			}
			return
		}
		for _, r := range recs {
			roundTrip(t, r)
		}
	})
}
