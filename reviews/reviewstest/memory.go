package reviewstest

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/weiqi-platform/rank/reviews"
)

// Memory is a reviews.Store in memory that answers as reviewsdb does: an
// item is added once under its id (the first stays), a resolution once
// (the first stays), items are listed newest found first, then by id.
// Flags are kept as their JSON, as reviewsdb keeps them, so a caller's
// later edits never reach the store.
type Memory struct {
	mu          sync.Mutex
	items       map[string]memItem
	resolutions map[string]reviews.Resolution
}

type memItem struct {
	it   reviews.Item
	flag []byte
}

// NewMemory returns an empty store.
func NewMemory() *Memory {
	return &Memory{items: map[string]memItem{}, resolutions: map[string]reviews.Resolution{}}
}

var _ reviews.Store = (*Memory)(nil)

// Add implements reviews.Store.
func (m *Memory) Add(ctx context.Context, items []reviews.Item) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var added []string
	for _, it := range items {
		if _, ok := m.items[it.ID]; ok {
			continue
		}
		b, err := json.Marshal(it.Flag)
		if err != nil {
			return added, err
		}
		it.Found = it.Found.UTC().Truncate(1e6)
		it.Resolution = nil
		m.items[it.ID] = memItem{it: it, flag: b}
		added = append(added, it.ID)
	}
	return added, nil
}

func (m *Memory) item(id string) (reviews.Item, bool) {
	mi, ok := m.items[id]
	if !ok {
		return reviews.Item{}, false
	}
	it := mi.it
	_ = json.Unmarshal(mi.flag, &it.Flag)
	if r, ok := m.resolutions[id]; ok {
		it.Resolution = &r
	}
	return it, true
}

// Get implements reviews.Store.
func (m *Memory) Get(ctx context.Context, id string) (reviews.Item, error) {
	if err := ctx.Err(); err != nil {
		return reviews.Item{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, ok := m.item(id)
	if !ok {
		return reviews.Item{}, fmt.Errorf("flag %s: %w", id, reviews.ErrNotFound)
	}
	return it, nil
}

// List implements reviews.Store.
func (m *Memory) List(ctx context.Context, q reviews.Query) ([]reviews.Item, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var all []reviews.Item
	for id := range m.items {
		it, _ := m.item(id)
		switch {
		case q.Status != "" && it.Status() != q.Status,
			q.Kind != "" && it.Flag.Kind != q.Kind,
			q.Player != "" && it.Flag.Player != q.Player:
			continue
		case q.After != nil && (it.Found.After(q.After.Found) || it.Found.Equal(q.After.Found) && it.ID <= q.After.ID):
			continue
		}
		all = append(all, it)
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].Found.Equal(all[j].Found) {
			return all[i].Found.After(all[j].Found)
		}
		return all[i].ID < all[j].ID
	})
	if q.Limit > 0 && len(all) > q.Limit {
		all = all[:q.Limit]
	}
	return all, nil
}

// Resolve implements reviews.Store.
func (m *Memory) Resolve(ctx context.Context, id string, r reviews.Resolution) (reviews.Resolution, error) {
	if err := ctx.Err(); err != nil {
		return reviews.Resolution{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.items[id]; !ok {
		return reviews.Resolution{}, fmt.Errorf("flag %s: %w", id, reviews.ErrNotFound)
	}
	if stored, ok := m.resolutions[id]; ok {
		return stored, nil
	}
	r.At = r.At.UTC().Truncate(1e6)
	m.resolutions[id] = r
	return r, nil
}
