package intake

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/charset"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

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
	SourceID string
	GameID   string
	Black    string
	White    string
	// BlackID and WhiteID name the players by the submitting server's own
	// ids instead, each linked once to an account (players.LinkPlayer).
	BlackID     string
	WhiteID     string
	Record      *games.Record
	SGF         []byte
	Rated       *bool // nil: true, or the pending game's
	TimeControl string
	By          string // the submitting account
	// Trusted: the submitter is a game server, trusted for results: a
	// counted game whose count (with dead stones proposed when none are
	// marked) does not give the claim is accepted as claimed and flagged
	// FlagCountUnverified with both results, instead of refused.
	Trusted bool
}

// Accepted is the answer to a submission: the stored game and what
// rating it did to both players.
type Accepted struct {
	Game   StoredGame
	Rating rating.GameResult
	// Retry: the game was stored before (same source_id, same content);
	// nothing new was stored or rated.
	Retry bool
}

// Config tunes an Intake. Zero fields take defaults.
type Config struct {
	Now   func() time.Time // the clock; time.Now when nil
	NewID func() string    // game ids; NewGameID when nil
	// RecoverBatch is how many unrated games Recover reads at a time.
	RecoverBatch int
	// PendingTTL is how long a pending game may stay unfinished when its
	// maker gives no time (DefaultPendingTTL when 0).
	PendingTTL time.Duration
	// AbortWindow is how long after a pairing either player may abort its
	// game (DefaultAbortWindow when 0); AbortMakers, when set, are the
	// makers (Pending.By) whose games may be aborted (rankd: matchmaking).
	AbortWindow time.Duration
	AbortMakers []string
}

// Intake takes games in: it judges finished games, stores them once by
// source_id, has the rating service rate them, and marks them rated; it
// keeps pending games (a pairing, an exam) and who checked in for them.
// Every step can be repeated, so a retry or Recover after a crash
// completes what a failed call left.
type Intake struct {
	store    Store
	presence Presence
	ratings  *rating.Service
	accounts *players.Service
	rec      Recorder
	cfg      Config
}

// New returns an Intake on its stores, calling the rating service and the
// accounts directly. rec may be nil.
func New(store Store, presence Presence, ratings *rating.Service, accounts *players.Service, rec Recorder, cfg Config) *Intake {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.NewID == nil {
		cfg.NewID = NewGameID
	}
	if cfg.RecoverBatch <= 0 {
		cfg.RecoverBatch = 100
	}
	if cfg.PendingTTL <= 0 {
		cfg.PendingTTL = DefaultPendingTTL
	}
	if cfg.AbortWindow <= 0 {
		cfg.AbortWindow = DefaultAbortWindow
	}
	if rec == nil {
		rec = noRecorder{}
	}
	return &Intake{store: store, presence: presence, ratings: ratings, accounts: accounts, rec: rec, cfg: cfg}
}

type noRecorder struct{}

func (noRecorder) GameAccepted()      {}
func (noRecorder) GameRefused(string) {}

// now is the clock in UTC to the millisecond, the precision stores keep.
func (in *Intake) now() time.Time { return in.cfg.Now().UTC().Truncate(time.Millisecond) }

// Now is the intake's clock.
func (in *Intake) Now() time.Time { return in.now() }

// RefusalCode is the stable code of an error that refuses a game (the
// metrics label, the same as the API's error code), or "" for errors that
// are no refusal (a store down).
func RefusalCode(err error) string {
	switch {
	case errors.Is(err, games.ErrIllegalMove):
		return "illegal_move"
	case errors.Is(err, games.ErrResultMismatch):
		return "result_mismatch"
	case errors.Is(err, games.ErrBadSGF):
		return "invalid_sgf"
	case errors.Is(err, games.ErrInvalidRecord):
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
	if err := checkSubmissionText(s); err != nil {
		return Accepted{}, err
	}
	var err error
	if s.TimeControl, err = timeControlText(s.TimeControl); err != nil {
		return Accepted{}, err
	}
	r := s.Record
	if r == nil {
		if len(s.SGF) == 0 {
			return Accepted{}, invalid("sgf", "the submission has neither a record nor SGF")
		}
		var err error
		if r, err = readOne(s.SGF); err != nil {
			return Accepted{}, err
		}
	}
	black, white := s.Black, s.White
	if black, err = in.linked(ctx, "black", black, s.BlackID, s.By); err != nil {
		return Accepted{}, err
	}
	if white, err = in.linked(ctx, "white", white, s.WhiteID, s.By); err != nil {
		return Accepted{}, err
	}
	if black == "" && s.BlackID == "" {
		black = r.Black.Name
	}
	if white == "" && s.WhiteID == "" {
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
	var pr *games.Record
	if pending != nil {
		pr = pending.Record
	}
	fillUnset(r, pr)
	if black, err = in.resolve(ctx, "black", black); err != nil {
		return Accepted{}, err
	}
	if white, err = in.resolve(ctx, "white", white); err != nil {
		return Accepted{}, err
	}
	if black == white {
		return Accepted{}, invalid("white", "%q cannot play against themselves", black)
	}
	// A count with dead stones the players agreed is the players' own:
	// only a record without any is taken on trust.
	v, err := games.JudgeWith(r, games.JudgeOptions{ProposeDead: true, TrustClaim: s.Trusted && len(r.Dead) == 0})
	if err != nil {
		return Accepted{}, err
	}
	// Judging a long record is the one slow step and asks no store: a
	// caller whose deadline passed meanwhile gets nothing stored.
	if err := ctx.Err(); err != nil {
		return Accepted{}, err
	}
	g := StoredGame{
		ID: s.GameID, SourceID: strings.TrimSpace(s.SourceID), Status: StatusFinished,
		Black: black, White: white, Rated: rated, TimeControl: s.TimeControl,
		Record: r, Verdict: &v, Hash: ContentHash(black, white, rated, r, v),
		SubmittedBy: s.By,
	}
	// Kept with the game for whoever looks at it later; outside the hash:
	// the same game read from a cleaner file is the same game.
	g.Record.Assumptions = keptAssumptions(r.Assumptions)
	now := in.now()
	g.FinishedAt, g.PlayedAt = now, now
	if !r.PlayedAt.IsZero() {
		g.PlayedAt = r.PlayedAt.UTC().Truncate(time.Millisecond)
	}
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

// fillUnset gives the unset fields of a submitted record the pending
// game's value (when the submission finishes one) or the default: a Size
// of 0, the zero Ruleset, a NaN Komi and a negative Handicap are unset.
func fillUnset(r, pending *games.Record) {
	if pending != nil {
		if r.Size == 0 {
			r.Size = pending.Size
		}
		if r.Rules == (games.Ruleset{}) {
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
	if r.Rules == (games.Ruleset{}) {
		r.Rules = games.Chinese()
	}
	if r.Handicap < 0 {
		r.Handicap = 0
	}
	if math.IsNaN(r.Komi) {
		r.Komi = games.DefaultKomi(r.Rules, r.Handicap)
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
		// A finished game there (its first submission not rated yet, or
		// this call's mark beside it: Store.Create) is rated first, as a
		// retry of it would, so that it reads rated again and is never
		// left to recovery by this call.
		if stored.Status == StatusFinished {
			if _, err := in.rate(ctx, stored, true); err != nil {
				return Accepted{}, err
			}
		}
		return Accepted{}, &ConflictError{SourceID: g.SourceID, GameID: stored.ID}
	}
	return in.rate(ctx, stored, true)
}

// linked gives the account a side's server id is linked to (name when no
// id is given); an id with no link is an *UnknownPlayerError naming it.
func (in *Intake) linked(ctx context.Context, side, name, id, server string) (string, error) {
	if id == "" {
		return name, nil
	}
	if name != "" {
		return "", invalid(side+"_id", "give the %s player by username or by %s_id, not both", side, side)
	}
	u, err := in.accounts.Linked(ctx, server, id)
	if errors.Is(err, players.ErrNotFound) {
		return "", &UnknownPlayerError{Side: side, ExternalID: id}
	}
	return u, err
}

// resolve gives the stored username of a side's player, or an
// *UnknownPlayerError.
func (in *Intake) resolve(ctx context.Context, side, name string) (string, error) {
	if strings.TrimSpace(name) == "" {
		return "", invalid(side, "the %s player is not named", side)
	}
	u, err := in.accounts.Playable(ctx, name)
	if errors.Is(err, players.ErrNotFound) || errors.Is(err, players.ErrCannotPlay) {
		return "", &UnknownPlayerError{Side: side, Username: name}
	}
	return u, err
}

// Game returns a stored game.
func (in *Intake) Game(ctx context.Context, id string) (StoredGame, error) {
	return in.store.Game(ctx, id)
}

// Recover has every finished but unrated game rated and marked, oldest
// first: what a crash between storing and rating left. It runs at start
// and from a job; running it while games come in is safe. A game the
// rating service refuses for good (rating.ErrInvalidGame) stays unrated
// and is skipped.
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
				if errors.Is(err, rating.ErrInvalidGame) {
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

// Ended reports whether the game was played to its end and judged:
// finished, or rated after that (what is public, and what an annulment
// may take back).
func (g StoredGame) Ended() bool { return g.Status == StatusFinished || g.Status == StatusRated }

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

func invalid(field, format string, args ...any) error {
	return &games.InvalidRecordError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// readOne reads the one game of an SGF submission (or a Tygem .gib or
// Pandanet .ugf file), in whatever charset it says or is found in.
func readOne(data []byte) (*games.Record, error) {
	rs, err := games.ReadRecords(data, games.ReadOptions{Decode: charset.Decode})
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 {
		return nil, invalid("sgf", "the file holds %d games; submit one game a request (rankctl import takes collections)", len(rs))
	}
	return rs[0], nil
}
