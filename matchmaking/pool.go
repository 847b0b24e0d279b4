package matchmaking

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// BoardSizes are the board sizes one can queue for (decided: the three
// common sizes; the engine accepts more, but pools stay few and full).
var BoardSizes = []int{9, 13, 19}

// RulesPresets are the rulesets one can queue for: the presets of
// rules.md §9. Komi and the rest follow from the preset in the games
// package, which owns them.
var RulesPresets = []string{"chinese", "japanese", "ing", "qq"}

// TimeControl is main time plus byo-yomi: Periods periods of Period each.
// A request names a Preset or gives the explicit times, not both; a ticket
// always holds the explicit times (Preset is kept when it names them).
type TimeControl struct {
	Preset  string        `json:"preset,omitempty"`
	Main    time.Duration `json:"main"`
	Periods int           `json:"periods"`
	Period  time.Duration `json:"period"`
}

// TimePresets are the named time controls (decided; byo-yomi as in
// rules.md §7, the slow one with the Chinese professional 60 s periods).
var TimePresets = map[string]TimeControl{
	"blitz":    {Main: 5 * time.Minute, Periods: 3, Period: 10 * time.Second},
	"rapid":    {Main: 10 * time.Minute, Periods: 3, Period: 30 * time.Second},
	"standard": {Main: 30 * time.Minute, Periods: 5, Period: 30 * time.Second},
	"slow":     {Main: 60 * time.Minute, Periods: 5, Period: 60 * time.Second},
}

// Limits on explicit time controls (decided).
const (
	maxMainTime   = 6 * time.Hour
	maxPeriods    = 30
	minPeriodTime = 5 * time.Second
	maxPeriodTime = 10 * time.Minute
)

// Normalize resolves a preset to its times, or checks explicit times and
// names the preset they equal, so that "rapid" and its explicit times queue
// in the same pool. field names the request field for errors.
func (tc TimeControl) Normalize(field string) (TimeControl, error) {
	explicit := tc.Main != 0 || tc.Periods != 0 || tc.Period != 0
	if tc.Preset != "" {
		p, ok := TimePresets[tc.Preset]
		if !ok {
			return TimeControl{}, fieldErr(field+".preset", "unknown time control preset %q (known: %s)", tc.Preset, strings.Join(presetNames(), ", "))
		}
		if explicit && (p.Main != tc.Main || p.Periods != tc.Periods || p.Period != tc.Period) {
			return TimeControl{}, fieldErr(field, "give a preset or explicit times, not both")
		}
		p.Preset = tc.Preset
		return p, nil
	}
	switch {
	case !explicit:
		return TimeControl{}, fieldErr(field, "a time control is required: a preset or main time and byo-yomi")
	case tc.Main < 0 || tc.Main > maxMainTime || tc.Main%time.Second != 0:
		return TimeControl{}, fieldErr(field+".main", "main time must be whole seconds from 0 to %v, not %v", maxMainTime, tc.Main)
	case tc.Periods < 0 || tc.Periods > maxPeriods:
		return TimeControl{}, fieldErr(field+".periods", "byo-yomi periods must be 0 to %d, not %d", maxPeriods, tc.Periods)
	case (tc.Periods == 0) != (tc.Period == 0):
		return TimeControl{}, fieldErr(field+".period", "byo-yomi needs both a number of periods and a period length")
	case tc.Period != 0 && (tc.Period < minPeriodTime || tc.Period > maxPeriodTime || tc.Period%time.Second != 0):
		return TimeControl{}, fieldErr(field+".period", "a byo-yomi period must be whole seconds from %v to %v, not %v", minPeriodTime, maxPeriodTime, tc.Period)
	case tc.Main == 0 && tc.Periods == 0:
		return TimeControl{}, fieldErr(field, "a game needs main time or byo-yomi")
	}
	tc.Preset = ""
	for _, name := range presetNames() {
		p := TimePresets[name]
		if p.Main == tc.Main && p.Periods == tc.Periods && p.Period == tc.Period {
			tc.Preset = name
		}
	}
	return tc, nil
}

func presetNames() []string {
	names := make([]string, 0, len(TimePresets))
	for n := range TimePresets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// String is the canonical form used in pool keys: "600+3x30" (seconds of
// main time, periods x seconds per period).
func (tc TimeControl) String() string {
	return fmt.Sprintf("%d+%dx%d", int64(tc.Main/time.Second), tc.Periods, int64(tc.Period/time.Second))
}

// Pool is one queue: players only meet others who asked for the same board
// size, time control, rules and rated flag.
type Pool struct {
	BoardSize   int         `json:"board_size"`
	TimeControl TimeControl `json:"time_control"`
	Rules       string      `json:"rules"`
	Rated       bool        `json:"rated"`
}

// NewPool checks and normalizes the four pool fields.
func NewPool(boardSize int, tc TimeControl, rules string, rated bool) (Pool, error) {
	if !slices.Contains(BoardSizes, boardSize) {
		return Pool{}, fieldErr("board_size", "board size must be 9, 13 or 19, not %d", boardSize)
	}
	if !slices.Contains(RulesPresets, rules) {
		return Pool{}, fieldErr("rules", "unknown rules preset %q (known: %s)", rules, strings.Join(RulesPresets, ", "))
	}
	ntc, err := tc.Normalize("time_control")
	if err != nil {
		return Pool{}, err
	}
	return Pool{BoardSize: boardSize, TimeControl: ntc, Rules: rules, Rated: rated}, nil
}

// Key is the pool's stable name, used inside Redis hash tags: it holds only
// letters, digits and "+x/", never braces. Example: "19/600+3x30/chinese/r".
func (p Pool) Key() string {
	r := "u"
	if p.Rated {
		r = "r"
	}
	return strconv.Itoa(p.BoardSize) + "/" + p.TimeControl.String() + "/" + p.Rules + "/" + r
}

// ParsePool reads a key made by Pool.Key.
func ParsePool(key string) (Pool, error) {
	f := strings.Split(key, "/")
	if len(f) != 4 || (f[3] != "r" && f[3] != "u") {
		return Pool{}, fmt.Errorf("%w: pool key %q is not size/time/rules/r|u", ErrInvalid, key)
	}
	size, err := strconv.Atoi(f[0])
	if err != nil {
		return Pool{}, fmt.Errorf("%w: pool key %q: board size %q", ErrInvalid, key, f[0])
	}
	var main, periods, period int64
	if n, err := fmt.Sscanf(f[1], "%d+%dx%d", &main, &periods, &period); n != 3 || err != nil {
		return Pool{}, fmt.Errorf("%w: pool key %q: time control %q", ErrInvalid, key, f[1])
	}
	tc := TimeControl{Main: time.Duration(main) * time.Second, Periods: int(periods), Period: time.Duration(period) * time.Second}
	p, err := NewPool(size, tc, f[2], f[3] == "r")
	if err != nil {
		return Pool{}, err
	}
	if p.Key() != key {
		return Pool{}, fmt.Errorf("%w: pool key %q is not canonical (%q)", ErrInvalid, key, p.Key())
	}
	return p, nil
}
