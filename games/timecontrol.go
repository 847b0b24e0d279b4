package games

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// TimeControl is main time plus Japanese byo-yomi (rules.md §7): Periods
// periods of Period each; Periods 0 is absolute time. Its one text form,
// used wherever a time control is written (pool keys, pending games,
// exams), is String's "600+3x30".
type TimeControl struct {
	// Preset names the preset these times are, when they are one (kept
	// by Normalize; not part of the text form).
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

// Limits of a time control (decided: a six-hour main time covers the
// longest title matches' day; thirty periods of five seconds to ten
// minutes cover every byo-yomi in use; anything larger is a mistake or an
// attempt to overflow a duration).
const (
	MaxMainTime   = 6 * time.Hour
	MaxPeriods    = 30
	MinPeriodTime = 5 * time.Second
	MaxPeriodTime = 10 * time.Minute
)

// PresetNames lists the presets, sorted.
func PresetNames() []string {
	names := make([]string, 0, len(TimePresets))
	for n := range TimePresets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Normalize resolves a preset to its times, or checks explicit times and
// names the preset they equal, so that "rapid" and its explicit times are
// one time control. A refusal is an *InvalidRecordError whose Field is
// relative to the time control: "", "preset", "main", "periods", "period".
func (tc TimeControl) Normalize() (TimeControl, error) {
	explicit := tc.Main != 0 || tc.Periods != 0 || tc.Period != 0
	if tc.Preset != "" {
		p, ok := TimePresets[tc.Preset]
		if !ok {
			return TimeControl{}, invalid("preset", "unknown time control preset %q (known: %s)", tc.Preset, strings.Join(PresetNames(), ", "))
		}
		if explicit && (p.Main != tc.Main || p.Periods != tc.Periods || p.Period != tc.Period) {
			return TimeControl{}, invalid("", "give a preset or explicit times, not both")
		}
		p.Preset = tc.Preset
		return p, nil
	}
	switch {
	case !explicit:
		return TimeControl{}, invalid("", "a time control is required: a preset or main time and byo-yomi")
	case tc.Main < 0 || tc.Main > MaxMainTime || tc.Main%time.Second != 0:
		return TimeControl{}, invalid("main", "main time must be whole seconds from 0 to %v, not %v", MaxMainTime, tc.Main)
	case tc.Periods < 0 || tc.Periods > MaxPeriods:
		return TimeControl{}, invalid("periods", "byo-yomi periods must be 0 to %d, not %d", MaxPeriods, tc.Periods)
	case (tc.Periods == 0) != (tc.Period == 0):
		return TimeControl{}, invalid("period", "byo-yomi needs both a number of periods and a period length")
	case tc.Period != 0 && (tc.Period < MinPeriodTime || tc.Period > MaxPeriodTime || tc.Period%time.Second != 0):
		return TimeControl{}, invalid("period", "a byo-yomi period must be whole seconds from %v to %v, not %v", MinPeriodTime, MaxPeriodTime, tc.Period)
	case tc.Main == 0 && tc.Periods == 0:
		return TimeControl{}, invalid("", "a game needs main time or byo-yomi")
	}
	tc.Preset = ""
	for _, name := range PresetNames() {
		p := TimePresets[name]
		if p.Main == tc.Main && p.Periods == tc.Periods && p.Period == tc.Period {
			tc.Preset = name
		}
	}
	return tc, nil
}

// Seconds builds a time control from whole seconds, refusing what a
// duration cannot hold (a field of the request, before Normalize checks
// the limits).
func Seconds(main, periods, period int64) (TimeControl, error) {
	const most = int64(MaxMainTime / time.Second * 1000)
	switch {
	case main < -most || main > most:
		return TimeControl{}, invalid("main", "main time must be whole seconds from 0 to %v, not %d s", MaxMainTime, main)
	case periods < -MaxPeriods*1000 || periods > MaxPeriods*1000:
		return TimeControl{}, invalid("periods", "byo-yomi periods must be 0 to %d, not %d", MaxPeriods, periods)
	case period < -most || period > most:
		return TimeControl{}, invalid("period", "a byo-yomi period must be whole seconds from %v to %v, not %d s", MinPeriodTime, MaxPeriodTime, period)
	}
	return TimeControl{Main: time.Duration(main) * time.Second, Periods: int(periods), Period: time.Duration(period) * time.Second}, nil
}

// String is the one text form: "600+3x30" (seconds of main time, periods x
// seconds per period; "900+0x0" is absolute time). The zero value is "".
func (tc TimeControl) String() string {
	if tc.Main == 0 && tc.Periods == 0 && tc.Period == 0 {
		return ""
	}
	return fmt.Sprintf("%d+%dx%d", int64(tc.Main/time.Second), tc.Periods, int64(tc.Period/time.Second))
}

// ParseTimeControl reads String's form.
func ParseTimeControl(s string) (TimeControl, error) {
	var main, periods, period int64
	var rest string
	if n, _ := fmt.Sscanf(s, "%d+%dx%d%s", &main, &periods, &period, &rest); n != 3 {
		return TimeControl{}, invalid("time_control", "%q is not main+periodsxseconds, like 600+3x30", s)
	}
	tc, err := Seconds(main, periods, period)
	if err != nil {
		return TimeControl{}, err
	}
	if tc.String() != s {
		return TimeControl{}, invalid("time_control", "%q is not written as %q", s, tc.String())
	}
	return tc.Normalize()
}
