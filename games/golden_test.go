package games

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// TestGolden reads each testdata/golden/*.sgf and writes what the engine
// makes of it (the record, its judgement, the final position, the count
// and the SGF written back) to the matching .golden file. Run with
// -update after a deliberate change and review the diff.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.sgf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := goldenReport(data)
			want := strings.TrimSuffix(f, ".sgf") + ".golden"
			if *update {
				if err := os.WriteFile(want, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			exp, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, exp) {
				t.Errorf("output differs from %s (go test -update rewrites it)\n--- got\n%s--- want\n%s", want, got, exp)
			}
		})
	}
}

func goldenReport(data []byte) []byte {
	var b bytes.Buffer
	recs, err := ParseSGF(data)
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.Bytes()
	}
	for i, r := range recs {
		fmt.Fprintf(&b, "== game %d\n", i+1)
		for _, a := range r.Assumptions {
			fmt.Fprintf(&b, "assumed: %s\n", a)
		}
		fmt.Fprintf(&b, "record: %d×%d, rules %s, komi %g, handicap %d, %d setup stones, %d moves, end %q by %v, claimed %q, dead %v\n",
			r.Size, r.Size, r.Rules, r.Komi, r.Handicap, len(r.Setup), len(r.Moves), r.End, r.EndBy, r.Result, r.Dead)
		if r.Black != (Player{}) || r.White != (Player{}) || r.Date != "" {
			fmt.Fprintf(&b, "players: black %q %q, white %q %q, date %q\n", r.Black.Name, r.Black.Rank, r.White.Name, r.White.Rank, r.Date)
		}
		if v, err := Judge(r); err != nil {
			fmt.Fprintf(&b, "judge: error: %v\n", err)
		} else {
			fmt.Fprintf(&b, "judge: %s, end %s, %d moves, cycle at %d\n", v.Result, v.End, v.Moves, v.Cycle)
		}
		g, err := Replay(r)
		if g != nil {
			fmt.Fprintf(&b, "position after %d moves, %v to move:\n%scaptures: B=%d W=%d\n", g.MoveCount(), g.ToMove(), g.board.String(), g.Captures(Black), g.Captures(White))
		}
		if err == nil {
			if s, err := r.Score(); err != nil {
				fmt.Fprintf(&b, "count: error: %v\n", err)
			} else {
				fmt.Fprintf(&b, "count (%v): %s, margin %g, black %+v, white %+v, dame %d, seki %d, dead %v\n",
					s.Scoring, s.Result, s.Margin, s.Black, s.White, s.Dame, s.Seki, s.Dead)
			}
		}
		fmt.Fprintf(&b, "sgf:\n%s", r.SGF())
	}
	return b.Bytes()
}
