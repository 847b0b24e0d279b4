package players_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/players"
)

// TestPasswordsNotUTF8DoNotCollapse: two passwords that differ only in
// bytes that are not UTF-8 arrive through the JSON decoder as one string
// (each such byte becomes U+FFFD), so one could log into the other's
// account. Both are refused at registration and at login, as raw bytes
// and as decoded.
func TestPasswordsNotUTF8DoNotCollapse(t *testing.T) {
	s, _ := newService(t, players.Config{LoginLimitAccount: 1000, LoginLimitAddress: 1000})
	ctx := context.Background()
	raw := []string{"horse\xffbattery", "horse\xfebattery"}
	var decoded []string
	for _, r := range raw {
		var in struct{ Password string }
		if err := json.Unmarshal([]byte(`{"password":"`+r+`"}`), &in); err != nil {
			t.Fatal(err)
		}
		decoded = append(decoded, in.Password)
	}
	if decoded[0] != decoded[1] {
		t.Fatalf("the decoder kept %q and %q apart: the test no longer shows the collapse", decoded[0], decoded[1])
	}
	isPasswordField := func(err error) bool {
		var fe *players.FieldError
		return errors.As(err, &fe) && fe.Field == "password"
	}
	for i, p := range append(raw, decoded[0]) {
		name := fmt.Sprintf("collapse%d", i)
		if _, _, err := s.Register(ctx, name, p, "192.0.2.7"); !isPasswordField(err) {
			t.Errorf("Register with password %q: %v, want a *FieldError on password", p, err)
		}
		if _, err := s.Login(ctx, name, p, "192.0.2.7"); !isPasswordField(err) {
			t.Errorf("Login with password %q: %v, want a *FieldError on password", p, err)
		}
	}
}

// TestPasswordNFCAndNFD: a password registered in one Unicode form logs in
// with the other too, both ways round.
func TestPasswordNFCAndNFD(t *testing.T) {
	s, _ := newService(t, players.Config{LoginLimitAccount: 1000, LoginLimitAddress: 1000})
	ctx := context.Background()
	nfc, nfd := "caf\u00e9 au lait, s'il vous pla\u00eet", "cafe\u0301 au lait, s'il vous plai\u0302t"
	for _, tc := range []struct{ name, registered, other string }{{"nfcfirst", nfc, nfd}, {"nfdfirst", nfd, nfc}} {
		if _, _, err := s.Register(ctx, tc.name, tc.registered, "192.0.2.8"); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{tc.registered, tc.other} {
			if _, err := s.Login(ctx, tc.name, p, "192.0.2.8"); err != nil {
				t.Errorf("%s: Login with %q: %v", tc.name, p, err)
			}
		}
		if _, err := s.Login(ctx, tc.name, "cafe au lait, s'il vous plait", "192.0.2.8"); !errors.Is(err, players.ErrInvalidCredentials) {
			t.Errorf("%s: the password without accents logged in: %v", tc.name, err)
		}
	}
}

// TestLoginHashesBounded: many concurrent logins (real accounts and
// unknown names, which are hashed too) never run more hashes at once than
// the bound; each either answers or says busy.
func TestLoginHashesBounded(t *testing.T) {
	var mu sync.Mutex
	peak, starts := 0, 0
	restore := players.SwapHashGate(players.MaxHashesInFlight, time.Minute, func(n int) {
		mu.Lock()
		defer mu.Unlock()
		starts++
		peak = max(peak, n)
	})
	defer restore()
	s, _ := newService(t, players.Config{LoginLimitAccount: 1000, LoginLimitAddress: 1000})
	ctx := context.Background()
	if _, _, err := s.Register(ctx, "bounded", pw, "192.0.2.9"); err != nil {
		t.Fatal(err)
	}
	const callers = 24
	var wg sync.WaitGroup
	errs := make([]error, callers)
	for i := range callers {
		wg.Go(func() {
			name := "bounded"
			if i%3 == 0 {
				name = fmt.Sprintf("nobody%d", i)
			}
			_, errs[i] = s.Login(ctx, name, pw, "192.0.2.9")
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && !errors.Is(err, players.ErrInvalidCredentials) {
			t.Errorf("login %d: %v", i, err)
		}
	}
	if starts != callers+1 || peak < 1 || peak > players.MaxHashesInFlight {
		t.Fatalf("%d hashes (want %d), at most %d at once; the bound is %d", starts, callers+1, peak, players.MaxHashesInFlight)
	}
}

// TestLoginBusy: when every hash slot stays taken past the wait, Login and
// Register answer a *BusyError with RetryAfter instead of waiting on.
func TestLoginBusy(t *testing.T) {
	s, _ := newService(t, players.Config{LoginLimitAccount: 1000, LoginLimitAddress: 1000})
	ctx := context.Background()
	if _, _, err := s.Register(ctx, "waiter", pw, "192.0.2.10"); err != nil {
		t.Fatal(err)
	}
	defer players.SwapHashGate(1, time.Millisecond, nil)()
	release := players.HoldHashSlot()
	defer release()
	var be *players.BusyError
	for _, name := range []string{"waiter", "nobody"} {
		_, err := s.Login(ctx, name, pw, "192.0.2.10")
		if !errors.As(err, &be) || !errors.Is(err, players.ErrBusy) || be.RetryAfter <= 0 {
			t.Errorf("Login(%s) with every slot taken: %v, want a *BusyError", name, err)
		}
	}
	if _, _, err := s.Register(ctx, "latecomer", pw, "192.0.2.10"); !errors.As(err, &be) {
		t.Errorf("Register with every slot taken: %v, want a *BusyError", err)
	}
}
