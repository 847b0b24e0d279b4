package ratingtest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/weiqi-platform/rank/rating"
)

var _ rating.BulkStore = (*Memory)(nil)

// CreateOps implements rating.BulkStore.
func (m *Memory) CreateOps(ctx context.Context, ops []rating.Operation) ([]bool, error) {
	if err := m.enter(ctx, "CreateOps"); err != nil {
		return nil, err
	}
	for _, op := range ops {
		if _, err := op.Game.Outcome.MarshalText(); err != nil {
			return nil, err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]bool, len(ops))
	for i, op := range ops {
		if _, ok := m.ops[op.ID]; ok {
			continue
		}
		m.ops[op.ID] = storedOp(op)
		out[i] = true
	}
	return out, nil
}

// HoldAll implements rating.BulkStore.
func (m *Memory) HoldAll(ctx context.Context, hs []rating.HoldRequest) ([]error, error) {
	if err := m.enter(ctx, "HoldAll"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]error, len(hs))
	for i, h := range hs {
		k := memKey(h.Username, h.Version)
		by, ok := m.holds[k]
		switch {
		case !ok:
			m.holds[k] = h.Op
		case by != h.Op:
			out[i] = &rating.HeldError{Username: h.Username, By: by}
		}
	}
	return out, nil
}

// SetPlans implements rating.BulkStore.
func (m *Memory) SetPlans(ctx context.Context, ids []string, plans []rating.Plan) ([]rating.Plan, error) {
	if err := m.enter(ctx, "SetPlans"); err != nil {
		return nil, err
	}
	if len(ids) != len(plans) {
		return nil, fmt.Errorf("ratingtest: SetPlans: %d ids, %d plans", len(ids), len(plans))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]rating.Plan, len(ids))
	for i, id := range ids {
		stored, ok := m.plans[id]
		if !ok {
			b, err := json.Marshal(plans[i])
			if err != nil {
				return nil, err
			}
			m.plans[id] = b
			out[i] = plans[i]
			continue
		}
		if err := json.Unmarshal(stored, &out[i]); err != nil {
			return nil, fmt.Errorf("ratingtest: operation %s: stored plan: %w", id, err)
		}
	}
	return out, nil
}

// CommitStates implements rating.BulkStore: as CommitAll.
func (m *Memory) CommitStates(ctx context.Context, sts []rating.PlayerState) error {
	return m.commitAll(ctx, "CommitStates", sts, true)
}

// CommitVersions implements rating.BulkStore: as CommitStates, the hints
// left as they are.
func (m *Memory) CommitVersions(ctx context.Context, sts []rating.PlayerState) error {
	return m.commitAll(ctx, "CommitVersions", sts, false)
}

// ReprojectAll implements rating.BulkStore: each hint set to the state
// given.
func (m *Memory) ReprojectAll(ctx context.Context, sts []rating.PlayerState) error {
	if err := m.enter(ctx, "ReprojectAll"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, st := range sts {
		m.latest[st.Username] = storedState(st)
	}
	return nil
}

// AppendAll implements rating.BulkStore: as AppendEntries.
func (m *Memory) AppendAll(ctx context.Context, es []rating.LedgerEntry) error {
	return m.appendAll(ctx, "AppendAll", es)
}

// FinishOps implements rating.BulkStore.
func (m *Memory) FinishOps(ctx context.Context, ids []string) error {
	if err := m.enter(ctx, "FinishOps"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		if _, ok := m.done[id]; !ok {
			m.done[id] = ""
		}
	}
	return nil
}
