package ranks

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrSyntax is returned (wrapped) for text that is no rank notation.
var ErrSyntax = errors.New("invalid rank notation")

// ParseError names the text that failed to parse and why. It unwraps to
// ErrSyntax or to ErrLevel.
type ParseError struct {
	Input  string // the text given to Parse
	Reason string // what is wrong, for people
	Err    error  // ErrSyntax or ErrLevel
}

func (e *ParseError) Error() string {
	return "ranks: parsing " + quote(e.Input) + ": " + e.Reason
}

func (e *ParseError) Unwrap() error { return e.Err }

// quote is strconv.Quote with a length cap, so a huge input does not make
// a huge message.
func quote(s string) string {
	const max = 40
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

// Units of rank notation (rating.md §1): Latin letters and words in any
// case, and the Chinese/Japanese characters.
var units = map[string]Kind{
	"k": Kyu, "kyu": Kyu,
	"d": Dan, "dan": Dan,
	"p": Pro, "pro": Pro,
}

var hanUnits = map[string]Kind{
	"级": Kyu, "級": Kyu, // simplified, traditional/Japanese
	"段": Dan,
}

// Prefixes that say which dan scale 段 means: professional (职业段位) or
// amateur (业余).
var (
	proPrefixes     = []string{"职业", "職業"}
	amateurPrefixes = []string{"业余", "業餘"}
)

// initialDan is 初段, the first dan.
const initialDan = "初"

var hanDigits = map[rune]int{'一': 1, '二': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// Parse reads a rank in any common notation: 5k, 5K, "5 kyu", 3d, 3D,
// "3 dan", 9p, "9 pro", 5级, 5級, 三段, 3段, 初段, 业余三段, 职业九段,
// 職業九段; full-width digits too. Surrounding space is ignored. Anything
// else is an error that names the text and says what is wrong.
func Parse(s string) (Rank, error) {
	fail := func(err error, reason string) (Rank, error) {
		return Rank{}, &ParseError{Input: s, Reason: reason, Err: err}
	}
	t := strings.TrimSpace(s)
	if t == "" {
		return fail(ErrSyntax, "empty")
	}
	t = halfWidthDigits(t)

	pro, amateur := false, false
	if rest, ok := cutAnyPrefix(t, proPrefixes); ok {
		t, pro = rest, true
	} else if rest, ok := cutAnyPrefix(t, amateurPrefixes); ok {
		t, amateur = rest, true
	}

	if len(t) > 1 && t[0] == '0' && t[1] >= '0' && t[1] <= '9' {
		return fail(ErrSyntax, "leading zero in the rank number")
	}
	level, han, rest, ok := cutNumber(t)
	if !ok {
		return fail(ErrSyntax, "no rank number (want e.g. 5k, 3d, 9p, 5级, 三段)")
	}
	unit := strings.TrimLeftFunc(rest, unicode.IsSpace)
	if unit == "" {
		return fail(ErrSyntax, "no unit after the number (want k, d, p, kyu, dan, pro, 级, 段)")
	}

	kind, hanUnit := hanUnits[unit]
	if !hanUnit {
		kind = units[strings.ToLower(unit)]
	}
	switch {
	case kind == 0:
		return fail(ErrSyntax, "unknown unit "+quote(unit)+" (want k, d, p, kyu, dan, pro, 级, 段)")
	case han && !hanUnit:
		return fail(ErrSyntax, "a Chinese numeral needs a Chinese unit (级, 段)")
	case strings.HasPrefix(t, initialDan) && kind != Dan:
		return fail(ErrSyntax, "初 is only used in 初段 (1 dan)")
	case pro && !(hanUnit && kind == Dan):
		return fail(ErrSyntax, "职业 (professional) goes with 段 only")
	case amateur && !hanUnit:
		return fail(ErrSyntax, "业余 (amateur) goes with 级 or 段 only")
	}
	if pro {
		kind = Pro
	}
	if level < 1 || level > kind.maxLevel() {
		return fail(ErrLevel, levelReason(kind, level))
	}
	return Rank{kind: kind, level: uint8(level)}, nil
}

// MustParse is Parse for constants in tests and examples; it panics on
// an error.
func MustParse(s string) Rank {
	r, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return r
}

func cutAnyPrefix(s string, prefixes []string) (string, bool) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest, true
		}
	}
	return s, false
}

// cutNumber reads the rank number at the start of s: ASCII digits, a
// Chinese numeral up to 九十九, or 初 (1). han says it was not digits.
// A number too long for any scale stops growing past 1000: it fails the
// range check with a clear message instead of overflowing.
func cutNumber(s string) (n int, han bool, rest string, ok bool) {
	if rest, ok := strings.CutPrefix(s, initialDan); ok {
		return 1, true, rest, true
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n < 1000 {
			n = n*10 + int(s[i]-'0')
		}
		i++
	}
	if i > 0 {
		return n, false, s[i:], true
	}
	return cutHanNumber(s)
}

// cutHanNumber reads 一 … 九, 十, 十一 … 十九, 二十 … 九十九.
func cutHanNumber(s string) (n int, han bool, rest string, ok bool) {
	digit := func(s string) (int, string, bool) {
		r, size := utf8.DecodeRuneInString(s)
		d, ok := hanDigits[r]
		return d, s[size:], ok
	}
	tens, rest, hasTens := digit(s)
	if !hasTens {
		tens, rest = 1, s // 十一 means 11
	}
	if after, ok := strings.CutPrefix(rest, "十"); ok {
		ones, after2, hasOnes := digit(after)
		if !hasOnes {
			ones, after2 = 0, after
		}
		return tens*10 + ones, true, after2, true
	}
	if !hasTens {
		return 0, false, "", false
	}
	return tens, true, rest, true
}

// halfWidthDigits maps full-width digits (０…９) to ASCII.
func halfWidthDigits(s string) string {
	if !strings.ContainsFunc(s, isFullWidthDigit) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isFullWidthDigit(r) {
			return r - '０' + '0'
		}
		return r
	}, s)
}

func isFullWidthDigit(r rune) bool { return r >= '０' && r <= '９' }
