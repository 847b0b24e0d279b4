package playerdb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/mongox"
	"github.com/weiqi-platform/rank/players"
)

// Collection names.
const (
	Accounts = "accounts"
	Tokens   = "tokens"
	// Links ties game servers' player ids to accounts, one document per
	// server and id (an insert: the first link stays).
	Links = "player_links"
	// Names holds the name keys (players.NameKey) claimed by accounts,
	// one document per key (an insert: one account wins).
	Names = "player_names"
)

// Store is a players.Store on a Mongo database.
type Store struct {
	accounts *mongo.Collection
	tokens   *mongo.Collection
	links    *mongo.Collection
	names    *mongo.Collection
}

var _ players.Store = (*Store)(nil)

// New returns a Store on db after making sure its indexes exist.
func New(ctx context.Context, db *mongo.Database) (*Store, error) {
	s := &Store{accounts: db.Collection(Accounts), tokens: db.Collection(Tokens), links: db.Collection(Links), names: db.Collection(Names)}
	// The _id indexes make usernames and token hashes unique; these serve
	// a player's tokens (revoking all of them) and clearing expired ones.
	// One call per index: FerretDB v1 panics on a createIndexes of several
	// indexes that already exist. No TTL index: FerretDB v1 has none, so
	// expired tokens are refused by players.Service and purged by a job.
	for _, m := range []mongo.IndexModel{
		{Keys: bson.D{{Key: "username", Value: 1}}, Options: options.Index().SetName("username")},
		{Keys: bson.D{{Key: "expires_at", Value: 1}}, Options: options.Index().SetName("expires_at")},
	} {
		if _, err := s.tokens.Indexes().CreateOne(ctx, m); err != nil {
			return nil, wrap("create token indexes", err)
		}
	}
	return s, nil
}

// accountDoc is the stored form of players.Account.
type accountDoc struct {
	Username     string    `bson:"_id"`
	Role         string    `bson:"role"`
	PasswordHash string    `bson:"password_hash"`
	CreatedAt    time.Time `bson:"created_at"`
	CreatedBy    string    `bson:"created_by,omitempty"`
	ManagedBy    string    `bson:"managed_by,omitempty"`
	DisplayName  string    `bson:"display_name,omitempty"`
}

func toAccountDoc(a players.Account) accountDoc {
	return accountDoc{Username: a.Username, Role: string(a.Role), PasswordHash: a.PasswordHash, CreatedAt: a.CreatedAt.UTC(), CreatedBy: a.CreatedBy, ManagedBy: a.ManagedBy, DisplayName: a.DisplayName}
}

func (d accountDoc) account() players.Account {
	return players.Account{Username: d.Username, Role: players.Role(d.Role), PasswordHash: d.PasswordHash, CreatedAt: d.CreatedAt.UTC(), CreatedBy: d.CreatedBy, ManagedBy: d.ManagedBy, DisplayName: d.DisplayName}
}

// tokenDoc is the stored form of players.Token.
type tokenDoc struct {
	Hash      string     `bson:"_id"`
	Username  string     `bson:"username"`
	Role      string     `bson:"role"`
	IssuedAt  time.Time  `bson:"issued_at"`
	ExpiresAt time.Time  `bson:"expires_at"`
	RevokedAt *time.Time `bson:"revoked_at,omitempty"`
}

func toTokenDoc(t players.Token) tokenDoc {
	d := tokenDoc{Hash: t.Hash, Username: t.Username, Role: string(t.Role), IssuedAt: t.IssuedAt.UTC(), ExpiresAt: t.ExpiresAt.UTC()}
	if !t.RevokedAt.IsZero() {
		r := t.RevokedAt.UTC()
		d.RevokedAt = &r
	}
	return d
}

func (d tokenDoc) token() players.Token {
	t := players.Token{Hash: d.Hash, Username: d.Username, Role: players.Role(d.Role), IssuedAt: d.IssuedAt.UTC(), ExpiresAt: d.ExpiresAt.UTC()}
	if d.RevokedAt != nil {
		t.RevokedAt = d.RevokedAt.UTC()
	}
	return t
}

// CreateAccount implements players.Store.
func (s *Store) CreateAccount(ctx context.Context, a players.Account) error {
	_, err := s.accounts.InsertOne(ctx, toAccountDoc(a))
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("%w: %q", players.ErrUsernameTaken, a.Username)
	}
	return wrap("create account", err)
}

// CreateAccounts implements players.Store: one unordered insert.
func (s *Store) CreateAccounts(ctx context.Context, as []players.Account) ([]error, error) {
	docs := make([]any, len(as))
	for i, a := range as {
		docs[i] = toAccountDoc(a)
	}
	out := mongox.InsertMany(ctx, s.accounts, docs)
	for i, err := range out {
		switch {
		case mongo.IsDuplicateKeyError(err):
			out[i] = fmt.Errorf("%w: %q", players.ErrUsernameTaken, as[i].Username)
		case err != nil:
			return nil, wrap("create accounts", err)
		}
	}
	return out, nil
}

// Account implements players.Store.
func (s *Store) Account(ctx context.Context, username string) (players.Account, error) {
	var d accountDoc
	err := s.accounts.FindOne(ctx, bson.D{{Key: "_id", Value: username}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return players.Account{}, fmt.Errorf("account %q: %w", username, players.ErrNotFound)
	}
	if err != nil {
		return players.Account{}, wrap("read account", err)
	}
	return d.account(), nil
}

// Accounts implements players.Store: one range read on _id (the
// username), filtered by role.
func (s *Store) Accounts(ctx context.Context, q players.AccountQuery) ([]players.Account, error) {
	id := bson.D{}
	if q.After != "" {
		id = append(id, bson.E{Key: "$gt", Value: q.After})
	}
	if q.Prefix != "" {
		// Usernames are ASCII: every one starting with the prefix sorts
		// below prefix + U+FFFF.
		id = append(id, bson.E{Key: "$gte", Value: q.Prefix}, bson.E{Key: "$lt", Value: q.Prefix + "\uffff"})
	}
	filter := bson.D{}
	if len(id) > 0 {
		filter = append(filter, bson.E{Key: "_id", Value: id})
	}
	if q.Role != "" {
		filter = append(filter, bson.E{Key: "role", Value: string(q.Role)})
	}
	cur, err := s.accounts.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(q.Limit)))
	if err != nil {
		return nil, wrap("list accounts", err)
	}
	var docs []accountDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("list accounts", err)
	}
	out := make([]players.Account, len(docs))
	for i, d := range docs {
		out[i] = d.account()
	}
	return out, nil
}

// CreateToken implements players.Store.
func (s *Store) CreateToken(ctx context.Context, t players.Token) error {
	_, err := s.tokens.InsertOne(ctx, toTokenDoc(t))
	if mongo.IsDuplicateKeyError(err) {
		return players.ErrTokenTaken
	}
	return wrap("create token", err)
}

// Token implements players.Store.
func (s *Store) Token(ctx context.Context, hash string) (players.Token, error) {
	var d tokenDoc
	err := s.tokens.FindOne(ctx, bson.D{{Key: "_id", Value: hash}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return players.Token{}, players.ErrNotFound
	}
	if err != nil {
		return players.Token{}, wrap("read token", err)
	}
	return d.token(), nil
}

// RevokeToken implements players.Store. One conditional update: the first
// revocation time is kept, and a second call changes nothing.
func (s *Store) RevokeToken(ctx context.Context, hash string, at time.Time) error {
	res, err := s.tokens.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: hash}, {Key: "revoked_at", Value: bson.D{{Key: "$exists", Value: false}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "revoked_at", Value: at.UTC()}}}})
	if err != nil {
		return wrap("revoke token", err)
	}
	if res.MatchedCount == 1 {
		return nil
	}
	// Either already revoked (fine) or absent.
	n, err := s.tokens.CountDocuments(ctx, bson.D{{Key: "_id", Value: hash}})
	if err != nil {
		return wrap("revoke token", err)
	}
	if n == 0 {
		return players.ErrNotFound
	}
	return nil
}

// SetPassword implements players.Store: an update by _id (a plain
// replacement of one field; nothing is decided by it).
func (s *Store) SetPassword(ctx context.Context, username, hash string) error {
	res, err := s.accounts.UpdateOne(ctx, bson.D{{Key: "_id", Value: username}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "password_hash", Value: hash}}}})
	if err != nil {
		return wrap("set password", err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("account %q: %w", username, players.ErrNotFound)
	}
	return nil
}

// RevokeTokens implements players.Store, served by the username index.
// A token issued while it runs may escape it; callers revoke after the
// change that makes old tokens wrong (a new password), so such a token
// was issued with the new one.
func (s *Store) RevokeTokens(ctx context.Context, username string, at time.Time) error {
	_, err := s.tokens.UpdateMany(ctx,
		bson.D{{Key: "username", Value: username}, {Key: "revoked_at", Value: bson.D{{Key: "$exists", Value: false}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "revoked_at", Value: at.UTC()}}}})
	return wrap("revoke tokens", err)
}

// wrap keeps the driver error for logs and marks network trouble as
// an outage (internal/outage), which api shows as 503 without the driver text.
func wrap(op string, err error) error {
	return mongox.Wrap("playerdb", op, err)
}

type linkDoc struct {
	ID         string    `bson:"_id"` // server + "/" + external id
	Server     string    `bson:"server"`
	ExternalID string    `bson:"external_id"`
	Username   string    `bson:"username"`
	At         time.Time `bson:"at"`
}

func linkID(server, externalID string) string { return server + "/" + externalID }

// CreateLink implements players.Store: an insert under the server and id.
func (s *Store) CreateLink(ctx context.Context, l players.Link) (players.Link, error) {
	_, err := s.links.InsertOne(ctx, linkDoc{ID: linkID(l.Server, l.ExternalID), Server: l.Server, ExternalID: l.ExternalID, Username: l.Username, At: l.At.UTC()})
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return players.Link{}, wrap("create link", err)
	}
	return s.Link(ctx, l.Server, l.ExternalID)
}

// Link implements players.Store.
func (s *Store) Link(ctx context.Context, server, externalID string) (players.Link, error) {
	var d linkDoc
	err := s.links.FindOne(ctx, bson.D{{Key: "_id", Value: linkID(server, externalID)}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return players.Link{}, fmt.Errorf("link %s/%s: %w", server, externalID, players.ErrNotFound)
	}
	if err != nil {
		return players.Link{}, wrap("read link", err)
	}
	return players.Link{Server: d.Server, ExternalID: d.ExternalID, Username: d.Username, At: d.At.UTC()}, nil
}

// nameDoc is a claimed name key.
type nameDoc struct {
	Key      string `bson:"_id"`
	Username string `bson:"username"`
}

// ClaimName implements players.Store: an insert under the key; a
// duplicate is the account's own claim or another's.
func (s *Store) ClaimName(ctx context.Context, key, username string) error {
	_, err := s.names.InsertOne(ctx, nameDoc{Key: key, Username: username})
	if !mongo.IsDuplicateKeyError(err) {
		return wrap("claim name", err)
	}
	var d nameDoc
	if err := s.names.FindOne(ctx, bson.D{{Key: "_id", Value: key}}).Decode(&d); err != nil {
		if errors.Is(err, mongo.ErrNoDocuments) { // released meanwhile: try again
			return s.ClaimName(ctx, key, username)
		}
		return wrap("read name claim", err)
	}
	if d.Username != username {
		return fmt.Errorf("name key %q: %w", key, players.ErrNameTaken)
	}
	return nil
}

// ReleaseName implements players.Store.
func (s *Store) ReleaseName(ctx context.Context, key, username string) error {
	_, err := s.names.DeleteOne(ctx, bson.D{{Key: "_id", Value: key}, {Key: "username", Value: username}})
	return wrap("release name", err)
}

// SetDisplayName implements players.Store: an update by _id.
func (s *Store) SetDisplayName(ctx context.Context, username, name string) error {
	set := bson.D{{Key: "$set", Value: bson.D{{Key: "display_name", Value: name}}}}
	if name == "" {
		set = bson.D{{Key: "$unset", Value: bson.D{{Key: "display_name", Value: ""}}}}
	}
	res, err := s.accounts.UpdateOne(ctx, bson.D{{Key: "_id", Value: username}}, set)
	if err != nil {
		return wrap("set display name", err)
	}
	if res.MatchedCount == 0 {
		return fmt.Errorf("account %q: %w", username, players.ErrNotFound)
	}
	return nil
}
