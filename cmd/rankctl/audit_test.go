package main

import (
	"context"
	"encoding/json"
	"maps"
	"net/http/httptest"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

// ledger writes two games and an adjustment through the rating service.
func ledger(t *testing.T, db *mongo.Database) *rating.Service {
	t.Helper()
	ctx := context.Background()
	store, err := ratingdb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	svc := rating.NewService(store, rating.ServiceConfig{})
	for _, g := range []rating.GameInput{
		{ID: "g1", Black: "alice", White: "bob", Winner: rating.SideBlack, Game: rating.Game{Moves: 120}},
		{ID: "g2", Black: "bob", White: "alice", Winner: rating.SideBlack, Game: rating.Game{Moves: 80}},
	} {
		if _, err := svc.Apply(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	delta := 25
	if _, err := svc.Change(ctx, rating.ChangeInput{Key: "k", Player: "bob", Cause: rating.CauseAdjustment, Delta: &delta, Reason: "outage", Actor: "root"}); err != nil {
		t.Fatal(err)
	}
	return svc
}

// tamper edits a stored entry's fields behind the service's back: in its
// JSON text (s), where an entry keeps all but the queried ones.
func tamper(t *testing.T, db *mongo.Database, id string, fields map[string]any) {
	t.Helper()
	ctx := context.Background()
	var d struct {
		S string `bson:"s"`
	}
	if err := db.Collection(ratingdb.Log).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(d.S), &body); err != nil {
		t.Fatalf("%s: s %q: %v", id, d.S, err)
	}
	maps.Copy(body, fields)
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Collection(ratingdb.Log).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: bson.D{{Key: "s", Value: string(b)}}}}); err != nil {
		t.Fatal(err)
	}
}

func TestAuditVerifyStore(t *testing.T) {
	db := testsvc.Mongo(t)
	ledger(t, db)
	uri := testsvc.MongoURI(t)
	code, out, errs := runCtl("audit", "verify", "--mongo-uri", uri, "--mongo-db", db.Name())
	if code != exitOK || out != "verified 2 players, 5 ledger entries, 2 games: ok\n" {
		t.Fatalf("clean store: exit %d, %q, %q", code, out, errs)
	}
	tamper(t, db, ratingdb.EntryID("alice", 2), map[string]any{"delta": 40, "score_after": 45})
	code, out, _ = runCtl("audit", "verify", "--mongo-uri", uri, "--mongo-db", db.Name())
	if code != exitNo || !strings.Contains(out, "alice entry 2: chain: hash does not match its content") || !strings.Contains(out, "mismatches\n") {
		t.Fatalf("tampered store: exit %d, %q", code, out)
	}
	code, out, _ = runCtl("audit", "verify", "--json", "--mongo-uri", uri, "--mongo-db", db.Name())
	var rep verifyReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitNo || rep.OK || len(rep.Mismatches) == 0 {
		t.Fatalf("--json: exit %d, %+v, %v", code, rep, err)
	}
	for _, args := range [][]string{{"audit"}, {"audit", "check"}, {"audit", "verify", "extra"}, {"audit", "verify", "--url", "http://x"}} {
		if code, _, _ := runCtl(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// TestAuditVerifyRemote: against a running server (the real router on
// the real stores) with an admin's token; a player's token is refused.
func TestAuditVerifyRemote(t *testing.T) {
	ctx := context.Background()
	st := apptest.Real(t)
	db := st.DB
	ledger(t, db)
	accounts := st.Players
	if _, err := accounts.EnsureAdmin(ctx, "root", "a long admin secret"); err != nil {
		t.Fatal(err)
	}
	admin, err := accounts.Login(ctx, "root", "a long admin secret", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	_, player, err := accounts.Register(ctx, "carol", "a long player secret", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(st.Handler)
	defer hs.Close()

	code, out, errs := runCtl("audit", "verify", "--url", hs.URL, "--token", admin.Secret)
	if code != exitOK || !strings.HasSuffix(out, ": ok\n") {
		t.Fatalf("clean: exit %d, %q, %q", code, out, errs)
	}
	tamper(t, db, ratingdb.EntryID("bob", 3), map[string]any{"reason": "routine"})
	code, out, _ = runCtl("audit", "verify", "--url", hs.URL, "--token", admin.Secret)
	if code != exitNo || !strings.Contains(out, "bob entry 3: chain") {
		t.Fatalf("tampered: exit %d, %q", code, out)
	}
	code, _, errs = runCtl("audit", "verify", "--url", hs.URL, "--token", player.Secret)
	if code != exitUsage || !strings.Contains(errs, "403") {
		t.Fatalf("a player's token: exit %d, %q", code, errs)
	}
}

// TestAuditVerifyStoreWithKey: entries written with the audit key verify
// with it; the same store checked with another key reports each entry as
// forged (what a database writer without the key would produce).
func TestAuditVerifyStoreWithKey(t *testing.T) {
	db := testsvc.Mongo(t)
	ctx := context.Background()
	store, err := ratingdb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	const key = "the audit key of the rankctl test, 32+"
	svc := rating.NewService(store, rating.ServiceConfig{AuditKey: []byte(key)})
	if _, err := svc.Apply(ctx, rating.GameInput{ID: "g1", Black: "alice", White: "bob", Winner: rating.SideBlack, Game: rating.Game{Moves: 120}}); err != nil {
		t.Fatal(err)
	}
	uri := testsvc.MongoURI(t)
	if code, out, errs := runCtl("audit", "verify", "--mongo-uri", uri, "--mongo-db", db.Name(), "--audit-key", key); code != exitOK {
		t.Fatalf("with the key: exit %d, %q, %q", code, out, errs)
	}
	code, out, _ := runCtl("audit", "verify", "--mongo-uri", uri, "--mongo-db", db.Name(), "--audit-key", "another key that is long enough to use")
	if code != exitNo || !strings.Contains(out, "alice entry 1: key: its audit MAC does not match") {
		t.Fatalf("with another key: exit %d, %q", code, out)
	}
}
