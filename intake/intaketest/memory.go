package intaketest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/outage"
)

// Memory is a intake.Store in memory that answers as gamedb does. A game
// is kept as created; a pending game's end (its result, or expiry) and a
// game's being rated (its unrated mark deleted, as in gamedb) are facts of
// their own under its id, each decided once, and Game puts them together, so a result replaces the pending
// game whole and a result racing an expiry cannot both win. Records and
// verdicts are kept as their JSON (as gamedb keeps them), times as BSON
// dates keep them (UTC, to the millisecond), so nothing a caller holds
// aliases stored state. It is safe for concurrent use, and passes Run.
type Memory struct {
	// Fail, when set, is asked at the start of every method with the
	// method's name ("Create", "Finish", "ExpirePending", …); an error it
	// returns is the method's answer and nothing is done (an outage, or a
	// crash before the write). Set it before the store is shared; to
	// switch an outage on and off, have it read an atomic.
	Fail func(method string) error

	mu       sync.Mutex
	games    map[string]memGame   // as created, by id
	bySource map[string]string    // source_id → id
	ends     map[string]memEnd    // a pending game's end, decided once
	unrated  map[string]time.Time // finished and not yet rated: when it finished; a finished game without one is rated
	pending  map[string]memMark   // pending and not yet ended
	flagged  map[string]memFlag   // flag + "#" + id: the first mark
}

type memFlag struct {
	flag, game string
	at         time.Time
}

// memGame is a game as gamedb stores it: the record and verdict as their
// JSON.
type memGame struct {
	g       intake.StoredGame // Record and Verdict nil
	record  []byte
	verdict []byte // nil: none
}

// memEnd is how a pending game ended: finished (with the finished game)
// or expired.
type memEnd struct {
	kind intake.Status
	game memGame
	by   string    // who aborted it
	at   time.Time // when it was aborted
}

type memMark struct {
	black, white string
	expires      time.Time
}

var _ intake.Store = (*Memory)(nil)

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	return &Memory{games: map[string]memGame{}, bySource: map[string]string{}, ends: map[string]memEnd{},
		unrated: map[string]time.Time{}, pending: map[string]memMark{}, flagged: map[string]memFlag{}}
}

// enter runs the fault hook and refuses a finished context, as a driver
// call would (a deadline is the store being unavailable).
func enter(ctx context.Context, fail func(string) error, method string) error {
	if fail != nil {
		if err := fail(method); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return outage.Wrap("memory", "intaketest: "+method, err)
		}
		return fmt.Errorf("intaketest: %s: %w", method, err)
	}
	return nil
}

func (m *Memory) enter(ctx context.Context, method string) error {
	return enter(ctx, m.Fail, method)
}

// memTime is t as a BSON date keeps it.
func memTime(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

func toMem(g intake.StoredGame) (memGame, error) {
	rec, err := json.Marshal(g.Record)
	if err != nil {
		return memGame{}, fmt.Errorf("gametest: game %s: record: %w", g.ID, err)
	}
	d := memGame{record: rec}
	if g.Verdict != nil {
		if d.verdict, err = json.Marshal(g.Verdict); err != nil {
			return memGame{}, fmt.Errorf("gametest: game %s: verdict: %w", g.ID, err)
		}
	}
	g.Record, g.Verdict = nil, nil
	g.CreatedAt, g.FinishedAt, g.ExpiresAt, g.PlayedAt = memTime(g.CreatedAt), memTime(g.FinishedAt), memTime(g.ExpiresAt), memTime(g.PlayedAt)
	d.g = g
	return d, nil
}

// game is the stored game given out: a record always (an empty one for
// a game stored without), a verdict when stored.
func (d memGame) game() (intake.StoredGame, error) {
	g := d.g
	g.Record = new(games.Record)
	if err := json.Unmarshal(d.record, g.Record); err != nil {
		return intake.StoredGame{}, fmt.Errorf("gametest: game %s: stored record: %w", g.ID, err)
	}
	if d.verdict != nil {
		g.Verdict = new(games.Verdict)
		if err := json.Unmarshal(d.verdict, g.Verdict); err != nil {
			return intake.StoredGame{}, fmt.Errorf("gametest: game %s: stored verdict: %w", g.ID, err)
		}
	}
	return g, nil
}

// Create implements intake.Store.
func (m *Memory) Create(ctx context.Context, g intake.StoredGame) error {
	if err := m.enter(ctx, "Create"); err != nil {
		return err
	}
	d, err := toMem(g)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	_, idTaken := m.games[g.ID]
	_, sourceTaken := m.bySource[g.SourceID]
	if idTaken || sourceTaken {
		// As gamedb: the unrated mark goes first and stays beside the
		// game there (Store.Create).
		if g.Status == intake.StatusFinished && idTaken {
			m.markUnrated(d.g)
		}
		return fmt.Errorf("%w: %q", intake.ErrSourceTaken, g.SourceID)
	}
	m.games[g.ID], m.bySource[g.SourceID] = d, g.ID
	switch g.Status {
	case intake.StatusFinished:
		m.markUnrated(d.g)
	case intake.StatusPending:
		m.pending[g.ID] = memMark{black: g.Black, white: g.White, expires: d.g.ExpiresAt}
	}
	return nil
}

func (m *Memory) markUnrated(g intake.StoredGame) {
	if _, ok := m.unrated[g.ID]; !ok {
		m.unrated[g.ID] = g.FinishedAt
	}
}

// assembled is the game with the id as it stands: as created, or as its
// end made it, and rated once marked.
func (m *Memory) assembled(id string) (memGame, bool) {
	d, ok := m.games[id]
	if !ok {
		return memGame{}, false
	}
	if d.g.Status == intake.StatusPending {
		if end, ok := m.ends[id]; ok {
			if end.kind == intake.StatusFinished {
				d = end.game
			} else {
				d.g.Status = end.kind
			}
		}
	}
	if _, marked := m.unrated[d.g.ID]; d.g.Status == intake.StatusFinished && !marked {
		d.g.Status = intake.StatusRated
	}
	return d, true
}

// Game implements intake.Store.
func (m *Memory) Game(ctx context.Context, id string) (intake.StoredGame, error) {
	if err := m.enter(ctx, "Game"); err != nil {
		return intake.StoredGame{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.assembled(id)
	if !ok {
		return intake.StoredGame{}, fmt.Errorf("game %s: %w", id, intake.ErrNotFound)
	}
	return d.game()
}

// BySource implements intake.Store: by the source_id the game was created
// with.
func (m *Memory) BySource(ctx context.Context, sourceID string) (intake.StoredGame, error) {
	if err := m.enter(ctx, "BySource"); err != nil {
		return intake.StoredGame{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	id, ok := m.bySource[sourceID]
	if !ok {
		return intake.StoredGame{}, fmt.Errorf("source_id %s: %w", sourceID, intake.ErrNotFound)
	}
	d, _ := m.assembled(id)
	return d.game()
}

// Finish implements intake.Store: the finished game f becomes the game
// whole, once.
func (m *Memory) Finish(ctx context.Context, f intake.StoredGame) error {
	if err := m.enter(ctx, "Finish"); err != nil {
		return err
	}
	d, err := toMem(f)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.assembled(f.ID)
	if !ok {
		return fmt.Errorf("game %s: %w", f.ID, intake.ErrNotFound)
	}
	if g.g.Status != intake.StatusPending {
		return fmt.Errorf("game %s is %s: %w", f.ID, g.g.Status, intake.ErrNotPending)
	}
	m.markUnrated(d.g)
	m.ends[f.ID] = memEnd{kind: intake.StatusFinished, game: d}
	delete(m.pending, f.ID)
	return nil
}

// MarkRated implements intake.Store. Like gamedb it reads nothing: a game
// marked before it finished is rated once it does.
func (m *Memory) MarkRated(ctx context.Context, id string) error {
	if err := m.enter(ctx, "MarkRated"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.unrated, id)
	return nil
}

// Finished implements intake.Store: oldest finish first, then by id.
func (m *Memory) Finished(ctx context.Context, limit int) ([]intake.StoredGame, error) {
	if err := m.enter(ctx, "Finished"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]string, 0, len(m.unrated))
	for id := range m.unrated {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Or(m.unrated[a].Compare(m.unrated[b]), cmp.Compare(a, b)) })
	out := make([]intake.StoredGame, 0, max(limit, 0))
	for _, id := range ids {
		if len(out) == limit {
			break
		}
		d, ok := m.assembled(id)
		switch {
		case !ok || d.g.Status == intake.StatusPending:
			continue
		case d.g.Status != intake.StatusFinished:
			delete(m.unrated, id)
			continue
		}
		g, err := d.game()
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// ExpirePending implements intake.Store: each pending game whose expiry is
// at or before now ends expired, unless a result ended it first.
func (m *Memory) ExpirePending(ctx context.Context, now time.Time) (int, error) {
	if err := m.enter(ctx, "ExpirePending"); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, mark := range m.pending {
		if mark.expires.After(now) {
			continue
		}
		if _, ended := m.ends[id]; !ended {
			m.ends[id] = memEnd{kind: intake.StatusExpired}
			n++
		}
		delete(m.pending, id)
	}
	return n, nil
}

// Unfinished implements intake.Store: the player's pending games that
// have not ended, by id.
func (m *Memory) Unfinished(ctx context.Context, player string) ([]string, error) {
	if err := m.enter(ctx, "Unfinished"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []string
	for id, mark := range m.pending {
		if mark.black == player || mark.white == player {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// MemoryPresence is a intake.Presence in memory that answers as
// gamedb.Presence does: the first check-in of a player for a game stays.
// It is safe for concurrent use, and passes RunPresence.
type MemoryPresence struct {
	// Fail is as Memory's ("CheckIn", "Present").
	Fail func(method string) error

	mu      sync.Mutex
	present map[string]map[string]time.Time // game → player → first check-in
}

var _ intake.Presence = (*MemoryPresence)(nil)

// NewMemoryPresence returns an empty MemoryPresence.
func NewMemoryPresence() *MemoryPresence {
	return &MemoryPresence{present: map[string]map[string]time.Time{}}
}

// CheckIn implements intake.Presence.
func (p *MemoryPresence) CheckIn(ctx context.Context, gameID, player string, at time.Time) error {
	if err := enter(ctx, p.Fail, "CheckIn"); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	in := p.present[gameID]
	if in == nil {
		in = map[string]time.Time{}
		p.present[gameID] = in
	}
	if _, ok := in[player]; !ok {
		in[player] = memTime(at)
	}
	return nil
}

// Present implements intake.Presence: sorted, empty (not nil) when nobody
// checked in.
func (p *MemoryPresence) Present(ctx context.Context, gameID string) ([]string, error) {
	if err := enter(ctx, p.Fail, "Present"); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.present[gameID]))
	for player := range p.present[gameID] {
		out = append(out, player)
	}
	sort.Strings(out)
	return out, nil
}

// Flag implements intake.Store: the first mark stays.
func (m *Memory) Flag(ctx context.Context, id, flag string, at time.Time) error {
	if err := m.enter(ctx, "Flag"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := flag + "#" + id
	if _, ok := m.flagged[k]; !ok {
		m.flagged[k] = memFlag{flag: flag, game: id, at: memTime(at)}
	}
	return nil
}

// Flagged implements intake.Store.
func (m *Memory) Flagged(ctx context.Context, flag string, after *intake.FlagCursor, limit int) ([]intake.FlaggedGame, error) {
	if err := m.enter(ctx, "Flagged"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var marks []memFlag
	for _, f := range m.flagged {
		if f.flag != flag {
			continue
		}
		if after != nil && (f.at.After(after.At) || f.at.Equal(after.At) && f.game <= after.ID) {
			continue
		}
		marks = append(marks, f)
	}
	sort.Slice(marks, func(i, j int) bool {
		if !marks[i].at.Equal(marks[j].at) {
			return marks[i].at.After(marks[j].at)
		}
		return marks[i].game < marks[j].game
	})
	if limit > 0 && len(marks) > limit {
		marks = marks[:limit]
	}
	out := make([]intake.FlaggedGame, 0, len(marks))
	for _, f := range marks {
		d, ok := m.assembled(f.game)
		if !ok {
			return nil, fmt.Errorf("flagged game %s: %w", f.game, intake.ErrNotFound)
		}
		g, err := d.game()
		if err != nil {
			return nil, err
		}
		out = append(out, intake.FlaggedGame{Game: g, Flag: f.flag, At: f.at})
	}
	return out, nil
}

// PlayerGames implements intake.Store.
func (m *Memory) PlayerGames(ctx context.Context, q intake.GamesQuery) ([]intake.StoredGame, error) {
	if err := m.enter(ctx, "PlayerGames"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []intake.StoredGame
	for id, c := range m.games {
		g := c.g
		if g.Black != q.Player && g.White != q.Player {
			continue
		}
		if q.Opponent != "" && (g.Black != q.Player || g.White != q.Opponent) && (g.White != q.Player || g.Black != q.Opponent) {
			continue
		}
		if q.After != nil && !q.After.Before(g) {
			continue
		}
		d, _ := m.assembled(id)
		if len(q.States) > 0 && !slices.Contains(q.States, d.g.Status) {
			continue
		}
		full, err := d.game()
		if err != nil {
			return nil, err
		}
		full.CreatedAt = g.CreatedAt // as created: the order's key
		out = append(out, full)
	}
	slices.SortFunc(out, func(a, b intake.StoredGame) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(b.ID, a.ID))
	})
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// Abort implements intake.Store.
func (m *Memory) Abort(ctx context.Context, id, by string, at time.Time) error {
	if err := m.enter(ctx, "Abort"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.assembled(id)
	if !ok {
		return fmt.Errorf("game %s: %w", id, intake.ErrNotFound)
	}
	if g.g.Status != intake.StatusPending {
		return fmt.Errorf("game %s is %s: %w", id, g.g.Status, intake.ErrNotPending)
	}
	m.ends[id] = memEnd{kind: intake.StatusAborted, by: by, at: memTime(at)}
	delete(m.pending, id)
	return nil
}

// Aborts implements intake.Store.
func (m *Memory) Aborts(ctx context.Context, since time.Time) ([]intake.Abort, error) {
	if err := m.enter(ctx, "Aborts"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []intake.Abort
	for id, e := range m.ends {
		if e.kind != intake.StatusAborted || e.at.Before(since) {
			continue
		}
		g := m.games[id].g
		out = append(out, intake.Abort{GameID: id, By: e.by, Black: g.Black, White: g.White, At: e.at})
	}
	slices.SortFunc(out, func(a, b intake.Abort) int { return cmp.Or(b.At.Compare(a.At), cmp.Compare(a.GameID, b.GameID)) })
	return out, nil
}
