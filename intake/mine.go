package intake

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// MaxGamesPage bounds a page of a player's games (PlayerGames), decided:
// a profile's list shows 20 to 100; an archive download reads pages of
// this size until the end.
const MaxGamesPage = 500

// DefaultAbortWindow is how long after a pairing either player may abort
// its game (Config.AbortWindow when 0), decided: two minutes is time to
// sit down and see the board; a game not begun by then is expired by its
// TTL instead, or played.
const DefaultAbortWindow = 2 * time.Minute

// PlayerGames lists a page of a player's games, newest first (see
// Store.PlayerGames); limit is bounded by MaxGamesPage and one more, the
// game that tells a caller another page follows (a client paging at the
// largest page got no next page).
func (in *Intake) PlayerGames(ctx context.Context, q GamesQuery) ([]StoredGame, error) {
	if q.Limit <= 0 || q.Limit > MaxGamesPage+1 {
		q.Limit = MaxGamesPage + 1
	}
	for _, st := range q.States {
		if !slices.Contains(Statuses, st) {
			return nil, invalid("state", "%q is not a game state", st)
		}
	}
	return in.store.PlayerGames(ctx, q)
}

// PendingOf is the player's pending game that has not ended, read from the
// game store (not from a matchmaking ticket, which an embedded queue loses
// on a restart): the newest when there are several (an exam game and a
// pairing). ok is false when there is none.
func (in *Intake) PendingOf(ctx context.Context, player string) (g StoredGame, ok bool, err error) {
	ids, err := in.store.Unfinished(ctx, player)
	if err != nil || len(ids) == 0 {
		return StoredGame{}, false, err
	}
	var found []StoredGame
	for _, id := range ids {
		g, err := in.store.Game(ctx, id)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return StoredGame{}, false, err
		}
		if g.Status == StatusPending {
			found = append(found, g)
		}
	}
	if len(found) == 0 {
		return StoredGame{}, false, nil
	}
	slices.SortFunc(found, func(a, b StoredGame) int { return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(b.ID, a.ID)) })
	return found[0], true, nil
}

// ErrNotAbortable matches *NotAbortableError.
var ErrNotAbortable = errors.New("the game may not be aborted")

// NotAbortableError says why a pending game may not be aborted: its
// window has passed, or it was not made by a pairing.
type NotAbortableError struct {
	GameID string
	Reason string
	Window time.Duration
}

func (e *NotAbortableError) Error() string {
	return fmt.Sprintf("game %s may not be aborted: %s", e.GameID, e.Reason)
}

// Unwrap gives ErrNotAbortable.
func (e *NotAbortableError) Unwrap() error { return ErrNotAbortable }

// Abort voids a pending game for either of its players within the abort
// window after it was made (Config.AbortWindow): the platform sees no
// moves of a pending game, so the window stands for "before the first
// move"; a game server that reports a result ends it instead. Only games
// whose maker is in Config.AbortMakers (pairings) may be aborted: an exam
// game is the exam's. The abort is no loss: nobody's rating moves. It is
// counted for the player who aborted (Aborts).
func (in *Intake) Abort(ctx context.Context, id, by string) (StoredGame, error) {
	g, err := in.store.Game(ctx, id)
	if err != nil {
		return StoredGame{}, err
	}
	if by != g.Black && by != g.White {
		return StoredGame{}, fmt.Errorf("%w: %s plays neither side of game %s", ErrNotInGame, by, id)
	}
	if g.Status != StatusPending {
		return StoredGame{}, fmt.Errorf("game %s is %s: %w", id, g.Status, ErrNotPending)
	}
	if !in.abortMaker(g) {
		return StoredGame{}, &NotAbortableError{GameID: id, Reason: "only a pairing's game may be aborted", Window: in.cfg.AbortWindow}
	}
	now := in.now()
	if now.After(g.CreatedAt.Add(in.cfg.AbortWindow)) {
		return StoredGame{}, &NotAbortableError{GameID: id, Window: in.cfg.AbortWindow,
			Reason: fmt.Sprintf("the abort window of %s after the pairing has passed", in.cfg.AbortWindow)}
	}
	if err := in.store.Abort(ctx, id, by, now); err != nil {
		return StoredGame{}, err
	}
	return in.store.Game(ctx, id)
}

func (in *Intake) abortMaker(g StoredGame) bool {
	return len(in.cfg.AbortMakers) == 0 || slices.Contains(in.cfg.AbortMakers, g.SubmittedBy)
}

// AbortableUntil is the last instant at which the game may be aborted
// (Abort), and false when it may not be at all now: it has ended, was not
// made by a pairing, or its window has passed.
func (in *Intake) AbortableUntil(g StoredGame) (time.Time, bool) {
	until := g.CreatedAt.Add(in.cfg.AbortWindow)
	if g.Status != StatusPending || !in.abortMaker(g) || in.now().After(until) {
		return time.Time{}, false
	}
	return until, true
}

// AbortCount is how many games a player aborted in a span, the last one
// first.
type AbortCount struct {
	Player string
	Count  int
	Last   time.Time
	Games  []string // newest first
}

// Aborts counts the aborts at or after since per player who aborted,
// the most first (then by name).
func (in *Intake) Aborts(ctx context.Context, since time.Time) ([]AbortCount, error) {
	as, err := in.store.Aborts(ctx, since)
	if err != nil {
		return nil, err
	}
	by := map[string]*AbortCount{}
	var out []*AbortCount
	for _, a := range as { // newest first
		c := by[a.By]
		if c == nil {
			c = &AbortCount{Player: a.By, Last: a.At}
			by[a.By] = c
			out = append(out, c)
		}
		c.Count++
		c.Games = append(c.Games, a.GameID)
	}
	slices.SortFunc(out, func(a, b *AbortCount) int { return cmp.Or(b.Count-a.Count, cmp.Compare(a.Player, b.Player)) })
	res := make([]AbortCount, len(out))
	for i, c := range out {
		res[i] = *c
	}
	return res, nil
}
