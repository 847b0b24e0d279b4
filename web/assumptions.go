package web

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
)

// A game's assumptions are stored as the reader wrote them, in English
// (games.AssumptionFormats, and intake's AssumptionsDropped). A Chinese
// page matches each against those formats and writes the Chinese sentence
// with the arguments; a text no format matches whole (an older game's, one
// cut at intake.MaxAssumptionText) or with an argument that has no
// Chinese is shown as stored, never half translated.

// assumedZH is a format's Chinese sentence (its arguments as %[i]s, all
// strings) and the kind of each argument, one letter per verb:
//
//	v  a value of the file, kept as it is ([KM] values, Ptime=…, a charset)
//	d  a whole number      n  a number (komi)      D  a date, 2006-01-02
//	p  a property's name   c  a colour, B or W     s  a plural "s" (dropped)
//	l  move numbers, "3, 17 and 6 more"            r  a result, B+R, W+3.5
//	e  another assumption (a komi or result sentence), translated too
//	t  a time.Duration (%v)
type assumedZH struct {
	zh, args string
}

var assumptionsZH = map[games.AssumptionFormat]assumedZH{
	games.AssumedUTF8BOM:          {"文件以 UTF-8 字节顺序标记（BOM）开头：已去掉", ""},
	games.AssumedUTF16BOM:         {"文件是带字节顺序标记（BOM）的 UTF-16：已解码", ""},
	games.AssumedUTF16NoBOM:       {"文件是不带字节顺序标记（BOM）的 UTF-16：已解码", ""},
	games.AssumedNoCAMostlyUTF8:   {"没有 CA，有 %[1]s 个字节不是 UTF-8，其余都是：按 UTF-8 读取，替换这些字节", "d"},
	games.AssumedCAMostlyUTF8:     {"CA[%[1]s]，有 %[2]s 个字节不是 UTF-8，其余都是：按 UTF-8 读取，替换这些字节", "vd"},
	games.AssumedNoCADetected:     {"没有 CA，字节也不是 UTF-8：按能完整解码的字符集 %[1]s 解码", "v"},
	games.AssumedCADetected:       {"CA[%[1]s]，但字节不是 UTF-8：按能完整解码的字符集 %[2]s 解码", "vv"},
	games.AssumedNoCAReplaced:     {"没有 CA，字节也不是 UTF-8：替换不是 UTF-8 的字节", ""},
	games.AssumedCAReplaced:       {"CA[%[1]s]，但字节不是 UTF-8：替换不是 UTF-8 的字节", "v"},
	games.AssumedCAWrongLabel:     {"CA[%[1]s]，但字节是 UTF-8，按 %[2]s 解码会出错：按 UTF-8 读取", "vv"},
	games.AssumedCADecoded:        {"CA[%[1]s]：文字按 %[2]s 解码", "vv"},
	games.AssumedCAUnknownUTF8:    {"CA[%[1]s] 不是本程序能解码的字符集，但字节是 UTF-8：按 UTF-8 读取", "v"},
	games.AssumedCAUnknownInvalid: {"CA[%[1]s]：文字按 UTF-8 读取，替换不是 UTF-8 的字节", "v"},

	games.AssumedRootWithoutSemicolon: {"根节点在“(”之后缺少“;”：按节点读取", ""},
	games.AssumedTextAfterLast:        {"最后一局棋谱之后的文字（第 %[1]s 字节）：忽略", "d"},
	games.AssumedParenAfterLast:       {"最后一局棋谱之后多余的“)”（第 %[1]s 字节）：忽略", "d"},
	games.AssumedTextBetween:          {"两局棋谱之间的文字（第 %[1]s 字节）：忽略", "d"},
	games.AssumedNoValue:              {"第 %[2]s 字节的属性 %[1]s 没有值：忽略", "pd"},

	games.AssumedTwiceInNode:      {"%[1]s 在同一节点中出现两次（第 %[2]s 字节）：保留第一个", "pd"},
	games.AssumedTwiceInNodeMerge: {"%[1]s 在同一节点中出现两次（第 %[2]s 字节）：合并其中的点", "pd"},
	games.AssumedBothMoves:        {"第 %[1]s 字节的节点同时有 B 和 W：按先后读作两手", "d"},
	games.AssumedMoveValues:       {"第 %[1]s 字节的着手有 %[2]s 个值：保留第一个", "dd"},
	games.AssumedGivenTimes:       {"%[1]s 出现 %[2]s 次：保留第一个（%[3]s[%[4]s]），舍去 %[5]s", "pdpvv"},
	games.AssumedFoxByoYomi:       {"TC[%[1]s]TT[%[2]s] 是野狐的读秒，记为 OT[%[3]s]", "vvv"},
	games.AssumedDateNoDay:        {"DT[%[1]s] 没有写到日：对局日期取其所指的第一天 %[2]s", "vD"},
	games.AssumedDateUnknown:      {"DT[%[1]s] 不是本程序认识的日期（YYYY-MM-DD）：对局日期不详", "v"},
	games.AssumedKoreanRules:      {"RU[%[1]s]：韩国规则按日本规则计算（数目，简单劫），并记为 RU[Japanese]", "v"},
	games.AssumedRulesUnknown:     {"RU[%[1]s] 不是中国、日本、韩国、应氏、QQ、AGA、新西兰规则中的任何一种：按中国规则", "v"},
	games.AssumedHandicapBad:      {"HA[%[1]s] 不是 0 到 %[2]s 的让子数：忽略", "vd"},
	games.AssumedFoxHandicap:      {"没有 HA，黑开局连下 %[1]s 手：读作黑自行摆放的让 %[2]s 子（野狐的写法）", "dd"},
	games.AssumedFoxHandicapHA:    {"HA[%[1]s]，黑开局连下 %[2]s 手：读作黑自行摆放的让 %[3]s 子（野狐的写法）", "ddd"},
	games.AssumedHandicapNoFix:    {"HA[%[1]s] 但没有 AB 棋子，而 %[2]s×%[3]s 的棋盘没有固定的让子位置：按分先读取", "ddd"},
	games.AssumedHandicapStars:    {"HA[%[1]s] 但没有 AB：假定让子摆在固定的星位上", "d"},
	games.AssumedHandicapAB:       {"HA[%[1]s] 但 AB 有 %[2]s 子：按盘上的子，假定让 %[3]s 子", "ddd"},
	games.AssumedHandicapEven:     {"HA[%[1]s] 但摆了 %[2]s 颗黑子和 %[3]s 颗白子：按从该局面开始的分先对局读取", "ddd"},
	games.AssumedHandicapNoHA:     {"没有 HA，但 AB 有 %[1]s 子且白先走：假定让 %[2]s 子", "dd"},
	games.AssumedPLBad:            {"PL[%[1]s]（第 %[2]s 字节）不是 B 或 W：忽略", "vd"},
	games.AssumedFirstMove:        {"第一手是%[1]s棋，没有 PL 说明：按棋谱所记，%[2]s先", "cc"},
	games.AssumedSetupTooMany:     {"着手之后的摆子节点超过 %[1]s 个：棋谱只读到第 %[2]s 手", "dd"},
	games.AssumedOmittedPasses:    {"同一方连下两手：假定对方在%[2]s之前停一手", "sl"},
	games.AssumedEmptyNodes:       {"FF[%[2]s] 文件的主线中有空节点：%[4]s读作停一手", "sdsl"},
	games.AssumedClockBad:         {"%[1]s[%[2]s]（第 %[3]s 字节）不是时间：忽略", "pvd"},
	games.AssumedKomiAtByte:       {"%[1]s（第 %[2]s 字节）", "ed"},
	games.AssumedNoKomi:           {"没有 KM：假定贴目 %[1]s", "n"},
	games.AssumedNoResult:         {"没有给出结果：对局以停一手结束，故假定终局计数", ""},
	games.AssumedCountNoPasses:    {"RE[%[1]s] 是计数结果，但着手并非以 %[2]s 次停一手结束：假定对局经双方同意结束", "vd"},
	games.AssumedAERemoves:        {"对局前的 AE 去掉了 %[1]s 颗摆放的子：其余保留", "d"},
	games.AssumedAEEmpty:          {"对局前的 AE 作用于 %[1]s 个空点：没有可去掉的子", "d"},
	games.AssumedSetupTwice:       {"%[1]s 个摆子点重复给出：保留第一个", "d"},
	games.AssumedSetupNoReplay:    {"第 %[1]s 手之后的摆子（第 %[2]s 字节）：之前的着手无法复盘，棋谱只读到此处", "dd"},
	games.AssumedSetupNotPoint:    {"第 %[3]s 手之后的摆子 %[1]s[%[2]s]（第 %[4]s 字节）不是棋盘上的点：棋谱只读到此处", "pvdd"},
	games.AssumedSetupNoChange:    {"第 %[1]s 手之后的摆子（第 %[2]s 字节）没有改变盘面：忽略", "dd"},
	games.AssumedSetupAsMove:      {"第 %[1]s 手之后的摆子（第 %[2]s 字节）放了一颗%[3]s子，且轮到%[4]s走：读作%[5]s的一手", "ddccc"},
	games.AssumedSetupCut:         {"第 %[1]s 手之后的摆子（第 %[2]s 字节）以着手做不到的方式改变了局面：棋谱只读到第 %[3]s 手，其后的着手不予判定", "ddd"},
	games.AssumedLongText:         {"%[1]s 有 %[2]s 个字符，超过保留的 %[3]s 个：其余舍去", "pdd"},
	games.AssumedLongGameNote:     {"对局评注有 %[1]s 个字符，超过保留的 %[2]s 个：其余舍去", "dd"},
	games.AssumedLongMoveNote:     {"第 %[1]s 手之后的评注有 %[2]s 个字符，超过保留的 %[3]s 个：其余舍去", "ddd"},
	games.AssumedResultCounted:    {"%[1]s：对局以停一手结束，故假定终局计数取胜（%[2]s）", "er"},
	games.AssumedResultUnknown:    {"%[1]s：结果不详", "e"},

	games.AssumedKomiEmpty:    {"KM[%[1]s] 为空：假定贴目 %[2]s", "vn"},
	games.AssumedKomiNaN:      {"KM[%[1]s] 不是数字：假定贴目 %[2]s", "vn"},
	games.AssumedKomiTooLarge: {"KM[%[1]s] 太大，也不是贴目乘以 %[2]s：假定贴目 %[3]s", "vdn"},
	games.AssumedKomiOdd:      {"KM[%[1]s] 既不是整目或半目，也不是四分之一子的整数倍：假定贴目 %[2]s", "vn"},
	games.AssumedKomiTimes:    {"KM[%[1]s] 读作贴目 %[2]s：该值写成了乘以 %[3]s 的数", "vnd"},
	games.AssumedKomiStones:   {"KM[%[1]s] 读作贴目 %[2]s：即 %[3]s 子乘以 %[4]s 的写法（一子合两目）", "vnnd"},
	games.AssumedKomiQuarter:  {"KM[%[1]s] 读作贴目 %[2]s：带四分之一的贴目是以子计的（一子合两目）", "vn"},

	games.AssumedRENone:         {"RE[%[1]s]：没有结果：结果不详", "v"},
	games.AssumedRENotYet:       {"RE[%[1]s]：对局尚无结果：结果不详", "v"},
	games.AssumedRENoWinner:     {"RE[%[1]s]：没有写明胜方：结果不详", "v"},
	games.AssumedRENotPlus:      {"RE[%[1]s]：不是 B+… 或 W+… 的写法：结果不详", "v"},
	games.AssumedREVoid:         {"RE[%[1]s] 读作无胜负（Void）", "v"},
	games.AssumedREDraw:         {"RE[%[1]s] 读作和棋（0）", "v"},
	games.AssumedREWinnerOnly:   {"RE[%[1]s] 写明了胜方（%[2]s），但没有写明对局如何结束", "vc"},
	games.AssumedRELoserOnly:    {"RE[%[1]s] 写明了负方，因而胜方是%[2]s，但没有写明对局如何结束", "vc"},
	games.AssumedREReadAs:       {"RE[%[1]s] 读作 %[2]s", "vr"},
	games.AssumedRERemarkTime:   {"RE[%[1]s] 读作 %[2]s：附注说是超时", "vr"},
	games.AssumedREWordUnknown:  {"RE[%[1]s]：%[2]s胜，但“%[3]s”既不是胜负差，也没有说明对局如何结束", "vcv"},
	games.AssumedREUnitUnknown:  {"RE[%[1]s]：胜负差的单位“%[2]s”无法识别：读作计数取胜，胜负差不详", "vv"},
	games.AssumedREStones:       {"RE[%[1]s] 读作 %[2]s：胜负差以子计（一子合两目）", "vr"},
	games.AssumedREQuarter:      {"RE[%[1]s] 读作 %[2]s：带四分之一的胜负差是以子计的，数子规则贴 3¾ 子时即如此（一子合两目）", "vr"},
	games.AssumedREOddMargin:    {"RE[%[1]s]：胜负差不是半目的整数倍：读作计数取胜，胜负差不详", "v"},
	games.AssumedREZeroMargin:   {"RE[%[1]s] 是胜 0 目，按本规则计数不会有这种结果：只写明了胜方（%[2]s），没有写明对局如何结束", "vc"},
	games.AssumedGIBResultCode:  {"gib：无法识别的结果代码 GRLT %[1]s：结果不详", "v"},
	games.AssumedUGFWinnerWrong: {"ugf：Winner=%[1]s 既不是 B 也不是 W：结果不详", "v"},

	games.AssumedFromGIB:          {"由弈城（Tygem）.gib 文件转换（韩国规则，19×19 棋盘）", ""},
	games.AssumedFromUGF:          {"由 Pandanet .ugf 文件转换", ""},
	games.AssumedPtimeUnknown:     {"ugf：Ptime=%[1]s 不是本程序认识的用时设置：不设 TM", "v"},
	games.AssumedPtimeSidesDiffer: {"ugf：Ptime=%[1]s 给双方的基本用时不同：不设 TM", "v"},
	games.AssumedPtimeNoMain:      {"ugf：Ptime=%[1]s 没有基本用时：不设 TM", "v"},
	games.AssumedPtimeTooLong:     {"ugf：Ptime=%[1]s 的基本用时超过 %[2]s：不设 TM", "vt"},
	games.AssumedPtimeRead:        {"ugf：Ptime=%[1]s 读作每方基本用时 %[2]s 分钟（TM[%[3]s]）", "vdv"},
	games.AssumedPtimeReadPart:    {"ugf：Ptime=%[1]s 读作每方基本用时 %[2]s 分钟（TM[%[3]s]）；其余数字不读，也不设 OT", "vdv"},

	intake.AssumptionsDropped: {"另有 %[1]s 条假定未保存", "d"},
}

// argPatterns are the texts each kind of argument matches, exactly.
var argPatterns = map[byte]string{
	'v': `(.*)`, 'd': `(-?\d+)`, 'n': `(-?\d+(?:\.\d+)?)`, 'D': `(\d{4}-\d{2}-\d{2})`,
	'p': `([A-Z]+)`, 'c': `([BW])`, 's': `(s?)`, 'l': `(\d+(?:, \d+)*(?: and \d+ more)?)`,
	'r': `([BW]\+(?:[RTF]|\d+(?:\.\d+)?)?)`, 'e': `(.+)`, 't': `(.+)`,
}

// verb is a fmt verb of the reader's formats.
var verb = regexp.MustCompile(`%[sdqv]`)

// assumedMatcher is one format as an anchored expression.
type assumedMatcher struct {
	re       *regexp.Regexp
	zh, args string
}

// assumedMatchers are the formats in a fixed order (the list games gives,
// then intake's): a text is translated by the first whose arguments all
// have a translation.
var assumedMatchers = func() []assumedMatcher {
	fs := append(games.AssumptionFormats(), intake.AssumptionsDropped)
	out := make([]assumedMatcher, 0, len(fs))
	for _, f := range fs {
		t, ok := assumptionsZH[f]
		if !ok {
			continue // TestEveryAssumptionHasChinese names it
		}
		out = append(out, assumedMatcher{re: formatRE(string(f), t.args), zh: t.zh, args: t.args})
	}
	return out
}()

// formatRE is the anchored expression of format f whose verbs are
// arguments of the kinds args; nil when they do not agree.
func formatRE(f, args string) *regexp.Regexp {
	locs := verb.FindAllStringIndex(f, -1)
	if len(locs) != len(args) {
		return nil
	}
	var b strings.Builder
	b.WriteString(`(?s)^`) // a value of the file may hold line breaks
	i := 0
	for k, loc := range locs {
		p, ok := argPatterns[args[k]]
		if !ok {
			return nil
		}
		b.WriteString(regexp.QuoteMeta(f[i:loc[0]]))
		b.WriteString(p)
		i = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(f[i:]) + "$")
	return regexp.MustCompile(b.String())
}

// maxNesting bounds how deep a sentence holds another (a result sentence
// in "…: the result is unknown" is one level).
const maxNesting = 2

// assumptionZH is the Chinese of an English assumption; ok false when
// no format matches it whole with every argument translated.
func assumptionZH(s string, depth int) (string, bool) {
	for _, m := range assumedMatchers {
		if m.re == nil {
			continue
		}
		sub := m.re.FindStringSubmatch(s)
		if sub == nil {
			continue
		}
		args := make([]any, len(m.args))
		ok := true
		for k := range m.args {
			a, good := assumedArg(m.args[k], sub[k+1], depth)
			if !good {
				ok = false
				break
			}
			args[k] = a
		}
		if ok {
			return fmt.Sprintf(m.zh, args...), true
		}
	}
	return s, false
}

// listRE reads the move numbers of a note ("3, 17, 40, 41, 52 and 6 more").
var listRE = regexp.MustCompile(`^(\d+(?:, \d+)*)(?: and (\d+) more)?$`)

// assumedArg is an argument of kind in Chinese.
func assumedArg(kind byte, v string, depth int) (string, bool) {
	switch kind {
	case 'c':
		if v == "B" {
			return "黑", true
		}
		return "白", true
	case 's':
		return "", true
	case 'l':
		m := listRE.FindStringSubmatch(v)
		if m == nil {
			return "", false
		}
		out := "第 " + strings.ReplaceAll(m[1], ", ", "、") + " 手"
		if m[2] != "" {
			out += "等（另有 " + m[2] + " 处）"
		}
		return out, true
	case 'e':
		if depth >= maxNesting {
			return "", false
		}
		return assumptionZH(v, depth+1)
	case 't':
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 || d%time.Minute != 0 {
			return "", false
		}
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		switch {
		case m == 0:
			return strconv.Itoa(h) + " 小时", true
		case h == 0:
			return strconv.Itoa(m) + " 分钟", true
		}
		return strconv.Itoa(h) + " 小时 " + strconv.Itoa(m) + " 分钟", true
	}
	return v, true // numbers, names, dates, values of the file, results
}

// assumedLine is one assumption as a page shows it; English: it stays in
// English on a page in another language.
type assumedLine struct {
	Text    string
	English bool
}

// assumedList is a game's assumptions in the page's language; English:
// some stay in English.
type assumedList struct {
	Lines   []assumedLine
	English bool
}

// Assumptions is a game's stored assumptions in the page's language.
func (p *page) Assumptions(as []string) assumedList {
	return assumptionsIn(p.c.lang, as)
}

func assumptionsIn(lang string, as []string) assumedList {
	l := assumedList{Lines: make([]assumedLine, len(as))}
	for i, a := range as {
		l.Lines[i].Text = a
		if lang != "zh" {
			continue
		}
		if zh, ok := assumptionZH(a, 0); ok {
			l.Lines[i].Text = zh
		} else {
			l.Lines[i].English, l.English = true, true
		}
	}
	return l
}
