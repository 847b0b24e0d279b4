package games

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Results as servers and databases write them. ParseResult reads the
// standard SGF form and refuses anything else (the API takes only that);
// the file reader goes through readResult, which maps what a result text
// means onto the standard form or leaves the result unknown, and says
// which. It never refuses: a result text is never a reason not to read a
// record.

// resultRead is what readResult made of a text; note says what it
// assumed, "" when the text was standard.
type resultRead struct {
	res   Result
	known bool // res holds a result (else the result is unknown)
	// winnerOnly: the text names a winner but not how the game ended
	// ("B" alone); the reader makes it a count when play ended by passes.
	winnerOnly bool
	note       string
}

// noResultWords are texts that say the game has no result yet.
var noResultWords = map[string]bool{
	"unfinished": true, "game suspended": true, "suspended": true, "adjourned": true, "unknown": true,
	"none": true, "-": true, "not finished": true, "in progress": true, "playing": true, "?": true,
	"未完": true, "未完成": true, "中断": true, "打挂": true, "封盘": true, "打ち掛け": true, "미완": true,
}

// endWords map the words after "B+" to the end they mean. Keys are lower
// case with spaces, dashes and dots removed.
var endWords = map[string]EndReason{
	"r": EndResign, "res": EndResign, "resign": EndResign, "resigned": EndResign, "resignation": EndResign, "resigns": EndResign,
	"t": EndTime, "time": EndTime, "timeover": EndTime, "timeout": EndTime, "to": EndTime, "t/o": EndTime, "timeup": EndTime,
	"ontime": EndTime, "timeloss": EndTime, "lossontime": EndTime, "flag": EndTime,
	"f": EndForfeit, "forfeit": EndForfeit, "illegal": EndForfeit, "illegalmove": EndForfeit, "bye": EndForfeit,
	"default": EndForfeit, "disqualification": EndForfeit, "disqualified": EndForfeit, "dq": EndForfeit, "foul": EndForfeit,
	"offline": EndEscape, "disconnect": EndEscape, "disconnected": EndEscape, "disconnection": EndEscape,
	"escape": EndEscape, "escaped": EndEscape, "abandon": EndEscape, "abandoned": EndEscape, "left": EndEscape,
}

// squash lower-cases s and drops spaces, dashes, underscores and dots.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '_', '.', '\t':
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// readResult reads an RE value. area tells whether the ruleset counts
// area, where margins written in stones (B+0.75, Fox) are read as stones.
func readResult(v string, area bool) resultRead {
	t := strings.TrimSpace(v)
	if r, ok, err := ParseResult(t); err == nil {
		if !ok {
			return resultRead{note: AssumedRENone.text(v)}
		}
		return resultRead{res: r, known: true}
	}
	lower := strings.ToLower(t)
	if noResultWords[lower] || noResultWords[squash(t)] {
		return resultRead{note: AssumedRENotYet.text(v)}
	}
	if strings.ContainsAny(t, "黑黒白흑백和平持無无") {
		return readCJKResult(v, t, area)
	}
	switch squash(t) {
	case "void", "noresult", "annulled", "cancelled", "canceled":
		return resultRead{res: Result{End: EndVoid}, known: true, note: AssumedREVoid.text(v)}
	case "draw", "jigo", "tie", "drawn":
		return resultRead{res: Result{End: EndDraw}, known: true, note: AssumedREDraw.text(v)}
	}
	// "B", "W", "Black", "White wins", "B wins": a winner, no more.
	w, rest, ok := resultWinner(t)
	if !ok {
		return resultRead{note: AssumedRENoWinner.text(v)}
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "+") {
		word := squash(rest)
		if word == "" || word == "wins" || word == "win" || word == "won" {
			return resultRead{res: Result{Winner: w}, winnerOnly: true, note: AssumedREWinnerOnly.text(v, w)}
		}
		return resultRead{note: AssumedRENotPlus.text(v)}
	}
	rest = strings.TrimSpace(rest[1:])
	// A remark in brackets ("R (timeout)") may say more than the code.
	remark := ""
	if i := strings.IndexAny(rest, "(["); i >= 0 {
		remark = squash(rest[i+1:])
		rest = strings.TrimSpace(rest[:i])
	}
	if e, ok := endWords[squash(rest)]; ok {
		f := AssumedREReadAs
		if e != EndTime && (strings.Contains(remark, "time") || strings.Contains(remark, "超时")) {
			e, f = EndTime, AssumedRERemarkTime
		}
		r := Result{Winner: w, End: e}
		return resultRead{res: r, known: true, note: f.text(v, r.String())}
	}
	// A margin, perhaps with a unit: "3.5", "3.5 points", "2.75", "3.5目".
	num, unit := splitNumber(rest)
	m, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil || m < 0 || math.IsInf(m, 0) || math.IsNaN(m) {
		return resultRead{res: Result{Winner: w}, winnerOnly: true,
			note: AssumedREWordUnknown.text(v, w, rest)}
	}
	stones := false
	switch squash(unit) {
	case "", "points", "point", "pts", "pt", "p", "目", "집", "moku":
	case "stones", "stone", "子", "石":
		stones = true
	default:
		return resultRead{res: Result{Winner: w}, winnerOnly: true, note: AssumedREUnitUnknown.text(v, unit)}
	}
	return marginResult(v, w, m, stones, area)
}

// marginResult makes the counted result of a margin; stones says the text
// gave it in stones.
func marginResult(v string, w Color, m float64, stones, area bool) resultRead {
	r := Result{Winner: w, End: EndScore}
	quarter := !halfPoints(m) && halfPoints(2*m)
	switch {
	case stones || quarter && area:
		r.Margin = 2 * m
		if !halfPoints(r.Margin) {
			break
		}
		f := AssumedREStones
		if !stones {
			f = AssumedREQuarter
		}
		return resultRead{res: r, known: true, note: f.text(v, r.String())}
	case halfPoints(m):
		r.Margin = m
		return resultRead{res: r, known: true, note: AssumedREReadAs.text(v, r.String())}
	}
	r.Margin, r.NoMargin = 0, true
	return resultRead{res: r, known: true, note: AssumedREOddMargin.text(v)}
}

// splitNumber splits "3.5 points" into "3.5" and "points".
func splitNumber(s string) (num, unit string) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == ',') {
		i++
	}
	num, unit = strings.ReplaceAll(s[:i], ",", "."), strings.TrimSpace(s[i:])
	// A half written as a fraction: "3 1/2", "3½" (whole numbers only).
	if num != "" && !strings.Contains(num, ".") {
		for _, half := range []string{"1/2", "½"} {
			if rest, ok := strings.CutPrefix(unit, half); ok {
				return num + ".5", strings.TrimSpace(rest)
			}
		}
	}
	return num, unit
}

// resultWinner reads the winner at the start of a result text.
func resultWinner(t string) (Color, string, bool) {
	l := strings.ToLower(t)
	for _, p := range []struct {
		prefix string
		c      Color
	}{{"black", Black}, {"white", White}, {"b", Black}, {"w", White}} {
		if strings.HasPrefix(l, p.prefix) {
			return p.c, t[len(p.prefix):], true
		}
	}
	return Empty, "", false
}

// readCJKResult reads results written in Chinese, Japanese or Korean:
// 黑中盘胜 (Black wins by resignation), 白胜3又1/4子 (White by 3¼ stones),
// 黑胜2目半 (Black by 2½ points), 白超时胜 (White on time), 黑超时负 (Black
// loses on time), 和棋 (draw), 无胜负 (no result), 黒中押し勝ち, 백 불계승.
func readCJKResult(v, t string, area bool) resultRead {
	s := strings.ReplaceAll(t, " ", "")
	switch {
	case containsAny(s, "无胜负", "無勝負", "무승부없음"):
		return resultRead{res: Result{End: EndVoid}, known: true, note: AssumedREVoid.text(v)}
	case containsAny(s, "和棋", "平局", "持碁", "무승부", "和局"):
		return resultRead{res: Result{End: EndDraw}, known: true, note: AssumedREDraw.text(v)}
	}
	var w Color
	bi, wi := firstIndex(s, "黑", "黒", "흑"), firstIndex(s, "白", "백")
	switch {
	case bi >= 0 && (wi < 0 || bi < wi):
		w = Black
	case wi >= 0:
		w = White
	default:
		return resultRead{note: AssumedRENoWinner.text(v)}
	}
	// "负"/"負"/"패" after the colour: that side lost.
	lost := containsAny(s, "负", "負", "패", "认输", "認輸")
	if lost {
		w = w.Opponent()
	}
	switch {
	// Time first: 白中盘胜(超时) is a win before the end, on time.
	case containsAny(s, "超时", "超時", "时间", "時間", "시간", "时限", "時切"):
		return cjk(v, Result{Winner: w, End: EndTime})
	case containsAny(s, "中盘", "中盤", "中押", "불계"):
		return cjk(v, Result{Winner: w, End: EndResign})
	case containsAny(s, "认输", "認輸"):
		return cjk(v, Result{Winner: w, End: EndResign})
	case containsAny(s, "犯规", "犯規", "反则", "反則", "弃权", "棄権", "반칙", "기권"):
		return cjk(v, Result{Winner: w, End: EndForfeit})
	}
	if m, stones, ok := cjkMargin(s); ok {
		return marginResult(v, w, m, stones, area)
	}
	if lost {
		return resultRead{res: Result{Winner: w}, winnerOnly: true, note: AssumedRELoserOnly.text(v, w)}
	}
	return resultRead{res: Result{Winner: w}, winnerOnly: true, note: AssumedREWinnerOnly.text(v, w)}
}

func cjk(v string, r Result) resultRead {
	return resultRead{res: r, known: true, note: AssumedREReadAs.text(v, r.String())}
}

func containsAny(s string, subs ...string) bool {
	return firstIndex(s, subs...) >= 0
}

func firstIndex(s string, subs ...string) int {
	best := -1
	for _, sub := range subs {
		if i := strings.Index(s, sub); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// cjkDigits are the numerals a margin may be written in.
var cjkDigits = map[rune]int{'〇': 0, '零': 0, '一': 1, '二': 2, '两': 2, '兩': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// cjkMargin reads the margin of a CJK result: "3又1/4子", "1/4子", "2目半",
// "半目", "3.5目", "6.5집", "十目". stones tells the unit was 子.
func cjkMargin(s string) (m float64, stones bool, ok bool) {
	unit := firstIndex(s, "子", "目", "집", "点", "點")
	if unit < 0 {
		return 0, false, false
	}
	stones = strings.HasPrefix(s[unit:], "子")
	body := s[:unit]
	half := strings.HasSuffix(s[unit:], "半") || strings.Contains(s[unit:], "半")
	// The number ends right before the unit; take the longest run of
	// digits, dots, slashes, "又" and numerals there.
	start := len(body)
	for start > 0 {
		r, size := lastRune(body[:start])
		if r >= '0' && r <= '9' || r == '.' || r == '/' || r == '又' || r == '半' || r == '十' || cjkDigits[r] > 0 || r == '〇' || r == '零' {
			start -= size
			continue
		}
		break
	}
	num := body[start:]
	if strings.HasPrefix(num, "半") && num == "半" { // 半目: half a point
		return 0.5, stones, true
	}
	var whole float64
	frac := 0.0
	if a, b, ok := strings.Cut(num, "又"); ok {
		num = b
		w, ok := cjkNumber(a)
		if !ok {
			return 0, false, false
		}
		whole = w
	}
	if p, q, ok := strings.Cut(num, "/"); ok {
		pn, err1 := strconv.Atoi(p)
		qn, err2 := strconv.Atoi(q)
		if err1 != nil || err2 != nil || qn == 0 {
			return 0, false, false
		}
		frac = float64(pn) / float64(qn)
	} else if num != "" {
		w, ok := cjkNumber(num)
		if !ok {
			return 0, false, false
		}
		whole += w
	} else if whole == 0 && !half {
		return 0, false, false
	}
	m = whole + frac
	if half {
		m += 0.5
	}
	return m, stones, true
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i]&0xC0 != 0x80 {
			r := []rune(s[i:])
			return r[0], len(s) - i
		}
	}
	return 0, 0
}

// cjkNumber reads "12", "3.5", "三", "十二", "二十".
func cjkNumber(s string) (float64, bool) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, true
	}
	n, cur, any := 0, 0, false
	for _, r := range s {
		switch {
		case r == '十':
			if cur == 0 {
				cur = 1
			}
			n += cur * 10
			cur = 0
		case r == '〇' || r == '零' || cjkDigits[r] > 0:
			cur = cjkDigits[r]
		default:
			return 0, false
		}
		any = true
	}
	return float64(n + cur), any
}
