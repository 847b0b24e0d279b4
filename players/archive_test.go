package players_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playertest"
)

// TestEnsurePlayers: accounts are made for the names with none, once;
// nobody can log in to them; a game server's name is left; a malformed
// name makes nothing.
func TestEnsurePlayers(t *testing.T) {
	ctx := context.Background()
	store := playertest.NewMemory()
	if err := store.CreateAccount(ctx, players.Account{Username: "go-server", Role: players.RoleServer, PasswordHash: "x", CreatedAt: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	s := players.NewService(store, nil, players.Config{})
	made, err := s.EnsurePlayers(ctx, []string{"Alice", "bob", "alice", "go-server"})
	if err != nil || !slices.Equal(made, []string{"alice", "bob"}) {
		t.Fatalf("EnsurePlayers = %v, %v; want alice and bob", made, err)
	}
	if made, err := s.EnsurePlayers(ctx, []string{"bob", "carol"}); err != nil || !slices.Equal(made, []string{"carol"}) {
		t.Fatalf("again = %v, %v; want carol only", made, err)
	}
	a, err := s.Account(ctx, "alice")
	if err != nil || a.Role != players.RolePlayer || a.CreatedBy != players.ArchiveCreator {
		t.Fatalf("alice = %+v, %v", a, err)
	}
	if _, err := s.Login(ctx, "alice", "", "192.0.2.1"); err == nil {
		t.Fatal("logged in to an archive's account")
	}
	var fe *players.FieldError
	if _, err := s.EnsurePlayers(ctx, []string{"dave", "x"}); !errors.As(err, &fe) {
		t.Fatalf("a malformed name: %v, want a FieldError", err)
	}
	if _, err := s.Account(ctx, "dave"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("dave made despite the malformed name: %v", err)
	}
}
