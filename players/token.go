package players

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// TokenPrefix marks the platform's bearer tokens, so a leaked one is easy
// to recognise in logs and secret scanners.
const TokenPrefix = "rk_"

// tokenBytes of randomness make a token unguessable (256 bits).
const tokenBytes = 32

// newTokenSecret returns a fresh opaque bearer token.
func newTokenSecret() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return TokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// TokenHash is what the store keeps of a token: its SHA-256 in hex. A fast
// hash is enough because the token is 256 random bits, not a password.
func TokenHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// looksLikeToken rejects strings that cannot be a token before any store
// access.
func looksLikeToken(s string) bool {
	return strings.HasPrefix(s, TokenPrefix) && len(s) == len(TokenPrefix)+base64.RawURLEncoding.EncodedLen(tokenBytes)
}
