package games

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// PlayerRating is one player's rating after a game, as the rating service
// reports it: the ladder delta of this game, the ladder score and rank,
// and Glicko-2. games keeps its own copy of the shape so that it never
// imports rating.
type PlayerRating struct {
	Username   string  `json:"username"`
	Delta      int     `json:"delta"`
	Score      int     `json:"score"`
	Rank       string  `json:"rank"`
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// Rating is what rating one game did to both players.
type Rating struct {
	Black PlayerRating `json:"black"`
	White PlayerRating `json:"white"`
}

// Rater is the rating service as intake needs it (cmd adapts rating's
// service to it).
type Rater interface {
	// Rate applies a finished game to both players exactly once, keyed by
	// the game's ID, and returns both players' ratings after it; rating
	// the same game again returns the same answer. A game that moves no
	// rating (not rated, handicap, void) changes nothing and gives the
	// players' current ratings with delta 0.
	Rate(ctx context.Context, g StoredGame) (Rating, error)
}

// Players tells intake who may play.
type Players interface {
	// Resolve returns the stored (case-folded) username of a player who
	// may play, or an error matching ErrUnknownPlayer.
	Resolve(ctx context.Context, username string) (string, error)
}

// Recorder counts games in and refused (metrics.Registry is one).
type Recorder interface {
	GameAccepted()
	GameRefused(reason string)
}

// Submission is a finished game as a source sends it: a Record, or SGF
// text. Black and White name the players (usernames); when empty they
// come from the record (SGF PB/PW). GameID names a pending game that this
// result finishes; SourceID is then optional.
type Submission struct {
	SourceID    string
	GameID      string
	Black       string
	White       string
	Record      *Record
	SGF         []byte
	Rated       *bool // nil: true, or the pending game's
	TimeControl string
	By          string // the submitting account
}

// Pending is a game that a pairing or an exam made and that is still to be
// played.
type Pending struct {
	// SourceID, when given, makes creation idempotent: the game's ID is
	// GameIDFor(SourceID), and creating it again returns the stored game
	// (a pairing uses its pairing id). "" gives a fresh ID, which is also
	// the source_id.
	SourceID    string
	Black       string
	White       string
	Size        int
	Rules       Ruleset
	Komi        float64
	Handicap    int
	TimeControl string
	Rated       bool
	By          string // who made it ("matchmaking", an exam id, an admin)
	TTL         time.Duration
	// Until, when set, is when the game expires (an exam game's session
	// deadline); it wins over TTL.
	Until time.Time
}

// Accepted is the answer to a submission.
type Accepted struct {
	Game   StoredGame
	Rating Rating
	// Retry: the game was stored before (same source_id, same content);
	// nothing new was stored or rated.
	Retry bool
}

// IntakeConfig tunes an Intake. Zero fields take defaults.
type IntakeConfig struct {
	Now   func() time.Time // the clock; time.Now when nil
	NewID func() string    // game ids; NewGameID when nil
	// RecoverBatch is how many unrated games Recover reads at a time.
	RecoverBatch int
}

// DefaultPendingTTL is how long a pending game may stay unfinished before
// ExpirePending voids it, when Pending.TTL gives none (decided: a day
// covers the slowest correspondence-free time control).
const DefaultPendingTTL = 24 * time.Hour

// Intake takes finished games in: it judges them, stores them once by
// source_id, has them rated, and marks them rated. Every step can be
// repeated, so a retry or Recover after a crash completes what a failed
// call left.
type Intake struct {
	store   Store
	rater   Rater
	players Players
	rec     Recorder
	cfg     IntakeConfig
}

// NewIntake returns an Intake. rec may be nil.
func NewIntake(store Store, rater Rater, players Players, rec Recorder, cfg IntakeConfig) *Intake {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewID == nil {
		cfg.NewID = NewGameID
	}
	if cfg.RecoverBatch <= 0 {
		cfg.RecoverBatch = 100
	}
	if rec == nil {
		rec = noRecorder{}
	}
	return &Intake{store: store, rater: rater, players: players, rec: rec, cfg: cfg}
}

type noRecorder struct{}

func (noRecorder) GameAccepted()      {}
func (noRecorder) GameRefused(string) {}

var idEncoding = base32.NewEncoding("0123456789abcdefghijklmnopqrstuv").WithPadding(base32.NoPadding)

// GameIDFor is the id of the game a source submits under sourceID: 20
// characters of [0-9a-v] from its SHA-256 (100 bits). Derived, not
// random, so that a submission's retry finds its game by id.
func GameIDFor(sourceID string) string {
	sum := sha256.Sum256([]byte("source:" + sourceID))
	return idEncoding.EncodeToString(sum[:])[:20]
}

// NewGameID returns a fresh random game id: 16 characters of [0-9a-v]
// (80 random bits).
func NewGameID() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	return idEncoding.EncodeToString(b[:])
}

// now is the clock in UTC to the millisecond, the precision stores keep.
func (in *Intake) now() time.Time { return in.cfg.Now().UTC().Truncate(time.Millisecond) }

// RefusalCode is the stable code of an error that refuses a game (the API
// error code, also the metrics label), or "" for errors that are no
// refusal (a store down).
func RefusalCode(err error) string {
	switch {
	case errors.Is(err, ErrIllegalMove):
		return "illegal_move"
	case errors.Is(err, ErrResultMismatch):
		return "result_mismatch"
	case errors.Is(err, ErrBadSGF):
		return "invalid_sgf"
	case errors.Is(err, ErrInvalidRecord):
		return "invalid_field"
	case errors.Is(err, ErrUnknownPlayer):
		return "unknown_player"
	case errors.Is(err, ErrConflict):
		return "source_conflict"
	case errors.Is(err, ErrNotPending):
		return "game_not_pending"
	case errors.Is(err, ErrNotFound):
		return "not_found"
	}
	return ""
}

// Submit judges a finished game, stores it (once per source_id), has it
// rated and marks it rated. A retry of a stored game (same source_id, same
// content) gives the stored game and its rating again with Retry set;
// other content under the same source_id is a *ConflictError. A refused
// game changes nothing.
func (in *Intake) Submit(ctx context.Context, s Submission) (Accepted, error) {
	a, err := in.submit(ctx, s)
	if err != nil {
		if code := RefusalCode(err); code != "" {
			in.rec.GameRefused(code)
		}
		return Accepted{}, err
	}
	if !a.Retry {
		in.rec.GameAccepted()
	}
	return a, nil
}

func (in *Intake) submit(ctx context.Context, s Submission) (Accepted, error) {
	r := s.Record
	if r == nil {
		if len(s.SGF) == 0 {
			return Accepted{}, invalid("sgf", "the submission has neither a record nor SGF")
		}
		var err error
		if r, err = ParseRecord(s.SGF); err != nil {
			return Accepted{}, err
		}
	}
	black, white := s.Black, s.White
	if black == "" {
		black = r.Black.Name
	}
	if white == "" {
		white = r.White.Name
	}
	if strings.TrimSpace(s.SourceID) == "" && s.GameID == "" {
		return Accepted{}, invalid("source_id", "a finished game needs the source_id its source gave it, or the game_id of a pending game")
	}
	rated := s.Rated == nil || *s.Rated
	var pending *StoredGame
	if s.GameID != "" {
		p, err := in.store.Game(ctx, s.GameID)
		if err != nil {
			return Accepted{}, err
		}
		pending = &p
		if black == "" {
			black = p.Black
		}
		if white == "" {
			white = p.White
		}
		if s.Rated == nil {
			rated = p.Rated
		}
	}
	var pr *Record
	if pending != nil {
		pr = pending.Record
	}
	r.fillUnset(pr)
	var err error
	if black, err = in.resolve(ctx, "black", black); err != nil {
		return Accepted{}, err
	}
	if white, err = in.resolve(ctx, "white", white); err != nil {
		return Accepted{}, err
	}
	if black == white {
		return Accepted{}, invalid("white", "%q cannot play against themselves", black)
	}
	v, err := Judge(r)
	if err != nil {
		return Accepted{}, err
	}
	g := StoredGame{
		ID: s.GameID, SourceID: strings.TrimSpace(s.SourceID), Status: StatusFinished,
		Black: black, White: white, Rated: rated, TimeControl: s.TimeControl,
		Record: r, Verdict: &v, Hash: ContentHash(black, white, rated, r, v),
		SubmittedBy: s.By,
	}
	g.Record.Assumptions = nil // said once, to the submitter; not kept
	now := in.now()
	g.FinishedAt = now
	if pending != nil {
		return in.finishPending(ctx, *pending, g)
	}
	g.ID, g.CreatedAt = GameIDFor(g.SourceID), now
	err = in.store.Create(ctx, g)
	if errors.Is(err, ErrSourceTaken) {
		// Stored before: under the id the source_id gives (found by _id,
		// cheap on every store), or, for a pending game's own source_id,
		// by source.
		stored, gerr := in.store.Game(ctx, g.ID)
		if gerr == nil && stored.SourceID != g.SourceID || errors.Is(gerr, ErrNotFound) {
			stored, gerr = in.store.BySource(ctx, g.SourceID)
		}
		if gerr != nil {
			return Accepted{}, gerr
		}
		return in.again(ctx, stored, g)
	}
	if err != nil {
		return Accepted{}, err
	}
	return in.rate(ctx, g, false)
}

// Unset fields of a submitted Record, which take the pending game's value
// (when the submission finishes one) or the default: a Size of 0, the
// zero Ruleset, a NaN Komi and a negative Handicap.
func (r *Record) fillUnset(pending *Record) {
	if pending != nil {
		if r.Size == 0 {
			r.Size = pending.Size
		}
		if r.Rules == (Ruleset{}) {
			r.Rules = pending.Rules
		}
		if r.Handicap < 0 {
			r.Handicap = pending.Handicap
		}
		if math.IsNaN(r.Komi) {
			r.Komi = pending.Komi
		}
	}
	if r.Size == 0 {
		r.Size = DefaultSize
	}
	if r.Rules == (Ruleset{}) {
		r.Rules = Chinese()
	}
	if r.Handicap < 0 {
		r.Handicap = 0
	}
	if math.IsNaN(r.Komi) {
		r.Komi = DefaultKomi(r.Rules, r.Handicap)
	}
}

// DefaultSize is the board size of a submission that gives none.
const DefaultSize = 19

// finishPending turns a pending game into the finished g.
func (in *Intake) finishPending(ctx context.Context, p, g StoredGame) (Accepted, error) {
	if g.SourceID == "" {
		g.SourceID = p.SourceID
	}
	if p.Status != StatusPending {
		return in.again(ctx, p, g)
	}
	for _, c := range []struct {
		field    string
		ok       bool
		got, was any
	}{
		{"source_id", g.SourceID == p.SourceID, g.SourceID, p.SourceID},
		{"black", g.Black == p.Black, g.Black, p.Black},
		{"white", g.White == p.White, g.White, p.White},
		{"rated", g.Rated == p.Rated, g.Rated, p.Rated},
		{"size", g.Record.Size == p.Record.Size, g.Record.Size, p.Record.Size},
		{"rules", g.Record.Rules == p.Record.Rules, g.Record.Rules, p.Record.Rules},
		{"komi", g.Record.Komi == p.Record.Komi, g.Record.Komi, p.Record.Komi},
		{"handicap", g.Record.Handicap == p.Record.Handicap, g.Record.Handicap, p.Record.Handicap},
	} {
		if !c.ok {
			return Accepted{}, invalid(c.field, "pending game %s has %v, the submission %v", p.ID, c.was, c.got)
		}
	}
	g.ID, g.CreatedAt, g.ExpiresAt = p.ID, p.CreatedAt, time.Time{}
	if g.TimeControl == "" {
		g.TimeControl = p.TimeControl
	}
	err := in.store.Finish(ctx, g)
	if errors.Is(err, ErrNotPending) {
		// Finished meanwhile (a concurrent retry) or expired.
		stored, gerr := in.store.Game(ctx, g.ID)
		if gerr != nil {
			return Accepted{}, gerr
		}
		return in.again(ctx, stored, g)
	}
	if err != nil {
		return Accepted{}, err
	}
	return in.rate(ctx, g, false)
}

// again answers a submission whose game is already stored: the same
// content is a retry (rated again, which is idempotent), other content a
// conflict.
func (in *Intake) again(ctx context.Context, stored, g StoredGame) (Accepted, error) {
	switch stored.Status {
	case StatusPending, StatusExpired:
		if stored.Status == StatusExpired || stored.ID != g.ID {
			return Accepted{}, fmt.Errorf("%w: game %s is %s", ErrNotPending, stored.ID, stored.Status)
		}
	}
	if stored.Hash != g.Hash {
		return Accepted{}, &ConflictError{SourceID: g.SourceID, GameID: stored.ID}
	}
	return in.rate(ctx, stored, true)
}

// rate has a stored finished game rated and marks it so.
func (in *Intake) rate(ctx context.Context, g StoredGame, retry bool) (Accepted, error) {
	rt, err := in.rater.Rate(ctx, g)
	if err != nil {
		return Accepted{}, err
	}
	if g.Status != StatusRated {
		if err := in.store.MarkRated(ctx, g.ID); err != nil {
			return Accepted{}, err
		}
		g.Status = StatusRated
	}
	return Accepted{Game: g, Rating: rt, Retry: retry}, nil
}

func (in *Intake) resolve(ctx context.Context, side, name string) (string, error) {
	if strings.TrimSpace(name) == "" {
		return "", invalid(side, "the %s player is not named", side)
	}
	u, err := in.players.Resolve(ctx, name)
	if errors.Is(err, ErrUnknownPlayer) {
		return "", &UnknownPlayerError{Side: side, Username: name}
	}
	return u, err
}

// CreatePending stores a game still to be played (a pairing, an exam
// game). Its result later comes in through Submit with its ID. With a
// SourceID it is idempotent: a retry returns the game stored first (found
// by _id), and other content under that SourceID is a *ConflictError.
func (in *Intake) CreatePending(ctx context.Context, p Pending) (StoredGame, error) {
	black, err := in.resolve(ctx, "black", p.Black)
	if err != nil {
		return StoredGame{}, err
	}
	white, err := in.resolve(ctx, "white", p.White)
	if err != nil {
		return StoredGame{}, err
	}
	if black == white {
		return StoredGame{}, invalid("white", "%q cannot play against themselves", black)
	}
	if p.Size == 0 {
		p.Size = DefaultSize
	}
	r := &Record{Size: p.Size, Rules: p.Rules, Komi: p.Komi, Handicap: p.Handicap, Black: Player{Name: black}, White: Player{Name: white}}
	if err := r.validatePending(); err != nil {
		return StoredGame{}, err
	}
	ttl := p.TTL
	if ttl <= 0 {
		ttl = DefaultPendingTTL
	}
	now := in.now()
	g := StoredGame{
		ID: in.cfg.NewID(), SourceID: p.SourceID, Status: StatusPending, Black: black, White: white,
		Rated: p.Rated, TimeControl: p.TimeControl, Record: r, SubmittedBy: p.By,
		CreatedAt: now, ExpiresAt: now.Add(ttl),
	}
	if !p.Until.IsZero() {
		g.ExpiresAt = p.Until.UTC().Truncate(time.Millisecond)
	}
	if g.SourceID == "" {
		g.SourceID = g.ID
	} else {
		g.ID = GameIDFor(g.SourceID)
	}
	err = in.store.Create(ctx, g)
	if errors.Is(err, ErrSourceTaken) && p.SourceID != "" {
		stored, gerr := in.store.Game(ctx, g.ID)
		if gerr != nil {
			return StoredGame{}, gerr
		}
		if !samePending(stored, g) {
			return StoredGame{}, &ConflictError{SourceID: g.SourceID, GameID: stored.ID}
		}
		return stored, nil
	}
	if err != nil {
		return StoredGame{}, err
	}
	return g, nil
}

// samePending reports whether stored is the pending game g again (created
// by a retry), whatever became of it since.
func samePending(stored, g StoredGame) bool {
	s, r := stored.Record, g.Record
	return stored.SourceID == g.SourceID && stored.Black == g.Black && stored.White == g.White &&
		stored.Rated == g.Rated && stored.TimeControl == g.TimeControl && s != nil &&
		s.Size == r.Size && s.Rules == r.Rules && s.Komi == r.Komi && s.Handicap == r.Handicap
}

// validatePending checks what a game still to be played has: size,
// rules, komi and handicap.
func (r *Record) validatePending() error {
	probe := *r
	probe.End = EndVoid
	if err := probe.validate(); err != nil {
		return err
	}
	_, err := handicapStones(r.Size, r.Handicap, nil)
	return err
}

// Game returns a stored game.
func (in *Intake) Game(ctx context.Context, id string) (StoredGame, error) {
	return in.store.Game(ctx, id)
}

// Recover has every finished but unrated game rated and marked, oldest
// first: what a crash between storing and rating left. It runs at start
// and from a job; running it while games come in is safe. A game the
// rater refuses for good (ErrNotRatable) stays unrated and is skipped.
func (in *Intake) Recover(ctx context.Context) (int, error) {
	n := 0
	skip := map[string]bool{}
	for {
		gs, err := in.store.Finished(ctx, in.cfg.RecoverBatch+len(skip))
		if err != nil {
			return n, err
		}
		progress := false
		for _, g := range gs {
			if skip[g.ID] {
				continue
			}
			progress = true
			if _, err := in.rate(ctx, g, true); err != nil {
				if errors.Is(err, ErrNotRatable) {
					skip[g.ID] = true
					continue
				}
				return n, fmt.Errorf("recover game %s: %w", g.ID, err)
			}
			n++
		}
		if !progress {
			return n, nil
		}
	}
}

// ExpirePending voids the pending games whose time is up.
func (in *Intake) ExpirePending(ctx context.Context) (int, error) {
	return in.store.ExpirePending(ctx, in.now())
}

// Unfinished reports whether the player (a username) has a pending game
// that has not ended.
func (in *Intake) Unfinished(ctx context.Context, player string) (bool, error) {
	ids, err := in.store.Unfinished(ctx, player)
	return len(ids) > 0, err
}

// SGF returns the stored game as SGF, with the players' usernames as PB
// and PW.
func (g StoredGame) SGF() []byte {
	r := *g.Record
	r.Black.Name, r.White.Name = g.Black, g.White
	if g.Verdict != nil && r.Result == "" {
		r.Result = g.Verdict.Result
	}
	return bytes.TrimSpace(r.SGF())
}
