package games

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestPassesAddNoPositions: a run of passes repeats positions the table
// already holds, so it must not add them (it did, one entry a pass, all of
// one or two keys, which made replay quadratic in the passes).
func TestPassesAddNoPositions(t *testing.T) {
	positional := Chinese()
	positional.Ko = KoPositional
	for _, rules := range []Ruleset{Chinese(), positional, Japanese()} {
		t.Run(rules.Ko.String(), func(t *testing.T) {
			g, err := Replay(passRecord(20_000, rules))
			if err != nil {
				t.Fatal(err)
			}
			// The start, and under situational superko the start with the
			// other side to move.
			if g.seen.n > 2 {
				t.Fatalf("20,000 passes left %d positions in the table, want at most 2", g.seen.n)
			}
		})
	}
}

// TestRecurrenceReplaysLittle: comparing a position with an earlier one
// rebuilds the earlier one from the snapshot before it, not from the
// start, so the moves replayed do not grow with the record.
func TestRecurrenceReplaysLittle(t *testing.T) {
	for _, n := range []int{2_000, 50_000} {
		r := koRecord(n)
		g, err := Replay(r)
		if err != nil {
			t.Fatal(err)
		}
		// Each of the 76 rounds compares two positions with one earlier
		// position each, each fewer than snapshotEvery moves from a snapshot.
		rounds := min(76, n/14)
		if g.replayed == 0 || g.replayed >= 2*rounds*snapshotEvery {
			t.Fatalf("%d moves: %d moves replayed for the comparisons, want 1..%d", n, g.replayed, 2*rounds*snapshotEvery)
		}
	}
}

// TestRepetitionBehindSnapshots: a position that first arose after many
// moves (behind a snapshot) is still found when it comes back after a long
// run of passes: superko refuses the move, simple ko ends the game at the
// third occurrence.
func TestRepetitionBehindSnapshots(t *testing.T) {
	r := koRecord(0) // the setup: a Black stone in the ko, White may retake
	bp, wp := PassMove(Black), PassMove(White)
	take, retake := Play(Black, Point{3, 1}), Play(White, Point{2, 1})
	var moves []Move
	passes := func(pairs int) { // both pass, the side to move first
		last := moves[len(moves)-1].Color
		for range pairs {
			moves = append(moves, PassMove(last.Opponent()), PassMove(last))
		}
	}
	moves = append(moves, bp, wp)
	passes(69)
	moves = append(moves, Play(Black, Point{10, 10})) // move 141: position P, White to move
	passes(100)
	moves = append(moves, retake, bp, wp, take) // take: P again, White to move
	again := len(moves)
	passes(100)
	moves = append(moves, retake, bp, wp, take) // P a third time
	third := len(moves)

	positional := Chinese()
	positional.Ko = KoPositional
	for _, rules := range []Ruleset{Chinese(), positional} {
		rec := *r
		rec.Rules, rec.Moves = rules, moves
		_, err := Replay(&rec)
		var me *MoveError
		if !errors.As(err, &me) || !errors.Is(err, ErrSuperko) || me.Number != again {
			t.Errorf("%v: got %v, want superko at move %d", rules.Ko, err, again)
		}
	}
	rec := *r
	rec.Rules, rec.Moves = Japanese(), moves
	g, err := Replay(&rec)
	if err != nil {
		t.Fatal(err)
	}
	if at, ok := g.Cycle(); !ok || at != third {
		t.Fatalf("simple ko: cycle %d %v, want the game ended at move %d", at, ok, third)
	}
}

// TestJudgeRefusesTooManyMoves: MaxMoves moves are judged, one more is an
// *InvalidRecordError on "moves" carrying the limit.
func TestJudgeRefusesTooManyMoves(t *testing.T) {
	for _, size := range []int{MinSize, 9, 19, MaxSize} {
		limit := MaxMoves(size)
		if limit < 2*size*size || limit > 10*size*size {
			t.Fatalf("MaxMoves(%d) = %d, outside 2..10 moves a point", size, limit)
		}
		r := passRecord(limit, Chinese())
		r.Size = size
		if _, err := Judge(r); err != nil {
			t.Fatalf("%d×%d, %d moves: %v", size, size, limit, err)
		}
		r.Moves = append(r.Moves, PassMove(r.Moves[len(r.Moves)-1].Color.Opponent()))
		_, err := Judge(r)
		var ie *InvalidRecordError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInvalidRecord) || ie.Field != "moves" || ie.Limit != limit || ie.Got != limit+1 {
			t.Fatalf("%d×%d, %d moves: got %#v, want moves over the limit %d", size, size, limit+1, err, limit)
		}
		if !strings.Contains(err.Error(), strconv.Itoa(limit)) {
			t.Errorf("the message %q does not name the limit %d", err, limit)
		}
	}
}
