package games

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSelfPlayGames: the 124 GNU Go self-play games, played out until
// every dead stone was captured, replay legally and count to their RE
// under Chinese rules with no dead stones marked.
func TestSelfPlayGames(t *testing.T) {
	files, err := filepath.Glob("testdata/selfplay/*.sgf")
	if err != nil || len(files) != 124 {
		t.Fatalf("want the 124 self-play games, found %d (%v)", len(files), err)
	}
	sizes := map[int]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ParseRecord(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if r.Rules != Chinese() || r.End != EndScore || r.Result == "" {
			t.Errorf("%s: rules %v, end %q, result %q: want a counted game under Chinese rules", f, r.Rules, r.End, r.Result)
			continue
		}
		v, err := Judge(r)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if v.Result != r.Result || v.Moves != len(r.Moves) {
			t.Errorf("%s: judged %s in %d moves, file says %s in %d", f, v.Result, v.Moves, r.Result, len(r.Moves))
		}
		sizes[r.Size]++
	}
	if sizes[9] == 0 || sizes[13] == 0 || sizes[19] == 0 {
		t.Errorf("board sizes seen %v, want 9, 13 and 19", sizes)
	}
}
