package games

import (
	"fmt"
	"math"
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
	TieWinner            Color   // who wins an exactly even count; Empty: a draw
	WarningPenalty       float64 // points lost per warning
	WarningsToLose       int     // this many warnings lose the game; 0: never
	OvertimePenalty      float64 // points lost per overtime period taken
	CycleDraw            bool    // a repetition cycle is a draw rather than no result
}

// Chinese rules (2002): situational superko, area counting, komi 3¾
// stones, half the handicap returned to White, a warning costs one stone
// and the second loses.
func Chinese() Ruleset {
	return Ruleset{
		Ko: KoSituational, Scoring: ScoringArea, Komi: 7.5, PassesToEnd: 2,
		HandicapCompensation: 1, WarningPenalty: 2, WarningsToLose: 2,
	}
}

// Japanese (and Korean) rules: simple ko, territory counting with seki
// points counting for no one, komi 6.5, no handicap compensation.
func Japanese() Ruleset {
	return Ruleset{Ko: KoSimple, Scoring: ScoringTerritory, Komi: 6.5, PassesToEnd: 2}
}

// ingKo is decided: the documents name Ing's own ko classification
// (劫分争搅) without stating it; situational superko is the nearest
// standard rule and never lets a game cycle.
const ingKo = KoSituational

// Ing rules: area counting in points, komi 8 with a tie going to Black,
// multi-stone suicide allowed, 2 points per overtime period.
func Ing() Ruleset {
	return Ruleset{
		Ko: ingKo, MultiStoneSuicide: true, Scoring: ScoringArea, Komi: 8, PassesToEnd: 2,
		HandicapCompensation: 1, TieWinner: Black, OvertimePenalty: 2,
	}
}

// QQ is the QQ game Go room: simple ko, area counting, komi 3¾ stones,
// and play ends when both players have passed three times in a row.
func QQ() Ruleset {
	return Ruleset{Ko: KoSimple, Scoring: ScoringArea, Komi: 7.5, PassesToEnd: 6, HandicapCompensation: 1}
}

// presets in the order String prefers them.
var presets = []struct {
	name string
	r    func() Ruleset
}{{"chinese", Chinese}, {"japanese", Japanese}, {"ing", Ing}, {"qq", QQ}}

// rulesetAliases maps what SGF RU values say to our presets.
var rulesetAliases = map[string]string{
	"chinese": "chinese", "cn": "chinese", "china": "chinese", "中国": "chinese",
	"japanese": "japanese", "jp": "japanese", "japan": "japanese", "korean": "japanese", "kr": "japanese",
	"ing": "ing", "goe": "ing", "ing's": "ing",
	"qq": "qq",
}

// Preset returns the named ruleset: chinese, japanese (or korean), ing
// (or goe) or qq, any case.
func Preset(name string) (Ruleset, bool) {
	n, ok := rulesetAliases[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return Ruleset{}, false
	}
	for _, p := range presets {
		if p.name == n {
			return p.r(), true
		}
	}
	return Ruleset{}, false
}

// DefaultKomi is the komi of a game whose record states none: the
// ruleset's komi in even games, none in handicap games (rules.md §6:
// handicap games, and 让先, have no komi).
func DefaultKomi(r Ruleset, handicap int) float64 {
	if handicap > 0 {
		return 0
	}
	return r.Komi
}

// compensation is what White receives for Black's handicap stones.
// Handicap 1 (让先) has no stones and so none.
func compensation(r Ruleset, handicap int) float64 {
	if handicap < 2 {
		return 0
	}
	return r.HandicapCompensation * float64(handicap)
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
	case !halfPoints(r.Komi) || !halfPoints(r.HandicapCompensation) || !halfPoints(r.WarningPenalty) || !halfPoints(r.OvertimePenalty):
		return invalid("rules", "komi, compensation and penalties must be whole or half points")
	case r.WarningsToLose < 0:
		return invalid("rules", "warnings to lose must not be negative")
	}
	return nil
}

// halfPoints reports whether v is a finite multiple of ½ (every margin is).
func halfPoints(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) <= 1e6 && v*2 == math.Trunc(v*2)
}

// ruleParams are the parameter names of the text form, in order.
var ruleParams = []string{"ko", "suicide", "scoring", "komi", "passes", "compensation", "tie", "warning", "warnings", "overtime", "cycle"}

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
	default:
		return fmt.Errorf("unknown rule parameter %q", name)
	}
	if err != nil {
		return fmt.Errorf("bad %s value %q: %v", name, v, err)
	}
	return nil
}

// String is the preset name when r is a preset, else the nearest preset
// followed by the parameters that differ from it: "chinese ko=simple".
// ParseRuleset reads it back.
func (r Ruleset) String() string {
	best, bestDiff := "", []string(nil)
	for _, p := range presets {
		base := p.r()
		var diff []string
		for _, n := range ruleParams {
			if v := r.param(n); v != base.param(n) {
				diff = append(diff, n+"="+v)
			}
		}
		if best == "" || len(diff) < len(bestDiff) {
			best, bestDiff = p.name, diff
		}
	}
	return strings.Join(append([]string{best}, bestDiff...), " ")
}

// ParseRuleset reads a preset name (see Preset), optionally followed by
// parameters that override it, or parameters alone (on top of Chinese):
// "japanese", "chinese ko=positional komi=6.5",
// "ko=simple scoring=territory passes=2". Parameters: ko
// (simple|positional|situational), suicide (none|multi), scoring
// (area|territory), komi, passes, compensation, tie (draw|B|W), warning,
// warnings, overtime, cycle (void|draw).
func ParseRuleset(s string) (Ruleset, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\t' })
	if len(fields) == 0 {
		return Ruleset{}, invalid("rules", "no ruleset given")
	}
	r := Chinese()
	if !strings.Contains(fields[0], "=") {
		p, ok := Preset(fields[0])
		if !ok {
			return Ruleset{}, invalid("rules", "unknown ruleset %q (want chinese, japanese, ing or qq)", fields[0])
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
