package players

import (
	"context"
	"fmt"
	"strings"
)

// MaxAccountsPage bounds one page of Accounts (above the API's page of
// 500, which reads one row more to know whether another page follows).
const MaxAccountsPage = 1000

// Accounts lists a page of accounts for an admin, in username order (the
// admin's account list): q.After is where the page starts (exclusive),
// q.Role and q.Prefix filter it, q.Limit (1 to MaxAccountsPage) bounds
// it. The password hashes are left out. Anyone but an admin is a
// *ForbiddenError; a bad role, prefix or limit a *FieldError naming it.
func (s *Service) Accounts(ctx context.Context, by Principal, q AccountQuery) ([]Account, error) {
	if !by.Is(RoleAdmin) {
		return nil, &ForbiddenError{Need: []Role{RoleAdmin}, Have: by.Role}
	}
	if q.Role != "" && !q.Role.Valid() {
		return nil, &FieldError{Field: "role", Reason: fmt.Sprintf("must be one of %v, got %q", Roles, q.Role)}
	}
	if q.Limit < 1 || q.Limit > MaxAccountsPage {
		return nil, &FieldError{Field: "limit", Reason: fmt.Sprintf("must be from 1 to %d, got %d", MaxAccountsPage, q.Limit)}
	}
	if len(q.Prefix) > UsernameMaxLen {
		return nil, &FieldError{Field: "prefix", Reason: fmt.Sprintf("must be at most %d characters, got %d", UsernameMaxLen, len(q.Prefix))}
	}
	for i := 0; i < len(q.Prefix); i++ {
		c := q.Prefix[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return nil, &FieldError{Field: "prefix", Reason: "a username has only a-z, 0-9, _ and -"}
		}
	}
	q.Prefix, q.After = strings.ToLower(q.Prefix), strings.ToLower(q.After)
	list, err := s.store.Accounts(ctx, q)
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].PasswordHash = ""
	}
	return list, nil
}
