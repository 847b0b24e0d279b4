package games

import (
	"errors"
	"fmt"
	"strconv"
)

// Why a move is illegal. A *MoveError unwraps to one of these; each has a
// stable reason code (ReasonCode) used in JSON and on the command line.
var (
	ErrOccupied  = errors.New("the point is occupied")
	ErrSuicide   = errors.New("the move is suicide")
	ErrKo        = errors.New("the move retakes a ko at once")
	ErrSuperko   = errors.New("the move repeats a whole-board position")
	ErrOffBoard  = errors.New("the point is off the board")
	ErrWrongTurn = errors.New("it is not this colour's turn")
	// ErrGameOver: the game already ended in a repetition cycle.
	ErrGameOver = errors.New("the game is over")
)

// Sentinels for the other error types, for errors.Is.
var (
	// ErrIllegalMove matches every *MoveError.
	ErrIllegalMove = errors.New("illegal move")
	// ErrResultMismatch matches *ResultMismatchError.
	ErrResultMismatch = errors.New("claimed result contradicts the score")
	// ErrBadSGF matches *SGFError.
	ErrBadSGF = errors.New("bad SGF")
	// ErrInvalidRecord matches *InvalidRecordError.
	ErrInvalidRecord = errors.New("invalid game record")
)

var reasonCodes = map[error]string{
	ErrOccupied:  "occupied",
	ErrSuicide:   "suicide",
	ErrKo:        "ko",
	ErrSuperko:   "superko",
	ErrOffBoard:  "off_board",
	ErrWrongTurn: "wrong_turn",
	ErrGameOver:  "game_over",
}

// ReasonCode returns the stable code of an illegal-move error ("occupied",
// "suicide", "ko", "superko", "off_board", "wrong_turn", "game_over"), or ""
// if err is none of them.
func ReasonCode(err error) string {
	for e, code := range reasonCodes {
		if errors.Is(err, e) {
			return code
		}
	}
	return ""
}

// MoveError is an illegal move: which move (numbered from 1 after the
// setup stones, passes included), by whom, where, and why (Err, one of the
// sentinels above).
type MoveError struct {
	Number int
	Move   Move
	Size   int // board size, to print the point as people write it
	Err    error
}

func (e *MoveError) Error() string {
	where := "pass"
	if !e.Move.Pass {
		where = e.Move.Point.Vertex(e.Size)
	}
	return "move " + strconv.Itoa(e.Number) + " (" + e.Move.Color.String() + " " + where + "): " + ReasonCode(e.Err)
}

// Unwrap gives the reason sentinel.
func (e *MoveError) Unwrap() error { return e.Err }

// Is makes every MoveError match ErrIllegalMove.
func (e *MoveError) Is(target error) bool { return target == ErrIllegalMove }

// Reason returns the stable reason code, e.g. "superko".
func (e *MoveError) Reason() string { return ReasonCode(e.Err) }

// ResultMismatchError: the record claims a result the engine's judgement
// contradicts.
type ResultMismatchError struct {
	Claimed  string // as the record gives it
	Computed string // what the engine found, SGF form
	// KomiFits: the record's komi is 0 in an even game and this usual
	// komi gives the claim (KM[0] is likely a missing komi); nil if none.
	KomiFits *float64
}

func (e *ResultMismatchError) Error() string {
	msg := fmt.Sprintf("claimed result %s, but the game gives %s", e.Claimed, e.Computed)
	if e.KomiFits != nil {
		msg += fmt.Sprintf(" (komi %s gives the claim: KM[0] is likely a missing komi)", strconv.FormatFloat(*e.KomiFits, 'f', -1, 64))
	}
	return msg
}

// Unwrap gives ErrResultMismatch.
func (e *ResultMismatchError) Unwrap() error { return ErrResultMismatch }

// SGFError is malformed or unusable SGF; Offset is the byte offset in the
// input where the problem is.
type SGFError struct {
	Offset int
	Msg    string
}

func (e *SGFError) Error() string {
	return "sgf: byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// Unwrap gives ErrBadSGF.
func (e *SGFError) Unwrap() error { return ErrBadSGF }

// InvalidRecordError is a record that cannot be judged: Field names the
// part that is wrong ("size", "handicap", "setup", "komi", "rules", "end",
// "end_by", "dead", "result", "moves", "penalties"). When a limit was
// passed (a record longer than MaxMoves), Limit is the limit and Got what
// the record has; both are 0 otherwise.
type InvalidRecordError struct {
	Field string
	Msg   string
	Limit int
	Got   int
}

func (e *InvalidRecordError) Error() string {
	return "invalid record: " + e.Field + ": " + e.Msg
}

// Unwrap gives ErrInvalidRecord.
func (e *InvalidRecordError) Unwrap() error { return ErrInvalidRecord }

func invalid(field, format string, args ...any) error {
	return &InvalidRecordError{Field: field, Msg: fmt.Sprintf(format, args...)}
}
