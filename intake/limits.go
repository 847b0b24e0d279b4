package intake

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/players"
)

// Limits of a submission's text fields, decided here (issue 11): the
// rules engine bounds the record itself (games.MinSize…MaxSize,
// games.MaxMoves, the time control's limits).
const (
	// MaxSourceID bounds a source_id in bytes: a server's game id, a URL
	// path or "server/room/12345" fit many times over.
	MaxSourceID = 128
)

// checkSubmissionText refuses a submission's text fields past their limits
// or holding control characters (they reach logs, pages and the audit
// trail), before anything is read from a store.
func checkSubmissionText(s Submission) error {
	if err := checkText("source_id", strings.TrimSpace(s.SourceID), MaxSourceID); err != nil {
		return err
	}
	if err := checkText("game_id", s.GameID, MaxSourceID); err != nil {
		return err
	}
	if err := checkText("black_id", s.BlackID, players.MaxExternalID); err != nil {
		return err
	}
	return checkText("white_id", s.WhiteID, players.MaxExternalID)
}

// checkText refuses text longer than max bytes, not UTF-8, or holding a
// control character; the refusal names the field and the limit.
func checkText(field, s string, max int) error {
	switch {
	case len(s) > max:
		return &games.InvalidRecordError{Field: field, Msg: fmt.Sprintf("is %d bytes, longer than the limit of %d", len(s), max), Limit: max, Got: len(s)}
	case !utf8.ValidString(s):
		return invalid(field, "is not UTF-8 text")
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return invalid(field, "holds a control character")
	// Invisible format characters make two ids that look the same (a
	// retry under "fox/1" and "fox/1" + U+200B is two games) and U+202E
	// turns an id around wherever it is shown.
	case strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Cf, r) }) >= 0:
		return invalid(field, "holds an invisible or direction character (such as U+200B or U+202E)")
	}
	return nil
}

// timeControlText reads a submission's time control: empty, a preset name
// or the one text form ("600+3x30"), within the rules engine's limits
// (games.MaxMainTime, …); it returns the text form kept with the game.
func timeControlText(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	if p, ok := games.TimePresets[s]; ok {
		return p.String(), nil
	}
	if len(s) > 64 {
		return "", &games.InvalidRecordError{Field: "time_control", Msg: fmt.Sprintf("is %d bytes, longer than the limit of 64", len(s)), Limit: 64, Got: len(s)}
	}
	tc, err := games.ParseTimeControl(s)
	if err != nil {
		var ie *games.InvalidRecordError
		if errors.As(err, &ie) {
			return "", invalid("time_control", "%s", ie.Msg)
		}
		return "", err
	}
	return tc.String(), nil
}

// The reader's assumptions kept with a stored game (Record.Assumptions),
// decided here: the reader lists one per quirk, and a file can hold
// thousands of quirks and quote values of any length (a hostile file
// would bloat the stored game and its page). A real quirky record has a
// handful, each under 200 bytes.
const (
	// MaxAssumptions bounds how many are kept; past it, the first
	// MaxAssumptions-1 and a last one saying how many more were dropped.
	MaxAssumptions = 20
	// MaxAssumptionText bounds each one in bytes; a longer one keeps its
	// first bytes (whole characters) and ends in "…".
	MaxAssumptionText = 300
)

// AssumptionsDropped is the last assumption kept when more than
// MaxAssumptions were made: the pages translate it like the reader's.
const AssumptionsDropped = "and %d more assumptions, not kept"

// keptAssumptions is the reader's assumptions as kept with the game,
// within MaxAssumptions and MaxAssumptionText; nil for none, and the
// same slice when all are within (the common case allocates nothing).
func keptAssumptions(as []string) []string {
	if len(as) == 0 {
		return nil
	}
	within := len(as) <= MaxAssumptions
	for _, a := range as {
		if len(a) > MaxAssumptionText || !utf8.ValidString(a) || strings.IndexFunc(a, unseen) >= 0 {
			within = false
			break
		}
	}
	if within {
		return as
	}
	n := min(len(as), MaxAssumptions)
	out := make([]string, 0, n)
	for _, a := range as[:n] {
		out = append(out, clipAssumption(a))
	}
	if len(as) > MaxAssumptions {
		out[n-1] = fmt.Sprintf(AssumptionsDropped, len(as)-(MaxAssumptions-1))
	}
	return out
}

// unseen: a control or an invisible format character (checkText
// refuses them in the texts a submission names).
func unseen(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }

// clipAssumption keeps a's first whole characters within
// MaxAssumptionText bytes, "…" (3 bytes) included when it is cut.
func clipAssumption(a string) string {
	a = strings.ToValidUTF8(a, "\uFFFD")
	// A quoted file value's control and direction characters (U+202E
	// turns the line around on the page) are shown as what they are.
	if strings.IndexFunc(a, unseen) >= 0 {
		var b strings.Builder
		for _, r := range a {
			if unseen(r) {
				fmt.Fprintf(&b, "\\u%04x", r)
				continue
			}
			b.WriteRune(r)
		}
		a = b.String()
	}
	if len(a) <= MaxAssumptionText {
		return a
	}
	cut := MaxAssumptionText - len("…")
	for cut > 0 && !utf8.RuneStart(a[cut]) {
		cut--
	}
	return a[:cut] + "…"
}
