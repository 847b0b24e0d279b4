package exams

import (
	"context"
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

// NextSession is the session a registration now goes to (zero when the
// schedule fires no more).
func (s *Service) NextSession(sch Schedule) (time.Time, error) {
	return sch.SessionFor(s.Calendar, s.Clock.Now())
}
