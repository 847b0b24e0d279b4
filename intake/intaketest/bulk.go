package intaketest

import (
	"context"
	"fmt"

	"github.com/weiqi-platform/rank/intake"
)

var _ intake.BulkStore = (*Memory)(nil)

// CreateAll implements intake.BulkStore.
func (m *Memory) CreateAll(ctx context.Context, gs []intake.StoredGame) ([]error, error) {
	if err := m.enter(ctx, "CreateAll"); err != nil {
		return nil, err
	}
	docs := make([]memGame, len(gs))
	for i, g := range gs {
		d, err := toMem(g)
		if err != nil {
			return nil, err
		}
		docs[i] = d
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]error, len(gs))
	for i, g := range gs {
		_, idTaken := m.games[g.ID]
		_, sourceTaken := m.bySource[g.SourceID]
		if idTaken || sourceTaken {
			out[i] = fmt.Errorf("%w: %q", intake.ErrSourceTaken, g.SourceID)
			continue
		}
		d := docs[i]
		m.games[g.ID], m.bySource[g.SourceID] = d, g.ID
		switch g.Status {
		case intake.StatusFinished:
			m.markUnrated(d.g)
		case intake.StatusPending:
			m.pending[g.ID] = memMark{black: g.Black, white: g.White, expires: d.g.ExpiresAt}
		}
	}
	return out, nil
}

// MarkAllRated implements intake.BulkStore.
func (m *Memory) MarkAllRated(ctx context.Context, ids []string) error {
	if err := m.enter(ctx, "MarkAllRated"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		delete(m.unrated, id)
	}
	return nil
}
