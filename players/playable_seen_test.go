package players_test

import (
	"context"
	"errors"
	"testing"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playertest"
)

// TestPlayableAfterAuthenticate: a player whose token was just checked is
// playable without an account read (a pairing's players have just
// polled); a game server's token teaches nothing, and its account is
// still refused.
func TestPlayableAfterAuthenticate(t *testing.T) {
	ctx := context.Background()
	store := playertest.NewMemory()
	s := players.NewService(store, nopLimiter{}, players.Config{})
	_, tok, err := s.Register(ctx, "ann", "correct horse battery", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	admin := players.Principal{Username: "root", Role: players.RoleAdmin}
	if _, err := s.CreateAccount(ctx, admin, "srv", "another long secret", players.RoleServer); err != nil {
		t.Fatal(err)
	}
	srv, err := s.Login(ctx, "srv", "another long secret", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{tok.Secret, srv.Secret} {
		if _, err := s.Authenticate(ctx, secret); err != nil {
			t.Fatal(err)
		}
	}
	reads := 0
	store.Fail = func(method string) error {
		if method == "Account" {
			reads++
		}
		return nil
	}
	if name, err := s.Playable(ctx, "Ann"); err != nil || name != "ann" {
		t.Fatalf("Playable(Ann) = %q, %v", name, err)
	}
	if reads != 0 {
		t.Fatalf("Playable read the account %d times after ann's token was checked", reads)
	}
	if _, err := s.Playable(ctx, "srv"); !errors.Is(err, players.ErrCannotPlay) {
		t.Fatalf("Playable(srv) = %v, want ErrCannotPlay", err)
	}
	if reads != 1 {
		t.Fatalf("the server's account was read %d times, want once", reads)
	}
}
