package ranks

import (
	"fmt"
	"strconv"
)

// Scale is a way a school shows ranks (rating.md §3). The ladder (9k…9d)
// stays the one truth; a scale only changes how a ladder rank is shown,
// through the one table below.
type Scale string

// The scales a school may choose.
const (
	// ScaleLadder shows the ladder's own ranks, 9k…9d.
	ScaleLadder Scale = "ladder"
	// ScaleServer is a server ladder of the 弈城 kind: 10k (lowest) … 1k,
	// then 1d … 8d.
	ScaleServer Scale = "server"
	// ScaleChinese is the Chinese amateur grades: 级 below, 业余 1–5 段
	// above (6段 is given for national results and 7段 to special
	// champions, never by a ladder).
	ScaleChinese Scale = "chinese"
)

// Scales lists every scale, the default first.
var Scales = []Scale{ScaleLadder, ScaleServer, ScaleChinese}

// DefaultScale is a school's scale when none is chosen.
const DefaultScale = ScaleLadder

// ParseScale reads a scale's name; "" is the default.
func ParseScale(s string) (Scale, error) {
	if s == "" {
		return DefaultScale, nil
	}
	for _, x := range Scales {
		if string(x) == s {
			return x, nil
		}
	}
	return "", fmt.Errorf("ranks: unknown scale %q (one of %v)", s, Scales)
}

// scaleTable is the one mapping from each ladder rank (lowest first, as
// the ladder table in ladder.go) to the rank shown in each other scale.
// Decided:
//   - server: both scales have 18 steps, so they are matched by position,
//     lowest to lowest and highest to highest (9k shows as 10k, 1d as
//     1k, 9d as 8d): order and every distinction are kept;
//   - chinese: the kyu grades are the ladder's (9k is 9级); 1d–5d are
//     业余1–5段; 6d–9d show as 5段, since 6段 and 7段 are awarded by
//     national results, not by a ladder (the API gives the ladder rank
//     beside it, so nothing is lost).
var scaleTable = [...]struct{ server, chinese Rank }{
	{Rank{Kyu, 10}, Rank{Kyu, 9}}, // 9k
	{Rank{Kyu, 9}, Rank{Kyu, 8}},  // 8k
	{Rank{Kyu, 8}, Rank{Kyu, 7}},  // 7k
	{Rank{Kyu, 7}, Rank{Kyu, 6}},  // 6k
	{Rank{Kyu, 6}, Rank{Kyu, 5}},  // 5k
	{Rank{Kyu, 5}, Rank{Kyu, 4}},  // 4k
	{Rank{Kyu, 4}, Rank{Kyu, 3}},  // 3k
	{Rank{Kyu, 3}, Rank{Kyu, 2}},  // 2k
	{Rank{Kyu, 2}, Rank{Kyu, 1}},  // 1k
	{Rank{Kyu, 1}, Rank{Dan, 1}},  // 1d
	{Rank{Dan, 1}, Rank{Dan, 2}},  // 2d
	{Rank{Dan, 2}, Rank{Dan, 3}},  // 3d
	{Rank{Dan, 3}, Rank{Dan, 4}},  // 4d
	{Rank{Dan, 4}, Rank{Dan, 5}},  // 5d
	{Rank{Dan, 5}, Rank{Dan, 5}},  // 6d
	{Rank{Dan, 6}, Rank{Dan, 5}},  // 7d
	{Rank{Dan, 7}, Rank{Dan, 5}},  // 8d
	{Rank{Dan, 8}, Rank{Dan, 5}},  // 9d
}

// Show returns the ladder rank r as the scale shows it. A rank off the
// ladder (a certified rank may be one, such as 12k), and the zero Rank,
// are shown as they are: the table maps the ladder only.
func (s Scale) Show(r Rank) Rank {
	i, ok := ladderIndex(r)
	if !ok {
		return r
	}
	switch s {
	case ScaleServer:
		return scaleTable[i].server
	case ScaleChinese:
		return scaleTable[i].chinese
	}
	return r
}

// Chinese prints a rank the Chinese way: 5级, 3段, 职业九段 (professional
// ranks are written in Chinese numerals, as players write them); "" for
// the zero Rank.
func (r Rank) Chinese() string {
	n := strconv.Itoa(int(r.level))
	switch r.kind {
	case Kyu:
		return n + "级"
	case Dan:
		return n + "段"
	case Pro:
		return "职业" + hanNumerals[r.level] + "段"
	}
	return ""
}

// hanNumerals write the professional ranks' levels (1p…9p); Parse reads
// them back (hanDigits).
var hanNumerals = [...]string{"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"}
