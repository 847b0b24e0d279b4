package schools

import (
	"context"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/exams"
)

// ExamsFresh is how long a student's exam registrations and grades, once
// read, are shown without reading them again (decided: a table shows a
// registration or a grade at most this late; on the embedded store
// reading them is a scan of the exam collections, which a table read
// every few seconds must not pay each time).
const ExamsFresh = 30 * time.Second

// examsMax bounds the players whose exams are kept; all are dropped when
// it is full.
const examsMax = 100_000

type examsOf struct {
	regs    []exams.Registration
	results []exams.Result
	at      time.Time
}

type examCache struct {
	mu      sync.Mutex
	players map[string]examsOf
}

// examsFor returns the players' registrations and results, reading
// those not read within ExamsFresh in one query.
func (s *Service) examsFor(ctx context.Context, names []string) ([]exams.Registration, []exams.Result, error) {
	now := s.clock.Now()
	s.examCache.mu.Lock()
	if s.examCache.players == nil {
		s.examCache.players = map[string]examsOf{}
	}
	var stale []string
	for _, n := range names {
		if e, ok := s.examCache.players[n]; !ok || now.Sub(e.at) >= ExamsFresh || now.Before(e.at) {
			stale = append(stale, n)
		}
	}
	s.examCache.mu.Unlock()
	if len(stale) > 0 {
		regs, results, err := s.exams.OfPlayers(ctx, stale)
		if err != nil {
			return nil, nil, err
		}
		fresh := make(map[string]examsOf, len(stale))
		for _, n := range stale {
			fresh[n] = examsOf{at: now}
		}
		for _, r := range regs {
			e := fresh[r.Player]
			e.regs = append(e.regs, r)
			fresh[r.Player] = e
		}
		for _, r := range results {
			e := fresh[r.Player]
			e.results = append(e.results, r)
			fresh[r.Player] = e
		}
		s.examCache.mu.Lock()
		if len(s.examCache.players)+len(fresh) > examsMax {
			clear(s.examCache.players)
		}
		for n, e := range fresh {
			s.examCache.players[n] = e
		}
		s.examCache.mu.Unlock()
	}
	var regs []exams.Registration
	var results []exams.Result
	s.examCache.mu.Lock()
	defer s.examCache.mu.Unlock()
	for _, n := range names {
		e := s.examCache.players[n]
		regs, results = append(regs, e.regs...), append(results, e.results...)
	}
	return regs, results, nil
}
