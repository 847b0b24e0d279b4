package ranks

import (
	"context"
	"time"
)

// The reads the API shows, straight from the store.

// Schedules lists every exam schedule by id.
func (s *ExamService) Schedules(ctx context.Context) ([]ExamSchedule, error) {
	return s.Store.Schedules(ctx)
}

// Schedule returns one schedule; ErrNotFound if there is none.
func (s *ExamService) Schedule(ctx context.Context, id string) (ExamSchedule, error) {
	return s.Store.Schedule(ctx, id)
}

// Sessions lists a schedule's sessions, newest first.
func (s *ExamService) Sessions(ctx context.Context, scheduleID string) ([]ExamSession, error) {
	return s.Store.Sessions(ctx, scheduleID)
}

// Results lists a session's grades.
func (s *ExamService) Results(ctx context.Context, sessionID string) ([]ExamResult, error) {
	return s.Store.Results(ctx, sessionID)
}

// Result returns one grade; ErrNotFound if there is none.
func (s *ExamService) Result(ctx context.Context, id string) (ExamResult, error) {
	return s.Store.Result(ctx, id)
}

// Promotions lists the grades in a state, oldest first: the approval
// queue is Promotions(ResultAwaiting).
func (s *ExamService) Promotions(ctx context.Context, state string) ([]ExamResult, error) {
	return s.Store.ResultsInState(ctx, state)
}

// NextSession is the session a registration now goes to (zero when the
// schedule fires no more).
func (s *ExamService) NextSession(sch ExamSchedule) (time.Time, error) {
	return sch.SessionFor(s.Calendar, s.Clock.Now())
}
