package intake

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestKeptAssumptions: within the bounds the reader's list is kept as it
// is (no copy); past them each entry is cut on a character and made
// valid UTF-8, and the list ends with how many were dropped.
func TestKeptAssumptions(t *testing.T) {
	if keptAssumptions(nil) != nil || keptAssumptions([]string{}) != nil {
		t.Error("none is not nil")
	}
	few := []string{"a", "b"}
	if got := keptAssumptions(few); &got[0] != &few[0] {
		t.Error("a list within the bounds was copied")
	}
	bad := keptAssumptions([]string{"PB[\xff\xfe]", strings.Repeat("é", MaxAssumptionText)})
	if bad[0] != "PB[\uFFFD]" || len(bad[1]) > MaxAssumptionText || !utf8.ValidString(bad[1]) || !strings.HasSuffix(bad[1], "é…") {
		t.Errorf("cut: %q", bad)
	}
	// A quoted value's direction and control characters are written out.
	if got := keptAssumptions([]string{"RE[W\u202e+evil\nline]: unknown"}); got[0] != `RE[W\u202e+evil\u000aline]: unknown` {
		t.Errorf("unseen characters: %q", got)
	}
	many := make([]string, MaxAssumptions+1)
	if got := keptAssumptions(many); len(got) != MaxAssumptions || got[MaxAssumptions-1] != "and 2 more assumptions, not kept" {
		t.Errorf("%d kept, last %q", len(got), got[len(got)-1])
	}
}

// TestEnded: only a game played to its end and judged is ended (public,
// and what an annulment may take back).
func TestEnded(t *testing.T) {
	for st, want := range map[Status]bool{StatusPending: false, StatusFinished: true, StatusRated: true, StatusExpired: false, StatusAborted: false} {
		if got := (StoredGame{Status: st}).Ended(); got != want {
			t.Errorf("%s: Ended() = %v, want %v", st, got, want)
		}
	}
}
