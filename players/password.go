package players

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters for new hashes, decided: the OWASP password storage
// recommendation (19 MiB, 2 passes, 1 lane). Each hash records its own
// parameters, so raising these later keeps old hashes verifiable.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonSaltLen   = 16
	argonKeyLen    = 32
)

var b64 = base64.RawStdEncoding

// HashPassword returns the argon2id hash of password with a fresh random
// salt, in the PHC string format
// ($argon2id$v=19$m=19456,t=2,p=1$salt$hash).
func HashPassword(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemoryKiB, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

var errBadHash = errors.New("players: malformed password hash")

// VerifyPassword reports whether password matches the PHC-format hash,
// comparing in constant time. It errs only on a malformed hash.
func VerifyPassword(hash, password string) (bool, error) {
	var version int
	var mem, iters uint32
	var threads uint8
	if !strings.HasPrefix(hash, "$") {
		return false, errBadHash
	}
	parts := strings.Split(hash[1:], "$")
	if len(parts) != 5 || parts[0] != "argon2id" {
		return false, errBadHash
	}
	if _, err := fmt.Sscanf(parts[1], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	if _, err := fmt.Sscanf(parts[2], "m=%d,t=%d,p=%d", &mem, &iters, &threads); err != nil || mem == 0 || iters == 0 || threads == 0 {
		return false, errBadHash
	}
	salt, err := b64.DecodeString(parts[3])
	if err != nil {
		return false, errBadHash
	}
	want, err := b64.DecodeString(parts[4])
	if err != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(password), salt, iters, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
