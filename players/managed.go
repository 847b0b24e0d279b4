package players

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Managed accounts (issue 13), decided: a teacher makes accounts for the
// children of a class in one request; each username is a base taken from
// the child's name (or "s") plus a random suffix, and each first password
// is random; both are shown once. The school (ManagedBy) may later reset
// the password.
const (
	// ManagedBatchMax bounds one request: a class's worth of children,
	// and about as many argon2id hashes as a request should wait for.
	ManagedBatchMax = 50
	// baseMax keeps a generated username short enough to type.
	baseMax = 12
	// suffixLen random characters follow the base: 31^5 ≈ 29 million
	// names per base, so a collision (retried) is rare.
	suffixLen = 5
	// passwordHalf: a first password is two halves joined by "-"
	// (about 49 bits), easy to copy from a printed sheet.
	passwordHalf = 5
	// generateTries bounds the retries of a taken generated username.
	generateTries = 8
)

// unambiguous is the alphabet of generated names and passwords: lower
// case letters and digits without 0/o, 1/l/i, which children misread.
const unambiguous = "23456789abcdefghjkmnpqrstuvwxyz"

// randomText returns n characters of the unambiguous alphabet.
func randomText(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("players: no randomness: " + err.Error())
	}
	for i := range b {
		b[i] = unambiguous[int(b[i])%len(unambiguous)] // 256 % 31 bias is negligible here
	}
	return string(b)
}

// UsernameBase is the base of a generated username for a child named
// name: its ASCII letters and digits in lower case, starting at its first
// letter, at most 12; "s" (student) when the name has no ASCII letter
// (张伟 gives "s").
func UsernameBase(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case b.Len() >= baseMax:
		case 'a' <= r && r <= 'z':
			b.WriteRune(r)
		case '0' <= r && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "s"
	}
	return b.String()
}

// ManagedAccount is a new managed account with its first password, the
// only time the password is seen.
type ManagedAccount struct {
	Account
	Password string
}

// CreateManaged makes one managed player account per name, managed by
// school and created by the teacher by. The names are not checked here
// (schools does: each child's name is the school's record); each gives a
// username base (UsernameBase). Accounts are made one after the other:
// an error leaves those made before it (their usernames in the answer,
// with the error).
func (s *Service) CreateManaged(ctx context.Context, school, by string, names []string) ([]ManagedAccount, error) {
	if school == "" {
		return nil, &FieldError{Field: "school", Reason: "is required"}
	}
	if len(names) > ManagedBatchMax {
		return nil, &FieldError{Field: "names", Reason: fmt.Sprintf("at most %d accounts per request, got %d", ManagedBatchMax, len(names))}
	}
	passwords, hashes, err := firstPasswords(ctx, len(names))
	if err != nil {
		return nil, err
	}
	out := make([]ManagedAccount, 0, len(names))
	for i, name := range names {
		a, err := s.createGenerated(ctx, UsernameBase(name), hashes[i], school, by)
		if err != nil {
			return out, err
		}
		out = append(out, ManagedAccount{Account: a, Password: passwords[i]})
	}
	return out, nil
}

// firstPasswords draws n first passwords and hashes them in parallel
// (argon2id is the cost).
func firstPasswords(ctx context.Context, n int) (passwords, hashes []string, err error) {
	passwords, hashes = make([]string, n), make([]string, n)
	errs := make([]error, n)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range n {
		passwords[i] = randomText(passwordHalf) + "-" + randomText(passwordHalf)
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			hashes[i], errs[i] = hashPassword(ctx, passwords[i])
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	return passwords, hashes, nil
}

// ManagedUsername draws a username for a child named name, as
// CreateManaged does (UsernameBase, a random suffix), without making
// the account: a request keyed by an Idempotency-Key records its
// usernames before it makes them (schools.Service.AddManaged).
func ManagedUsername(name string) (string, error) {
	return NormalizeUsername(UsernameBase(name) + "-" + randomText(suffixLen))
}

// MadeBy reports whether a is a managed account of school made by the
// teacher by, not before since (less MadeBySkew): one a keyed request
// for managed accounts made (its usernames are recorded first and drawn
// at random).
func MadeBy(a Account, school, by string, since time.Time) bool {
	return a.ManagedBy == school && school != "" && a.CreatedBy == by && !a.CreatedAt.Before(since.Add(-MadeBySkew))
}

// MadeBySkew is decided: how far behind the clock of the replica that
// recorded a request the clock of the one making its accounts may be.
// The usernames were free when recorded, so an account under one made
// earlier than this is no one's try of the request.
const MadeBySkew = time.Minute

// MakeRecorded makes the accounts of a keyed request whose usernames
// were recorded first: each username not taken becomes a managed account
// of school made by by, with a first password (returned, shown once).
// One that exists and is MadeBy the request (an earlier try, or one
// running beside this one, made it) is returned with no password and is
// not touched: a retry never changes a password, so every password a
// try shows works. A username another account holds is ErrNotManaged,
// naming it: found before any account is made, nothing is made; found
// while they are made (taken in between), those made before it stay.
func (s *Service) MakeRecorded(ctx context.Context, school, by string, usernames []string, since time.Time) ([]ManagedAccount, error) {
	if school == "" {
		return nil, &FieldError{Field: "school", Reason: "is required"}
	}
	if len(usernames) > ManagedBatchMax {
		return nil, &FieldError{Field: "usernames", Reason: fmt.Sprintf("at most %d accounts per request, got %d", ManagedBatchMax, len(usernames))}
	}
	out := make([]ManagedAccount, len(usernames))
	var missing []int
	for i, u := range usernames {
		name, err := NormalizeUsername(u)
		if err != nil {
			return nil, err
		}
		a, err := s.store.Account(ctx, name)
		switch {
		case errors.Is(err, ErrNotFound):
			out[i].Username = name
			missing = append(missing, i)
		case err != nil:
			return nil, err
		case !MadeBy(a, school, by, since):
			return nil, fmt.Errorf("%w: %s", ErrNotManaged, name)
		default:
			a.PasswordHash = ""
			out[i] = ManagedAccount{Account: a}
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	passwords, hashes, err := firstPasswords(ctx, len(missing))
	if err != nil {
		return nil, err
	}
	for j, i := range missing {
		name := out[i].Username
		a := Account{Username: name, Role: RolePlayer, PasswordHash: hashes[j], CreatedAt: s.now(), CreatedBy: by, ManagedBy: school}
		err := s.store.CreateAccount(ctx, a)
		if err == nil {
			s.claimUsername(ctx, name)
			out[i] = ManagedAccount{Account: a, Password: passwords[j]}
			continue
		}
		if !errors.Is(err, ErrUsernameTaken) {
			return nil, err
		}
		// Taken meanwhile: by a try of the same request beside this one
		// (its password is that try's to show), or by someone else.
		old, err := s.store.Account(ctx, name)
		if err != nil {
			return nil, err
		}
		if !MadeBy(old, school, by, since) {
			return nil, fmt.Errorf("%w: %s", ErrNotManaged, name)
		}
		old.PasswordHash = ""
		out[i] = ManagedAccount{Account: old}
	}
	return out, nil
}

// createGenerated stores a player account under base-<random>, trying
// another suffix when one is taken.
func (s *Service) createGenerated(ctx context.Context, base, hash, school, by string) (Account, error) {
	for range generateTries {
		name, err := NormalizeUsername(base + "-" + randomText(suffixLen))
		if err != nil {
			return Account{}, err
		}
		a := Account{Username: name, Role: RolePlayer, PasswordHash: hash, CreatedAt: s.now(), CreatedBy: by, ManagedBy: school}
		err = s.store.CreateAccount(ctx, a)
		if errors.Is(err, ErrUsernameTaken) {
			continue
		}
		if err == nil {
			s.claimUsername(ctx, a.Username)
		}
		return a, err
	}
	return Account{}, fmt.Errorf("%w: no free username for base %q after %d tries", ErrUsernameTaken, base, generateTries)
}

// Account returns a stored account; ErrNotFound if there is none (or the
// name is malformed).
func (s *Service) Account(ctx context.Context, username string) (Account, error) {
	name, err := NormalizeUsername(username)
	if err != nil {
		return Account{}, fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	return s.store.Account(ctx, name)
}

// ResetPassword gives a managed account a new random password, which it
// returns (shown once), and revokes every token of the account, so a
// session on a shared computer ends. Only the managing school may:
// another school's, or an account its owner holds, is ErrNotManaged.
func (s *Service) ResetPassword(ctx context.Context, username, school string) (string, error) {
	a, err := s.Account(ctx, username)
	if err != nil {
		return "", err
	}
	if a.ManagedBy == "" || a.ManagedBy != school {
		return "", fmt.Errorf("%w: %s", ErrNotManaged, a.Username)
	}
	password := randomText(passwordHalf) + "-" + randomText(passwordHalf)
	hash, err := hashPassword(ctx, password)
	if err != nil {
		return "", err
	}
	if err := s.store.SetPassword(ctx, a.Username, hash); err != nil {
		return "", err
	}
	if err := s.store.RevokeTokens(ctx, a.Username, s.now()); err != nil {
		return "", err
	}
	s.forget(a.Username)
	return password, nil
}
