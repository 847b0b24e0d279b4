package outage

import (
	"errors"
	"time"
)

// ErrUnavailable matches every *Error.
var ErrUnavailable = errors.New("store unavailable")

// RetryAfter is the wait a client is told to take before retrying
// (decided: stores come back within seconds after a restart or failover;
// an outage longer than that is answered again with the same hint).
const RetryAfter = 2 * time.Second

// Error is connection trouble with a store: which store and what the
// adapter was doing. The driver's error stays in the chain for the log;
// the API never shows its text.
type Error struct {
	Store string // "mongo", "redis": what could not be reached
	Op    string // the adapter and operation, e.g. "gamedb: insert game"
	Err   error
}

func (e *Error) Error() string {
	return e.Op + ": " + e.Store + " unavailable: " + e.Err.Error()
}

// Unwrap gives the driver's error and ErrUnavailable.
func (e *Error) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// Wrap marks err as an outage of store during op. It returns nil for nil.
func Wrap(store, op string, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Store: store, Op: op, Err: err}
}

// Is reports whether err is (or wraps) an outage.
func Is(err error) bool { return errors.Is(err, ErrUnavailable) }
