package reviews

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/integrity"
)

// Statuses of a flag in the queue; a resolution's verdict is one of the
// last two.
const (
	StatusOpen      = "open"
	StatusConfirmed = "confirmed" // the admin found the suspicion right
	StatusDismissed = "dismissed" // the admin found it wrong (or harmless)
)

// Limits of a listing (decided: a page an admin reads; the API's limit
// parameter is checked against them).
const (
	DefaultLimit = 50
	MaxLimit     = 1000 // above the API's page of 500, which asks for one more to see a next page
	// MaxReason bounds a resolution's reason, in bytes.
	MaxReason = 2000
)

// Item is one flag in the queue.
type Item struct {
	ID         string         `json:"id"`    // ID of the flag's key: URL-safe, stable across runs
	Found      time.Time      `json:"found"` // when it was first recorded
	Flag       integrity.Flag `json:"flag"`
	Resolution *Resolution    `json:"resolution,omitempty"`
}

// Status is open until the item is resolved, then the verdict.
func (it Item) Status() string {
	if it.Resolution == nil {
		return StatusOpen
	}
	return it.Resolution.Verdict
}

// Resolution is an admin's decision on a flag: the audit of it.
type Resolution struct {
	Verdict string    `json:"verdict"` // StatusConfirmed or StatusDismissed
	Reason  string    `json:"reason"`
	By      string    `json:"by"` // the admin
	At      time.Time `json:"at"`
}

// ID is the queue's id of a flag: the unpadded base64url of its key.
func ID(f integrity.Flag) string { return base64.RawURLEncoding.EncodeToString([]byte(f.Key())) }

// Query selects a page of the queue: newest found first, then by id;
// after the cursor when set; of one status, kind and player when set.
type Query struct {
	Status string
	Kind   integrity.Kind
	Player string
	After  *Cursor
	Limit  int // 0: DefaultLimit
}

// Cursor is the last item of the previous page.
type Cursor struct {
	Found time.Time `json:"f"`
	ID    string    `json:"i"`
}

// CursorOf is the cursor after it.
func CursorOf(it Item) Cursor { return Cursor{Found: it.Found.UTC(), ID: it.ID} }

// Store keeps the queue. Every decision is an insert under a unique id
// (the first wins); implementations map driver errors to ErrNotFound, and
// connection trouble to an outage (internal/outage).
type Store interface {
	// Add stores each item unless one with its ID is stored (the first
	// stays) and returns the IDs that were new, in the order given.
	Add(ctx context.Context, items []Item) ([]string, error)
	// Get returns the item with its resolution; ErrNotFound if none.
	Get(ctx context.Context, id string) (Item, error)
	// List returns a page of items with their resolutions (see Query).
	List(ctx context.Context, q Query) ([]Item, error)
	// Resolve stores r as the item's resolution unless one is stored,
	// and returns the one stored; ErrNotFound if there is no such item.
	Resolve(ctx context.Context, id string, r Resolution) (Resolution, error)
}

// Sentinels; the api's error table maps them.
var (
	ErrNotFound = errors.New("flag not found")
	ErrResolved = errors.New("flag already resolved otherwise") // 409
	ErrInvalid  = errors.New("invalid review request")          // 422, as a *FieldError
)

// FieldError names the request field that is wrong. It unwraps to
// ErrInvalid.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return "reviews: " + e.Field + " " + e.Reason }

// Unwrap gives ErrInvalid.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// Service is the review queue, and the nightly scan that fills it
// (scan.go).
type Service struct {
	store Store
	now   func() time.Time
	src   Sources
}

// NewService returns the queue on the store, scanning src; now nil is
// time.Now.
func NewService(store Store, now func() time.Time, src Sources) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, now: now, src: src}
}

func (s *Service) stamp() time.Time { return s.now().UTC().Truncate(time.Millisecond) }

// Record adds the flags not yet in the queue (a flag already there, open
// or resolved, stays as it is) and returns how many were new.
func (s *Service) Record(ctx context.Context, flags []integrity.Flag) (int, error) {
	if len(flags) == 0 {
		return 0, nil
	}
	at := s.stamp()
	items := make([]Item, len(flags))
	for i, f := range flags {
		items[i] = Item{ID: ID(f), Found: at, Flag: f}
	}
	added, err := s.store.Add(ctx, items)
	return len(added), err
}

// Get returns one item.
func (s *Service) Get(ctx context.Context, id string) (Item, error) {
	return s.store.Get(ctx, id)
}

// List returns a page of the queue.
func (s *Service) List(ctx context.Context, q Query) ([]Item, error) {
	switch {
	case q.Status != "" && !slices.Contains([]string{StatusOpen, StatusConfirmed, StatusDismissed}, q.Status):
		return nil, &FieldError{"status", fmt.Sprintf("%q is not open, confirmed or dismissed", q.Status)}
	case q.Kind != "" && !slices.Contains([]integrity.Kind{integrity.Farming, integrity.Sandbagging, integrity.ExamCollusion}, q.Kind):
		return nil, &FieldError{"kind", fmt.Sprintf("%q is not farming, sandbagging or exam_collusion", q.Kind)}
	case q.Limit < 0 || q.Limit > MaxLimit:
		return nil, &FieldError{"limit", fmt.Sprintf("%d is not between 1 and %d", q.Limit, MaxLimit)}
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	return s.store.List(ctx, q)
}

// Resolve records an admin's verdict on a flag, once: the same decision
// again (a retry) returns the item as it is; another decision on a
// resolved flag is ErrResolved. It changes no score.
func (s *Service) Resolve(ctx context.Context, id, by, verdict, reason string) (Item, error) {
	reason = strings.TrimSpace(reason)
	switch {
	case verdict != StatusConfirmed && verdict != StatusDismissed:
		return Item{}, &FieldError{"verdict", fmt.Sprintf("%q is not confirmed or dismissed", verdict)}
	case reason == "":
		return Item{}, &FieldError{"reason", "is required"}
	case len(reason) > MaxReason:
		return Item{}, &FieldError{"reason", fmt.Sprintf("is %d bytes, more than %d", len(reason), MaxReason)}
	case by == "":
		return Item{}, &FieldError{"by", "is empty"}
	}
	stored, err := s.store.Resolve(ctx, id, Resolution{Verdict: verdict, Reason: reason, By: by, At: s.stamp()})
	if err != nil {
		return Item{}, err
	}
	if stored.Verdict != verdict || stored.Reason != reason || stored.By != by {
		return Item{}, fmt.Errorf("%w: %s was %s by %s at %s", ErrResolved, id, stored.Verdict, stored.By, stored.At.Format(time.RFC3339))
	}
	return s.store.Get(ctx, id)
}
