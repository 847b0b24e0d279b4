package exams

import (
	"context"
	"sort"
	"time"
)

// The reads the API shows, straight from the store.

// Schedules lists every exam schedule by id.
func (s *Service) Schedules(ctx context.Context) ([]Schedule, error) {
	return s.Store.Schedules(ctx)
}

// Schedule returns one schedule; ErrNotFound if there is none.
func (s *Service) Schedule(ctx context.Context, id string) (Schedule, error) {
	return s.Store.Schedule(ctx, id)
}

// Sessions lists a schedule's sessions, newest first.
func (s *Service) Sessions(ctx context.Context, scheduleID string) ([]Session, error) {
	return s.Store.Sessions(ctx, scheduleID)
}

// Results lists a session's grades.
func (s *Service) Results(ctx context.Context, sessionID string) ([]Result, error) {
	return s.Store.Results(ctx, sessionID)
}

// Result returns one grade; ErrNotFound if there is none.
func (s *Service) Result(ctx context.Context, id string) (Result, error) {
	return s.Store.Result(ctx, id)
}

// Promotions lists the grades in a state, oldest first: the approval
// queue is Promotions(ResultAwaiting).
func (s *Service) Promotions(ctx context.Context, state string) ([]Result, error) {
	return s.Store.ResultsInState(ctx, state)
}

// OfPlayers lists the players' registrations and results (by id): what
// a class table shows of their exams.
func (s *Service) OfPlayers(ctx context.Context, players []string) ([]Registration, []Result, error) {
	if len(players) == 0 {
		return nil, nil, nil
	}
	regs, err := s.Store.RegistrationsOf(ctx, players)
	if err != nil {
		return nil, nil, err
	}
	res, err := s.Store.ResultsOf(ctx, players)
	if err != nil {
		return nil, nil, err
	}
	return regs, res, nil
}

// NextSession is the session a registration now goes to (zero when the
// schedule fires no more).
func (s *Service) NextSession(sch Schedule) (time.Time, error) {
	return sch.SessionFor(s.Calendar, s.Clock.Now())
}

// RegistrationsBetween lists the registrations made at or after from and
// before to, over every schedule's sessions: each is an eligibility check
// of the player's ladder rank (the integrity review reads them). It reads
// every session of every schedule: a nightly job's read.
func (s *Service) RegistrationsBetween(ctx context.Context, from, to time.Time) ([]Registration, error) {
	schedules, err := s.Store.Schedules(ctx)
	if err != nil {
		return nil, err
	}
	var out []Registration
	for _, sch := range schedules {
		sessions, err := s.Store.Sessions(ctx, sch.ID)
		if err != nil {
			return nil, err
		}
		ids := map[string]bool{}
		for _, sess := range sessions {
			if !sess.At.Before(from) { // registered before its session: not before the window
				ids[sess.ID] = true
			}
		}
		// The next session takes registrations before it is opened.
		if next, err := sch.SessionFor(s.Calendar, s.Clock.Now()); err == nil && !next.IsZero() {
			ids[SessionID(sch.ID, next)] = true
		}
		for id := range ids {
			regs, err := s.Store.Registrations(ctx, id)
			if err != nil {
				return nil, err
			}
			for _, r := range regs {
				if !r.At.Before(from) && r.At.Before(to) {
					out = append(out, r)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
