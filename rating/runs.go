package rating

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"
)

// Reading students' ledgers, decided. Ledger entries never change once
// written (the ledger is append-only and hash-chained), so the entries a
// table or a series read are kept in memory and only the entries written
// since are read again: a class table costs one store read per student
// (their latest state) once its entries are known. On the embedded store
// a read by _id is the only one that does not scan its collection, so the
// entries are read by _id from the head down (Service.History),
// never by a query on time.
const (
	// DefaultCachedEntries bounds the entries kept (about 250 bytes
	// each): a 5,000-student school's last few months. Whole players are
	// dropped, at random, when it is full.
	DefaultCachedEntries = 200_000
	// firstChunk is how many entries a player's first read asks for;
	// each read further back asks for twice as many as the one before,
	// up to maxChunk: a month of a child's games is a few entries, a
	// school year a few dozen, so few entries are read that are not
	// needed, in few reads (each read of the ledger costs two reads of
	// the player's state too).
	firstChunk = 4
	maxChunk   = 64
	// loadWorkers bounds the students read at once for one table.
	loadWorkers = 8
	// bulkStates: from this many students on (a school's table), their
	// states are read in one query (Service.LatestOf) rather than
	// one read each: on FerretDB v1 that query scans the players, about
	// a quarter of the cost per player of a read by _id (measured), so
	// it pays once a table holds a fair share of the platform's players.
	bulkStates = 1000
)

// ledgerCache keeps, per player, a run of their ledger entries with
// consecutive sequence numbers, oldest first.
type ledgerCache struct {
	mu      sync.Mutex
	max     int
	size    int
	players map[string][]LedgerEntry
}

func newLedgerCache(max int) ledgerCache {
	return ledgerCache{max: max, players: map[string][]LedgerEntry{}}
}

func (c *ledgerCache) get(name string) []LedgerEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.players[name]
}

func (c *ledgerCache) put(name string, es []LedgerEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.size += len(es) - len(c.players[name])
	c.players[name] = es
	for other, xs := range c.players {
		if c.size <= c.max {
			break
		}
		if other != name {
			c.size -= len(xs)
			delete(c.players, other)
		}
	}
}

// Run is a player's latest state and their ledger entries, oldest
// first, up to the state's head: every entry from the last one before
// since (or their first) on.
type Run struct {
	State   PlayerState
	Entries []LedgerEntry
}

// ScoreBefore is the score before the entries (the latest score when
// there are none).
func (h Run) ScoreBefore() int {
	if len(h.Entries) == 0 {
		return h.State.Score
	}
	return h.Entries[0].ScoreBefore
}

// ScoreAt is the score at instant at: after the last entry before it.
func (h Run) ScoreAt(at time.Time) int {
	score := h.ScoreBefore()
	for _, e := range h.Entries {
		if !e.At.Before(at) {
			break
		}
		score = e.ScoreAfter
	}
	return score
}

// glickoBefore is the Glicko-2 rating before the entries: the first
// entry's predecessor is not in the run, so a run that starts at the
// ledger's first entry starts from NewGlicko, and any other from its
// first entry's (the last one before the range the run was read for).
func (h Run) glickoBefore() Glicko {
	switch {
	case len(h.Entries) == 0:
		return h.State.Glicko
	case h.Entries[0].Seq == 1:
		return NewGlicko()
	}
	return h.Entries[0].Glicko
}

// fetch reads up to n of the player's entries below sequence number
// before, oldest first.
func (s *Service) fetchRun(ctx context.Context, name string, before int64, n int) ([]LedgerEntry, error) {
	es, err := s.History(ctx, name, before, n)
	if err != nil {
		return nil, err
	}
	slices.Reverse(es)
	return es, nil
}

// RunOf reads a player's state and entries back to the last entry
// before since; with lastGame, back to their last game too.
func (s *Service) RunOf(ctx context.Context, name string, since time.Time, lastGame bool) (Run, error) {
	st, err := s.Latest(ctx, name)
	if err != nil {
		return Run{}, err
	}
	return s.RunFrom(ctx, st, since, lastGame)
}

// RunFrom is RunOf from a state already read.
func (s *Service) RunFrom(ctx context.Context, st PlayerState, since time.Time, lastGame bool) (Run, error) {
	name := st.Username
	if st.Seq == 0 {
		return Run{State: st}, nil
	}
	var err error
	es := s.runs.get(name)
	switch {
	case len(es) > 0 && es[0].Seq > st.Seq:
		// A run above the state (only a state read behind a newer one's
		// run): read the head again.
		if es, err = s.fetchRun(ctx, name, st.Seq+1, firstChunk); err != nil {
			return Run{}, err
		}
	case len(es) > 0 && es[len(es)-1].Seq >= st.Seq:
		// Known up to the head (or past it, when the recorded state is
		// behind): shown as of the state.
		i, _ := slices.BinarySearchFunc(es, st.Seq, func(e LedgerEntry, seq int64) int { return cmp.Compare(e.Seq, seq) })
		es = es[:i+1]
	case len(es) > 0:
		top := es[len(es)-1]
		newer, err := s.fetchRun(ctx, name, st.Seq+1, int(st.Seq-top.Seq))
		if err != nil {
			return Run{}, err
		}
		if len(newer) > 0 && newer[0].Seq == top.Seq+1 && newer[0].Prev == top.Hash {
			es = slices.Concat(es, newer)
		} else {
			es = newer // does not chain on: read the run again
		}
	default:
		if es, err = s.fetchRun(ctx, name, st.Seq+1, firstChunk); err != nil {
			return Run{}, err
		}
	}
	chunk := firstChunk
	for len(es) > 0 && es[0].Seq > 1 && (!es[0].At.Before(since) || lastGame && !hasGame(es)) {
		chunk = min(2*chunk, maxChunk)
		older, err := s.fetchRun(ctx, name, es[0].Seq, chunk)
		if err != nil {
			return Run{}, err
		}
		if len(older) == 0 {
			break
		}
		es = slices.Concat(older, es)
	}
	s.runs.put(name, es)
	return Run{State: st, Entries: es}, nil
}

func hasGame(es []LedgerEntry) bool {
	return slices.ContainsFunc(es, func(e LedgerEntry) bool { return e.Cause == CauseGame })
}

// Runs reads the players' runs (RunOf), loadWorkers at a time, in the
// order of names.
func (s *Service) Runs(ctx context.Context, names []string, since time.Time, lastGame bool) ([]Run, error) {
	out := make([]Run, len(names))
	errs := make([]error, len(names))
	var states []PlayerState
	if len(names) >= bulkStates {
		var err error
		if states, err = s.LatestOf(ctx, names); err != nil {
			return nil, err
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(loadWorkers, len(names)) {
		wg.Go(func() {
			for i := range next {
				if states != nil {
					out[i], errs[i] = s.RunFrom(ctx, states[i], since, lastGame)
				} else {
					out[i], errs[i] = s.RunOf(ctx, names[i], since, lastGame)
				}
			}
		})
	}
	for i := range names {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
