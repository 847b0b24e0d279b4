package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		err     error
		status  int
		code    string
		message string // a fragment the message must hold
	}{
		{&players.FieldError{Field: "username", Reason: "too short"}, 422, "invalid_field", "username: too short"},
		{fmt.Errorf("register: %w", &players.FieldError{Field: "password", Reason: "weak"}), 422, "invalid_field", "password: weak"},
		{fmt.Errorf("%w: %q", players.ErrUsernameTaken, "bob"), 409, "username_taken", "taken"},
		{players.ErrInvalidCredentials, 401, "invalid_credentials", "wrong"},
		{players.ErrUnauthenticated, 401, "invalid_token", "token"},
		{&players.ForbiddenError{Need: []players.Role{players.RoleAdmin}, Have: players.RolePlayer}, 403, "forbidden", "admin"},
		{&players.RateLimitError{Scope: "account", RetryAfter: 1500 * time.Millisecond}, 429, "rate_limited", "account"},
		{fmt.Errorf("account %q: %w", "x", &players.BusyError{RetryAfter: time.Second}), 503, "busy", "passwords"},
		{fmt.Errorf("account %q: %w", "x", players.ErrNotFound), 404, "not_found", "not found"},
		{&http.MaxBytesError{Limit: 10}, 413, "body_too_large", "10 bytes"},
		{context.DeadlineExceeded, 503, "timeout", "too long"},
		{&Error{Status: 400, Code: "own", Message: "mine"}, 400, "own", "mine"},
		{errors.New("boom"), 500, "internal", "internal"},
	} {
		e, known := classify(tc.err)
		if e.Status != tc.status || e.Code != tc.code || !strings.Contains(e.Message, tc.message) || known != (tc.code != "internal") {
			t.Errorf("classify(%v) = %+v, %v; want %d %s with %q", tc.err, e, known, tc.status, tc.code, tc.message)
		}
	}
	// Retry-After rounds up: never ask for a retry before the window ends.
	e, _ := classify(&players.RateLimitError{Scope: "address", RetryAfter: 1500 * time.Millisecond})
	if e.Details[retryAfterKey] != int64(2) {
		t.Errorf("retry_after_seconds = %v, want 2", e.Details[retryAfterKey])
	}
}

// newBare is a Server with no stores, for tests of the edge alone.
func newBare(t *testing.T) (*Server, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	s, err := New(Deps{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return s, &logs
}

func serve(s *Server, method, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec
}

// TestUnknownErrorsAreHiddenAndLoggedOnce: the client sees "internal" and
// the request id, never the error's text (a driver's message, a URI); the
// log has the text exactly once.
func TestUnknownErrorsAreHiddenAndLoggedOnce(t *testing.T) {
	s, logs := newBare(t)
	secret := "connection to mongodb://root:hunter2@db:27017 refused"
	s.engine.GET("/test/unknown", func(c *gin.Context) { s.fail(c, errors.New(secret)) })
	s.engine.GET("/test/unavailable", func(c *gin.Context) {
		s.fail(c, fmt.Errorf("playerdb: read: %w", outage.Wrap("mongo", "playerdb: read", errors.New(secret))))
	})
	s.engine.GET("/test/queue-unavailable", func(c *gin.Context) {
		s.fail(c, outage.Wrap("redis", "redisqueue: add ticket", errors.New(secret)))
	})
	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"/test/unknown", 500, "internal"},
		{"/test/unavailable", 503, "store_unavailable"},
		{"/test/queue-unavailable", 503, "store_unavailable"},
	} {
		logs.Reset()
		rec := serve(s, "GET", tc.path)
		var body errorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if rec.Code != tc.status || body.Error.Code != tc.code {
			t.Fatalf("%s = %d %s, want %d %s", tc.path, rec.Code, body.Error.Code, tc.status, tc.code)
		}
		if strings.Contains(rec.Body.String(), "hunter2") || strings.Contains(rec.Body.String(), "mongodb") {
			t.Fatalf("%s leaks the error: %s", tc.path, rec.Body)
		}
		if n := strings.Count(logs.String(), "hunter2"); n != 1 {
			t.Fatalf("%s: the error is logged %d times, want once:\n%s", tc.path, n, logs)
		}
		if tc.status == 503 && rec.Header().Get("Retry-After") == "" {
			t.Fatalf("%s: a 503 without Retry-After", tc.path)
		}
		if id := rec.Header().Get(RequestIDHeader); tc.code == "internal" && !strings.Contains(body.Error.Message, id) {
			t.Fatalf("internal error message %q does not quote request id %s", body.Error.Message, id)
		}
	}
}

func TestPanicIsA500(t *testing.T) {
	s, logs := newBare(t)
	s.engine.GET("/test/panic", func(c *gin.Context) { panic("kaboom") })
	rec := serve(s, "GET", "/test/panic")
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"code":"internal"`) || strings.Contains(rec.Body.String(), "kaboom") {
		t.Fatalf("panic answered %d %s", rec.Code, rec.Body)
	}
	if !strings.Contains(logs.String(), "kaboom") {
		t.Fatalf("panic not logged:\n%s", logs)
	}
	// The server still serves.
	if rec := serve(s, "GET", "/healthz"); rec.Code != 200 {
		t.Fatalf("after a panic /healthz = %d", rec.Code)
	}
}

// TestRowsOnceBuiltByHandlers: errors whose answers handlers used to
// build themselves get the same answer from the table, to the byte, and
// their codes are the table's (Codes: the pages need a text for each).
func TestRowsOnceBuiltByHandlers(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	matched := matchmaking.Ticket{ID: "t1", Player: "bob", State: matchmaking.Matched, CreatedAt: at.Add(-time.Minute), EndedAt: at.Add(-time.Second),
		Range: matchmaking.AnyScore, Match: &matchmaking.Match{PairID: "p1", GameID: "g1", Opponent: "alice", Colour: "black", MatchedAt: at.Add(-time.Second)}}
	for _, tc := range []struct {
		err  error
		want Error
	}{
		{&matchmaking.MatchedError{Ticket: matched, At: at}, Error{Status: 409, Code: "ticket_matched", Message: "the ticket was paired before the cancel; the game stands",
			Details: map[string]any{"ticket": toTicketJSON(matched, at)}}},
		{players.ErrWrongPassword, Error{Status: 403, Code: "wrong_password", Message: "the current password is wrong",
			Details: map[string]any{"field": "current_password"}}},
		// An admin's change and a school's placement (changeError before).
		{fmt.Errorf("%w: %q", rating.ErrKeyReused, "adjust:bob:k1"), Error{Status: 409, Code: "idempotency_key_reused", Message: "the Idempotency-Key names another change"}},
		{fmt.Errorf("%w: %s has none to revoke", rating.ErrNoCertifiedRank, "bob"), Error{Status: 409, Code: "no_certified_rank", Message: "the player has no certified rank to revoke"}},
		{fmt.Errorf("%w: game %s", rating.ErrNotRated, "g1"), Error{Status: 409, Code: "not_rated", Message: "the game moved no rating: there is nothing to annul"}},
		{fmt.Errorf("%w: nightly", jobs.ErrUnknownJob), Error{Status: 404, Code: "not_found", Message: "no such job"}},
		{fmt.Errorf("%w: run id", jobs.ErrBadJob), Error{Status: 400, Code: "invalid_parameter", Message: "the Idempotency-Key is not a valid run id",
			Details: map[string]any{"parameter": IdempotencyHeader}}},
		{fmt.Errorf("%w: result %s is %s", exams.ErrNotAwaiting, "r1", "rejected"), Error{Status: 409, Code: "promotion_decided",
			Message: "the promotion is not awaiting approval (decided before, or not a pass)"}},
		{&rating.InputError{Field: "delta", Reason: "0 changes nothing"}, Error{Status: 422, Code: "invalid_field", Message: "delta 0 changes nothing",
			Details: map[string]any{"field": "delta", "reason": "0 changes nothing"}}},
	} {
		got, known := classify(tc.err)
		gotJSON, _ := json.Marshal(errorJSON{Code: got.Code, Message: got.Message, Details: got.Details})
		wantJSON, _ := json.Marshal(errorJSON{Code: tc.want.Code, Message: tc.want.Message, Details: tc.want.Details})
		if !known || got.Status != tc.want.Status || !bytes.Equal(gotJSON, wantJSON) {
			t.Errorf("classify(%v) = %d %s, want %d %s", tc.err, got.Status, gotJSON, tc.want.Status, wantJSON)
		}
		if !slices.Contains(Codes(), tc.want.Code) {
			t.Errorf("Codes() lacks %s", tc.want.Code)
		}
	}
}
