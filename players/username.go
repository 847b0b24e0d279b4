package players

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Username rules, decided: a username is 3 to 32 characters of ASCII
// letters, digits, '_' and '-', starting with a letter. It is case-folded
// (stored and compared in lower case, so "Alice" and "alice" are one
// account), never changes once created, and is the player's key everywhere
// on the platform: URLs, games (black/white), the ledger and SGF PB/PW.
// ASCII only, so that no two different-looking names fold to one and a
// name is safe in a URL path without escaping.
const (
	UsernameMinLen = 3
	UsernameMaxLen = 32
)

// NormalizeUsername checks s against the username rules and returns its
// case-folded form, or a *FieldError saying what is wrong.
func NormalizeUsername(s string) (string, error) {
	n := len(s)
	if n < UsernameMinLen || n > UsernameMaxLen {
		return "", &FieldError{Field: "username", Reason: fmt.Sprintf("must be %d to %d characters, got %d", UsernameMinLen, UsernameMaxLen, utf8.RuneCountInString(s))}
	}
	// Check before folding: strings.ToLower maps some non-ASCII letters
	// (the Kelvin sign) onto ASCII ones.
	for i := 0; i < n; i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i == 0:
			return "", &FieldError{Field: "username", Reason: "must start with a letter a-z"}
		case '0' <= c && c <= '9', c == '_', c == '-':
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return "", &FieldError{Field: "username", Reason: fmt.Sprintf("character %q at byte %d is not allowed (use a-z, 0-9, _ or -)", r, i)}
		}
	}
	return strings.ToLower(s), nil
}

// Password rules, decided: 8 to 256 bytes of UTF-8, not the username.
// Long passphrases are welcome; the upper bound only keeps a request from
// feeding megabytes to the hash.
const (
	PasswordMinLen = 8
	PasswordMaxLen = 256
)

// CheckPassword returns a *FieldError when password breaks the rules for an
// account named username (already normalized).
func CheckPassword(username, password string) error {
	switch {
	case !utf8.ValidString(password):
		return &FieldError{Field: "password", Reason: "must be valid UTF-8"}
	case utf8.RuneCountInString(password) < PasswordMinLen:
		return &FieldError{Field: "password", Reason: fmt.Sprintf("must be at least %d characters", PasswordMinLen)}
	case len(password) > PasswordMaxLen:
		return &FieldError{Field: "password", Reason: fmt.Sprintf("must be at most %d bytes", PasswordMaxLen)}
	case strings.EqualFold(password, username):
		return &FieldError{Field: "password", Reason: "must not be the username"}
	}
	return nil
}
