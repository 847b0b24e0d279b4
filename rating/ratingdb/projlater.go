package ratingdb

import (
	"context"
	"sync"
	"time"
)

// projLater holds, with DeferProjections, the projections of games
// written whole (ApplyOp) until they are written together: the latest
// version of each player only, in one bulk write for all of them
// (FerretDB v1 gives each replace a read and a transaction of its own,
// about 1 ms of CPU: half of a game's on the embedded store). Until then
// this Store answers for them from here (or from a sole writer's
// memory); other processes read the projection before, a hint that the
// latest state's readers probe past (Player). A crash loses them, and
// intake's unrated marks bring them back: a rated game's mark is deleted
// only after FlushProjections (gamedb.BeforeRatedDelete), so the games
// whose projections were lost are still marked, and their recovery reads
// each player's latest state (Player), which writes the projection.
type projLater struct {
	mu      sync.Mutex
	pending map[string]stateDoc
	timer   *time.Timer
	linger  time.Duration
	// flushing is held by a flush from its snapshot to its answer, so that
	// a later flush never lands before an earlier one.
	flushing sync.Mutex
}

// keep holds ds for the next flush (a later version of a player wins)
// and arms the flush within the linger.
func (l *projLater) keep(ds []stateDoc, flush func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range ds {
		if old, ok := l.pending[d.Username]; !ok || old.Version < d.Version {
			l.pending[d.Username] = d
		}
	}
	if l.timer == nil {
		l.timer = time.AfterFunc(l.linger, flush)
	}
}

// get is the player's projection held for the next flush.
func (l *projLater) get(name string) (stateDoc, bool) {
	if l == nil {
		return stateDoc{}, false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	d, ok := l.pending[name]
	return d, ok
}

// take is what the next flush writes. It stays held, and read from
// here, until written (written).
func (l *projLater) take() []stateDoc {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	out := make([]stateDoc, 0, len(l.pending))
	for _, d := range l.pending {
		out = append(out, d)
	}
	return out
}

// again arms the next flush for what a failed one left held.
func (l *projLater) again(flush func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.timer == nil && len(l.pending) > 0 {
		l.timer = time.AfterFunc(l.linger, flush)
	}
}

// written drops what ds (written now) supersedes.
func (l *projLater) written(ds []stateDoc) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range ds {
		if old, ok := l.pending[d.Username]; ok && old.Version <= d.Version {
			delete(l.pending, d.Username)
		}
	}
}

// newer is d, or the projection held for d's player when it is later.
func (l *projLater) newer(d stateDoc) stateDoc {
	if p, ok := l.get(d.Username); ok && p.Version > d.Version {
		return p
	}
	return d
}

// FlushProjections writes the projections held back (DeferProjections)
// and returns when they are written; a failure leaves them held for the
// next flush. Without DeferProjections it does nothing.
func (s *Store) FlushProjections(ctx context.Context) error {
	l := s.later
	if l == nil {
		return nil
	}
	l.flushing.Lock()
	defer l.flushing.Unlock()
	ds := l.take()
	if len(ds) == 0 {
		return nil
	}
	if err := s.writeProjections(ctx, ds); err != nil {
		l.again(s.flushLater)
		return err
	}
	l.written(ds)
	s.cache.wrote(ds, nil) // kept already; a later version stays
	return nil
}

// flushLater is the linger's flush, on no caller's context.
func (s *Store) flushLater() {
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	_ = s.FlushProjections(ctx) // held again on failure, retried within the linger
}

// flushTimeout bounds one flush of the projections held back.
const flushTimeout = 30 * time.Second
