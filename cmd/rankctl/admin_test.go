package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/cmd/internal/wire"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playerdb"
)

// withEnv makes admin create see env and stdin for one test.
func withEnv(t *testing.T, env map[string]string, stdin string) {
	t.Helper()
	oldEnv, oldIn := adminGetenv, adminStdin
	adminGetenv = func(k string) string { return env[k] }
	adminStdin = strings.NewReader(stdin)
	t.Cleanup(func() { adminGetenv, adminStdin = oldEnv, oldIn })
}

func runCtl(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// account reads an account back through the store.
func account(t *testing.T, uri, db, dataDir, name string) players.Account {
	t.Helper()
	m, err := wire.OpenMongo(context.Background(), uri, db, dataDir, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = m.Close(context.Background()) }()
	s, err := playerdb.New(context.Background(), m.DB)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Account(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestAdminCreateEmbedded: on the embedded store under a data dir, as a
// first deployment would; idempotent.
func TestAdminCreateEmbedded(t *testing.T) {
	dir := t.TempDir()
	withEnv(t, map[string]string{"RANK_ADMIN_PASSWORD": "change-me-now"}, "")
	code, out, errs := runCtl("admin", "create", "--username", "Root", "--data-dir", dir)
	if code != exitOK || out != "created admin root\n" {
		t.Fatalf("first run: exit %d, %q, %q", code, out, errs)
	}
	code, out, _ = runCtl("admin", "create", "--username", "root", "--data-dir", dir)
	if code != exitOK || !strings.Contains(out, "exists; left unchanged") {
		t.Fatalf("second run: exit %d, %q", code, out)
	}
	a := account(t, "", "rank", dir, "root")
	ok, err := players.VerifyPassword(a.PasswordHash, "change-me-now")
	if a.Role != players.RoleAdmin || !ok || err != nil {
		t.Fatalf("stored %+v; password ok %v %v", a, ok, err)
	}
}

// TestAdminCreateByURIFromStdin: on a store named by --mongo-uri, the
// password read from standard input.
func TestAdminCreateByURIFromStdin(t *testing.T) {
	db := testsvc.Mongo(t)
	uri := testsvc.MongoURI(t)
	withEnv(t, nil, "a long stdin password\n")
	code, out, errs := runCtl("admin", "create", "--username", "boss", "--password-stdin", "--mongo-uri", uri, "--mongo-db", db.Name())
	if code != exitOK || out != "created admin boss\n" {
		t.Fatalf("exit %d, %q, %q", code, out, errs)
	}
	a := account(t, uri, db.Name(), "", "boss")
	if ok, _ := players.VerifyPassword(a.PasswordHash, "a long stdin password"); !ok || a.Role != players.RoleAdmin {
		t.Fatalf("stored %+v, password ok %v", a, ok)
	}
}

func TestAdminCreateRefusals(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"no subcommand", nil, []string{"admin"}, exitUsage, "usage: rankctl admin create"},
		{"no username", map[string]string{"RANK_ADMIN_PASSWORD": "long enough"}, []string{"admin", "create", "--data-dir", dir}, exitUsage, "--username"},
		{"no password", nil, []string{"admin", "create", "--username", "root", "--data-dir", dir}, exitUsage, "no password"},
		{"bad username", map[string]string{"RANK_ADMIN_PASSWORD": "long enough"}, []string{"admin", "create", "--username", "r", "--data-dir", dir}, exitUsage, "username: must be 3 to 32"},
		{"short password", map[string]string{"RANK_ADMIN_PASSWORD": "short"}, []string{"admin", "create", "--username", "root", "--data-dir", dir}, exitUsage, "password: must be at least 8"},
		{"stray argument", map[string]string{"RANK_ADMIN_PASSWORD": "long enough"}, []string{"admin", "create", "--username", "root", "oops"}, exitUsage, "unexpected arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withEnv(t, tc.env, "")
			code, _, errs := runCtl(tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errs, tc.code, tc.want)
			}
		})
	}
}

// TestAdminCreateOverAPlayerIsNo: the name belongs to someone else.
func TestAdminCreateOverAPlayerIsNo(t *testing.T) {
	db := testsvc.Mongo(t)
	s, err := playerdb.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateAccount(context.Background(), players.Account{Username: "alice", Role: players.RolePlayer, PasswordHash: "x"}); err != nil {
		t.Fatal(err)
	}
	withEnv(t, map[string]string{"RANK_ADMIN_PASSWORD": "long enough", "MONGO_URI": testsvc.MongoURI(t), "MONGO_DB": db.Name()}, "")
	code, _, errs := runCtl("admin", "create", "--username", "alice")
	if code != exitNo || !strings.Contains(errs, "is a player account") {
		t.Fatalf("exit %d, %q; want %d", code, errs, exitNo)
	}
}
