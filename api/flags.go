package api

import (
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/integrity"
	"github.com/weiqi-platform/rank/reviews"
)

// flagRoutes: the admins' review queue of integrity flags. A flag never
// changes a score; resolving one records the admin's verdict and reason.
func (s *Server) flagRoutes(admin *gin.RouterGroup) {
	admin.GET("/flags", s.listFlags)
	admin.GET("/flags/:id", s.getFlag)
	admin.POST("/flags/:id/resolution", s.resolveFlag)
}

// flagJSON is one flag of the queue: what the detector saw (the statistic,
// its threshold, the games with the expected and actual results) and,
// once resolved, the verdict.
type flagJSON struct {
	ID         string              `json:"id"`
	Status     string              `json:"status"`
	Found      time.Time           `json:"found"`
	Flag       integrity.Flag      `json:"flag"`
	Resolution *reviews.Resolution `json:"resolution,omitempty"`
}

func toFlagJSON(it reviews.Item) flagJSON {
	out := flagJSON{ID: it.ID, Status: it.Status(), Found: it.Found.UTC(), Flag: it.Flag, Resolution: it.Resolution}
	if r := out.Resolution; r != nil {
		r.At = r.At.UTC()
	}
	return out
}

func (s *Server) listFlags(c *gin.Context) {
	var cur reviews.Cursor
	limit, has, err := PageParams(c, &cur)
	if err != nil {
		s.fail(c, err)
		return
	}
	player, err := queryUsername(c, "player")
	if err != nil {
		s.fail(c, err)
		return
	}
	q := reviews.Query{Status: c.Query("status"), Kind: integrity.Kind(c.Query("kind")), Player: player, Limit: limit + 1}
	if has {
		q.After = &cur
	}
	items, err := s.deps.Reviews.List(c.Request.Context(), q)
	// status and kind are query parameters: 400 invalid_parameter like
	// every list's, not the 422 of a body field (as listAccounts does).
	var fe *reviews.FieldError
	if errors.As(err, &fe) {
		err = badParam(fe.Field, fe.Field+" "+fe.Reason)
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	page, err := pageOf(items, limit, toFlagJSON, func(it reviews.Item) any { return reviews.CursorOf(it) })
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, page)
}

func (s *Server) getFlag(c *gin.Context) {
	it, err := s.deps.Reviews.Get(c.Request.Context(), c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toFlagJSON(it))
}

// resolutionIn is the body of POST /admin/flags/{id}/resolution.
type resolutionIn struct {
	Verdict string `json:"verdict"` // confirmed or dismissed
	Reason  string `json:"reason"`
}

func (s *Server) resolveFlag(c *gin.Context) {
	var in resolutionIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	it, err := s.deps.Reviews.Resolve(c.Request.Context(), c.Param("id"), by.Username, in.Verdict, in.Reason)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toFlagJSON(it))
}
