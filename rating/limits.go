package rating

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of an admin's change and of an annulment, decided here (issue
// 11); they are checked before anything is stored.
const (
	// MaxDelta bounds an adjustment's delta: ±1,000 ladder points is ten
	// ranks, more than any correction; a larger move is a placement or
	// set score, not a delta.
	MaxDelta = 1000
	// MaxSetScore bounds a score set outright (an admin's set score, a
	// placement): ±10,000 is far beyond the ladder (9k starts at -800,
	// 9d at 900).
	MaxSetScore = 10_000
	// MaxReason bounds a reason, in characters: a paragraph, written
	// into the audit trail of every player it touches.
	MaxReason = 1000
	// MaxRecomputeReason bounds an annulment's reason when its later
	// games are recomputed: each correction's reason quotes it after two
	// game ids and the deltas (up to 400 characters), within MaxReason.
	MaxRecomputeReason = MaxReason - 400
	// MaxEvidence bounds the evidence ids of a change, each at most
	// MaxEvidenceID bytes (an exam's game ids).
	MaxEvidence   = 50
	MaxEvidenceID = 128
)

// checkReason refuses an empty reason, one past MaxReason characters, one
// that is not UTF-8, or one with control characters other than line
// breaks and tabs.
func checkReason(reason string) error {
	switch n := utf8.RuneCountInString(reason); {
	case Blank(reason):
		return &InputError{"reason", "is required"}
	case !utf8.ValidString(reason):
		return &InputError{"reason", "is not UTF-8 text"}
	case n > MaxReason:
		return &InputError{"reason", fmt.Sprintf("is %d characters, longer than the limit of %d", n, MaxReason)}
	case strings.IndexFunc(reason, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' }) >= 0:
		return &InputError{"reason", "holds a control character"}
	}
	return nil
}

// Blank reports whether s shows nothing: only spaces and invisible
// format characters (U+200B, U+2060, U+FEFF): such a reason is none, and
// the audit trail must say why.
func Blank(s string) bool {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) }) == ""
}

// CheckReason is checkReason for the services that keep a reason of their
// own (an exam's approval or rejection), so one limit holds everywhere.
func CheckReason(reason string) error { return checkReason(reason) }

func checkEvidence(ev []string) error {
	if len(ev) > MaxEvidence {
		return &InputError{"evidence", fmt.Sprintf("has %d ids, more than the limit of %d", len(ev), MaxEvidence)}
	}
	for _, id := range ev {
		if len(id) > MaxEvidenceID || strings.IndexFunc(id, unicode.IsControl) >= 0 {
			return &InputError{"evidence", fmt.Sprintf("an id must be at most %d bytes without control characters", MaxEvidenceID)}
		}
	}
	return nil
}
