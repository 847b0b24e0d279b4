package players

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/unicode/norm"
)

// Display name rules, decided: a display name is what pages show for a
// player (柯洁, Lee Sedol, Иван): 1 to 32 characters after NFC
// normalisation of Unicode letters, combining marks, decimal digits and
// single spaces between words, with at least one letter. It may change;
// the username stays the key everywhere. Two names that look alike (the
// same UTS #39 skeleton, case-folded, spaces ignored) belong to one
// account at most, and a display name may not look like another
// account's username: "pаul" with a Cyrillic а is refused when paul
// exists.
const (
	DisplayNameMaxLen = 32
	// maxDisplayInput bounds the bytes read before normalising.
	maxDisplayInput = 1024
)

// ErrNameTaken matches *NameTakenError.
var ErrNameTaken = errors.New("display name taken")

// NameTakenError: the display name looks like a name another account
// holds (its display name or its username).
type NameTakenError struct {
	Name string // the name asked for, normalised
}

func (e *NameTakenError) Error() string {
	return fmt.Sprintf("display name %q looks like a name another account holds", e.Name)
}

// Unwrap gives ErrNameTaken.
func (e *NameTakenError) Unwrap() error { return ErrNameTaken }

// NormalizeDisplayName checks s against the display name rules and
// returns its normal form (NFC, spaces trimmed and single), or a
// *FieldError on "display_name" saying what is wrong.
func NormalizeDisplayName(s string) (string, error) {
	fail := func(format string, args ...any) (string, error) {
		return "", &FieldError{Field: "display_name", Reason: fmt.Sprintf(format, args...)}
	}
	if !utf8.ValidString(s) {
		return fail("must be valid UTF-8")
	}
	if len(s) > maxDisplayInput {
		return fail("must be 1 to %d characters", DisplayNameMaxLen)
	}
	n := strings.Join(strings.Fields(norm.NFC.String(s)), " ")
	letters := 0
	for i, r := range n {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsMark(r), unicode.Is(unicode.Nd, r), r == ' ':
		default:
			return fail("character %q at byte %d is not allowed (letters, marks, digits and spaces)", r, i)
		}
	}
	if c := utf8.RuneCountInString(n); c == 0 || c > DisplayNameMaxLen {
		return fail("must be 1 to %d characters, got %d", DisplayNameMaxLen, c)
	}
	if letters == 0 {
		return fail("must hold at least one letter")
	}
	if m, _ := utf8.DecodeRuneInString(n); unicode.IsMark(m) {
		return fail("may not start with a combining mark")
	}
	return n, nil
}

// NameKey is the key two names that look alike share: the UTS #39
// skeleton of the name without spaces, NFKC (full-width letters are
// letters) and case-folded, then NFC. Usernames have
// one too, so a display name is checked against them.
func NameKey(name string) string {
	folded := strings.ToLower(norm.NFKC.String(strings.Join(strings.Fields(name), "")))
	// Skeleton maps confusables (Cyrillic а → a, ０ → 0, rn → m's
	// skeleton) and leaves NFD; fold again after it, since a mapped
	// letter may be upper case.
	return norm.NFC.String(strings.ToLower(confusables.Skeleton(folded)))
}

// SetDisplayName gives the caller's account a display name (see
// NormalizeDisplayName), or takes it away with "". A name that looks like
// one another account holds (display name or username) is a
// *NameTakenError. The name is claimed first under its NameKey (an
// insert: one account wins a race), then set, then the old claim goes;
// a crash between leaves at most a claim of one's own behind.
func (s *Service) SetDisplayName(ctx context.Context, username, name string) (Account, error) {
	a, err := s.Account(ctx, username)
	if err != nil {
		return Account{}, err
	}
	if name == "" {
		if err := s.store.SetDisplayName(ctx, a.Username, ""); err != nil {
			return Account{}, err
		}
		if a.DisplayName != "" {
			if err := s.store.ReleaseName(ctx, NameKey(a.DisplayName), a.Username); err != nil {
				return Account{}, err
			}
		}
		a.DisplayName = ""
		return a, nil
	}
	n, err := NormalizeDisplayName(name)
	if err != nil {
		return Account{}, err
	}
	key := NameKey(n)
	// Accounts from before display names hold no claim of their
	// username: a key that is a username form is looked up too.
	if u, err := NormalizeUsername(key); err == nil && u != a.Username {
		switch _, err := s.store.Account(ctx, u); {
		case err == nil:
			return Account{}, &NameTakenError{Name: n}
		case !errors.Is(err, ErrNotFound):
			return Account{}, err
		}
	}
	if err := s.store.ClaimName(ctx, key, a.Username); err != nil {
		if errors.Is(err, ErrNameTaken) {
			return Account{}, &NameTakenError{Name: n}
		}
		return Account{}, err
	}
	if err := s.store.SetDisplayName(ctx, a.Username, n); err != nil {
		return Account{}, err
	}
	if old := a.DisplayName; old != "" && NameKey(old) != key {
		if err := s.store.ReleaseName(ctx, NameKey(old), a.Username); err != nil {
			return Account{}, err
		}
	}
	a.DisplayName = n
	return a, nil
}

// claimUsername claims a new account's username's key, so that no display
// name looks like it later. Best effort, after the account is stored: a
// key claimed already (a look-alike display name, or a username of the
// same skeleton) is left as it is, since usernames are ASCII and decided
// by their own rules; a store error leaves the account as it is too
// (failing the registration of a stored account would only make its
// retry a username_taken), and SetDisplayName still looks the key up as
// a username.
func (s *Service) claimUsername(ctx context.Context, username string) {
	_ = s.store.ClaimName(ctx, NameKey(username), username)
}

// ChangePassword sets the caller's own password, given the current one:
// a wrong current password is ErrWrongPassword, a new one that
// breaks the rules a *FieldError on "new_password". Every token of the
// account is revoked (every other session ends) and a new token is
// issued for the caller, who stays logged in with it. Wrong guesses count
// against the account's login limit.
func (s *Service) ChangePassword(ctx context.Context, username, current, next string) (IssuedToken, error) {
	a, err := s.Account(ctx, username)
	if err != nil {
		return IssuedToken{}, err
	}
	cur, err := normalizePassword(current)
	if err != nil {
		return IssuedToken{}, ErrWrongPassword
	}
	// Guesses of the current password count with the account's login
	// attempts (a stolen token does not give unlimited guesses).
	accountKey := "login:account:" + a.Username
	if s.limiter != nil {
		if err := s.limit(ctx, accountKey, "account", s.cfg.LoginLimitAccount); err != nil {
			return IssuedToken{}, err
		}
	}
	ok, err := verifyPassword(ctx, a.PasswordHash, cur)
	if err != nil {
		return IssuedToken{}, err
	}
	if !ok {
		return IssuedToken{}, ErrWrongPassword
	}
	p, err := checkNewPassword(a.Username, next)
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			return IssuedToken{}, &FieldError{Field: "new_password", Reason: fe.Reason}
		}
		return IssuedToken{}, err
	}
	hash, err := hashPassword(ctx, p)
	if err != nil {
		return IssuedToken{}, err
	}
	if err := s.store.SetPassword(ctx, a.Username, hash); err != nil {
		return IssuedToken{}, err
	}
	if err := s.store.RevokeTokens(ctx, a.Username, s.now()); err != nil {
		return IssuedToken{}, err
	}
	s.forget(a.Username)
	return s.issue(ctx, a)
}

// forget drops the cached tokens of the account.
func (s *Service) forget(username string) {
	s.mu.Lock()
	for h, c := range s.tokens {
		if c.p.Username == username {
			delete(s.tokens, h)
		}
	}
	s.mu.Unlock()
}
