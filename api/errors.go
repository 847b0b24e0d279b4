package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/reviews"
	"github.com/weiqi-platform/rank/schools"
)

// sgfPoint is a move's point in SGF letters ("" for a pass).
func sgfPoint(m games.Move) string {
	if m.Pass {
		return ""
	}
	return m.Point.SGF()
}

// Error is an error the HTTP layer raises itself (a malformed body, a
// missing token), already in its final shape.
type Error struct {
	Status  int
	Code    string
	Message string
	Details map[string]any
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// rule maps errors matching is (errors.Is) or as (a typed error found by
// errors.As) to a status and a stable code. The message is fixed unless
// detail gives one: only errors written for people (domain validation
// errors) lend their own text; a store's text never leaves.
type rule struct {
	is      error
	as      func(err error) bool
	status  int
	code    string
	message string
	detail  func(err error) (message string, details map[string]any)
}

// errorTable is the one table from domain errors to HTTP. The first rule
// that matches wins, so typed errors come before the sentinels they unwrap
// to. Later features append their domain's rules.
var errorTable = []rule{
	// Any store down (the document store, the queue, the leases, the
	// limits): one kind, whoever raised it.
	{is: outage.ErrUnavailable, status: http.StatusServiceUnavailable, code: "store_unavailable", message: "a store is unavailable; try again shortly",
		detail: func(err error) (string, map[string]any) {
			return "", map[string]any{retryAfterKey: int64(outage.RetryAfter / time.Second)}
		}},

	// players
	{is: players.ErrInvalid, status: http.StatusUnprocessableEntity, code: "invalid_field", message: "a field is invalid",
		detail: func(err error) (string, map[string]any) {
			var fe *players.FieldError
			if errors.As(err, &fe) {
				return fe.Error(), map[string]any{"field": fe.Field, "reason": fe.Reason}
			}
			return "", nil
		}},
	{is: players.ErrUsernameTaken, status: http.StatusConflict, code: "username_taken", message: "the username is taken"},
	{is: players.ErrInvalidCredentials, status: http.StatusUnauthorized, code: "invalid_credentials", message: "wrong username or password"},
	{is: players.ErrWrongPassword, status: http.StatusForbidden, code: "wrong_password", message: "the current password is wrong",
		detail: func(error) (string, map[string]any) { return "", map[string]any{"field": "current_password"} }},
	{is: players.ErrUnauthenticated, status: http.StatusUnauthorized, code: "invalid_token", message: "the bearer token is unknown, expired or revoked"},
	{is: players.ErrForbidden, status: http.StatusForbidden, code: "forbidden", message: "this caller may not do that",
		detail: func(err error) (string, map[string]any) {
			var fe *players.ForbiddenError
			if errors.As(err, &fe) {
				need := make([]string, len(fe.Need))
				for i, r := range fe.Need {
					need[i] = string(r)
				}
				return fmt.Sprintf("needs role %v", need), map[string]any{"need_role": need, "role": string(fe.Have)}
			}
			return "", nil
		}},
	{is: players.ErrRateLimited, status: http.StatusTooManyRequests, code: "rate_limited", message: "too many attempts; try again later",
		detail: func(err error) (string, map[string]any) {
			var rl *players.RateLimitError
			if errors.As(err, &rl) {
				secs := int64((rl.RetryAfter + 999_999_999) / 1e9) // round up: never ask for a too-early retry
				return rl.Error(), map[string]any{"scope": rl.Scope, retryAfterKey: secs}
			}
			return "", nil
		}},
	{is: players.ErrLinked, status: http.StatusConflict, code: "link_conflict", message: "the server's player id is linked to another account",
		detail: func(err error) (string, map[string]any) { return err.Error(), nil }},
	{is: players.ErrNameTaken, status: http.StatusConflict, code: "display_name_taken", message: "the display name looks like a name another account holds",
		detail: func(err error) (string, map[string]any) { return err.Error(), map[string]any{"field": "display_name"} }},
	{is: players.ErrNotFound, status: http.StatusNotFound, code: "not_found", message: "not found"},
	{is: players.ErrBusy, status: http.StatusServiceUnavailable, code: "busy", message: "too many passwords are being checked at once; try again shortly",
		detail: func(err error) (string, map[string]any) {
			var be *players.BusyError
			if errors.As(err, &be) {
				return "", map[string]any{retryAfterKey: int64((be.RetryAfter + 999_999_999) / 1e9)}
			}
			return "", nil
		}},

	// games
	{as: func(err error) bool { var e *games.MoveError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "illegal_move", message: "the game has an illegal move",
		detail: func(err error) (string, map[string]any) {
			var e *games.MoveError
			errors.As(err, &e)
			point := "pass"
			if !e.Move.Pass {
				point = strings.ToLower(e.Move.Point.Vertex(e.Size))
			}
			return e.Error(), map[string]any{"move": e.Number, "point": point, "sgf_point": sgfPoint(e.Move), "color": sideName(e.Move.Color), "reason": e.Reason()}
		}},
	{as: func(err error) bool { var e *games.ResultMismatchError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "result_mismatch", message: "the claimed result contradicts the game",
		detail: func(err error) (string, map[string]any) {
			var e *games.ResultMismatchError
			errors.As(err, &e)
			return e.Error(), map[string]any{"claimed": e.Claimed, "computed": e.Computed}
		}},
	{as: func(err error) bool { var e *games.SGFError; return errors.As(err, &e) },
		status: http.StatusBadRequest, code: "invalid_sgf", message: "the SGF is malformed",
		detail: func(err error) (string, map[string]any) {
			var e *games.SGFError
			errors.As(err, &e)
			return e.Error(), map[string]any{"offset": e.Offset}
		}},
	{as: func(err error) bool { var e *games.InvalidRecordError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "invalid_field", message: "a field of the game is invalid",
		detail: func(err error) (string, map[string]any) {
			var e *games.InvalidRecordError
			errors.As(err, &e)
			d := map[string]any{"field": e.Field, "reason": e.Msg}
			if e.Limit != 0 {
				d["limit"], d["got"] = e.Limit, e.Got
			}
			return e.Error(), d
		}},
	{as: func(err error) bool { var e *intake.UnknownPlayerError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "unknown_player", message: "a player of the game is unknown",
		detail: func(err error) (string, map[string]any) {
			var e *intake.UnknownPlayerError
			errors.As(err, &e)
			if e.ExternalID != "" {
				return e.Error(), map[string]any{"side": e.Side, "external_id": e.ExternalID}
			}
			return e.Error(), map[string]any{"side": e.Side, "username": e.Username}
		}},
	{as: func(err error) bool { var e *intake.ConflictError; return errors.As(err, &e) },
		status: http.StatusConflict, code: "source_conflict", message: "another game has this source_id",
		detail: func(err error) (string, map[string]any) {
			var e *intake.ConflictError
			errors.As(err, &e)
			return e.Error(), map[string]any{"source_id": e.SourceID, "game_id": e.GameID}
		}},
	{as: func(err error) bool { var e *intake.NotAbortableError; return errors.As(err, &e) },
		status: http.StatusConflict, code: "not_abortable", message: "the game may no longer be aborted",
		detail: func(err error) (string, map[string]any) {
			var e *intake.NotAbortableError
			errors.As(err, &e)
			return e.Error(), map[string]any{"reason": e.Reason, "window_seconds": int64(e.Window / time.Second)}
		}},
	{is: intake.ErrNotPending, status: http.StatusConflict, code: "game_not_pending", message: "the game named is not waiting for its result (finished or expired)"},
	{is: intake.ErrNotFound, status: http.StatusNotFound, code: "not_found", message: "no such game"},

	// rating
	{is: rating.ErrBusy, status: http.StatusServiceUnavailable, code: "busy", message: "the players are busy with other games; try again",
		detail: func(error) (string, map[string]any) { return "", map[string]any{retryAfterKey: int64(1)} }},
	{is: rating.ErrNotFound, status: http.StatusNotFound, code: "not_found", message: "not found"},
	{as: func(err error) bool { var e *rating.InputError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "invalid_field", message: "a field of the change is invalid",
		detail: func(err error) (string, map[string]any) {
			var e *rating.InputError
			errors.As(err, &e)
			return e.Field + " " + e.Reason, map[string]any{"field": e.Field, "reason": e.Reason}
		}},
	// Only changes keyed by the request's Idempotency-Key meet it (the
	// admin tools, a school's placement): an exam keys its certification
	// by its result, and a retry repeats the same change.
	{is: rating.ErrKeyReused, status: http.StatusConflict, code: "idempotency_key_reused", message: "the Idempotency-Key names another change"},
	{is: rating.ErrNoCertifiedRank, status: http.StatusConflict, code: "no_certified_rank", message: "the player has no certified rank to revoke"},
	{is: rating.ErrNotRated, status: http.StatusConflict, code: "not_rated", message: "the game moved no rating: there is nothing to annul"},

	// exams (ranks) and check-ins
	{as: func(err error) bool { var e *exams.ValidationError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "invalid_field", message: "a field is invalid",
		detail: func(err error) (string, map[string]any) {
			var e *exams.ValidationError
			errors.As(err, &e)
			fields := make([]map[string]any, len(e.Fields))
			parts := make([]string, len(e.Fields))
			for i, f := range e.Fields {
				fields[i] = map[string]any{"field": f.Field, "reason": f.Reason}
				parts[i] = f.Field + ": " + f.Reason
			}
			// The fields alone: the error's own text says "invalid exam
			// schedule" also for an approval's or rejection's reason.
			return strings.Join(parts, "; "), map[string]any{"field": e.Fields[0].Field, "reason": e.Fields[0].Reason, "fields": fields}
		}},
	{as: func(err error) bool { var e *exams.RefusalError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "not_eligible", message: "the registration is refused",
		detail: func(err error) (string, map[string]any) {
			var e *exams.RefusalError
			errors.As(err, &e)
			return e.Reason, map[string]any{"reason_code": e.Code, "reason": e.Reason}
		}},
	{is: exams.ErrUnknownPlayer, status: http.StatusNotFound, code: "not_found", message: "no such player"},
	// jobs run by hand: the job's name and the run id (the
	// Idempotency-Key) are the request's.
	{is: jobs.ErrUnknownJob, status: http.StatusNotFound, code: "not_found", message: "no such job"},
	{is: jobs.ErrBadJob, status: http.StatusBadRequest, code: "invalid_parameter", message: "the Idempotency-Key is not a valid run id",
		detail: func(error) (string, map[string]any) { return "", map[string]any{"parameter": IdempotencyHeader} }},
	{is: exams.ErrNotFound, status: http.StatusNotFound, code: "not_found", message: "no such exam, session or promotion"},
	{is: exams.ErrNotAwaiting, status: http.StatusConflict, code: "promotion_decided", message: "the promotion is not awaiting approval (decided before, or not a pass)"},
	{is: exams.ErrConflict, status: http.StatusConflict, code: "conflict", message: "conflicts with what is stored"},
	{is: exams.ErrReasonRequired, status: http.StatusBadRequest, code: "missing_field", message: "field reason is required",
		detail: func(error) (string, map[string]any) { return "", map[string]any{"field": "reason"} }},
	{is: intake.ErrNotInGame, status: http.StatusForbidden, code: "not_your_game", message: "you play neither side of this game"},

	// matchmaking
	{as: func(err error) bool { var e *matchmaking.FieldError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "invalid_field", message: "a field of the ticket is invalid",
		detail: func(err error) (string, map[string]any) {
			var e *matchmaking.FieldError
			errors.As(err, &e)
			return e.Error(), map[string]any{"field": e.Field, "reason": e.Msg}
		}},
	{is: matchmaking.ErrHasTicket, status: http.StatusConflict, code: "ticket_exists", message: "you already have a live ticket; cancel it or wait for it"},
	{is: matchmaking.ErrInGame, status: http.StatusConflict, code: "in_game", message: "you are in a game that has not finished"},
	{is: matchmaking.ErrNoTicket, status: http.StatusNotFound, code: "no_ticket", message: "you have no matchmaking ticket"},
	{as: func(err error) bool { var e *matchmaking.MatchedError; return errors.As(err, &e) },
		status: http.StatusConflict, code: "ticket_matched", message: "the ticket was paired before the cancel; the game stands",
		detail: func(err error) (string, map[string]any) {
			var e *matchmaking.MatchedError
			errors.As(err, &e)
			return "", map[string]any{"ticket": toTicketJSON(e.Ticket, e.At)}
		}},

	// the integrity review queue
	{as: func(err error) bool { var e *reviews.FieldError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "invalid_field", message: "a field of the request is invalid",
		detail: func(err error) (string, map[string]any) {
			var e *reviews.FieldError
			errors.As(err, &e)
			return e.Field + " " + e.Reason, map[string]any{"field": e.Field, "reason": e.Reason}
		}},
	{is: reviews.ErrResolved, status: http.StatusConflict, code: "flag_resolved", message: "the flag was already resolved otherwise"},
	{is: reviews.ErrNotFound, status: http.StatusNotFound, code: "not_found", message: "no such flag"},
	// schools
	{as: func(err error) bool { var e *schools.FieldError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "invalid_field", message: "a field is invalid",
		detail: func(err error) (string, map[string]any) {
			var e *schools.FieldError
			errors.As(err, &e)
			return strings.TrimPrefix(e.Error(), "schools: "), map[string]any{"field": e.Field, "reason": e.Reason}
		}},
	{as: func(err error) bool { var e *schools.ListError; return errors.As(err, &e) },
		status: http.StatusUnprocessableEntity, code: "invalid_entries", message: "entries of a list are invalid; nothing was done",
		detail: func(err error) (string, map[string]any) {
			var e *schools.ListError
			errors.As(err, &e)
			entries := make([]map[string]any, len(e.Entries))
			for i, x := range e.Entries {
				entries[i] = map[string]any{"index": x.Index, "value": capText(x.Value, MaxValue), "reason": x.Reason}
			}
			return strings.TrimPrefix(e.Error(), "schools: "), map[string]any{"field": e.Field, "entries": entries}
		}},
	{as: func(err error) bool { var e *schools.DeniedError; return errors.As(err, &e) },
		status: http.StatusForbidden, code: "not_yours", message: "this is not your school, class or student",
		detail: func(err error) (string, map[string]any) {
			var e *schools.DeniedError
			errors.As(err, &e)
			return strings.TrimPrefix(e.Error(), "schools: "), map[string]any{"need": e.Need}
		}},
	{as: func(err error) bool { var e *schools.FullError; return errors.As(err, &e) },
		status: http.StatusConflict, code: "class_full", message: "the class is full",
		detail: func(err error) (string, map[string]any) {
			var e *schools.FullError
			errors.As(err, &e)
			return strings.TrimPrefix(e.Error(), "schools: "), map[string]any{"capacity": e.Capacity, "students": e.Students, "adding": e.Adding}
		}},
	{as: func(err error) bool { var e *schools.ManagedChangedError; return errors.As(err, &e) },
		status: http.StatusConflict, code: "managed_accounts_changed", message: "a username the request recorded was taken by another account; nothing was done",
		detail: func(err error) (string, map[string]any) {
			var e *schools.ManagedChangedError
			errors.As(err, &e)
			entries := make([]map[string]any, len(e.Entries))
			for i, x := range e.Entries {
				entries[i] = map[string]any{"index": x.Index, "username": x.Value, "reason": x.Reason}
			}
			return strings.TrimPrefix(e.Error(), "schools: "), map[string]any{"accounts": entries}
		}},
	{is: schools.ErrCodeUnknown, status: http.StatusNotFound, code: "invite_code_unknown", message: "no class has this invite code"},
	{is: schools.ErrCodeExpired, status: http.StatusGone, code: "invite_code_expired", message: "the invite code has expired or was replaced; ask the teacher for the new one"},
	{is: schools.ErrClassClosed, status: http.StatusGone, code: "class_closed", message: "the class is archived or has ended"},
	{is: schools.ErrAlreadyMember, status: http.StatusConflict, code: "already_member", message: "already a student of the class"},
	{is: schools.ErrNotMember, status: http.StatusNotFound, code: "not_a_member", message: "not a student of the class"},
	{is: schools.ErrArchived, status: http.StatusConflict, code: "archived", message: "the school or class is archived: it can be read, not changed"},
	{is: schools.ErrLastHead, status: http.StatusConflict, code: "last_head_teacher", message: "a school keeps at least one head teacher"},
	{is: schools.ErrLastTeacher, status: http.StatusConflict, code: "last_teacher", message: "a class keeps at least one teacher"},
	{is: schools.ErrExists, status: http.StatusConflict, code: "exists", message: "another school has this id"},
	{is: schools.ErrBusy, status: http.StatusServiceUnavailable, code: "busy", message: "too many changes of this class at once; try again",
		detail: func(error) (string, map[string]any) { return "", map[string]any{retryAfterKey: int64(1)} }},
	{is: schools.ErrNotFound, status: http.StatusNotFound, code: "not_found", message: "no such school, class or teacher"},
	{is: rating.ErrPlayed, status: http.StatusConflict, code: "already_played", message: "the student has played a rated game: a starting rank is placed before the first"},
	{is: players.ErrNotManaged, status: http.StatusConflict, code: "not_managed", message: "the account is not managed by this school; its owner keeps its password"},

	// the standard library
	{as: func(err error) bool { var m *http.MaxBytesError; return errors.As(err, &m) },
		status: http.StatusRequestEntityTooLarge, code: "body_too_large", message: "the request body is too large",
		detail: func(err error) (string, map[string]any) {
			var m *http.MaxBytesError
			errors.As(err, &m)
			return fmt.Sprintf("the request body is over the limit of %d bytes", m.Limit), map[string]any{"limit_bytes": m.Limit}
		}},
	{is: context.DeadlineExceeded, status: http.StatusServiceUnavailable, code: "timeout", message: "the request took too long; try again"},
}

// retryAfterKey in details also sets the Retry-After header.
const retryAfterKey = "retry_after_seconds"

// errorBody is the JSON shape of every error.
type errorBody struct {
	Error errorJSON `json:"error"`
}

type errorJSON struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// MaxMessage bounds an error's message in bytes: the domains' messages
// quote what was wrong, and a request may carry a megabyte of it.
const MaxMessage = 600

// MaxValue bounds, in bytes, a value a list's error quotes per entry.
const MaxValue = 200

// capMessage cuts a message longer than MaxMessage (capText).
func capMessage(m string) string { return capText(m, MaxMessage) }

// capText cuts a text longer than limit bytes at a character's start and
// says how long it was.
func capText(m string, limit int) string {
	if len(m) <= limit {
		return m
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(m[cut]) {
		cut--
	}
	return m[:cut] + fmt.Sprintf("… (cut: %d bytes in all)", len(m))
}

// classify turns any error into its HTTP form; ok is false for an error no
// rule knows.
func classify(err error) (e *Error, ok bool) {
	var own *Error
	if errors.As(err, &own) {
		if len(own.Message) > MaxMessage {
			cut := *own
			cut.Message = capMessage(own.Message)
			return &cut, true
		}
		return own, true
	}
	for _, r := range errorTable {
		if (r.is != nil && errors.Is(err, r.is)) || (r.as != nil && r.as(err)) {
			e := &Error{Status: r.status, Code: r.code, Message: r.message}
			if r.detail != nil {
				if msg, d := r.detail(err); msg != "" || d != nil {
					if msg != "" {
						e.Message = capMessage(msg)
					}
					e.Details = d
				}
			}
			return e, true
		}
	}
	return &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "internal error"}, false
}

// fail answers the request with err in the error shape and stops the
// chain. Unknown errors and store trouble are logged here, once; the
// client sees the request id, never the error's text.
func (s *Server) fail(c *gin.Context, err error) {
	// A store call cut off by the request's own deadline is a timeout,
	// not an outage of that store.
	if errors.Is(c.Request.Context().Err(), context.DeadlineExceeded) && errors.Is(err, context.DeadlineExceeded) {
		err = context.DeadlineExceeded
	}
	e, known := classify(err)
	id := requestIDOf(c)
	switch {
	case !known:
		s.log.ErrorContext(c.Request.Context(), "internal error", "request_id", id, "method", c.Request.Method, "route", c.FullPath(), "err", err)
		e = &Error{Status: e.Status, Code: e.Code, Message: "internal error; quote request id " + id}
	case e.Status >= 500:
		s.log.WarnContext(c.Request.Context(), "unavailable", "request_id", id, "method", c.Request.Method, "route", c.FullPath(), "code", e.Code, "err", err)
	}
	if v, ok := e.Details[retryAfterKey].(int64); ok {
		c.Header("Retry-After", strconv.FormatInt(v, 10))
	}
	if e.Status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", `Bearer realm="rank"`)
	}
	c.AbortWithStatusJSON(e.Status, errorBody{Error: errorJSON{Code: e.Code, Message: e.Message, Details: e.Details}})
}
