package players_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
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

// TestEnsurePlayersInOneCommand: an archive's new players are made in one
// store command, with no read first, and the accounts made need no read
// to be found playable; a name that exists is read once, by Playable.
func TestEnsurePlayersInOneCommand(t *testing.T) {
	ctx := context.Background()
	store := playertest.NewMemory()
	if err := store.CreateAccount(ctx, players.Account{Username: "old", Role: players.RolePlayer, PasswordHash: "x", CreatedAt: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	calls := map[string]int{}
	var mu sync.Mutex
	store.Fail = func(method string) error {
		mu.Lock()
		defer mu.Unlock()
		calls[method]++
		return nil
	}
	s := players.NewService(store, nil, players.Config{})
	names := []string{"old"}
	for i := range 50 {
		names = append(names, fmt.Sprintf("new-%02d", i))
	}
	made, err := s.EnsurePlayers(ctx, names)
	if err != nil || len(made) != 50 || slices.Contains(made, "old") {
		t.Fatalf("EnsurePlayers = %d made (%v), %v; want the 50 new", len(made), made, err)
	}
	for _, n := range names {
		if u, err := s.Playable(ctx, n); err != nil || u != n {
			t.Fatalf("Playable(%s) = %q, %v", n, u, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if calls["CreateAccounts"] != 1 || calls["CreateAccount"] != 0 || calls["Account"] != 1 {
		t.Fatalf("store calls %v; want one CreateAccounts and one Account (old's, by Playable)", calls)
	}
}
