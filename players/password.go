package players

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
	"golang.org/x/text/unicode/norm"
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

// maxHashesInFlight is decided: at most one argon2id hash per core runs
// at once (GOMAXPROCS, which follows a container's CPU limit). A hash is
// CPU-bound on one thread (argonThreads), so more at once finish no
// sooner, and each holds argonMemoryKiB (19 MiB): 1,000 logins at once
// took rankd's peak memory to 2.3 GB before this bound.
var maxHashesInFlight = runtime.GOMAXPROCS(0)

// hashWait is decided: a request waits at most this long for a hash slot,
// then gets a *BusyError. A slot frees every few tens of milliseconds per
// core, so a burst of some dozens rides it out, and the answer comes well
// inside the server's write timeout.
const hashWait = 2 * time.Second

// busyRetryAfter is decided: what a *BusyError asks the client to wait,
// enough for the waiters ahead of it to be served.
const busyRetryAfter = time.Second

// ErrBusy matches a *BusyError.
var ErrBusy = errors.New("too many passwords being checked")

// BusyError: every hash slot stayed taken for hashWait; try again after
// RetryAfter. It unwraps to ErrBusy.
type BusyError struct{ RetryAfter time.Duration }

func (e *BusyError) Error() string {
	return fmt.Sprintf("too many passwords being checked at once; try again in %v", e.RetryAfter)
}

// Unwrap makes errors.Is(err, ErrBusy) true.
func (e *BusyError) Unwrap() error { return ErrBusy }

// hashGate bounds the hashes in flight: a slot per hash, a bounded wait.
type hashGate struct {
	slots    chan struct{}
	wait     time.Duration
	inFlight atomic.Int32
	// entered, when set, is called with the hashes in flight (this one
	// included) each time one starts: the tests' view of the bound.
	entered func(inFlight int)
}

func newHashGate(n int, wait time.Duration) *hashGate {
	return &hashGate{slots: make(chan struct{}, max(n, 1)), wait: wait}
}

// hashes is the process's gate: memory is the process's.
var hashes = newHashGate(maxHashesInFlight, hashWait)

// run runs f in a slot, waiting for one at most g.wait: then *BusyError,
// or ctx's error if ctx ends first.
func (g *hashGate) run(ctx context.Context, f func()) error {
	select {
	case g.slots <- struct{}{}:
	default:
		t := time.NewTimer(g.wait)
		defer t.Stop()
		select {
		case g.slots <- struct{}{}:
		case <-t.C:
			return &BusyError{RetryAfter: busyRetryAfter}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	defer func() { <-g.slots }()
	n := g.inFlight.Add(1)
	defer g.inFlight.Add(-1)
	if g.entered != nil {
		g.entered(int(n))
	}
	f()
	return nil
}

// normalizePassword is how a password is read, the same at registration
// and at login: text that is not UTF-8 is refused, and so is U+FFFD,
// which is what a JSON decoder makes of bytes that are not UTF-8 (so
// different byte strings would otherwise become one password); valid text
// is put in Unicode NFC, so that the composed and decomposed forms of one
// password (é as one code point or as e and an accent) are one password.
// Past maxReadPassword bytes it is refused too, so the hash is not fed
// megabytes at login.
func normalizePassword(password string) (string, error) {
	if len(password) > maxReadPassword {
		return "", &FieldError{Field: "password", Reason: fmt.Sprintf("is %d bytes, longer than any password can be (at most %d bytes)", len(password), PasswordMaxLen)}
	}
	if !utf8.ValidString(password) || strings.ContainsRune(password, utf8.RuneError) {
		return "", &FieldError{Field: "password", Reason: "must be valid UTF-8 text (bytes that are not UTF-8, and U+FFFD that stands for them, are refused)"}
	}
	return norm.NFC.String(password), nil
}

// maxReadPassword bounds a password as read (normalizePassword): 4 times
// PasswordMaxLen leaves room for a registered password typed in another
// Unicode normalisation form (decomposed, it takes more bytes).
const maxReadPassword = 4 * PasswordMaxLen

var b64 = base64.RawStdEncoding

// HashPassword returns the argon2id hash of password (normalised, see
// normalizePassword) with a fresh random salt, in the PHC string format
// ($argon2id$v=19$m=19456,t=2,p=1$salt$hash). A password that is not
// valid UTF-8 is a *FieldError; a *BusyError when all hash slots stayed
// taken.
func HashPassword(password string) (string, error) {
	return hashPassword(context.Background(), password)
}

func hashPassword(ctx context.Context, password string) (string, error) {
	p, err := normalizePassword(password)
	if err != nil {
		return "", err
	}
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	var key []byte
	if err := hashes.run(ctx, func() {
		key = argon2.IDKey([]byte(p), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	}); err != nil {
		return "", err
	}
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemoryKiB, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

var errBadHash = errors.New("players: malformed password hash")

// dummyHash is verified against when an account does not exist: a
// well-formed hash with the current parameters that no password matches
// (an all-zero key), so it costs what a real one does. Fixed, so that
// making it takes no hash slot.
var dummyHash = fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
	b64.EncodeToString(make([]byte, argonSaltLen)), b64.EncodeToString(make([]byte, argonKeyLen)))

// VerifyPassword reports whether password (normalised as by HashPassword)
// matches the PHC-format hash, comparing in constant time. It errs on a
// malformed hash, on a password that is not valid UTF-8 (*FieldError) and
// when all hash slots stayed taken (*BusyError).
func VerifyPassword(hash, password string) (bool, error) {
	return verifyPassword(context.Background(), hash, password)
}

func verifyPassword(ctx context.Context, hash, password string) (bool, error) {
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
	p, err := normalizePassword(password)
	if err != nil {
		return false, err
	}
	var got []byte
	if err := hashes.run(ctx, func() {
		got = argon2.IDKey([]byte(p), salt, iters, mem, threads, uint32(len(want)))
	}); err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
