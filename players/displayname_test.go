package players_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playertest"
)

func TestNormalizeDisplayName(t *testing.T) {
	for _, c := range []struct{ in, want, bad string }{
		{in: "柯洁", want: "柯洁"},
		{in: "  Lee   Sedol ", want: "Lee Sedol"},
		{in: "Иван", want: "Иван"},
		{in: "Cafe\u0301", want: "Café"}, // NFC
		{in: "李昌镐2", want: "李昌镐2"},
		{in: strings.Repeat("碁", players.DisplayNameMaxLen), want: strings.Repeat("碁", players.DisplayNameMaxLen)},
		{in: strings.Repeat("碁", players.DisplayNameMaxLen+1), bad: "1 to 32"},
		{in: "   ", bad: "1 to 32"},
		{in: "<script>", bad: "not allowed"},
		{in: "a_b", bad: "not allowed"},
		{in: "tab\there", want: "tab here"},
		{in: "\u0301a", bad: "combining mark"},
		{in: "2026", bad: "one letter"},
		{in: "\xff", bad: "UTF-8"},
	} {
		got, err := players.NormalizeDisplayName(c.in)
		var fe *players.FieldError
		switch {
		case c.bad == "" && (err != nil || got != c.want):
			t.Errorf("%q: %q, %v; want %q", c.in, got, err, c.want)
		case c.bad != "" && (!errors.As(err, &fe) || fe.Field != "display_name" || !strings.Contains(fe.Reason, c.bad)):
			t.Errorf("%q: %q, %v; want a display_name error saying %q", c.in, got, err, c.bad)
		}
	}
}

// Display names: set, changed, cleared; a name that looks like another's
// display name or username is refused (Latin and Cyrillic, full-width,
// case), one's own may be set again, and a released name is free.
func TestSetDisplayName(t *testing.T) {
	ctx := context.Background()
	s := players.NewService(playertest.NewMemory(), nil, players.Config{})
	for _, n := range []string{"paul", "ann", "old"} {
		if _, err := s.CreateAccount(ctx, players.Principal{Username: "root", Role: players.RoleAdmin}, n, "correct horse battery", players.RoleTeacher); err != nil {
			t.Fatal(err)
		}
	}
	a, err := s.SetDisplayName(ctx, "ann", "柯洁")
	if err != nil || a.DisplayName != "柯洁" {
		t.Fatalf("ann 柯洁: %+v, %v", a, err)
	}
	if got, _ := s.Account(ctx, "ann"); got.DisplayName != "柯洁" {
		t.Fatalf("stored: %+v", got)
	}
	for _, c := range []struct{ who, name string }{
		{"paul", "柯洁"}, {"paul", " 柯洁 "},
		{"ann", "pаul"},    // Cyrillic а: looks like the username paul
		{"ann", "ＰＡＵＬ"},    // full width, upper case
		{"ann", "P a u l"}, // spaces ignored
	} {
		if _, err := s.SetDisplayName(ctx, c.who, c.name); !errors.Is(err, players.ErrNameTaken) {
			t.Errorf("%s takes %q: %v, want ErrNameTaken", c.who, c.name, err)
		}
	}
	if _, err := s.SetDisplayName(ctx, "paul", "Paul"); err != nil {
		t.Errorf("paul as Paul: %v", err)
	}
	if _, err := s.SetDisplayName(ctx, "ann", "柯洁"); err != nil {
		t.Errorf("ann's own name again: %v", err)
	}
	if _, err := s.SetDisplayName(ctx, "ann", "Ann Lee"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetDisplayName(ctx, "paul", "柯洁"); err != nil {
		t.Errorf("柯洁 after ann gave it up: %v", err)
	}
	if a, err := s.SetDisplayName(ctx, "ann", ""); err != nil || a.DisplayName != "" {
		t.Errorf("cleared: %+v, %v", a, err)
	}
	if _, err := s.SetDisplayName(ctx, "paul", "Ann Lee"); err != nil {
		t.Errorf("Ann Lee after ann cleared it: %v", err)
	}
	var fe *players.FieldError
	if _, err := s.SetDisplayName(ctx, "ann", "<b>"); !errors.As(err, &fe) {
		t.Errorf("a bad name: %v", err)
	}
	if _, err := s.SetDisplayName(ctx, "nobody", "X"); !errors.Is(err, players.ErrNotFound) {
		t.Errorf("no account: %v", err)
	}
}

// Changing one's password takes the current one, checks the new one,
// ends every session and gives a new token.
func TestChangePassword(t *testing.T) {
	ctx := context.Background()
	s := players.NewService(playertest.NewMemory(), nil, players.Config{})
	if _, err := s.CreateAccount(ctx, players.Principal{Username: "root", Role: players.RoleAdmin}, "ann", "correct horse battery", players.RoleTeacher); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChangePassword(ctx, "ann", "wrong password", "a new passphrase"); !errors.Is(err, players.ErrWrongPassword) || errors.Is(err, players.ErrInvalidCredentials) {
		t.Fatalf("a wrong current password: %v, want ErrWrongPassword (not a failed login)", err)
	}
	var fe *players.FieldError
	if _, err := s.ChangePassword(ctx, "ann", "correct horse battery", "short"); !errors.As(err, &fe) || fe.Field != "new_password" {
		t.Fatalf("a short new password: %v", err)
	}
	tok, err := s.ChangePassword(ctx, "ann", "correct horse battery", "a new passphrase")
	if err != nil {
		t.Fatal(err)
	}
	if p, err := s.Authenticate(ctx, tok.Secret); err != nil || p.Username != "ann" {
		t.Fatalf("the new token: %+v, %v", p, err)
	}
	a, _ := s.Account(ctx, "ann")
	if ok, _ := players.VerifyPassword(a.PasswordHash, "a new passphrase"); !ok {
		t.Fatalf("the new password does not verify")
	}
}
