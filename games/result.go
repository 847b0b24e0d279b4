package games

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// EndReason is how a game ended.
type EndReason string

// The end reasons (rules.md §5).
const (
	EndScore   EndReason = "score"   // both passed and the position was counted
	EndResign  EndReason = "resign"  // By resigned
	EndTime    EndReason = "time"    // By ran out of time
	EndForfeit EndReason = "forfeit" // By forfeited (absent, second warning, …)
	EndEscape  EndReason = "escape"  // By abandoned the running game
	EndDraw    EndReason = "draw"    // drawn without counting (e.g. by decision)
	EndVoid    EndReason = "void"    // no result (无胜负): annulled, or a repetition cycle
)

// Valid reports whether e is one of the end reasons.
func (e EndReason) Valid() bool {
	switch e {
	case EndScore, EndResign, EndTime, EndForfeit, EndEscape, EndDraw, EndVoid:
		return true
	}
	return false
}

// needsSide reports whether the end names the side that caused it.
func (e EndReason) needsSide() bool {
	return e == EndResign || e == EndTime || e == EndForfeit || e == EndEscape
}

// Result is a game result as SGF RE writes it.
type Result struct {
	Winner Color     // Empty: a draw or no result
	End    EndReason // EndScore for a counted result (a counted tie is a draw)
	Margin float64   // points, for a counted win
	// NoMargin: a counted win whose margin the text does not give ("B+").
	NoMargin bool
}

// String writes the SGF form: "B+3.5", "W+R", "B+T", "W+F", "0", "Void".
// An escape is written as a forfeit ("+F"): SGF has no code for it.
func (r Result) String() string {
	switch {
	case r.End == EndVoid:
		return "Void"
	case r.Winner == Empty:
		return "0"
	}
	w := r.Winner.String() + "+"
	switch r.End {
	case EndResign:
		return w + "R"
	case EndTime:
		return w + "T"
	case EndForfeit, EndEscape:
		return w + "F"
	}
	if r.NoMargin {
		return w
	}
	return w + strconv.FormatFloat(r.Margin, 'f', -1, 64)
}

// IsDraw reports a drawn result (counted or not).
func (r Result) IsDraw() bool { return r.Winner == Empty && r.End != EndVoid }

// ParseResult reads an SGF RE value: "B+3.5", "W+R", "B+Resign", "W+T",
// "B+Time", "W+F", "B+Forfeit", "B+" (winner, margin not given), "0",
// "Draw", "Jigo", "Void". "?" (unknown) and "" give ok=false and no error.
func ParseResult(s string) (r Result, ok bool, err error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "", "?":
		return Result{}, false, nil
	case "0", "draw", "jigo", "d", "=":
		return Result{End: EndDraw}, true, nil
	case "void", "no result", "noresult":
		return Result{End: EndVoid}, true, nil
	}
	if len(t) < 2 || t[1] != '+' {
		return Result{}, false, fmt.Errorf("result %q is not B+…, W+…, 0 or Void", s)
	}
	w, err := ParseColor(t[:1])
	if err != nil || w == Empty {
		return Result{}, false, fmt.Errorf("result %q does not start with B+ or W+", s)
	}
	r = Result{Winner: w}
	rest := strings.TrimSpace(t[2:])
	switch strings.ToLower(rest) {
	case "r", "resign":
		r.End = EndResign
	case "t", "time":
		r.End = EndTime
	case "f", "forfeit":
		r.End = EndForfeit
	case "":
		r.End, r.NoMargin = EndScore, true
	default:
		m, perr := strconv.ParseFloat(rest, 64)
		if perr != nil || m < 0 || !halfPoints(m) {
			return Result{}, false, fmt.Errorf("result %q: margin %q is not a number of whole or half points", s, rest)
		}
		r.End, r.Margin = EndScore, m
		if m == 0 { // "B+0": a tie the rules give to B (Ing)
			r.Margin = 0
		}
	}
	return r, true, nil
}

// agrees reports whether a claimed result says what the computed one
// says: the same winner (or both drawn, or both void), the same way of
// winning, and the same margin when the claim gives one.
func (claimed Result) agrees(computed Result) bool {
	if claimed.End == EndVoid || computed.End == EndVoid {
		return claimed.End == computed.End
	}
	if claimed.Winner != computed.Winner {
		return false
	}
	if claimed.Winner == Empty {
		return true
	}
	norm := func(e EndReason) EndReason {
		if e == EndEscape {
			return EndForfeit
		}
		return e
	}
	if norm(claimed.End) != norm(computed.End) {
		return false
	}
	return claimed.End != EndScore || claimed.NoMargin || math.Abs(claimed.Margin-computed.Margin) < 1e-9
}
