package examtest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/ranks"
)

// The in-memory stand-ins below are for the ports other packages own
// (games, the ladder, the ledger), for tests of the exam service alone;
// the real ones are internal/examports, tested on the real stores. Each keeps the
// port's contract (idempotent by id or key) and records what it was
// asked, so tests can assert exactly-once.

// Games fakes ranks.ExamGames.
type Games struct {
	mu       sync.Mutex
	created  map[string]ranks.ExamGame
	calls    map[string]int
	outcomes map[string]ranks.GameOutcome
	// FailCreate, when set, fails CreatePending for that game id once.
	FailCreate string
	// FailOutcome, when set, fails Outcome for that game id once.
	FailOutcome string
}

func NewGames() *Games {
	return &Games{created: map[string]ranks.ExamGame{}, calls: map[string]int{}, outcomes: map[string]ranks.GameOutcome{}}
}

// CreatePending implements ranks.ExamGames.
func (g *Games) CreatePending(_ context.Context, game ranks.ExamGame) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls[game.ID]++
	if g.FailCreate == game.ID {
		g.FailCreate = ""
		return fmt.Errorf("games store down creating %s", game.ID)
	}
	if _, ok := g.created[game.ID]; !ok {
		g.created[game.ID] = game
	}
	return nil
}

// Outcome implements ranks.ExamGames: an unreported game is unfinished
// and nobody showed up.
func (g *Games) Outcome(_ context.Context, id string) (ranks.GameOutcome, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.FailOutcome == id {
		g.FailOutcome = ""
		return ranks.GameOutcome{}, fmt.Errorf("games store down reading %s", id)
	}
	if _, ok := g.created[id]; !ok {
		return ranks.GameOutcome{}, fmt.Errorf("game %s: %w", id, ranks.ErrNotFound)
	}
	return g.outcomes[id], nil
}

// Report sets a game's outcome, as the games intake would.
func (g *Games) Report(id string, o ranks.GameOutcome) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.outcomes[id] = o
}

// Calls returns how often CreatePending was called for id.
func (g *Games) Calls(id string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.calls[id]
}

// Created returns the created games by id order.
func (g *Games) Created() []ranks.ExamGame {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]ranks.ExamGame, 0, len(g.created))
	for _, x := range g.created {
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b ranks.ExamGame) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Players fakes ranks.ExamPlayers.
type Players struct {
	mu        sync.Mutex
	Score     map[string]int
	Certified map[string]ranks.Rank
}

func NewPlayers() *Players {
	return &Players{Score: map[string]int{}, Certified: map[string]ranks.Rank{}}
}

// Set gives a player a ladder score.
func (p *Players) Set(player string, score int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Score[player] = score
}

// LadderScore implements ranks.ExamPlayers.
func (p *Players) LadderScore(_ context.Context, player string) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.Score[player]
	if !ok {
		return 0, fmt.Errorf("%w: %s", ranks.ErrUnknownPlayer, player)
	}
	return s, nil
}

// CertifiedRank implements ranks.ExamPlayers.
func (p *Players) CertifiedRank(_ context.Context, player string) (ranks.Rank, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.Score[player]; !ok {
		return ranks.Rank{}, fmt.Errorf("%w: %s", ranks.ErrUnknownPlayer, player)
	}
	return p.Certified[player], nil
}

// Certifier fakes ranks.Certifier as a ledger would: one entry per key.
type Certifier struct {
	mu      sync.Mutex
	Entries []ranks.CertifiedChange // applied, in order
	Calls   map[string]int
	// FailFor, when set, fails the next call for that player once.
	FailFor string
	Players *Players // when set, the certified rank is written there too
}

func NewCertifier(p *Players) *Certifier { return &Certifier{Calls: map[string]int{}, Players: p} }

// SetCertified implements ranks.Certifier.
func (c *Certifier) SetCertified(_ context.Context, ch ranks.CertifiedChange) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Calls[ch.Key]++
	if c.FailFor == ch.Player {
		c.FailFor = ""
		return fmt.Errorf("ledger down certifying %s", ch.Player)
	}
	for _, e := range c.Entries {
		if e.Key == ch.Key {
			return nil
		}
	}
	c.Entries = append(c.Entries, ch)
	if c.Players != nil {
		c.Players.mu.Lock()
		c.Players.Certified[ch.Player] = ch.Rank
		c.Players.mu.Unlock()
	}
	return nil
}

// Applied returns the applied entries.
func (c *Certifier) Applied() []ranks.CertifiedChange {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.Entries)
}

// Clock is a settable clock.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

func NewClock(t time.Time) *Clock { return &Clock{t: t} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
