package schools

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinels. Typed errors below unwrap to them; api maps them to HTTP.
var (
	ErrNotFound = errors.New("not found")
	// ErrExists: version 0 of a school or class, or an invite code, is
	// taken.
	ErrExists = errors.New("already exists")
	// ErrVersionTaken: another writer stored this version first; read
	// the latest and try again.
	ErrVersionTaken = errors.New("version written by another change")
	ErrInvalid      = errors.New("invalid input")
	// ErrDenied matches *DeniedError: the caller may not see or do this
	// (not their school, class or student).
	ErrDenied        = errors.New("not yours")
	ErrCodeUnknown   = errors.New("unknown invite code")
	ErrCodeExpired   = errors.New("invite code expired or replaced")
	ErrClassClosed   = errors.New("class closed")
	ErrAlreadyMember = errors.New("already a member")
	ErrNotMember     = errors.New("not a member of the class")
	ErrClassFull     = errors.New("class full")
	ErrArchived      = errors.New("archived")
	ErrLastHead      = errors.New("the school's last head teacher")
	ErrLastTeacher   = errors.New("the class's last teacher")
	// ErrManagedChanged: a retried request for managed accounts finds
	// accounts it made no longer its own to give a password again.
	ErrManagedChanged = errors.New("a username the request recorded was taken by another account")
	// ErrBusy: a change kept meeting others' changes; try again.
	ErrBusy = errors.New("too many changes at once; try again")
)

// FieldError says which input field is wrong and why. It unwraps to
// ErrInvalid.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return "schools: " + e.Field + ": " + e.Reason }

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// EntryError is one bad entry of a list.
type EntryError struct {
	Index  int    // from 0
	Value  string // as given
	Reason string
}

// ListError refuses a whole list, naming each bad entry. It unwraps to
// ErrInvalid.
type ListError struct {
	Field   string
	Entries []EntryError
}

func (e *ListError) Error() string {
	parts := make([]string, len(e.Entries))
	for i, x := range e.Entries {
		parts[i] = fmt.Sprintf("entry %d (%q): %s", x.Index, x.Value, x.Reason)
	}
	return fmt.Sprintf("schools: %s: %d bad entries: %s", e.Field, len(e.Entries), strings.Join(parts, "; "))
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *ListError) Unwrap() error { return ErrInvalid }

// errNotConsented refuses a teacher's change of a student who has not
// consented to be taught (Member.Consented).
var errNotConsented = &DeniedError{Need: "a teacher of a student who joined with the class's code or was made in the class as a managed account"}

// DeniedError says why the caller may not: Need is what they would have
// to be ("a teacher of the class", …). It unwraps to ErrDenied.
type DeniedError struct {
	Need string
}

func (e *DeniedError) Error() string { return "schools: only " + e.Need + " may do this" }

// Unwrap makes errors.Is(err, ErrDenied) true.
func (e *DeniedError) Unwrap() error { return ErrDenied }

// FullError says a class is full. It unwraps to ErrClassFull.
type FullError struct {
	Capacity, Students, Adding int
}

func (e *FullError) Error() string {
	return fmt.Sprintf("schools: the class is full: %d of %d places taken, %d more asked", e.Students, e.Capacity, e.Adding)
}

// Unwrap makes errors.Is(err, ErrClassFull) true.
func (e *FullError) Unwrap() error { return ErrClassFull }

// ManagedChangedError names the accounts that stand in a retried
// request's way (Value the username, Index the name's place). It unwraps
// to ErrManagedChanged.
type ManagedChangedError struct {
	Entries []EntryError
}

func (e *ManagedChangedError) Error() string {
	parts := make([]string, len(e.Entries))
	for i, x := range e.Entries {
		parts[i] = fmt.Sprintf("%s (entry %d): %s", x.Value, x.Index, x.Reason)
	}
	return "schools: usernames the request recorded were taken by other accounts, nothing was done: " + strings.Join(parts, "; ") + "; send it with a new Idempotency-Key"
}

// Unwrap makes errors.Is(err, ErrManagedChanged) true.
func (e *ManagedChangedError) Unwrap() error { return ErrManagedChanged }
