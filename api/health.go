package api

import (
	"context"
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"
)

func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyz pings every store at once; 503 names the ones that are down.
func (s *Server) readyz(c *gin.Context) {
	results := make([]error, len(s.deps.Checks))
	var wg sync.WaitGroup
	for i, chk := range s.deps.Checks {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(c.Request.Context(), readyTimeout)
			defer cancel()
			results[i] = chk.Ping(ctx)
		})
	}
	wg.Wait()
	checks := map[string]string{}
	var down []string
	for i, chk := range s.deps.Checks {
		if results[i] != nil {
			checks[chk.Name] = "down"
			down = append(down, chk.Name)
			s.log.WarnContext(c.Request.Context(), "store down", "request_id", requestIDOf(c), "store", chk.Name, "err", results[i])
			continue
		}
		checks[chk.Name] = "ok"
	}
	if len(down) > 0 {
		msg := "unreachable: " + down[0]
		for _, d := range down[1:] {
			msg += ", " + d
		}
		c.JSON(http.StatusServiceUnavailable, errorBody{Error: errorJSON{Code: "store_unavailable", Message: msg,
			Details: map[string]any{"down": down, "checks": checks}}})
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "checks": checks})
}

func (s *Server) metrics(c *gin.Context) {
	if s.deps.MetricsHandler == nil {
		s.fail(c, &Error{Status: http.StatusNotFound, Code: "not_found", Message: "metrics are not enabled"})
		return
	}
	s.deps.MetricsHandler.ServeHTTP(c.Writer, c.Request)
}
