package players

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalizeUsername(t *testing.T) {
	for _, tc := range []struct {
		in, want, reason string // reason: a fragment of the FieldError's reason
	}{
		{in: "alice", want: "alice"},
		{in: "Alice", want: "alice"},
		{in: "GO-Server_2", want: "go-server_2"},
		{in: "abc", want: "abc"},
		{in: strings.Repeat("a", 32), want: strings.Repeat("a", 32)},
		{in: "ab", reason: "3 to 32 characters, got 2"},
		{in: strings.Repeat("a", 33), reason: "3 to 32 characters, got 33"},
		{in: "", reason: "got 0"},
		{in: "1abc", reason: "start with a letter"},
		{in: "_abc", reason: "start with a letter"},
		{in: "ali ce", reason: `' ' at byte 3`},
		{in: "ali.ce", reason: `'.' at byte 3`},
		{in: "al/ice", reason: `'/' at byte 2`},
		{in: "\u212Aate", reason: "start with a letter"}, // Kelvin sign: folds to "k" in strings.ToLower
		{in: "kåre", reason: `'å' at byte 1`},
		{in: "李昌镐李", reason: "start with a letter"},
	} {
		got, err := NormalizeUsername(tc.in)
		if tc.reason == "" {
			if err != nil || got != tc.want {
				t.Errorf("NormalizeUsername(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "username" || !strings.Contains(fe.Reason, tc.reason) || !errors.Is(err, ErrInvalid) {
			t.Errorf("NormalizeUsername(%q) = %q, %v; want a username FieldError containing %q", tc.in, got, err, tc.reason)
		}
	}
}

func FuzzNormalizeUsername(f *testing.F) {
	for _, s := range []string{"alice", "Alice", "\u212Aate", "a-b_c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := NormalizeUsername(s)
		if err != nil {
			return
		}
		// A valid name is its own normal form, ASCII lower case, and equal
		// to the input but for case.
		again, err := NormalizeUsername(got)
		if err != nil || again != got {
			t.Fatalf("normal form %q of %q is not stable: %q, %v", got, s, again, err)
		}
		if got != strings.ToLower(got) || !strings.EqualFold(got, s) || len(got) != len(s) {
			t.Fatalf("NormalizeUsername(%q) = %q", s, got)
		}
	})
}

func TestCheckPassword(t *testing.T) {
	for _, tc := range []struct {
		user, pw, reason string
	}{
		{"alice", "correct horse", ""},
		{"alice", "12345678", ""},
		{"alice", "囲碁の段位は大切", ""}, // 8 characters, 24 bytes
		{"alice", "1234567", "at least 8"},
		{"alice", strings.Repeat("x", 257), "at most 256"},
		{"alice", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", "UTF-8"},
		{"aliceinwonder", "AliceInWonder", "not be the username"},
	} {
		err := CheckPassword(tc.user, tc.pw)
		if tc.reason == "" {
			if err != nil {
				t.Errorf("CheckPassword(%q) = %v, want nil", tc.pw, err)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "password" || !strings.Contains(fe.Reason, tc.reason) {
			t.Errorf("CheckPassword(%q) = %v, want a password FieldError containing %q", tc.pw, err, tc.reason)
		}
	}
}

func TestTokenShape(t *testing.T) {
	a, err := newTokenSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newTokenSecret()
	if a == b || !looksLikeToken(a) || !looksLikeToken(b) {
		t.Fatalf("tokens %q, %q: want two distinct well-formed tokens", a, b)
	}
	if TokenHash(a) == TokenHash(b) || len(TokenHash(a)) != 64 || strings.Contains(TokenHash(a), a) {
		t.Fatalf("TokenHash(%q) = %q", a, TokenHash(a))
	}
	for _, s := range []string{"", "rk_", "rk_short", "xx" + a[2:], a + "x"} {
		if looksLikeToken(s) {
			t.Errorf("looksLikeToken(%q) = true", s)
		}
	}
}
