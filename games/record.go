package games

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"
)

// Player is one side's name and rank as the record gives them.
type Player struct {
	Name string `json:"name,omitempty"`
	Rank string `json:"rank,omitempty"`
}

// Record is a finished (or unfinished) game as submitted or stored: what
// rules.md §9 says a record carries. Judge decides it.
type Record struct {
	Size     int     `json:"size"`
	Rules    Ruleset `json:"rules"`
	Komi     float64 `json:"komi"`
	Handicap int     `json:"handicap"` // 0 even, 1 让先, 2..9 stones
	// Setup holds handicap stones placed freely (SGF AB) and any other
	// stones set up before play. Empty with Handicap ≥ 2: fixed placement.
	Setup []Stone   `json:"setup,omitempty"`
	Moves []Move    `json:"moves"`
	End   EndReason `json:"end"`
	// EndBy is the side that resigned, ran out of time, forfeited or
	// escaped; Empty for other ends.
	EndBy     Color     `json:"end_by,omitempty"`
	Dead      []Point   `json:"dead,omitempty"`   // agreed dead stones (counted games)
	Result    string    `json:"result,omitempty"` // the claimed result, SGF form
	Black     Player    `json:"black"`
	White     Player    `json:"white"`
	Date      string    `json:"date,omitempty"` // as given (SGF DT)
	Penalties Penalties `json:"penalties"`
	// First is the colour that moves first when it is not the usual one
	// (Black, or White after two or more handicap stones): SGF PL, or a
	// record that starts with the other colour. Empty: the usual.
	First Color `json:"first,omitempty"`

	// What the record says about the game besides the moves, kept as
	// given (SGF names in brackets). None of it changes the judgement.
	PlayedAt  time.Time `json:"played_at,omitzero"`   // the day (and time) played, from Date; zero when absent or unreadable
	Event     string    `json:"event,omitempty"`      // EV
	Round     string    `json:"round,omitempty"`      // RO
	Place     string    `json:"place,omitempty"`      // PC
	GameName  string    `json:"game_name,omitempty"`  // GN
	TimeLimit string    `json:"time_limit,omitempty"` // TM: main time, seconds as given
	Overtime  string    `json:"overtime,omitempty"`   // OT: the overtime system as given
	// Source is the program or server that wrote the record (AP), or the
	// format it was converted from ("Tygem .gib").
	Source   string    `json:"source,omitempty"`
	Comments []Comment `json:"comments,omitempty"` // C (GC for the game)
	Clock    []Clock   `json:"clock,omitempty"`    // BL/WL, OB/OW: time left after moves
	// ResultText is RE as the file gave it when it gives no result
	// ("Unfinished"; Result is then ""), for the SGF written back. Never
	// judged, and in no hash (intake's ContentHash and BoundHash), so
	// that keeping it leaves the hashes of stored games as they were.
	ResultText string `json:"result_text,omitempty"`

	// Assumptions says what a reader assumed to accept a quirky file
	// (komi ×100, missing final passes, …), in English. Not written back
	// to SGF; kept with a stored game (within intake's bounds) and shown
	// on it.
	Assumptions []string `json:"assumptions,omitempty"`
}

// Comment is a comment of the record: on the game (Move 0, SGF GC or the
// root's C) or after move Move (numbered from 1, passes included).
type Comment struct {
	Move int    `json:"move"`
	Text string `json:"text"`
}

// Clock is the time a player had left after move Move (SGF BL/WL), and in
// overtime the periods or stones left (OB/OW), 0 when not given.
type Clock struct {
	Move    int     `json:"move"`
	Color   Color   `json:"color"`
	Seconds float64 `json:"seconds"`
	Periods int     `json:"periods,omitempty"`
}

// Verdict is the engine's judgement of a record.
type Verdict struct {
	Winner Color     `json:"winner"` // Empty: draw or no result
	Margin float64   `json:"margin"` // points, for a counted win
	Result string    `json:"result"` // SGF form: "B+3.5", "W+R", "0", "Void"
	End    EndReason `json:"end"`
	Moves  int       `json:"moves"` // plays and passes after the setup stones
	Score  *Score    `json:"score,omitempty"`
	// Cycle is the move at which a repetition cycle ended the game
	// (rulesets without superko), 0 if none.
	Cycle int `json:"cycle,omitempty"`
	// ProposedDead: the record marked no dead stones, and these, proposed
	// by the judge (JudgeOptions.ProposeDead), are the ones Score counted.
	// Not agreed by the players: shown as proposed.
	ProposedDead []Point `json:"proposed_dead,omitempty"`
	// CountUnverified: the count did not give the claimed result, and the
	// claim was trusted (JudgeOptions.TrustClaim). Result is the claim;
	// Computed what the count gave.
	CountUnverified bool   `json:"count_unverified,omitempty"`
	Computed        string `json:"computed,omitempty"`
	// KomiFits: the record's komi is 0 in an even game, its count does
	// not give the claim, and this usual komi would: KM[0] is likely a
	// missing komi.
	KomiFits *float64 `json:"komi_fits,omitempty"`
}

// Replay plays the record's moves from its setup. It returns the game
// after the last move, or the first problem: an *InvalidRecordError for a
// bad size, ruleset, handicap or setup, or a *MoveError for the first
// illegal move; the game is then returned as it was before that move.
func Replay(r *Record) (*Game, error) {
	g := new(Game)
	started, err := g.replay(r)
	if !started {
		return nil, err
	}
	return g, err
}

// replay (re)starts g from the record's setup and plays its moves;
// started is false when the game could not even be set up.
func (g *Game) replay(r *Record) (started bool, err error) {
	if err := g.start(r.Size, r.Rules, r.Handicap, r.Setup, r.First, len(r.Moves)); err != nil {
		return false, err
	}
	for i, m := range r.Moves {
		if m.Color != Black && m.Color != White {
			return true, invalid("moves", "move %d has no colour", i+1)
		}
		if err := g.Play(m); err != nil {
			if errors.Is(err, ErrGameOver) {
				return true, invalid("moves", "the game ended in a repetition cycle at move %d, but move %d follows", g.cycleAt, i+1)
			}
			return true, err
		}
	}
	return true, nil
}

// gamePool keeps Games for Judge, which never hands its Game out: judging
// many records reuses the boards and tables instead of making garbage.
var gamePool = sync.Pool{New: func() any { return new(Game) }}

// validate checks the fields Replay does not.
func (r *Record) validate() error {
	if r.Size < MinSize || r.Size > MaxSize {
		return invalid("size", "board size %d is outside %d..%d", r.Size, MinSize, MaxSize)
	}
	if err := r.Rules.Validate(); err != nil {
		return err
	}
	if limit := MaxMoves(r.Size); len(r.Moves) > limit {
		return &InvalidRecordError{Field: "moves", Limit: limit, Got: len(r.Moves),
			Msg: fmt.Sprintf("%d moves are more than the %d a %d×%d record may hold", len(r.Moves), limit, r.Size, r.Size)}
	}
	if !halfPoints(r.Komi) || math.Abs(r.Komi) > float64(r.Size*r.Size) {
		return invalid("komi", "komi %v is not a whole or half number of points within the board", r.Komi)
	}
	if !r.End.Valid() {
		if r.End == "" {
			return invalid("end", "the record does not say how the game ended")
		}
		return invalid("end", "unknown end %q (want score, resign, time, forfeit, escape, draw or void)", r.End)
	}
	if r.End.needsSide() != (r.EndBy == Black || r.EndBy == White) {
		if r.End.needsSide() {
			// The side is read from the result when none is given: a
			// result that cannot be read is the fault, not end_by.
			if _, _, err := ParseResult(r.Result); err != nil {
				return invalid("result", "%v, so it does not say which side ended the game by %s (or give end_by)", err, r.End)
			}
			return invalid("end_by", "a game ended by %s must say which side", r.End)
		}
		return invalid("end_by", "a game ended by %s has no side that ended it", r.End)
	}
	if len(r.Dead) > 0 && r.End != EndScore {
		return invalid("dead", "dead stones are agreed only in counted games, not %s", r.End)
	}
	p := r.Penalties
	if p.BlackWarnings < 0 || p.WhiteWarnings < 0 || p.BlackOvertime < 0 || p.WhiteOvertime < 0 {
		return invalid("penalties", "penalty counts must not be negative")
	}
	return nil
}

// Judge decides a record completely: it checks the fields, replays every
// move, counts the final position when the game ended by counting (with
// the agreed dead stones), and compares the outcome with the claimed
// result. Errors: *InvalidRecordError (naming the field; "moves" with
// Limit and Got past MaxMoves), *MoveError (the first illegal move),
// *ResultMismatchError (claimed and computed).
func Judge(r *Record) (Verdict, error) {
	return JudgeWith(r, JudgeOptions{})
}

// JudgeOptions say how JudgeWith treats a counted game whose count does
// not give the claimed result by itself. The zero value is Judge.
type JudgeOptions struct {
	// ProposeDead: when a counted record marks no dead stones and the
	// count of the position as it stands does not give the claimed
	// result, the judge proposes them (EstimateDead) and, under area
	// scoring, plays the dame out from the side to move
	// (ScoreParams.ToMove). If the count with the proposal gives the
	// claimed result, the verdict carries the proposal
	// (Verdict.ProposedDead, Verdict.Score counted with it).
	ProposeDead bool
	// TrustClaim: when the count (with the proposal, if any) still does
	// not give the claimed result, accept the claim instead of failing
	// with *ResultMismatchError: the verdict gives the claimed result and
	// says CountUnverified, with the result the count gave. For records
	// from a game server, which is trusted for results. A claim the
	// record itself contradicts (a resignation by the winner, a move
	// after a repetition cycle) is still refused.
	TrustClaim bool
	// Estimate tunes the proposal; its zero value is EstimateDead's
	// defaults with seed 0 (the same record gets the same proposal).
	Estimate EstimateOptions
}

// likelyKomi are the komi a record that says KM[0] in an even game (Fox
// writes so) may have been played with, tried after the ruleset's own:
// the usual komi of area and of territory counting.
var likelyKomi = []float64{7.5, 6.5}

// JudgeWith is Judge with options for counted records that come without
// dead stones (most servers and databases send none): see JudgeOptions.
// A counted record whose komi is 0 in an even game and whose claim a
// usual komi would give has that komi reported (Verdict.KomiFits, or
// ResultMismatchError.KomiFits): KM[0] is then likely a missing komi.
// Only a count with dead stones (agreed, or proposed under ProposeDead)
// is asked.
func JudgeWith(r *Record, opt JudgeOptions) (Verdict, error) {
	if err := r.validate(); err != nil {
		return Verdict{}, err
	}
	claimed, hasClaim, err := ParseResult(r.Result)
	if err != nil {
		return Verdict{}, invalid("result", "%v", err)
	}
	g := gamePool.Get().(*Game)
	defer func() {
		g.setup = nil // do not keep the record alive in the pool
		gamePool.Put(g)
	}()
	if _, err := g.replay(r); err != nil {
		return Verdict{}, err
	}
	v := Verdict{End: r.End, Moves: g.MoveCount()}
	var computed Result
	if at, ok := g.Cycle(); ok {
		v.Cycle, v.End = at, EndVoid
		computed = Result{End: EndVoid}
		if r.Rules.CycleDraw {
			v.End, computed.End = EndDraw, EndDraw
		}
		if r.End != v.End && !hasClaim {
			return Verdict{}, &ResultMismatchError{Claimed: string(r.End), Computed: computed.String()}
		}
	} else {
		switch r.End {
		case EndScore:
			sp := ScoreParams{Rules: r.Rules, Komi: r.Komi, Handicap: r.Handicap, Dead: r.Dead, Penalties: r.Penalties}
			s, err := ScorePosition(&g.board, sp)
			if err != nil {
				return Verdict{}, err
			}
			v.Score, computed = s, s.Result
			if opt.ProposeDead && len(r.Dead) == 0 && (!hasClaim || !claimed.agrees(computed)) {
				est := EstimateDead(&g.board, opt.Estimate)
				// The proposal also plays the dame out, as the players
				// would have before an area count.
				sp.Dead, sp.ToMove = est.Dead, g.ToMove()
				if ps, err := ScorePosition(&g.board, sp); err == nil && (len(est.Dead) > 0 || ps.Margin != s.Margin) {
					// The proposal is the better count whether or
					// not it gives the claim.
					v.Score, computed = ps, ps.Result
					v.ProposedDead = est.Dead
				}
			}
			// A count without the dead stones says nothing about komi.
			if hasClaim && !claimed.agrees(computed) && (len(r.Dead) > 0 || opt.ProposeDead) {
				v.KomiFits = komiFits(&g.board, r, sp, claimed)
			}
		case EndDraw, EndVoid:
			computed = Result{End: r.End}
		default:
			computed = Result{Winner: r.EndBy.Opponent(), End: r.End}
		}
	}
	if hasClaim && !claimed.agrees(computed) {
		if !opt.TrustClaim || r.End != EndScore || v.Cycle > 0 || claimed.End != EndScore && !claimed.IsDraw() {
			return Verdict{}, &ResultMismatchError{Claimed: strings.TrimSpace(r.Result), Computed: computed.String(), KomiFits: v.KomiFits}
		}
		v.CountUnverified, v.Computed = true, computed.String()
		v.Winner, v.Margin, v.Result = claimed.Winner, claimed.Margin, claimed.String()
		return v, nil
	}
	v.KomiFits = nil
	v.Winner, v.Margin, v.Result = computed.Winner, computed.Margin, computed.String()
	return v, nil
}

// komiFits returns the usual komi under which the position's count gives
// the claim, when the record's komi is 0 in an even game; nil otherwise.
func komiFits(b *Board, r *Record, sp ScoreParams, claimed Result) *float64 {
	if r.Komi != 0 || r.Handicap != 0 {
		return nil
	}
	tries := append([]float64{r.Rules.Komi}, likelyKomi...)
	for _, k := range tries {
		sp.Komi = k
		if s, err := ScorePosition(b, sp); err == nil && claimed.agrees(s.Result) {
			return &k
		}
	}
	return nil
}

// Score counts the final position of the record with its agreed dead
// stones under its rules (whatever its end), for tools that ask "what
// would the count say".
func (r *Record) Score() (*Score, error) {
	g, err := Replay(r)
	if err != nil {
		return nil, err
	}
	return ScorePosition(&g.board, ScoreParams{Rules: r.Rules, Komi: r.Komi, Handicap: r.Handicap, Dead: r.Dead, Penalties: r.Penalties})
}
