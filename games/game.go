package games

import "slices"

// cycleOccurrences is decided: under a ruleset without superko, a game
// ends without result (or as a draw, Ruleset.CycleDraw) when a play
// brings about a whole-board situation (stones and player to move) for
// the third time. The second time may be a chosen repetition; the third
// shows that neither side will leave the cycle (triple ko, eternal life).
const cycleOccurrences = 3

// snapshotEvery is decided: Play keeps the stones (one byte a point) after
// every snapshotEvery moves, so that occurrences rebuilds an earlier
// position from the snapshot before it and replays fewer than this many
// moves, however long the game: a check costs the same at move 100 and at
// move 100,000, for size² bytes per 64 moves (361 bytes on 19×19).
const snapshotEvery = 64

// Game is a game in progress under a ruleset: the position, whose turn it
// is, the moves so far and the history of positions for superko and
// cycle detection. Play refuses an illegal move with a *MoveError and
// leaves the game as it was.
type Game struct {
	board    Board
	rules    Ruleset
	handicap int
	setup    []Stone
	first    Color
	toMove   Color
	moves    []Move
	passes   int // consecutive passes at the end
	seen     posTable
	cycleAt  int    // move number at which a cycle ended the game; 0: none
	scratch  *Board // for exact comparison on a hash match
	trial    *Board
	// scratchAt is how many moves the scratch board has played; -1: none.
	scratchAt int
	// snaps holds the stones after every snapshotEvery moves, row by row,
	// size² colours each: the first after snapshotEvery moves.
	snaps    []Color
	found    []int // occurrences' buffer
	replayed int   // moves occurrences replayed, for the tests of its cost
}

// NewGame starts a game on an empty size×size board. handicap is 0 for an
// even game, 1 for 让先 (Black moves first, no stones, no komi) or 2..9.
// setup holds the handicap stones placed freely (SGF AB) and any other
// setup stones; with handicap ≥ 2 and no black setup stones, the stones go
// on the fixed star points (9×9, 13×13, 19×19 only). White moves first
// after two or more handicap stones, Black otherwise.
func NewGame(size int, rules Ruleset, handicap int, setup []Stone) (*Game, error) {
	return newGame(size, rules, handicap, setup, 0)
}

// newGame is NewGame with room for moves moves made up front.
func newGame(size int, rules Ruleset, handicap int, setup []Stone, moves int) (*Game, error) {
	g := new(Game)
	if err := g.start(size, rules, handicap, setup, Empty, moves); err != nil {
		return nil, err
	}
	return g, nil
}

// start (re)starts g as a new game, reusing its memory. first is the
// colour to move first; Empty: Black, or White after handicap stones.
func (g *Game) start(size int, rules Ruleset, handicap int, setup []Stone, first Color, moves int) error {
	if err := rules.Validate(); err != nil {
		return err
	}
	g.rules, g.handicap = rules, handicap
	g.moves, g.passes, g.cycleAt = g.moves[:0], 0, 0
	g.snaps, g.scratchAt, g.replayed = g.snaps[:0], -1, 0
	g.seen.clear()
	if err := g.board.reset(size); err != nil {
		return err
	}
	g.board.multiSuicide = rules.MultiStoneSuicide
	stones, err := handicapStones(size, handicap, setup)
	if err != nil {
		return err
	}
	g.setup = stones
	for _, s := range stones {
		if s.Color != Black && s.Color != White {
			return invalid("setup", "a setup stone on %s has no colour", s.Point)
		}
		if err := g.board.place(s.Color, s.Point); err != nil {
			return invalid("setup", "%v", err)
		}
	}
	if p, ok := g.board.lifeless(); ok {
		return invalid("setup", "the set-up chain on %s has no liberty", p)
	}
	g.first = Black
	if handicap >= 2 {
		g.first = White
	}
	switch first {
	case Empty:
	case Black, White:
		g.first = first
	default:
		return invalid("first", "the first player must be B or W")
	}
	g.toMove = g.first
	g.Reserve(moves)
	g.seen.add(g.key(g.board.hash, g.toMove), 0, true) // counts as an occurrence, like a play
	return nil
}

// Reserve makes room for n more moves, so that playing them allocates
// nothing.
func (g *Game) Reserve(n int) {
	if cap(g.moves)-len(g.moves) < n {
		m := make([]Move, len(g.moves), len(g.moves)+n)
		copy(m, g.moves)
		g.moves = m
	}
	if need := (len(g.moves) + n) / snapshotEvery * g.board.size * g.board.size; cap(g.snaps) < need {
		g.snaps = append(make([]Color, 0, need), g.snaps...)
	}
	g.seen.reserve(len(g.moves) + n + 1)
}

// Rules returns the game's ruleset.
func (g *Game) Rules() Ruleset { return g.rules }

// Size returns the board size.
func (g *Game) Size() int { return g.board.size }

// Handicap returns the handicap (0 even, 1 让先, 2..9 stones).
func (g *Game) Handicap() int { return g.handicap }

// Setup returns the stones placed before the first move.
func (g *Game) Setup() []Stone { return append([]Stone(nil), g.setup...) }

// Board returns a copy of the current position.
func (g *Game) Board() *Board {
	b := g.board
	return &b
}

// At returns the stone on p.
func (g *Game) At(p Point) Color { return g.board.At(p) }

// Captures returns the stones c has captured so far.
func (g *Game) Captures(c Color) int { return g.board.Captures(c) }

// ToMove returns the player whose turn it is.
func (g *Game) ToMove() Color { return g.toMove }

// MoveCount is the number of moves played after the setup stones, plays
// and passes both counted.
func (g *Game) MoveCount() int { return len(g.moves) }

// Moves returns a copy of the moves played.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// ConsecutivePasses is the number of passes since the last play.
func (g *Game) ConsecutivePasses() int { return g.passes }

// PlayEnded reports whether the ruleset's run of passes has ended play.
// A game may still resume (a dead-stone dispute); Play allows it.
func (g *Game) PlayEnded() bool { return g.passes >= g.rules.PassesToEnd }

// Cycle returns the move number at which a repetition cycle ended the
// game (only under simple ko), and whether one did.
func (g *Game) Cycle() (int, bool) { return g.cycleAt, g.cycleAt > 0 }

func (g *Game) key(hash uint64, toMove Color) uint64 {
	if g.rules.Ko == KoPositional {
		return hash
	}
	if toMove == White {
		hash ^= zobristWhiteToMove
	}
	return hash
}

// Legal reports whether m may be played now (nil if so), without playing it.
func (g *Game) Legal(m Move) error {
	_, err := g.checkMove(m)
	return err
}

// Play plays m: a play or a pass by the player to move.
func (g *Game) Play(m Move) error {
	pl, err := g.checkMove(m)
	if err != nil {
		return err
	}
	g.moves = append(g.moves, m)
	n := len(g.moves)
	next := m.Color.Opponent()
	g.toMove = next
	if m.Pass {
		g.board.Pass()
		g.passes++
		if g.passMakesNew() {
			g.seen.add(g.key(g.board.hash, next), n, false)
		}
	} else {
		g.board.apply(m.Color, &pl)
		g.passes = 0
		k := g.key(g.board.hash, next)
		if g.rules.Ko == KoSimple && g.seen.has(k) && g.occurrences(k, &g.board, next, true)+1 >= cycleOccurrences {
			g.cycleAt = n
		}
		g.seen.add(k, n, true)
	}
	if n%snapshotEvery == 0 {
		g.snapshot()
	}
	return nil
}

// passMakesNew reports whether the pass just played may have brought
// about a position the table does not hold yet. A pass leaves the stones
// as they were, so under positional superko it repeats the position before
// it, and under situational superko the second pass of a run repeats the
// position two moves back; under simple ko only positions made by plays
// count. Leaving those repeats out keeps a run of passes from piling up
// entries of one key, which made replay cost grow with its square.
func (g *Game) passMakesNew() bool {
	switch g.rules.Ko {
	case KoSituational:
		return g.passes < 2
	default: // KoPositional, KoSimple
		return false
	}
}

// snapshot keeps the stones of the current position in snaps.
func (g *Game) snapshot() {
	for y := 0; y < g.board.size; y++ {
		i := g.board.index(0, y)
		g.snaps = append(g.snaps, g.board.color[i:i+int16(g.board.size)]...)
	}
}

// checkMove decides m's legality and returns the plan for a play.
func (g *Game) checkMove(m Move) (plan, error) {
	fail := func(err error) (plan, error) {
		return plan{}, &MoveError{Number: len(g.moves) + 1, Move: m, Size: g.board.size, Err: err}
	}
	if g.cycleAt > 0 {
		return fail(ErrGameOver)
	}
	if m.Color != g.toMove {
		return fail(ErrWrongTurn)
	}
	if m.Pass {
		return plan{}, nil
	}
	i := g.board.idx(m.Point)
	if i == 0 {
		return fail(ErrOffBoard)
	}
	pl, err := g.board.check(m.Color, i)
	if err != nil {
		return fail(err)
	}
	if g.rules.Ko != KoSimple {
		next := m.Color.Opponent()
		k := g.key(pl.hash, next)
		if g.seen.has(k) {
			if g.trial == nil {
				g.trial = new(Board)
			}
			*g.trial = g.board
			g.trial.apply(m.Color, &pl)
			if g.occurrences(k, g.trial, next, false) > 0 {
				return fail(ErrSuperko)
			}
		}
	}
	return pl, nil
}

// occurrences counts the earlier positions with key k that truly equal
// pos (same stones; same player to move unless the ko rule is
// positional), rebuilding each on the scratch board to see it. With
// playsOnly, only positions that arose from a play count.
func (g *Game) occurrences(k uint64, pos *Board, toMove Color, playsOnly bool) int {
	g.found = g.seen.lookup(k, playsOnly, g.found[:0])
	slices.Sort(g.found)
	count := 0
	for _, at := range g.found {
		toMoveThen := g.first
		if at%2 == 1 {
			toMoveThen = g.first.Opponent()
		}
		if (g.rules.Ko == KoPositional || toMoveThen == toMove) && samePosition(g.positionAt(at), pos) {
			count++
		}
	}
	return count
}

// positionAt puts the position after the first at moves on the scratch
// board and returns it. It goes on from where the scratch board is when
// that lies between at and the last snapshot (or the setup) before at,
// and otherwise starts again from that snapshot, so it replays fewer than
// snapshotEvery moves either way.
func (g *Game) positionAt(at int) *Board {
	if g.scratch == nil {
		g.scratch = new(Board)
	}
	s := g.scratch
	base := at - at%snapshotEvery
	if g.scratchAt < base || g.scratchAt > at {
		_ = s.reset(g.board.size)
		s.multiSuicide = g.rules.MultiStoneSuicide
		if base == 0 {
			for _, st := range g.setup {
				_ = s.place(st.Color, st.Point)
			}
		} else {
			pts := g.board.size * g.board.size
			for i, c := range g.snaps[(base/snapshotEvery-1)*pts:][:pts] {
				if c != Empty {
					_ = s.place(c, Point{i % g.board.size, i / g.board.size})
				}
			}
		}
		g.scratchAt = base
	}
	for ; g.scratchAt < at; g.scratchAt++ {
		g.replayed++
		mv := g.moves[g.scratchAt]
		if mv.Pass {
			s.Pass()
			continue
		}
		pl, _ := s.check(mv.Color, s.idx(mv.Point))
		s.apply(mv.Color, &pl)
	}
	return s
}

func samePosition(a, b *Board) bool {
	if a.hash != b.hash {
		return false
	}
	for y := 0; y < a.size; y++ {
		i := a.index(0, y)
		for x := 0; x < a.size; x++ {
			if a.color[i+int16(x)] != b.color[i+int16(x)] {
				return false
			}
		}
	}
	return true
}

// posTable is an open-addressing hash set of position keys; each entry
// remembers after how many moves the position arose and whether a play
// (not a pass) made it. It grows by doubling; Reserve sizes it up front.
type posTable struct {
	keys []uint64 // 0: free slot
	at   []int32  // moves played when the position arose, times 2, +1 unless by a pass
	n    int
}

func (t *posTable) reserve(n int) {
	size := 64
	for size < n+n/2 { // load at most 2/3
		size *= 2
	}
	if size > len(t.keys) {
		t.rehash(size)
	}
}

func (t *posTable) clear() {
	clear(t.keys)
	t.n = 0
}

func (t *posTable) rehash(size int) {
	old, oldAt := t.keys, t.at
	t.keys, t.at, t.n = make([]uint64, size), make([]int32, size), 0
	for i, k := range old {
		if k != 0 {
			t.insert(k, oldAt[i])
		}
	}
}

func slotKey(k uint64) uint64 {
	if k == 0 {
		return 1 // 0 marks a free slot; a false match is caught by the exact check
	}
	return k
}

func (t *posTable) add(k uint64, moves int, byPlay bool) {
	if 3*(t.n+1) > 2*len(t.keys) {
		size := 2 * len(t.keys)
		if size < 64 {
			size = 64
		}
		t.rehash(size)
	}
	v := int32(moves) * 2
	if byPlay {
		v++
	}
	t.insert(slotKey(k), v)
}

func (t *posTable) insert(k uint64, v int32) {
	mask := uint64(len(t.keys) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		if t.keys[i] == 0 {
			t.keys[i], t.at[i] = k, v
			t.n++
			return
		}
	}
}

func (t *posTable) has(k uint64) bool {
	if len(t.keys) == 0 {
		return false
	}
	k = slotKey(k)
	mask := uint64(len(t.keys) - 1)
	for i := k & mask; t.keys[i] != 0; i = (i + 1) & mask {
		if t.keys[i] == k {
			return true
		}
	}
	return false
}

// lookup appends to out when the positions with key k arose.
func (t *posTable) lookup(k uint64, playsOnly bool, out []int) []int {
	k = slotKey(k)
	mask := uint64(len(t.keys) - 1)
	for i := k & mask; t.keys[i] != 0; i = (i + 1) & mask {
		if t.keys[i] == k && (!playsOnly || t.at[i]&1 == 1) {
			out = append(out, int(t.at[i]/2))
		}
	}
	return out
}
