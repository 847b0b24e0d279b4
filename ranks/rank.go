package ranks

import (
	"cmp"
	"errors"
	"strconv"
)

// Kind is the scale a rank belongs to.
type Kind uint8

// The three scales. The zero Kind is no scale: it marks the zero Rank.
const (
	Kyu Kind = iota + 1 // student grades, counted down: 25k (weakest) … 1k
	Dan                 // amateur dan, counted up: 1d … 9d
	Pro                 // professional dan, 1p … 9p; not on the ladder
)

// The widest range of each scale, as schools use them (rating.md §3 and
// issue 3). The ladder uses only 9k…9d of it.
const (
	MaxKyu = 25
	MaxDan = 9
	MaxPro = 9
)

// maxLevel gives the highest level of each kind.
func (k Kind) maxLevel() int {
	switch k {
	case Kyu:
		return MaxKyu
	case Dan:
		return MaxDan
	case Pro:
		return MaxPro
	}
	return 0
}

// String returns "kyu", "dan" or "pro".
func (k Kind) String() string {
	switch k {
	case Kyu:
		return "kyu"
	case Dan:
		return "dan"
	case Pro:
		return "pro"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// suffix is the canonical printed unit.
func (k Kind) suffix() byte {
	switch k {
	case Kyu:
		return 'k'
	case Dan:
		return 'd'
	}
	return 'p'
}

// Rank is one rank such as 5k, 3d or 9p. It is a small comparable value;
// the zero Rank is no rank (IsZero) and prints as "invalid rank".
type Rank struct {
	kind  Kind
	level uint8
}

// ErrLevel is returned (wrapped) for a level outside its scale.
var ErrLevel = errors.New("level out of range")

// New returns the rank of the given kind and level (5k is New(Kyu, 5)).
func New(kind Kind, level int) (Rank, error) {
	top := kind.maxLevel()
	if top == 0 {
		return Rank{}, errors.New("ranks: unknown kind " + kind.String())
	}
	if level < 1 || level > top {
		return Rank{}, &LevelError{Kind: kind, Level: level}
	}
	return Rank{kind: kind, level: uint8(level)}, nil
}

// LevelError says which level was out of which scale's range.
type LevelError struct {
	Kind  Kind
	Level int
}

func (e *LevelError) Error() string { return "ranks: " + levelReason(e.Kind, e.Level) }

func levelReason(k Kind, level int) string {
	return k.String() + " level " + strconv.Itoa(level) + " out of range 1…" + strconv.Itoa(k.maxLevel())
}

// Unwrap lets errors.Is(err, ErrLevel) match.
func (e *LevelError) Unwrap() error { return ErrLevel }

// Kind returns the rank's scale (0 for the zero Rank).
func (r Rank) Kind() Kind { return r.kind }

// Level returns the number of the rank: 5 for 5k, 3 for 3d.
func (r Rank) Level() int { return int(r.level) }

// IsZero reports whether r is the zero Rank (no rank). It lets
// encoding/json's omitzero leave a missing rank out.
func (r Rank) IsZero() bool { return r.kind == 0 }

// String prints the canonical short form: "5k", "3d", "9p".
func (r Rank) String() string {
	if r.IsZero() {
		return "invalid rank"
	}
	return string(r.appendCanonical(nil))
}

// appendCanonical appends the canonical form of a non-zero Rank.
func (r Rank) appendCanonical(b []byte) []byte {
	b = strconv.AppendInt(b, int64(r.level), 10)
	return append(b, r.kind.suffix())
}

// AppendText implements encoding.TextAppender. The zero Rank appends
// nothing, like the zero netip.Addr.
func (r Rank) AppendText(b []byte) ([]byte, error) {
	if r.IsZero() {
		return b, nil
	}
	return r.appendCanonical(b), nil
}

// MarshalText implements encoding.TextMarshaler, and so JSON: "5k".
func (r Rank) MarshalText() ([]byte, error) { return r.AppendText(nil) }

// UnmarshalText implements encoding.TextUnmarshaler. It accepts every
// notation Parse does; empty text gives the zero Rank (the inverse of
// MarshalText), so "no rank" survives a round trip.
func (r *Rank) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*r = Rank{}
		return nil
	}
	p, err := Parse(string(text))
	if err != nil {
		return err
	}
	*r = p
	return nil
}

// ordinal places every rank on one line: kyu below dan below pro. The
// pro scale is put above the amateur one only so that sorting is total;
// rating.md §3 says amateur 6–7d is about 1p.
func (r Rank) ordinal() int {
	switch r.kind {
	case Kyu:
		return -int(r.level) + 1 // 1k → 0, 25k → −24
	case Dan:
		return int(r.level) // 1d → 1
	case Pro:
		return 100 + int(r.level)
	}
	return -1000 // the zero Rank sorts first
}

// Compare returns −1, 0 or +1 as r is lower than, equal to or higher than
// o: 25k < … < 1k < 1d < … < 9d < 1p < … < 9p.
func (r Rank) Compare(o Rank) int { return cmp.Compare(r.ordinal(), o.ordinal()) }
