package testsvc

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/embedded"
)

// DefaultPGURL is the PostgreSQL database the tests' FerretDB keeps its
// data in when neither RANK_TEST_PG_URL nor PGURLFile names one: the one
// .ci/services.sh creates on the machine's PostgreSQL (trust
// authentication on loopback).
const DefaultPGURL = "postgres://postgres@127.0.0.1:5432/rank_test"

// PGURLFile is where .ci/services.sh writes the URL of the database it
// made (on a PostgreSQL cluster of its own when the machine's does not
// let it in).
const PGURLFile = "/tmp/rank-test-pg.url"

// PGURL is the tests' PostgreSQL database: RANK_TEST_PG_URL, else what
// PGURLFile says, else DefaultPGURL.
func PGURL() string {
	if u := os.Getenv("RANK_TEST_PG_URL"); u != "" {
		return u
	}
	if b, err := os.ReadFile(PGURLFile); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return strings.TrimSpace(string(b))
	}
	return DefaultPGURL
}

var (
	pgOnce sync.Once
	pgURI  string
	pgErr  error
)

// FerretPGURI returns the URI of a MongoDB-compatible store server that
// is not embedded: FerretDB on PostgreSQL. It is RANK_TEST_FERRETPG_URI
// when set (the cmd/ferretpg process .ci/services.sh starts, a server
// of its own); else FerretDB's PostgreSQL handler started once in the
// test binary on PGURL(). Either way the
// data goes through the wire protocol into PostgreSQL. A PostgreSQL that
// cannot be reached fails the test, saying how to start it.
func FerretPGURI(t testing.TB) string {
	t.Helper()
	if uri := os.Getenv("RANK_TEST_FERRETPG_URI"); uri != "" {
		return uri
	}
	pgOnce.Do(func() {
		f, err := embedded.StartFerretPG(PGURL(), "", nil)
		if err != nil {
			pgErr = err
			return
		}
		pgURI = f.URI // ends with the test binary
		// FerretDB loads its catalogue of every database in PostgreSQL
		// on its first command; another test binary dropping one of
		// its databases meanwhile fails that load once (it is not
		// retried by FerretDB until the next command).
		for try := 0; ; try++ {
			if pgErr = listDatabases(pgURI); pgErr == nil || try == 4 {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
	if pgErr != nil {
		unavailable(t, "FerretDB on PostgreSQL: %v", pgErr)
	}
	return pgURI
}

// listDatabases sends a command that reaches PostgreSQL.
func listDatabases(uri string) error {
	c, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	defer func() { _ = c.Disconnect(ctx) }()
	_, err = c.ListDatabaseNames(ctx, bson.D{})
	return err
}
