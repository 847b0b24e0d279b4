package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/jobs"
)

// jobRoutes: the scheduled jobs, listed and run on demand.
func (s *Server) jobRoutes(admin *gin.RouterGroup) {
	admin.GET("/jobs", s.listJobs)
	admin.POST("/jobs/:name/run", s.runJob)
}

type jobJSON struct {
	Name string     `json:"name"`
	Spec string     `json:"spec,omitempty"`
	Next *time.Time `json:"next,omitempty"`
}

func (s *Server) listJobs(c *gin.Context) {
	var items []jobJSON
	for _, j := range s.deps.Jobs.Jobs() {
		out := jobJSON{Name: j.Name, Spec: j.Spec}
		if !j.Next.IsZero() {
			n := j.Next.UTC()
			out.Next = &n
		}
		items = append(items, out)
	}
	c.JSON(http.StatusOK, NewList(items, ""))
}

// runJSON says what became of an on-demand run.
type runJSON struct {
	Job    string    `json:"job"`
	Key    string    `json:"key"`
	At     time.Time `json:"at"`
	Status string    `json:"status"` // done, failed, already_done, running_elsewhere
	Error  string    `json:"error,omitempty"`
}

// runJob runs a scheduled job now, once per Idempotency-Key (the run id:
// a retry with the same key does not run it again), and answers when the
// run ends.
func (s *Server) runJob(c *gin.Context) {
	key, err := idempotencyKey(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	rep, err := s.deps.Jobs.RunNow(c.Request.Context(), c.Param("name"), key)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := runJSON{Job: rep.Firing.Job, Key: rep.Firing.Key(), At: rep.Firing.At.UTC()}
	switch {
	case rep.Claim == jobs.Done:
		out.Status = "already_done"
	case rep.Claim == jobs.Held:
		out.Status = "running_elsewhere"
	case rep.Err != nil:
		s.log.WarnContext(c.Request.Context(), "job run failed", "request_id", requestIDOf(c), "key", out.Key, "err", rep.Err)
		out.Status, out.Error = "failed", "the job failed; the server log has why (request id "+requestIDOf(c)+")"
	default:
		out.Status = "done"
	}
	c.JSON(http.StatusOK, out)
}
