package api_test

import (
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/jobs"
)

// auditRig is the exam service and the job runner behind the exam and
// audit routes, and the env's clock, which the tests set.
type auditRig struct {
	clock  setClock
	exams  *exams.Service
	runner *jobs.Runner
}

// setClock moves a fake clock to a time.
type setClock struct{ *clockwork.FakeClock }

// Set moves the clock to t (forward only, as time goes).
func (c setClock) Set(t time.Time) { c.Advance(t.Sub(c.Now())) }
