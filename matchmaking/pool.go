package matchmaking

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/weiqi-platform/rank/games"
)

// BoardSizes are the board sizes one can queue for (decided: the three
// common sizes; the engine accepts more, but pools stay few and full).
var BoardSizes = []int{9, 13, 19}

// RulesPresets are the rulesets one can queue for: the presets of
// rules.md §9. Komi and the rest follow from the preset in the games
// package, which owns them.
var RulesPresets = []string{"chinese", "japanese", "ing", "qq"}

// Pool is one queue: players only meet others who asked for the same board
// size, time control, rules and rated flag.
type Pool struct {
	BoardSize   int               `json:"board_size"`
	TimeControl games.TimeControl `json:"time_control"`
	Rules       string            `json:"rules"`
	Rated       bool              `json:"rated"`
}

// NewPool checks and normalizes the four pool fields.
func NewPool(boardSize int, tc games.TimeControl, rules string, rated bool) (Pool, error) {
	if !slices.Contains(BoardSizes, boardSize) {
		return Pool{}, fieldErr("board_size", "board size must be 9, 13 or 19, not %d", boardSize)
	}
	if !slices.Contains(RulesPresets, rules) {
		return Pool{}, fieldErr("rules", "unknown rules preset %q (known: %s)", rules, strings.Join(RulesPresets, ", "))
	}
	ntc, err := tc.Normalize()
	if err != nil {
		return Pool{}, timeControlErr("time_control", err)
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
	tc, err := games.ParseTimeControl(f[1])
	if err != nil {
		return Pool{}, fmt.Errorf("%w: pool key %q: time control %q", ErrInvalid, key, f[1])
	}
	p, err := NewPool(size, tc, f[2], f[3] == "r")
	if err != nil {
		return Pool{}, err
	}
	if p.Key() != key {
		return Pool{}, fmt.Errorf("%w: pool key %q is not canonical (%q)", ErrInvalid, key, p.Key())
	}
	return p, nil
}

// timeControlErr turns the rules engine's refusal of a time control into
// a *FieldError naming the request field (field, or field.main, ...).
func timeControlErr(field string, err error) error {
	var ie *games.InvalidRecordError
	if errors.As(err, &ie) {
		if ie.Field != "" {
			field += "." + ie.Field
		}
		return fieldErr(field, "%s", ie.Msg)
	}
	return err
}
