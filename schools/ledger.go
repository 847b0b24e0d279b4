package schools

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/rating"
)

// Reading students' ledgers, decided. Ledger entries never change once
// written (the ledger is append-only and hash-chained), so the entries a
// table or a series read are kept in memory and only the entries written
// since are read again: a class table costs one store read per student
// (their latest state) once its entries are known. On the embedded store
// a read by _id is the only one that does not scan its collection, so the
// entries are read by _id from the head down (rating.Service.History),
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
	// states are read in one query (rating.Service.LatestOf) rather than
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
	players map[string][]rating.LedgerEntry
}

func newLedgerCache(max int) ledgerCache {
	return ledgerCache{max: max, players: map[string][]rating.LedgerEntry{}}
}

func (c *ledgerCache) get(name string) []rating.LedgerEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.players[name]
}

func (c *ledgerCache) put(name string, es []rating.LedgerEntry) {
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

// history is a student's latest state and their ledger entries, oldest
// first, up to the state's head: every entry from the last one before
// since (or their first) on.
type history struct {
	State   rating.PlayerState
	Entries []rating.LedgerEntry
}

// scoreBefore is the score before the entries (the latest score when
// there are none).
func (h history) scoreBefore() int {
	if len(h.Entries) == 0 {
		return h.State.Score
	}
	return h.Entries[0].ScoreBefore
}

// fetch reads up to n of the player's entries below sequence number
// before, oldest first.
func (s *Service) fetch(ctx context.Context, name string, before int64, n int) ([]rating.LedgerEntry, error) {
	es, err := s.ratings.History(ctx, name, before, n)
	if err != nil {
		return nil, err
	}
	slices.Reverse(es)
	return es, nil
}

// historyOf reads a player's state and entries back to the last entry
// before since; with lastGame, back to their last game too.
func (s *Service) historyOf(ctx context.Context, name string, since time.Time, lastGame bool) (history, error) {
	st, err := s.ratings.Latest(ctx, name)
	if err != nil {
		return history{}, err
	}
	return s.historyFrom(ctx, st, since, lastGame)
}

// historyFrom is historyOf from a state already read.
func (s *Service) historyFrom(ctx context.Context, st rating.PlayerState, since time.Time, lastGame bool) (history, error) {
	name := st.Username
	if st.Seq == 0 {
		return history{State: st}, nil
	}
	var err error
	es := s.ledger.get(name)
	switch {
	case len(es) > 0 && es[0].Seq > st.Seq:
		// A run above the state (only a state read behind a newer one's
		// run): read the head again.
		if es, err = s.fetch(ctx, name, st.Seq+1, firstChunk); err != nil {
			return history{}, err
		}
	case len(es) > 0 && es[len(es)-1].Seq >= st.Seq:
		// Known up to the head (or past it, when the recorded state is
		// behind): shown as of the state.
		i, _ := slices.BinarySearchFunc(es, st.Seq, func(e rating.LedgerEntry, seq int64) int { return cmp.Compare(e.Seq, seq) })
		es = es[:i+1]
	case len(es) > 0:
		top := es[len(es)-1]
		newer, err := s.fetch(ctx, name, st.Seq+1, int(st.Seq-top.Seq))
		if err != nil {
			return history{}, err
		}
		if len(newer) > 0 && newer[0].Seq == top.Seq+1 && newer[0].Prev == top.Hash {
			es = slices.Concat(es, newer)
		} else {
			es = newer // does not chain on: read the run again
		}
	default:
		if es, err = s.fetch(ctx, name, st.Seq+1, firstChunk); err != nil {
			return history{}, err
		}
	}
	chunk := firstChunk
	for len(es) > 0 && es[0].Seq > 1 && (!es[0].At.Before(since) || lastGame && !hasGame(es)) {
		chunk = min(2*chunk, maxChunk)
		older, err := s.fetch(ctx, name, es[0].Seq, chunk)
		if err != nil {
			return history{}, err
		}
		if len(older) == 0 {
			break
		}
		es = slices.Concat(older, es)
	}
	s.ledger.put(name, es)
	return history{State: st, Entries: es}, nil
}

func hasGame(es []rating.LedgerEntry) bool {
	return slices.ContainsFunc(es, func(e rating.LedgerEntry) bool { return e.Cause == rating.CauseGame })
}

// histories reads the players' histories, loadWorkers at a time, in the
// order of names.
func (s *Service) histories(ctx context.Context, names []string, since time.Time, lastGame bool) ([]history, error) {
	out := make([]history, len(names))
	errs := make([]error, len(names))
	var states []rating.PlayerState
	if len(names) >= bulkStates {
		var err error
		if states, err = s.ratings.LatestOf(ctx, names); err != nil {
			return nil, err
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(loadWorkers, len(names)) {
		wg.Go(func() {
			for i := range next {
				if states != nil {
					out[i], errs[i] = s.historyFrom(ctx, states[i], since, lastGame)
				} else {
					out[i], errs[i] = s.historyOf(ctx, names[i], since, lastGame)
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
