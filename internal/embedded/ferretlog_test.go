package embedded

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// syncBuffer is a log sink FerretDB's goroutines may write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// session runs FerretDB logging at level into a buffer, lets use talk to
// it through the driver, disconnects and stops, and returns the log.
func session(t *testing.T, level slog.Level, use func(ctx context.Context, db *mongo.Database)) string {
	t.Helper()
	var buf syncBuffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level}))
	f, err := StartFerret(t.TempDir(), log)
	if err != nil {
		t.Fatal(err)
	}
	talk(t, f, use)
	return buf.String()
}

// talk lets use talk to the running f through the driver, then
// disconnects and stops f.
func talk(t *testing.T, f *Ferret, use func(ctx context.Context, db *mongo.Database)) {
	t.Helper()
	defer f.Stop()
	ctx := context.Background()
	c, err := mongo.Connect(options.Client().ApplyURI(f.URI))
	if err != nil {
		t.Fatal(err)
	}
	use(ctx, c.Database("rank"))
	if err := c.Disconnect(ctx); err != nil {
		t.Error(err)
	}
}

// TestDebugLogHoldsNoCredential: at debug level, writing, finding and
// updating an account with a password hash and a token hash, and a command
// that fails with the hash in it, leave no trace of either hash in the log.
func TestDebugLogHoldsNoCredential(t *testing.T) {
	const (
		passwordHash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdFNBTFQ$UFdIQVNIcHdoYXNocHdoYXNo"
		tokenHash    = "7f3a9c0d2e5b8a1f4c6d9e0b3a5c7e9f"
	)
	log := session(t, slog.LevelDebug, func(ctx context.Context, db *mongo.Database) {
		accounts := db.Collection("players")
		if _, err := accounts.InsertOne(ctx, bson.M{"_id": "alice", "password_hash": passwordHash, "tokens": bson.A{bson.M{"hash": tokenHash}}}); err != nil {
			t.Fatal(err)
		}
		var got bson.M
		if err := accounts.FindOne(ctx, bson.M{"tokens.hash": tokenHash}).Decode(&got); err != nil || got["password_hash"] != passwordHash {
			t.Fatalf("find by token hash: %v %v", got, err)
		}
		if _, err := accounts.UpdateOne(ctx, bson.M{"_id": "alice"}, bson.M{"$set": bson.M{"password_hash": passwordHash + "x"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := accounts.InsertOne(ctx, bson.M{"_id": "alice", "password_hash": passwordHash}); err == nil {
			t.Fatal("a duplicate _id was written")
		}
		if err := db.RunCommand(ctx, bson.D{{Key: "noSuchCommand", Value: tokenHash}}).Err(); err == nil {
			t.Fatal("an unknown command succeeded")
		}
	})
	if !strings.Contains(log, "Listening on TCP") {
		t.Fatalf("FerretDB logged nothing at debug level, so the test shows nothing:\n%s", log)
	}
	for _, secret := range []string{passwordHash, "UFdIQVNIcHdoYXNocHdoYXNo", tokenHash, "c2FsdFNBTFQ"} {
		if strings.Contains(log, secret) {
			t.Errorf("the debug log holds %q:\n%s", secret, log)
		}
	}
	if !strings.Contains(log, "code=CommandNotFound") {
		t.Errorf("the failed command is not reported by its code:\n%s", log)
	}
}

// TestStopLogsNoWarning: a session that used the store, asked for a
// partial index (which FerretDB v1 refuses, and the caller does without)
// and disconnected (the driver then sends endSessions, which FerretDB v1
// does not know) logs no warning or error.
func TestStopLogsNoWarning(t *testing.T) {
	log := session(t, slog.LevelInfo, func(ctx context.Context, db *mongo.Database) {
		if _, err := db.Collection("c").InsertOne(ctx, bson.M{"_id": 1}); err != nil {
			t.Fatal(err)
		}
		_, err := db.Collection("c").Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "k", Value: 1}},
			Options: options.Index().SetPartialFilterExpression(bson.D{{Key: "k", Value: "e"}})})
		var ce mongo.CommandError
		if !errors.As(err, &ce) || ce.Name != "NotImplemented" {
			t.Fatalf("partial index: %v; want FerretDB v1's NotImplemented (else this test shows nothing)", err)
		}
	})
	if !strings.Contains(log, "Listening on TCP") {
		t.Fatalf("FerretDB logged nothing at info level, so the test shows nothing:\n%s", log)
	}
	for _, bad := range []string{"level=WARN", "level=ERROR", "endSessions"} {
		if strings.Contains(log, bad) {
			t.Errorf("the log holds %q:\n%s", bad, log)
		}
	}
}

// countingHandler counts the WithAttrs calls that reach it.
type countingHandler struct {
	slog.Handler
	withs *int
}

func (c countingHandler) WithAttrs(a []slog.Attr) slog.Handler {
	*c.withs++
	return countingHandler{c.Handler.WithAttrs(a), c.withs}
}

func (c countingHandler) WithGroup(n string) slog.Handler {
	return countingHandler{c.Handler.WithGroup(n), c.withs}
}

// FerretDB's per-statement loggers cost nothing until a record is
// written, and a written one carries every attribute in its group.
func TestFerretLogKeepsAttrsLazily(t *testing.T) {
	var buf bytes.Buffer
	withs := 0
	inner := countingHandler{slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}), &withs}
	log := slog.New(ferretLog{h: inner})
	for i := 0; i < 100; i++ {
		log.With("args", []any{`{"_id":"a","password_hash":"x"}`}).Debug(">>> INSERT")
	}
	if withs != 0 || buf.Len() != 0 {
		t.Fatalf("debug records with attributes: %d WithAttrs reached the handler, log %q; want none", withs, buf.String())
	}
	log.With("conn", "c1").WithGroup("g").With("k", 1).Warn("written")
	out := buf.String()
	if !strings.Contains(out, "conn=c1") || !strings.Contains(out, "g.k=1") || !strings.Contains(out, "written") {
		t.Fatalf("warning %q: want conn=c1 and g.k=1", out)
	}
}
