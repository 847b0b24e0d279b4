package gamedb

import (
	"slices"
	"sync"
)

// markIndex is the pending marks by player, kept by a sole writer. A nil
// index does nothing.
type markIndex struct {
	mu sync.Mutex
	// by counts, per player, the adds of each game id not yet removed: a
	// mark added twice (a retried create) and removed once stays until
	// the second removal, so that no interleaving of a retry and an end
	// drops a stored mark.
	by map[string]map[string]int
	// players of each game id, to remove it by id.
	games map[string][2]string
}

func (x *markIndex) add(m pendingDoc) {
	if x == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.games == nil {
		x.games = map[string][2]string{}
	}
	x.games[m.ID] = [2]string{m.Black, m.White}
	for _, p := range [2]string{m.Black, m.White} {
		if x.by[p] == nil {
			x.by[p] = map[string]int{}
		}
		x.by[p][m.ID]++
	}
}

func (x *markIndex) remove(id string) {
	if x == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	players, ok := x.games[id]
	if !ok {
		return
	}
	gone := false
	for _, p := range players {
		if x.by[p][id]--; x.by[p][id] <= 0 {
			delete(x.by[p], id)
			gone = true
		}
		if len(x.by[p]) == 0 {
			delete(x.by, p)
		}
	}
	if gone {
		delete(x.games, id)
	}
}

// of returns the player's marks, ordered by game id.
func (x *markIndex) of(player string) []pendingDoc {
	x.mu.Lock()
	defer x.mu.Unlock()
	ids := make([]string, 0, len(x.by[player]))
	for id := range x.by[player] {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]pendingDoc, len(ids))
	for i, id := range ids {
		p := x.games[id]
		out[i] = pendingDoc{ID: id, Black: p[0], White: p[1]}
	}
	return out
}
