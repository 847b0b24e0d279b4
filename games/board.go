package games

import (
	"fmt"
	"strings"
)

// Board sizes the engine accepts (rules.md §1, decided).
const (
	MinSize = 5
	MaxSize = 25
)

// The board lives in flat fixed-size arrays with a one-point frame, so a
// Board is one value with no pointers and playing a move allocates
// nothing. A point (x, y) has index (y+1)*stride + x with stride = size+1:
// the column past the right edge doubles as the left frame of the next
// row, so every neighbour of an on-board point is an index in range.
const (
	maxStride = MaxSize + 1
	maxIndex  = (MaxSize+2)*maxStride + 1
)

// Board is a position: stones, prisoners, the simple-ko point and the
// Zobrist hash. Stones of one chain form a circular linked list (next)
// with a representative (head); the head holds the chain's stone count,
// pseudo-liberties (empty neighbours counted once per adjacent stone: zero
// exactly when the chain has no liberty) and the XOR of its stones' keys,
// so captures and the hash after a move are known before playing it.
// Copy a Board by value.
type Board struct {
	size, stride int
	color        [maxIndex]Color
	head         [maxIndex]int16
	next         [maxIndex]int16
	libs         [maxIndex]int16
	count        [maxIndex]int16
	chash        [maxIndex]uint64
	hash         uint64
	captured     [3]int // captured[c]: stones c has taken
	stones       [3]int // stones[c]: c's stones on the board
	ko           int16  // where koBanned may not retake now; 0: none
	koBanned     Color
	multiSuicide bool // Ing: a group of 2+ stones may take its last liberty
}

// NewBoard returns an empty size×size board.
func NewBoard(size int) (*Board, error) {
	b := new(Board)
	if err := b.reset(size); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *Board) reset(size int) error {
	if size < MinSize || size > MaxSize {
		return invalid("size", "board size %d is outside %d..%d", size, MinSize, MaxSize)
	}
	b.size, b.stride = size, size+1
	n := (size+2)*b.stride + 1
	for i := 0; i < n; i++ {
		b.color[i] = border
	}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			b.color[b.index(x, y)] = Empty
		}
	}
	b.hash, b.ko, b.koBanned = 0, 0, Empty
	b.captured, b.stones = [3]int{}, [3]int{}
	return nil
}

func (b *Board) index(x, y int) int16 { return int16((y+1)*b.stride + x) }

func (b *Board) point(i int16) Point {
	return Point{int(i) % b.stride, int(i)/b.stride - 1}
}

// idx returns the index of p, or 0 (a frame point) when p is off the board.
func (b *Board) idx(p Point) int16 {
	if !p.On(b.size) {
		return 0
	}
	return b.index(p.X, p.Y)
}

// Size is the number of lines.
func (b *Board) Size() int { return b.size }

// At returns the stone on p (Empty off the board).
func (b *Board) At(p Point) Color {
	i := b.idx(p)
	if i == 0 {
		return Empty
	}
	return b.color[i]
}

// Captures returns how many stones c has captured (c's prisoners).
func (b *Board) Captures(c Color) int {
	if c != Black && c != White {
		return 0
	}
	return b.captured[c]
}

// Stones returns how many stones of c are on the board.
func (b *Board) Stones(c Color) int {
	if c != Black && c != White {
		return 0
	}
	return b.stones[c]
}

// Hash is the Zobrist hash of the stones (not of the player to move).
func (b *Board) Hash() uint64 { return b.hash }

// Ko returns the point the player to move may not retake now, if any.
func (b *Board) Ko() (Point, bool) {
	if b.ko == 0 {
		return Point{}, false
	}
	return b.point(b.ko), true
}

// Liberties returns the number of distinct liberties of the chain on p (0
// for an empty point).
func (b *Board) Liberties(p Point) int {
	i := b.idx(p)
	if i == 0 || !isStone(b.color[i]) {
		return 0
	}
	var seen [maxIndex]bool
	n := 0
	h := b.head[i]
	s := h
	for {
		for _, d := range b.dirs() {
			q := s + d
			if b.color[q] == Empty && !seen[q] {
				seen[q] = true
				n++
			}
		}
		if s = b.next[s]; s == h {
			break
		}
	}
	return n
}

// Chain returns the stones of the chain on p (nil for an empty point).
func (b *Board) Chain(p Point) []Point {
	i := b.idx(p)
	if i == 0 || !isStone(b.color[i]) {
		return nil
	}
	var pts []Point
	h := b.head[i]
	s := h
	for {
		pts = append(pts, b.point(s))
		if s = b.next[s]; s == h {
			break
		}
	}
	return pts
}

func isStone(c Color) bool { return c == Black || c == White }

func (b *Board) dirs() [4]int16 {
	s := int16(b.stride)
	return [4]int16{-1, 1, -s, s}
}

// plan is a checked move, ready to apply: the point, the chains it joins
// and captures, and the hash after it.
type plan struct {
	at       int16
	own      [4]int16 // heads of the mover's chains it joins
	nOwn     int
	caps     [4]int16 // heads of the chains it captures
	nCaps    int
	captures int  // stones captured
	suicide  bool // the mover's joined group dies (Ing multi-stone suicide)
	hash     uint64
}

// check decides whether c may play at i (an on-board index) under simple
// ko and the suicide rule, without changing the board.
func (b *Board) check(c Color, i int16) (plan, error) {
	pl := plan{at: i}
	if b.color[i] != Empty {
		return pl, ErrOccupied
	}
	var nh [4]int16 // head of each neighbour stone, 0 for none
	d := b.dirs()
	liberty := false
	for k := 0; k < 4; k++ {
		q := i + d[k]
		switch b.color[q] {
		case Empty:
			liberty = true
		case Black, White:
			nh[k] = b.head[q]
		}
	}
	h := b.hash ^ zobrist[c][i]
	for k := 0; k < 4; k++ {
		hd := nh[k]
		if hd == 0 {
			continue
		}
		adj := int16(1)
		dup := false
		for j := 0; j < 4; j++ {
			if j < k && nh[j] == hd {
				dup = true
			}
			if j > k && nh[j] == hd {
				adj++
			}
		}
		if dup {
			continue
		}
		if b.color[hd] == c {
			pl.own[pl.nOwn] = hd
			pl.nOwn++
			if b.libs[hd] > adj { // a liberty other than i
				liberty = true
			}
		} else if b.libs[hd] == adj { // i is its last liberty
			pl.caps[pl.nCaps] = hd
			pl.nCaps++
			pl.captures += int(b.count[hd])
			h ^= b.chash[hd]
		}
	}
	if pl.captures > 0 {
		liberty = true
		if pl.captures == 1 && i == b.ko && c == b.koBanned {
			return pl, ErrKo
		}
	}
	if !liberty {
		if !b.multiSuicide || pl.nOwn == 0 {
			return pl, ErrSuicide
		}
		pl.suicide = true
		h ^= zobrist[c][i]
		for k := 0; k < pl.nOwn; k++ {
			h ^= b.chash[pl.own[k]]
		}
	}
	pl.hash = h
	return pl, nil
}

// apply plays a checked move.
func (b *Board) apply(c Color, pl *plan) {
	i := pl.at
	b.put(c, i)
	hd := i
	for k := 0; k < pl.nOwn; k++ {
		hd = b.merge(hd, pl.own[k])
	}
	b.ko, b.koBanned = 0, Empty
	for k := 0; k < pl.nCaps; k++ {
		b.remove(pl.caps[k])
	}
	b.captured[c] += pl.captures
	if pl.suicide {
		n := int(b.count[hd])
		b.remove(hd)
		b.captured[c.Opponent()] += n
		return
	}
	// A lone stone that took a lone stone and has that point as its only
	// liberty may be retaken, but not at once.
	if pl.captures == 1 && b.count[hd] == 1 && b.libs[hd] == 1 {
		b.ko, b.koBanned = pl.caps[0], c.Opponent()
	}
}

// put places a lone stone at i and takes one pseudo-liberty from each
// neighbouring chain.
func (b *Board) put(c Color, i int16) {
	b.color[i] = c
	b.head[i], b.next[i], b.count[i] = i, i, 1
	b.chash[i] = zobrist[c][i]
	b.hash ^= zobrist[c][i]
	b.stones[c]++
	var libs int16
	for _, d := range b.dirs() {
		q := i + d
		switch b.color[q] {
		case Empty:
			libs++
		case Black, White:
			b.libs[b.head[q]]--
		}
	}
	b.libs[i] = libs
}

// merge joins chains a and o (both heads, same colour) and returns the
// head of the result: the smaller chain is relabelled.
func (b *Board) merge(a, o int16) int16 {
	if a == o {
		return a
	}
	if b.count[a] < b.count[o] {
		a, o = o, a
	}
	s := o
	for {
		b.head[s] = a
		if s = b.next[s]; s == o {
			break
		}
	}
	b.next[a], b.next[o] = b.next[o], b.next[a]
	b.libs[a] += b.libs[o]
	b.count[a] += b.count[o]
	b.chash[a] ^= b.chash[o]
	return a
}

// remove takes the chain with head h off the board.
func (b *Board) remove(h int16) {
	c := b.color[h]
	d := b.dirs()
	s := h
	for {
		b.color[s] = Empty
		for k := 0; k < 4; k++ {
			if q := s + d[k]; isStone(b.color[q]) {
				b.libs[b.head[q]]++
			}
		}
		if s = b.next[s]; s == h {
			break
		}
	}
	b.hash ^= b.chash[h]
	b.stones[c] -= int(b.count[h])
}

// Play plays c at p under simple ko, with suicide forbidden (the Board
// alone knows no ruleset; Game applies a ruleset's options). It returns
// the number of stones captured; on error the board is unchanged.
func (b *Board) Play(c Color, p Point) (int, error) {
	if c != Black && c != White {
		return 0, ErrWrongTurn
	}
	i := b.idx(p)
	if i == 0 {
		return 0, ErrOffBoard
	}
	pl, err := b.check(c, i)
	if err != nil {
		return 0, err
	}
	b.apply(c, &pl)
	return pl.captures, nil
}

// Legal reports whether c may play at p under simple ko (nil if so).
func (b *Board) Legal(c Color, p Point) error {
	i := b.idx(p)
	if i == 0 {
		return ErrOffBoard
	}
	_, err := b.check(c, i)
	return err
}

// Pass ends the simple-ko ban.
func (b *Board) Pass() { b.ko, b.koBanned = 0, Empty }

// place puts a setup stone (no captures). The caller checks liberties
// once all setup stones are down.
func (b *Board) place(c Color, p Point) error {
	i := b.idx(p)
	if i == 0 {
		return fmt.Errorf("%s is off the %d×%d board", p, b.size, b.size)
	}
	if b.color[i] != Empty {
		return fmt.Errorf("%s is set up twice", p)
	}
	b.put(c, i)
	d := b.dirs()
	hd := i
	for k := 0; k < 4; k++ {
		if q := i + d[k]; b.color[q] == c {
			hd = b.merge(hd, b.head[q])
		}
	}
	return nil
}

// lifeless returns a point of a chain without liberties, if any.
func (b *Board) lifeless() (Point, bool) {
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := b.index(x, y)
			if isStone(b.color[i]) && b.libs[b.head[i]] == 0 {
				return b.point(i), true
			}
		}
	}
	return Point{}, false
}

// Rows returns the position one string per row from the top (SGF row a):
// '.' empty, 'X' black, 'O' white.
func (b *Board) Rows() []string {
	rows := make([]string, b.size)
	line := make([]byte, b.size)
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			switch b.color[b.index(x, y)] {
			case Black:
				line[x] = 'X'
			case White:
				line[x] = 'O'
			default:
				line[x] = '.'
			}
		}
		rows[y] = string(line)
	}
	return rows
}

// String returns Rows joined by newlines.
func (b *Board) String() string { return strings.Join(b.Rows(), "\n") + "\n" }

// BoardFromRows builds a position from rows as Rows writes them ('X'/'B'
// black, 'O'/'W' white, anything else empty). Every chain must have a
// liberty. Meant for tests, tools and scoring positions given as text.
func BoardFromRows(rows []string) (*Board, error) {
	b, err := NewBoard(len(rows))
	if err != nil {
		return nil, err
	}
	for y, r := range rows {
		if len(r) != len(rows) {
			return nil, invalid("setup", "row %d has %d points, want %d", y+1, len(r), len(rows))
		}
		for x := 0; x < len(r); x++ {
			var c Color
			switch r[x] {
			case 'X', 'B', 'x', 'b':
				c = Black
			case 'O', 'W', 'o', 'w':
				c = White
			default:
				continue
			}
			if err := b.place(c, Point{x, y}); err != nil {
				return nil, invalid("setup", "%v", err)
			}
		}
	}
	if p, ok := b.lifeless(); ok {
		return nil, invalid("setup", "the chain on %s has no liberty", p)
	}
	return b, nil
}
