package schools

import (
	"crypto/rand"
	"strings"
)

// Invite codes, decided: 8 characters of an alphabet without the look-
// alikes 0/O, 1/I/L (31^8 ≈ 850 billion codes), shown and read in upper
// case; spaces and dashes a person types are ignored.
const (
	CodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	CodeLength   = 8
	// codeTries bounds the retries of a code that is taken.
	codeTries = 8
)

// NewCode returns a fresh random code.
func NewCode() string {
	b := make([]byte, CodeLength)
	if _, err := rand.Read(b); err != nil {
		panic("schools: no randomness: " + err.Error())
	}
	for i := range b {
		b[i] = CodeAlphabet[int(b[i])%len(CodeAlphabet)]
	}
	return string(b)
}

// NormalizeCode reads a code as a person may type it (lower case,
// spaces, dashes); ok is false when it cannot be a code.
func NormalizeCode(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.ToUpper(strings.TrimSpace(s)))
	if len(s) != CodeLength {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(CodeAlphabet, rune(s[i])) {
			return "", false
		}
	}
	return s, true
}

// newID returns a random id of n characters of the code alphabet in
// lower case (school and class ids, and write ids).
func newID(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("schools: no randomness: " + err.Error())
	}
	for i := range b {
		b[i] = strings.ToLower(CodeAlphabet)[int(b[i])%len(CodeAlphabet)]
	}
	return string(b)
}
