// Package players owns accounts, roles, usernames, password hashing, bearer
// tokens and the login rate-limit policy, and managed accounts (managed.go:
// a school's children's accounts with generated usernames and first
// passwords, whose passwords the school may reset; Account.ManagedBy;
// MakeRecorded for a retried request whose usernames were recorded
// first), and
// the accounts an imported archive's players get (archive.go:
// EnsurePlayers, with a password nobody knows, made in one insert). Its
// stores are ports defined here (Store, Limiter) and implemented in adapter subpackages: playerdb (MongoDB
// driver) and playerredis (go-redis); playertest is the one contract suite
// every Store implementation must pass, with an in-memory Store held to it
// for tests.
//
// Login counts failures only (Service.Login): per account and address
// together (then that pair is refused), per address (then it is
// refused), and per account over all addresses (then each attempt waits,
// never refused), so nobody can lock another's account from elsewhere.
//
// A password is read one way at registration and at login: UTF-8 only
// (U+FFFD, what a decoder makes of other bytes, refused too), in NFC. At
// most maxHashesInFlight argon2id hashes (19 MiB each) run at once in the
// process; a caller waits up to hashWait for a slot, then gets a
// *BusyError (ErrBusy) with RetryAfter.
//
// A player changes their own password with the current one
// (ChangePassword: every session ends, a new token is given) and sets a
// display name (SetDisplayName, displayname.go): any Unicode letters in
// NFC, claimed under a look-alike key (UTS #39 skeleton, NameKey) that a
// username also claims, so no two accounts show names that look alike.
//
// It must not import gin, go-redis, the Mongo driver, cron or FerretDB, nor
// api, jobs or cmd.
package players
