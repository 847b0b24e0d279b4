package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/players"
)

// RequestIDHeader carries the request id both ways: a sane one from the
// client (or a proxy) is kept, otherwise a fresh one is made.
const RequestIDHeader = "X-Request-ID"

const (
	keyRequestID = "rank.request_id"
	keyPrincipal = "rank.principal"
	keyToken     = "rank.token"
)

func (s *Server) requestID(c *gin.Context) {
	id := c.GetHeader(RequestIDHeader)
	if !saneRequestID(id) {
		var b [8]byte
		_, _ = rand.Read(b[:])
		id = hex.EncodeToString(b[:])
	}
	c.Set(keyRequestID, id)
	c.Header(RequestIDHeader, id)
	c.Next()
}

// saneRequestID accepts 1 to 64 characters of [A-Za-z0-9._-], so that a
// client's id cannot forge log lines.
func saneRequestID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func requestIDOf(c *gin.Context) string { return c.GetString(keyRequestID) }

// observe is the edge: it turns a panic into a logged 500, then logs the
// request and records its metrics by route pattern.
func (s *Server) observe(c *gin.Context) {
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.fail(c, fmt.Errorf("panic: %v", p))
		}
		d := time.Since(start)
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		status := c.Writer.Status()
		if s.deps.Metrics != nil {
			s.deps.Metrics.ObserveRequest(c.Request.Method, route, status, d)
		}
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		attrs := []slog.Attr{
			slog.String("request_id", requestIDOf(c)),
			slog.String("method", c.Request.Method),
			slog.String("route", route),
			slog.String("path", c.Request.URL.Path),
			slog.Int("status", status),
			slog.Duration("duration", d),
			slog.String("client", c.ClientIP()),
		}
		if p, ok := principalOf(c); ok {
			attrs = append(attrs, slog.String("caller", p.Username))
		}
		s.log.LogAttrs(c.Request.Context(), level, "request", attrs...)
	}()
	c.Next()
}

// limitBody refuses a declared oversize body at once and caps the rest:
// reading past the limit fails with *http.MaxBytesError, which the error
// table answers with 413.
func (s *Server) limitBody(c *gin.Context) {
	if c.Request.ContentLength > s.deps.BodyLimit {
		s.fail(c, &http.MaxBytesError{Limit: s.deps.BodyLimit})
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.deps.BodyLimit)
	c.Next()
}

// deadline gives the request's context the request timeout: the services
// stop at their next store call or check, and write nothing after it.
func (s *Server) deadline(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.deps.RequestTimeout)
	defer cancel()
	c.Request = c.Request.WithContext(ctx)
	c.Next()
}

// authenticate requires "Authorization: Bearer <token>" naming a live
// token, and records the caller.
func (s *Server) authenticate(c *gin.Context) {
	h := c.GetHeader("Authorization")
	scheme, token, found := strings.Cut(h, " ")
	if h == "" {
		s.fail(c, &Error{Status: http.StatusUnauthorized, Code: "unauthenticated", Message: "this route needs an Authorization: Bearer token"})
		return
	}
	token = strings.TrimSpace(token)
	if !found || !strings.EqualFold(scheme, "Bearer") || token == "" {
		s.fail(c, &Error{Status: http.StatusUnauthorized, Code: "unauthenticated", Message: "the Authorization header must be \"Bearer <token>\""})
		return
	}
	p, err := s.deps.Players.Authenticate(c.Request.Context(), token)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Set(keyPrincipal, p)
	c.Set(keyToken, token)
	c.Next()
}

// require lets only callers with one of the roles through.
func (s *Server) require(roles ...players.Role) gin.HandlerFunc {
	return func(c *gin.Context) {
		p, _ := principalOf(c)
		if !p.Is(roles...) {
			s.fail(c, &players.ForbiddenError{Need: roles, Have: p.Role})
			return
		}
		c.Next()
	}
}

func principalOf(c *gin.Context) (players.Principal, bool) {
	v, ok := c.Get(keyPrincipal)
	if !ok {
		return players.Principal{}, false
	}
	p, ok := v.(players.Principal)
	return p, ok
}
