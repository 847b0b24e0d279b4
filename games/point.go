package games

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Color is the colour of a stone or of a player.
type Color uint8

// The colours. Empty is also "no one" (no winner, no stone).
const (
	Empty Color = iota
	Black
	White
	border // the frame around the board in the internal arrays
)

// Opponent returns the other player; Empty for Empty.
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String returns "B", "W" or "." (SGF colour letters).
func (c Color) String() string {
	switch c {
	case Black:
		return "B"
	case White:
		return "W"
	}
	return "."
}

// MarshalText writes "B", "W" or "" (no colour).
func (c Color) MarshalText() ([]byte, error) {
	if c == Empty {
		return []byte{}, nil
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads "B"/"W" (any case, also "black"/"white") or "".
func (c *Color) UnmarshalText(b []byte) error {
	v, err := ParseColor(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseColor reads "B", "W", "black", "white" (any case) or "" (Empty).
func ParseColor(s string) (Color, error) {
	switch s {
	case "":
		return Empty, nil
	case "B", "b", "black", "Black", "BLACK":
		return Black, nil
	case "W", "w", "white", "White", "WHITE":
		return White, nil
	}
	return Empty, fmt.Errorf("games: bad colour %q (want B or W)", s)
}

// Point is an intersection: X is the column from the left, Y the row from
// the top, both from 0, as in SGF ("pd" is X=15, Y=3). A Point may lie off
// the board (SGF letters reach 51); playing there is ErrOffBoard.
type Point struct {
	X, Y int
}

const sgfLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// SGF returns the point in SGF letters, e.g. "pd"; "" if it cannot be
// written in two letters.
func (p Point) SGF() string {
	if p.X < 0 || p.Y < 0 || p.X >= len(sgfLetters) || p.Y >= len(sgfLetters) {
		return ""
	}
	return string([]byte{sgfLetters[p.X], sgfLetters[p.Y]})
}

// String returns the SGF letters (or "(x,y)" when they cannot express it).
func (p Point) String() string {
	if s := p.SGF(); s != "" {
		return s
	}
	return "(" + strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y) + ")"
}

// MarshalText writes the SGF letters.
func (p Point) MarshalText() ([]byte, error) {
	s := p.SGF()
	if s == "" {
		return nil, fmt.Errorf("games: point %v has no SGF form", p)
	}
	return []byte(s), nil
}

// UnmarshalText reads two SGF letters.
func (p *Point) UnmarshalText(b []byte) error {
	v, err := ParseSGFPoint(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// On reports whether p lies on a size×size board.
func (p Point) On(size int) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < size && p.Y < size
}

// gtpColumns are the column letters of GTP and of printed boards: I is skipped.
const gtpColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// Vertex returns the point as people and GTP write it on a size×size
// board: column letter (no I) and row number from the bottom, e.g. "Q16".
// Off the board it returns the SGF letters.
func (p Point) Vertex(size int) string {
	if !p.On(size) {
		return p.String()
	}
	return string(gtpColumns[p.X]) + strconv.Itoa(size-p.Y)
}

var errBadPoint = errors.New("games: a point is two letters a-z or A-Z")

func sgfIndex(c byte) int {
	switch {
	case 'a' <= c && c <= 'z':
		return int(c - 'a')
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 26
	}
	return -1
}

// ParseSGFPoint reads two SGF letters ("pd"). It does not know the board
// size, so "tt" is a point here; see ParseMove for passes.
func ParseSGFPoint(s string) (Point, error) {
	if len(s) != 2 {
		return Point{}, errBadPoint
	}
	x, y := sgfIndex(s[0]), sgfIndex(s[1])
	if x < 0 || y < 0 {
		return Point{}, errBadPoint
	}
	return Point{x, y}, nil
}

// ParseVertex reads a GTP vertex such as "Q16" or "q16" on a size×size board.
func ParseVertex(s string, size int) (Point, error) {
	if len(s) < 2 {
		return Point{}, fmt.Errorf("games: bad vertex %q", s)
	}
	c := s[0]
	if 'a' <= c && c <= 'z' {
		c -= 'a' - 'A'
	}
	x := -1
	for i := 0; i < len(gtpColumns); i++ {
		if gtpColumns[i] == c {
			x = i
		}
	}
	n, err := strconv.Atoi(s[1:])
	if x < 0 || err != nil {
		return Point{}, fmt.Errorf("games: bad vertex %q", s)
	}
	p := Point{x, size - n}
	if !p.On(size) {
		return Point{}, fmt.Errorf("games: vertex %q is off a %d×%d board", s, size, size)
	}
	return p, nil
}

// Move is one turn: a play on Point, or a pass.
type Move struct {
	Color Color
	Point Point // ignored for a pass
	Pass  bool
}

// Play returns the move of c playing at p.
func Play(c Color, p Point) Move { return Move{Color: c, Point: p} }

// PassMove returns c's pass.
func PassMove(c Color) Move { return Move{Color: c, Pass: true} }

// String returns "B pd" or "W pass".
func (m Move) String() string {
	if m.Pass {
		return m.Color.String() + " pass"
	}
	return m.Color.String() + " " + m.Point.String()
}

// Stone is a stone placed before play: handicap or other setup stone.
type Stone struct {
	Color Color
	Point Point
}

// MarshalText writes "B pd" or "W pass".
func (m Move) MarshalText() ([]byte, error) {
	if m.Color != Black && m.Color != White {
		return nil, fmt.Errorf("games: move without colour")
	}
	if m.Pass {
		return []byte(m.Color.String() + " pass"), nil
	}
	p, err := m.Point.MarshalText()
	if err != nil {
		return nil, err
	}
	return append([]byte(m.Color.String()+" "), p...), nil
}

// UnmarshalText reads "B pd" or "W pass".
func (m *Move) UnmarshalText(b []byte) error {
	c, rest, err := splitColor(string(b))
	if err != nil {
		return err
	}
	if rest == "pass" {
		*m = PassMove(c)
		return nil
	}
	p, err := ParseSGFPoint(rest)
	if err != nil {
		return fmt.Errorf("games: bad move %q: %w", b, err)
	}
	*m = Play(c, p)
	return nil
}

// MarshalText writes "B pd".
func (s Stone) MarshalText() ([]byte, error) {
	return Move{Color: s.Color, Point: s.Point}.MarshalText()
}

// UnmarshalText reads "B pd".
func (s *Stone) UnmarshalText(b []byte) error {
	var m Move
	if err := m.UnmarshalText(b); err != nil {
		return err
	}
	if m.Pass {
		return fmt.Errorf("games: a setup stone cannot be a pass")
	}
	*s = Stone{m.Color, m.Point}
	return nil
}

func splitColor(s string) (Color, string, error) {
	cs, rest, ok := strings.Cut(strings.TrimSpace(s), " ")
	c, err := ParseColor(cs)
	if !ok || err != nil || c == Empty {
		return Empty, "", fmt.Errorf("games: %q is not \"B pd\", \"W pass\" or the like", s)
	}
	return c, strings.TrimSpace(rest), nil
}
