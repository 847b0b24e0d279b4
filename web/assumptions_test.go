package web

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/charset"
	"github.com/weiqi-platform/rank/intake"
)

// allAssumptionFormats are the formats a stored assumption can come from.
func allAssumptionFormats() []games.AssumptionFormat {
	return append(games.AssumptionFormats(), intake.AssumptionsDropped)
}

// sampleArgs are plausible values of each kind of argument.
var sampleArgs = map[byte]string{
	'v': "X7", 'd': "12", 'n': "7.5", 'D': "2024-01-02", 'p': "KM", 'c': "W", 's': "s",
	'l': "3, 17, 40, 41, 52 and 6 more", 'r': "W+3.5", 't': "6h0m0s",
}

// sample is format f with each verb filled by a value of its kind; a
// nested sentence is itself a sample (a komi one after "(byte", else a
// result one).
func sample(f games.AssumptionFormat, args string) string {
	i := 0
	return verb.ReplaceAllStringFunc(string(f), func(string) string {
		k := args[i]
		i++
		switch {
		case k != 'e':
			return sampleArgs[k]
		case f == games.AssumedKomiAtByte:
			return "KM[750] read as komi 7.5: the value was written times 100"
		}
		return "RE[B] names the winner (B) but not how the game ended"
	})
}

var (
	// quoted are the file's values a sentence quotes, kept as they are.
	quoted = regexp.MustCompile(`\[[^\]]*\]|“[^”]*”`)
	// englishWord is a word with a lower-case letter (property names and
	// charset names are upper case).
	englishWord = regexp.MustCompile(`[A-Za-z]*[a-z][A-Za-z]*`)
)

// names that stay as they are in Chinese: servers, file types, the
// header fields of a .ugf file, SGF's word for no result.
var keptNames = []string{"Tygem", "Pandanet", "gib", "ugf", "Ptime", "Winner", "Void"}

// leftoverEnglish returns the English words left in a translation.
func leftoverEnglish(zh string) []string {
	var out []string
	for _, w := range englishWord.FindAllString(quoted.ReplaceAllString(zh, ""), -1) {
		if !slices.Contains(keptNames, w) {
			out = append(out, w)
		}
	}
	return out
}

// TestEveryAssumptionHasChinese: every sentence the reader (and the
// intake's bound) can write has a Chinese sentence whose arguments agree
// with the format's verbs, none is left over, and a sentence made from
// each format reads back in Chinese with no English word left.
func TestEveryAssumptionHasChinese(t *testing.T) {
	fs := allAssumptionFormats()
	for _, f := range fs {
		zh, ok := assumptionsZH[f]
		if !ok {
			t.Errorf("no Chinese for %q", f)
			continue
		}
		if formatRE(string(f), zh.args) == nil {
			t.Errorf("%q: argument kinds %q do not fit its verbs", f, zh.args)
			continue
		}
		s := sample(f, zh.args)
		got, ok := assumptionZH(s, 0)
		switch {
		case !ok:
			t.Errorf("%q is not translated", s)
		case strings.Contains(got, "%!"):
			t.Errorf("%q gives %q", s, got)
		case len(leftoverEnglish(got)) > 0:
			t.Errorf("%q gives %q, with English %q", s, got, leftoverEnglish(got))
		}
		for k := range zh.args {
			if zh.args[k] != 's' && !strings.Contains(zh.zh, fmt.Sprintf("%%[%d]s", k+1)) {
				t.Errorf("%q: the Chinese drops argument %d", f, k+1)
			}
		}
	}
	for f := range assumptionsZH {
		if !slices.Contains(fs, f) {
			t.Errorf("Chinese for %q, which nothing writes", f)
		}
	}
}

// quirkyFiles are small files with the quirks the reader notes, most
// from the games package's tables.
var quirkyFiles = []string{
	"(;GM[1]FF[4]SZ[9]KM[375]RU[Chinese]PB[a]PW[b]RE[W+R];B[ee];W[gg];W[cc];B[dd])",
	"\xef\xbb\xbf(;SZ[9]KM[750]RE[B+R (timeout)];B[ee])",
	"(;SZ[9]RE[黑胜1/4子];B[ee];W[];B[])",
	"(;SZ[9]KM[7.5]RE[白胜3又1/4子];B[ee];W[];B[])",
	"(;SZ[9]KM[7.5]RE[白中盘胜];B[ee])",
	"(;SZ[9]KM[7.5]RE[W+3.5 points];B[ee];W[];B[])",
	"(;AP[YuanYu]SZ[9]KM[750]RU[Japanese]RE[B+0.0];B[ee];W[];B[])",
	"(;AP[YuanYu]SZ[9]KM[750]RU[Japanese]RE[B+0.0];B[ee])",
	"(;SZ[9]KM[7.5]RE[B];B[ee])",
	"(;SZ[9]KM[7.5]RE[W];B[ee];W[];B[])",
	"(;SZ[9]KM[7.5]RE[黑负];B[ee])",
	"(;SZ[9]KM[7.5]RE[Unfinished];B[ee])",
	"(;SZ[9]KM[7.5]RE[?];B[ee])",
	"(;SZ[9]KM[7.5]RE[B+0.75];B[ee];W[];B[])",
	"(;SZ[9]KM[7.5]RE[X+3];B[ee])",
	"(;SZ[9]KM[7.5]RE[B-3];B[ee])",
	"(;SZ[9]KM[7.5]RE[B+J];B[ee])",
	"(;SZ[9]KM[7.5]RE[W+3 furlongs];B[ee];W[];B[])",
	"(;SZ[9]KM[7.5]RE[W+0.02];B[ee];W[];B[])",
	"(;SZ[9]KM[7.5]RE[和棋];B[ee];W[];B[])",
	"(;SZ[9]KM[7.5]RE[无胜负];B[ee])",
	"(;SZ[9]KM[7.5]RE[B+3.5];B[ee])",
	"(;SZ[9]KM[7.5];B[ee];W[];B[])",
	"(;SZ[19]KM[0.5]HA[2];W[pd])",
	"(;SZ[9]KM[0.5];B[cc];B[gg];B[cg];W[ee])",
	"(;SZ[19]KM[0.5]HA[3];B[dd];B[pp];B[dp];W[pd])",
	"(;SZ[7]KM[0.5]HA[2];W[dd])",
	"(;SZ[19]KM[0.5]HA[3]AB[dd][pp];W[pd])",
	"(;SZ[19]KM[0.5]HA[2]AB[dd]AW[pp];W[pd])",
	"(;SZ[19]KM[0.5]AB[dd][pp];W[pd])",
	"(;SZ[19]KM[0.5]HA[x];B[pd])",
	"(;SZ[9]KM[7.5]PL[x];B[ee])",
	"(;SZ[9]KM[7.5];W[ee])",
	"(;SZ[9]KM[7.5]KM[6.5]KM[7];B[ee]C[a]C[b])",
	"(;SZ[9]KM[7.5]AB[aa]AB[bb];W[ee])",
	"(;SZ[9]KM[7.5];B[ee]W[gg])",
	"(;SZ[9]KM[7.5];B[ee][ff])",
	"(;SZ[9]KM[7.5];B[ee]B[ff])",
	"(;SZ[9]KM[7.5]TC[3]TT[30];B[ee])",
	"(;SZ[9]KM[7.5]DT[1846-09];B[ee])",
	"(;SZ[9]KM[7.5]DT[someday];B[ee])",
	"(;SZ[9]KM[7.5]RU[Korean];B[ee])",
	"(;SZ[9]KM[7.5]RU[Foo];B[ee])",
	"(;FF[3]SZ[9]KM[7.5];B[ee];;B[gg])",
	"(;SZ[9]KM[7.5];B[ee]BL[x])",
	"(;SZ[9]KM[];B[ee])",
	"(;SZ[9]KM[abc];B[ee])",
	"(;SZ[9]KM[12345];B[ee])",
	"(;SZ[9]KM[7.3];B[ee])",
	"(;SZ[9]KM[3.75];B[ee])",
	"(;SZ[9]KM[7.5]AB[aa][bb]AE[aa];W[ee])",
	"(;SZ[9]KM[7.5]AE[cc];B[ee])",
	"(;SZ[9]KM[7.5]AB[aa]AW[aa];B[ee])",
	"(;SZ[9]KM[7.5];B[ee];AW[gg];B[cc])",
	"(;SZ[9]KM[7.5];B[ee];AB[ee];W[cc])",
	"(;SZ[9]KM[7.5];B[ee];AB[gg][cc])",
	"(;SZ[9]KM[7.5];B[ee];AB[zz])",
	"(;SZ[9]KM[7.5];B[ee];B[ee];AB[gg])",
	setupAfterMoves(17),
	"(;SZ[9]KM[7.5]PB[" + strings.Repeat("名", games.MaxInfoText+1) + "];B[ee])",
	"(;SZ[9]KM[7.5]GC[" + strings.Repeat("x", games.MaxCommentText+1) + "];B[ee]C[" + strings.Repeat("y", games.MaxCommentText+1) + "])",
	"(GM[1]SZ[9]KM[7.5];B[ee])",
	"(;SZ[9]KM[7.5];B[ee]))",
	"(;SZ[9]KM[7.5];B[ee]) -- signature",
	"(;SZ[9]KM[7.5];B[ee]) x (;SZ[9]KM[7.5];B[ee])",
	"(;SZ[9]KM[7.5]PB;B[ee])",
	"(;CA[UTF-8]SZ[9]KM[7.5]PB[李昌镐 李昌镐 \xff];B[ee])",
	"(;SZ[9]KM[7.5]PB[李昌镐 李昌镐 \xff];B[ee])",
	"(;CA[UTF-8]SZ[9]KM[7.5]PB[\xc0\xc0];B[ee])",
	"(;SZ[9]KM[7.5]PB[\xc0\xc0];B[ee])",
	"(;CA[xyz]SZ[9]KM[7.5]PB[é];B[ee])",
	"(;CA[xyz]SZ[9]KM[7.5]PB[\xe9];B[ee])",
	"(;CA[GB2312]SZ[9]KM[7.5]PB[\xc0\xee\xb2\xfd\xe9\xac];B[ee])",
	"(;CA[GB2312]SZ[9]KM[7.5]PB[李]PW[\xe9\x9d\x9e];B[ee])",
	"(;SZ[9]KM[7.5]PB[\xc0\xee\xb2\xfd\xe9\xac\xc0\xee];B[ee])",
	"(;SZ[9]KM[7.5]PB[\xc0\xee\xb2\xfd\xe9\xac\xc0\xee];B[ee])",
	"\xff\xfe" + utf16le("(;SZ[9]KM[7.5];B[ee])"),
	utf16le("(;SZ[9]KM[7.5];B[ee])"),
	"\\[GAMEINFOMAIN=GRLT:9,GONGJE:65,\\]\nSTO 0 2 1 15 3\n",
	"[Header]\nSize=9\nHdcp=0,6.5\nWinner=X,3\nPtime=J;60;1;5,J;60;1;5,0,0\n[Data]\nEE,B1,1,0\n",
	"[Header]\nSize=9\nHdcp=0,6.5\nPtime=J;180;0;0\n[Data]\nEE,B1,1,0\n",
	"[Header]\nSize=9\nHdcp=0,6.5\nPtime=fast\n[Data]\nEE,B1,1,0\n",
	"[Header]\nSize=9\nHdcp=0,6.5\nPtime=J;240;0;0,J;180;0;0,0,0\n[Data]\nEE,B1,1,0\n",
	"[Header]\nSize=9\nHdcp=0,6.5\nPtime=J;0;0;0\n[Data]\nEE,B1,1,0\n",
	"[Header]\nSize=9\nHdcp=0,6.5\nPtime=J;361;0;0\n[Data]\nEE,B1,1,0\n",
}

// setupAfterMoves is a file of n moves of each colour, each followed by
// setup that repeats it.
func setupAfterMoves(n int) string {
	var b strings.Builder
	b.WriteString("(;SZ[19]KM[7.5]")
	for i := range n {
		x := string(rune('a' + i))
		fmt.Fprintf(&b, ";B[%sa];AB[%sa];W[%sc];AW[%sc]", x, x, x, x)
	}
	return b.String() + ")"
}

func utf16le(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		b.WriteByte(c)
		b.WriteByte(0)
	}
	return b.String()
}

// TestReaderAssumptionsInChinese: what the reader assumed in real quirky
// files, as it wrote it, reads in Chinese,
// with no English word left; the files leave every format the reader has.
func TestReaderAssumptionsInChinese(t *testing.T) {
	hit := map[games.AssumptionFormat]bool{}
	for _, file := range quirkyFiles {
		// With charset.Decode, as the intake reads, and without.
		var as []string
		for _, d := range []games.Decoder{charset.Decode, nil} {
			recs, err := games.ReadRecords([]byte(file), games.ReadOptions{Decode: d})
			if err != nil {
				t.Fatalf("%.60q: %v", file, err)
			}
			for _, r := range recs {
				as = append(as, r.Assumptions...)
			}
		}
		if len(as) == 0 {
			t.Errorf("%.60q: no assumption", file)
		}
		for _, a := range as {
			zh, ok := assumptionZH(a, 0)
			if !ok {
				t.Errorf("%.60q: %q stays English", file, a)
				continue
			}
			if w := leftoverEnglish(withoutValues(zh, a)); len(w) > 0 {
				t.Errorf("%q gives %q, with English %q", a, zh, w)
			}
			for _, f := range formatsOf(a) {
				hit[f] = true
			}
		}
	}
	for _, f := range games.AssumptionFormats() {
		if !hit[f] {
			t.Errorf("no file gives %q", f)
		}
	}
}

// readBy is the format that translates s and its arguments; "" if none.
func readBy(s string) (games.AssumptionFormat, []string) {
	if _, ok := assumptionZH(s, 0); !ok {
		return "", nil
	}
	for _, f := range allAssumptionFormats() {
		zt := assumptionsZH[f]
		sub := formatRE(string(f), zt.args).FindStringSubmatch(s)
		if sub == nil {
			continue
		}
		good := true
		for k := range zt.args {
			if zt.args[k] == 'e' {
				inner, _ := readBy(sub[k+1])
				good = good && inner != ""
			}
		}
		if good {
			return f, sub[1:]
		}
	}
	return "", nil
}

// formatsOf names the formats a translated sentence was read by, nested
// ones too.
func formatsOf(s string) []games.AssumptionFormat {
	f, args := readBy(s)
	if f == "" {
		return nil
	}
	out := []games.AssumptionFormat{f}
	for k, kind := range []byte(assumptionsZH[f].args) {
		if kind == 'e' {
			out = append(out, formatsOf(args[k])...)
		}
	}
	return out
}

// withoutValues is zh without the file's values that English sentence s
// quotes unbracketed (a charset's name, Ptime=fast).
func withoutValues(zh, s string) string {
	f, args := readBy(s)
	for k, kind := range []byte(assumptionsZH[f].args) {
		switch {
		case kind == 'v' && args[k] != "":
			zh = strings.ReplaceAll(zh, args[k], "")
		case kind == 'e':
			zh = withoutValues(zh, args[k])
		}
	}
	return zh
}

// TestAssumptionShownAsStored: an English page shows the stored text as
// it is; a Chinese page shows as stored a text no format matches whole
// (another reader's, one the intake cut) and one with an argument that
// has no Chinese, never half translated.
func TestAssumptionShownAsStored(t *testing.T) {
	komi := "KM[375] read as komi 7.5: 3.75 stones written times 100 (one stone is two points) (byte 20)"
	cut := komi[:40] + "…"
	for _, s := range []string{
		"something no reader of ours wrote",
		cut,
		komi + " and more",
		"RE[B] who knows: the result is unknown", // the nested sentence is none
		"RE[B] who knows: play ended by passes, so a win by counting (B+) assumed",
		"ugf: Ptime=J;60 gives a main time beyond forever: no TM", // not a duration
		"the first move is X's and no PL says so: X moved first, as the record has it",
	} {
		if got, ok := assumptionZH(s, 0); ok || got != s {
			t.Errorf("%q shown as %q", s, got)
		}
		l := assumptionsIn("zh", []string{komi, s})
		if !l.English || l.Lines[0].English || !l.Lines[1].English || l.Lines[1].Text != s {
			t.Errorf("%q on a Chinese page: %+v", s, l)
		}
	}
	if got, ok := assumptionZH(komi, 0); !ok || got != "KM[375] 读作贴目 7.5：即 3.75 子乘以 100 的写法（一子合两目）（第 20 字节）" {
		t.Errorf("komi: %q", got)
	}
	if got, _ := assumptionZH(fmt.Sprintf(intake.AssumptionsDropped, 7), 0); got != "另有 7 条假定未保存" {
		t.Errorf("dropped: %q", got)
	}
	as := []string{komi, "a colour played twice in a row: a pass by the other assumed before move 3"}
	if l := assumptionsIn("en", as); l.English || l.Lines[0].Text != komi || l.Lines[1].Text != as[1] || l.Lines[0].English {
		t.Errorf("an English page: %+v", l)
	}
}
