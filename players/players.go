package players

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Role is what an account may do on the platform.
type Role string

// The roles. A player registers; the others are created by an admin.
const (
	RolePlayer  Role = "player"
	RoleTeacher Role = "teacher"
	RoleAdmin   Role = "admin"
	RoleServer  Role = "server" // an online play server's service account: submits games
)

// Roles lists every role, in the order documentation shows them.
var Roles = []Role{RolePlayer, RoleTeacher, RoleAdmin, RoleServer}

// CreatableRoles are the roles an admin may give a new account; players
// register themselves.
var CreatableRoles = []Role{RoleServer, RoleTeacher, RoleAdmin}

// Valid reports whether r is one of the roles.
func (r Role) Valid() bool {
	for _, x := range Roles {
		if r == x {
			return true
		}
	}
	return false
}

// Account is a stored account. Username is the case-folded key (see
// NormalizeUsername).
type Account struct {
	Username     string
	Role         Role
	PasswordHash string // PHC string, see HashPassword
	CreatedAt    time.Time
	CreatedBy    string // username of the admin who created it; "" when registered or bootstrapped
	// ManagedBy is the school (its id) that manages the account: a
	// child's account made by a teacher, without an e-mail, whose
	// password the school's teachers may reset. "" for accounts their
	// owners hold.
	ManagedBy string
	// DisplayName is what pages show for the player ("" for none; see
	// NormalizeDisplayName).
	DisplayName string
}

// Principal is the authenticated caller of a request.
type Principal struct {
	Username string
	Role     Role
}

// Is reports whether the caller has one of the roles.
func (p Principal) Is(roles ...Role) bool {
	for _, r := range roles {
		if p.Role == r {
			return true
		}
	}
	return false
}

// Token is a stored bearer token. Only the hash of the token is kept, so a
// copy of the store does not give anyone a session.
type Token struct {
	Hash      string // TokenHash of the secret
	Username  string
	Role      Role // the account's role when issued; a role change must revoke tokens
	IssuedAt  time.Time
	ExpiresAt time.Time
	RevokedAt time.Time // zero while valid
}

// IssuedToken is a new token as given to its owner: the only time the
// secret is seen.
type IssuedToken struct {
	Secret    string
	ExpiresAt time.Time
}

// Store keeps accounts and tokens. Implementations map their driver's errors
// to the sentinels below (ErrUsernameTaken, ErrNotFound), and connection trouble to an outage
// (internal/outage).
type Store interface {
	// CreateAccount stores a new account; ErrUsernameTaken if the username
	// exists.
	CreateAccount(ctx context.Context, a Account) error
	// CreateAccounts stores each account as CreateAccount would, in one
	// command (an archive's players, EnsurePlayers), and returns each
	// one's answer: nil, or ErrUsernameTaken when the username exists or
	// an earlier account of the call has it. The error is for the whole
	// call, which may have stored some.
	CreateAccounts(ctx context.Context, as []Account) ([]error, error)
	// Account returns the account; ErrNotFound if there is none.
	Account(ctx context.Context, username string) (Account, error)
	// CreateToken stores a token; ErrTokenTaken if the hash exists.
	CreateToken(ctx context.Context, t Token) error
	// Token returns the token with this hash; ErrNotFound if there is none.
	// Expired and revoked tokens are returned too: the caller decides.
	Token(ctx context.Context, hash string) (Token, error)
	// RevokeToken marks the token revoked at the given time unless it
	// already is (the first revocation time stays); ErrNotFound if there
	// is no such token.
	RevokeToken(ctx context.Context, hash string, at time.Time) error
	// SetPassword replaces the account's password hash; ErrNotFound if
	// there is no such account.
	SetPassword(ctx context.Context, username, hash string) error
	// RevokeTokens revokes every token of the account not revoked yet,
	// at the given time (tokens already revoked keep their time).
	RevokeTokens(ctx context.Context, username string, at time.Time) error
	// ClaimName claims a name key (NameKey) for the account: no error if
	// it is free or the account's already, ErrNameTaken if another
	// account holds it.
	ClaimName(ctx context.Context, key, username string) error
	// ReleaseName gives the key up if the account holds it (no error
	// otherwise).
	ReleaseName(ctx context.Context, key, username string) error
	// SetDisplayName replaces the account's display name ("" for none);
	// ErrNotFound if there is no such account.
	SetDisplayName(ctx context.Context, username, name string) error
	// CreateLink stores l unless the server's id is linked already, and
	// returns the stored link either way (the first link stays).
	CreateLink(ctx context.Context, l Link) (Link, error)
	// Link returns the link of the server's player id; ErrNotFound if
	// there is none.
	Link(ctx context.Context, server, externalID string) (Link, error)
	// Accounts lists accounts in username order: those after q.After, of
	// q.Role if set, whose username starts with q.Prefix, at most q.Limit
	// (the caller gives a positive limit).
	Accounts(ctx context.Context, q AccountQuery) ([]Account, error)
}

// AccountQuery selects a page of accounts (Store.Accounts).
type AccountQuery struct {
	After  string // usernames after this one ("" from the first)
	Role   Role   // "" for every role
	Prefix string // of the username, case-folded ("" for any)
	Limit  int
}

// Link ties a game server's own id of a player to a platform account,
// once: the server submits games with its ids (black_id, white_id), so a
// record's names (柯洁, a nickname) need not be usernames.
type Link struct {
	Server     string    `json:"server"`      // the game server's account
	ExternalID string    `json:"external_id"` // the server's id of the player
	Username   string    `json:"username"`    // the platform account
	At         time.Time `json:"at"`
}

// Limiter counts attempts in fixed windows aligned on the Unix epoch, so
// that every replica agrees on a window without talking to the others.
type Limiter interface {
	// Hit counts one attempt for key in the window of the given length that
	// contains now, and returns how many attempts that window holds.
	Hit(ctx context.Context, key string, now time.Time, window time.Duration) (int64, error)
	// Count returns how many attempts the window of key containing now
	// holds, without counting one.
	Count(ctx context.Context, key string, now time.Time, window time.Duration) (int64, error)
	// Reset forgets the attempts for key in the window that contains now.
	Reset(ctx context.Context, key string, now time.Time, window time.Duration) error
}

// Sentinels. Typed errors below unwrap to them; api maps them to HTTP.
var (
	ErrInvalid            = errors.New("invalid input")
	ErrNotFound           = errors.New("not found")
	ErrUsernameTaken      = errors.New("username taken")
	ErrTokenTaken         = errors.New("token hash taken")
	ErrInvalidCredentials = errors.New("wrong username or password")
	ErrUnauthenticated    = errors.New("token unknown, expired or revoked")
	ErrForbidden          = errors.New("not allowed for this caller")
	ErrRateLimited        = errors.New("too many attempts")
	// ErrNotManaged: the account is not managed by the school named.
	ErrNotManaged = errors.New("account not managed by this school")
	// ErrWrongPassword: a logged-in caller's current password is wrong
	// (ChangePassword). Not ErrInvalidCredentials, which is a failed login:
	// the caller here is known, only the password is refused.
	ErrWrongPassword = errors.New("the current password is wrong")
)

// FieldError says which input field is wrong and why. It unwraps to
// ErrInvalid.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Reason) }

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// RateLimitError says which limit was hit and when to try again. It
// unwraps to ErrRateLimited.
type RateLimitError struct {
	Scope      string // "account_address" (login), "address" (login, registration)
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	what := "this " + e.Scope
	if e.Scope == "account_address" {
		what = "this account from this address"
	}
	return fmt.Sprintf("too many attempts for %s; retry in %s", what, e.RetryAfter.Round(time.Second))
}

// Unwrap makes errors.Is(err, ErrRateLimited) true.
func (e *RateLimitError) Unwrap() error { return ErrRateLimited }

// ForbiddenError says what the caller lacked. It unwraps to ErrForbidden.
type ForbiddenError struct {
	Need []Role
	Have Role
}

func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("needs role %v, caller is %q", e.Need, e.Have)
}

// Unwrap makes errors.Is(err, ErrForbidden) true.
func (e *ForbiddenError) Unwrap() error { return ErrForbidden }
