package games

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// KoRule says which repetitions are forbidden (rules.md §4).
type KoRule uint8

// The ko rules. Every rule forbids the immediate ko recapture.
const (
	// KoSimple forbids only retaking a ko at once; longer cycles are
	// allowed and end the game without result (see Ruleset.CycleDraw).
	KoSimple KoRule = iota + 1
	// KoPositional forbids recreating any earlier arrangement of stones.
	KoPositional
	// KoSituational forbids recreating an earlier arrangement with the same
	// player to move.
	KoSituational
)

var koNames = map[KoRule]string{KoSimple: "simple", KoPositional: "positional", KoSituational: "situational"}

func (k KoRule) String() string {
	if s, ok := koNames[k]; ok {
		return s
	}
	return "ko(" + strconv.Itoa(int(k)) + ")"
}

// Scoring is the counting method.
type Scoring uint8

// The counting methods (rules.md §6).
const (
	// ScoringArea counts stones on the board plus surrounded points, dame
	// split half and half (Chinese, Ing, QQ).
	ScoringArea Scoring = iota + 1
	// ScoringTerritory counts surrounded points plus prisoners; seki points
	// count for no one (Japanese/Korean).
	ScoringTerritory
)

var scoringNames = map[Scoring]string{ScoringArea: "area", ScoringTerritory: "territory"}

func (s Scoring) String() string {
	if n, ok := scoringNames[s]; ok {
		return n
	}
	return "scoring(" + strconv.Itoa(int(s)) + ")"
}

// Ruleset is a set of rules as plain values: compare with ==, copy freely.
// Komi and penalties are in points (one stone = two points).
type Ruleset struct {
	Ko                KoRule
	MultiStoneSuicide bool    // a group of two or more stones may fill its last liberty and is removed
	Scoring           Scoring // counting method
	Komi              float64 // komi of even games when the record gives none
	PassesToEnd       int     // consecutive passes (both players together) that end play
	// HandicapCompensation is given to White per handicap stone in games
	// of two or more handicap stones, in points of margin (Chinese: half a
	// stone per handicap stone, which is one point of margin).
	HandicapCompensation float64
	// UncompensatedStones: the first this many handicap stones earn White
	// nothing (AGA: 1, so White gets HA−1 points).
	UncompensatedStones int
	// HandicapKomi is the komi of handicap games when the record gives
	// none (AGA: 0.5).
	HandicapKomi    float64
	TieWinner       Color   // who wins an exactly even count; Empty: a draw
	WarningPenalty  float64 // points lost per warning
	WarningsToLose  int     // this many warnings lose the game; 0: never
	OvertimePenalty float64 // points lost per overtime period taken
	CycleDraw       bool    // a repetition cycle is a draw rather than no result
}

// The named rulesets, in one table: counting, ko rule, suicide, komi of
// even games and of handicap games, handicap compensation, and the rest.
// The order is the order String prefers them in; aliases are what SGF RU
// values and people call them (compared after normalizeRulesName).
var rulesetTable = []struct {
	name    string
	aliases []string
	rules   Ruleset
}{
	// Chinese rules (2002): situational superko, area counting, komi 3¾
	// stones, half a stone per handicap stone returned to White, a warning
	// costs one stone and the second loses.
	{"chinese", []string{"cn", "china", "chn", "中国", "中國", "中国规则", "zh", "chinese area", "fox", "野狐"}, Ruleset{
		Ko: KoSituational, Scoring: ScoringArea, Komi: 7.5, PassesToEnd: 2,
		HandicapCompensation: 1, WarningPenalty: 2, WarningsToLose: 2,
	}},
	// Japanese (and Korean) rules: simple ko, territory counting with seki
	// points counting for no one, komi 6.5, no handicap compensation.
	{"japanese", []string{"jp", "japan", "jpn", "日本", "日本規則", "nihon", "korean", "kr", "korea", "kor", "韩国", "韓国", "한국", "japanese territory", "korean territory"}, Ruleset{
		Ko: KoSimple, Scoring: ScoringTerritory, Komi: 6.5, PassesToEnd: 2,
	}},
	// Ing rules: area counting in points, komi 8 with a tie going to Black,
	// multi-stone suicide allowed, 2 points per overtime period.
	{"ing", []string{"goe", "ing's", "ings", "应氏", "應氏", "sst"}, Ruleset{
		Ko: ingKo, MultiStoneSuicide: true, Scoring: ScoringArea, Komi: 8, PassesToEnd: 2,
		HandicapCompensation: 1, TieWinner: Black, OvertimePenalty: 2,
	}},
	// QQ is the QQ game Go room: simple ko, area counting, komi 3¾ stones,
	// and play ends when both players have passed three times in a row.
	{"qq", []string{"tencent", "腾讯", "野狐qq"}, Ruleset{
		Ko: KoSimple, Scoring: ScoringArea, Komi: 7.5, PassesToEnd: 6, HandicapCompensation: 1,
	}},
	// AGA (American Go Association, 2004): situational superko, area
	// counting, komi 7.5, and half a point in handicap games. Each pass
	// gives the opponent a stone and White passes last, which makes its
	// territory count equal its area count; counting area, as here, the
	// pass stones need not be counted. White gets a point per handicap
	// stone after the first (HA−1).
	{"aga", []string{"american", "usa", "us", "bga", "british", "french", "aga area"}, Ruleset{
		Ko: KoSituational, Scoring: ScoringArea, Komi: 7.5, HandicapKomi: 0.5, PassesToEnd: 2,
		HandicapCompensation: 1, UncompensatedStones: 1,
	}},
	// New Zealand: area counting, positional superko, suicide of more than
	// one stone allowed (a suicide of one stone changes nothing and is not
	// played), komi 7; no handicap compensation.
	{"nz", []string{"new zealand", "newzealand", "nzga", "tromp taylor", "tromptaylor"}, Ruleset{
		Ko: KoPositional, MultiStoneSuicide: true, Scoring: ScoringArea, Komi: 7, PassesToEnd: 2,
	}},
}

func presetRules(name string) Ruleset {
	for _, p := range rulesetTable {
		if p.name == name {
			return p.rules
		}
	}
	panic("games: no preset " + name)
}

// Chinese rules (2002); see rulesetTable.
func Chinese() Ruleset { return presetRules("chinese") }

// Japanese (and Korean) rules; see rulesetTable.
func Japanese() Ruleset { return presetRules("japanese") }

// ingKo is decided: the documents name Ing's own ko classification
// (劫分争搅) without stating it; situational superko is the nearest
// standard rule and never lets a game cycle.
const ingKo = KoSituational

// Ing rules; see rulesetTable.
func Ing() Ruleset { return presetRules("ing") }

// QQ is the QQ game Go room's rules; see rulesetTable.
func QQ() Ruleset { return presetRules("qq") }

// AGA rules; see rulesetTable.
func AGA() Ruleset { return presetRules("aga") }

// NZ is the New Zealand rules; see rulesetTable.
func NZ() Ruleset { return presetRules("nz") }

var rulesNameSeparators = strings.NewReplacer("_", " ", "-", " ", ".", " ")

// normalizeRulesName makes "Japanese Rules", "japanese_rules" and
// " JAPANESE " one name.
func normalizeRulesName(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	n = rulesNameSeparators.Replace(n)
	n = strings.Join(strings.Fields(n), " ")
	for _, suffix := range []string{" rules", " rule", "规则", "規則", "룰"} {
		n = strings.TrimSuffix(n, suffix)
	}
	return strings.TrimSpace(n)
}

// Preset returns the named ruleset: chinese, japanese (or korean), ing
// (or goe), qq, aga or nz, any case, or one of their aliases.
func Preset(name string) (Ruleset, bool) {
	n := normalizeRulesName(name)
	for _, p := range rulesetTable {
		if p.name == n || slices.Contains(p.aliases, n) {
			return p.rules, true
		}
	}
	return Ruleset{}, false
}

// DefaultKomi is the komi of a game whose record states none: the
// ruleset's komi in even games, its handicap komi in handicap games
// (rules.md §6: none under ours; AGA half a point), none in 让先.
func DefaultKomi(r Ruleset, handicap int) float64 {
	if handicap > 0 {
		return r.HandicapKomi
	}
	return r.Komi
}

// compensation is what White receives for Black's handicap stones.
// Handicap 1 (让先) has no stones and so none.
func compensation(r Ruleset, handicap int) float64 {
	if handicap < 2 {
		return 0
	}
	return r.HandicapCompensation * float64(max(0, handicap-r.UncompensatedStones))
}

// Validate reports the first parameter out of range.
func (r Ruleset) Validate() error {
	switch {
	case r.Ko < KoSimple || r.Ko > KoSituational:
		return invalid("rules", "unknown ko rule %d", r.Ko)
	case r.Scoring < ScoringArea || r.Scoring > ScoringTerritory:
		return invalid("rules", "unknown scoring method %d", r.Scoring)
	case r.PassesToEnd < 1:
		return invalid("rules", "passes to end play must be at least 1, not %d", r.PassesToEnd)
	case r.TieWinner == border:
		return invalid("rules", "bad tie winner")
	case !halfPoints(r.Komi) || !halfPoints(r.HandicapKomi) || !halfPoints(r.HandicapCompensation) || !halfPoints(r.WarningPenalty) || !halfPoints(r.OvertimePenalty):
		return invalid("rules", "komi, compensation and penalties must be whole or half points")
	case r.WarningsToLose < 0:
		return invalid("rules", "warnings to lose must not be negative")
	case r.UncompensatedStones < 0 || r.UncompensatedStones > MaxHandicap:
		return invalid("rules", "uncompensated handicap stones must be 0..%d, not %d", MaxHandicap, r.UncompensatedStones)
	}
	return nil
}

// halfPoints reports whether v is a finite multiple of ½ (every margin is).
func halfPoints(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) <= 1e6 && v*2 == math.Trunc(v*2)
}

// ruleParams are the parameter names of the text form, in order.
var ruleParams = [...]string{"ko", "suicide", "scoring", "komi", "passes", "compensation", "tie", "warning", "warnings", "overtime", "cycle", "uncompensated", "handicapkomi"}

func (r Ruleset) param(name string) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	switch name {
	case "ko":
		return r.Ko.String()
	case "suicide":
		if r.MultiStoneSuicide {
			return "multi"
		}
		return "none"
	case "scoring":
		return r.Scoring.String()
	case "komi":
		return f(r.Komi)
	case "passes":
		return strconv.Itoa(r.PassesToEnd)
	case "compensation":
		return f(r.HandicapCompensation)
	case "tie":
		if r.TieWinner == Empty {
			return "draw"
		}
		return r.TieWinner.String()
	case "warning":
		return f(r.WarningPenalty)
	case "warnings":
		return strconv.Itoa(r.WarningsToLose)
	case "overtime":
		return f(r.OvertimePenalty)
	case "cycle":
		if r.CycleDraw {
			return "draw"
		}
		return "void"
	case "uncompensated":
		return strconv.Itoa(r.UncompensatedStones)
	case "handicapkomi":
		return f(r.HandicapKomi)
	}
	return ""
}

// pick returns the index of v among the choices of parameter name.
func pick(name, v string, choices ...string) (int, error) {
	for i, c := range choices {
		if c == v {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s must be %s, not %q", name, strings.Join(choices, " or "), v)
}

func (r *Ruleset) setParam(name, v string) error {
	num := func() (float64, error) { return strconv.ParseFloat(v, 64) }
	var err error
	var i int
	switch name {
	case "ko":
		i, err = pick(name, v, "simple", "positional", "situational")
		r.Ko = KoRule(i + 1)
	case "suicide":
		i, err = pick(name, v, "none", "multi")
		r.MultiStoneSuicide = i == 1
	case "scoring":
		i, err = pick(name, v, "area", "territory")
		r.Scoring = Scoring(i + 1)
	case "cycle":
		i, err = pick(name, v, "void", "draw")
		r.CycleDraw = i == 1
	case "tie":
		i, err = pick(name, v, "draw", "b", "w")
		r.TieWinner = Color(i)
	case "komi":
		r.Komi, err = num()
	case "passes":
		r.PassesToEnd, err = strconv.Atoi(v)
	case "compensation":
		r.HandicapCompensation, err = num()
	case "warning":
		r.WarningPenalty, err = num()
	case "warnings":
		r.WarningsToLose, err = strconv.Atoi(v)
	case "overtime":
		r.OvertimePenalty, err = num()
	case "uncompensated":
		r.UncompensatedStones, err = strconv.Atoi(v)
	case "handicapkomi":
		r.HandicapKomi, err = num()
	default:
		return fmt.Errorf("unknown rule parameter %q", name)
	}
	if err != nil {
		return fmt.Errorf("bad %s value %q: %v", name, v, err)
	}
	return nil
}

// nearestPresets is decided: String writes a ruleset that is no preset
// from the nearest of the first four presets only. The text is what
// stored games hash (ContentHash), so adding a preset must not rewrite the
// text of a ruleset written before it existed.
const nearestPresets = 4

// String is the preset name when r is a preset, else the nearest preset
// followed by the parameters that differ from it: "chinese ko=simple".
// ParseRuleset reads it back.
func (r Ruleset) String() string {
	for _, p := range rulesetTable[nearestPresets:] {
		if p.rules == r {
			return p.name
		}
	}
	// Each parameter is written once, and compared with the presets' as
	// written once (presetParams): archives hash a ruleset per game.
	var mine [len(ruleParams)]string
	for j, n := range ruleParams {
		mine[j] = r.param(n)
	}
	best, bestDiffs := 0, len(ruleParams)+1
	for i, base := range presetParams {
		diffs := 0
		for j := range ruleParams {
			if mine[j] != base[j] {
				diffs++
			}
		}
		if diffs < bestDiffs {
			best, bestDiffs = i, diffs
		}
	}
	var b strings.Builder
	b.WriteString(rulesetTable[best].name)
	for j, n := range ruleParams {
		if mine[j] != presetParams[best][j] {
			b.WriteString(" " + n + "=" + mine[j])
		}
	}
	return b.String()
}

// presetParams are the nearest presets' parameters as written, in
// ruleParams order.
var presetParams = func() [][len(ruleParams)]string {
	out := make([][len(ruleParams)]string, nearestPresets)
	for i, p := range rulesetTable[:nearestPresets] {
		for j, n := range ruleParams {
			out[i][j] = p.rules.param(n)
		}
	}
	return out
}()

// ParseRuleset reads a preset name (see Preset), optionally followed by
// parameters that override it, or parameters alone (on top of Chinese):
// "japanese", "chinese ko=positional komi=6.5",
// "ko=simple scoring=territory passes=2". Parameters: ko
// (simple|positional|situational), suicide (none|multi), scoring
// (area|territory), komi, passes, compensation, tie (draw|B|W), warning,
// warnings, overtime, cycle (void|draw), uncompensated (handicap stones
// that earn no compensation), handicapkomi.
func ParseRuleset(s string) (Ruleset, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\t' })
	if len(fields) == 0 {
		return Ruleset{}, invalid("rules", "no ruleset given")
	}
	r := Chinese()
	if !strings.Contains(fields[0], "=") {
		p, ok := Preset(fields[0])
		if !ok {
			return Ruleset{}, invalid("rules", "unknown ruleset %q (want chinese, japanese, ing, qq, aga or nz)", fields[0])
		}
		r, fields = p, fields[1:]
	}
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return Ruleset{}, invalid("rules", "%q is not name=value", f)
		}
		if err := r.setParam(strings.ToLower(k), strings.ToLower(v)); err != nil {
			return Ruleset{}, invalid("rules", "%v", err)
		}
	}
	if err := r.Validate(); err != nil {
		return Ruleset{}, err
	}
	return r, nil
}

// MarshalText writes String.
func (r Ruleset) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads what ParseRuleset reads.
func (r *Ruleset) UnmarshalText(b []byte) error {
	v, err := ParseRuleset(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// RulesetNames lists the presets' names, in the table's order.
func RulesetNames() []string {
	names := make([]string, len(rulesetTable))
	for i, p := range rulesetTable {
		names[i] = p.name
	}
	return names
}
