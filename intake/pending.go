package intake

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"time"

	"github.com/weiqi-platform/rank/games"
)

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
	Rules       games.Ruleset
	Komi        float64
	Handicap    int
	TimeControl games.TimeControl
	Rated       bool
	By          string // who made it ("matchmaking", an exam id, an admin)
	TTL         time.Duration
	// Until, when set, is when the game expires (an exam game's session
	// deadline); it wins over TTL.
	Until time.Time
}

// DefaultPendingTTL is how long a pending game may stay unfinished before
// ExpirePending voids it, when Pending.TTL gives none (decided: a day
// covers the slowest correspondence-free time control).
const DefaultPendingTTL = 24 * time.Hour

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
	r := &games.Record{Size: p.Size, Rules: p.Rules, Komi: p.Komi, Handicap: p.Handicap, Black: games.Player{Name: black}, White: games.Player{Name: white}}
	if err := r.ValidateSettings(); err != nil {
		return StoredGame{}, err
	}
	ttl := p.TTL
	if ttl <= 0 {
		ttl = in.cfg.PendingTTL
	}
	now := in.now()
	g := StoredGame{
		ID: in.cfg.NewID(), SourceID: p.SourceID, Status: StatusPending, Black: black, White: white,
		Rated: p.Rated, TimeControl: p.TimeControl.String(), Record: r, SubmittedBy: p.By,
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
