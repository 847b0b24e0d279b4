package rating

import (
	"context"
	"time"
)

// AuditQuery selects a page of the audit trail (the ledger across
// players): entries newest first (by time, then by entry id), after the
// cursor when After is set, of one player and one cause when set, in
// [From, To) when set.
type AuditQuery struct {
	Player string
	Cause  string
	From   time.Time
	To     time.Time
	After  *AuditCursor
	Limit  int
}

// AuditCursor is the last entry of the previous page.
type AuditCursor struct {
	At       time.Time `json:"a"`
	Username string    `json:"u"`
	Seq      int64     `json:"s"`
}

// CursorOf is the cursor after e.
func CursorOf(e LedgerEntry) AuditCursor {
	return AuditCursor{At: e.At.UTC(), Username: e.Username, Seq: e.Seq}
}

// Audit returns a page of the audit trail.
func (s *Service) Audit(ctx context.Context, q AuditQuery) ([]LedgerEntry, error) {
	return s.store.Audit(ctx, q)
}
