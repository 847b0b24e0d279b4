package app_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
)

// TestSoleWriterTokens: on a store this process alone writes, a valid
// token is believed past the short cache (no other process can revoke
// it), and a logout here still stops it at once; on a shared store a
// revocation by another process is seen after the short cache.
func TestSoleWriterTokens(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name          string
		open          []app.OpenOption
		believedAfter bool // a revocation behind the service's back
	}{
		{"sole writer", []app.OpenOption{app.SoleWriter()}, true},
		{"shared store", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := clockwork.NewFakeClockAt(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
			st := apptest.Real(t, apptest.Clock(clock), apptest.Open(tc.open...))
			_, tok, err := st.Players.Register(ctx, "alice", "a long enough password", "127.0.0.1")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Players.Authenticate(ctx, tok.Secret); err != nil {
				t.Fatal(err)
			}
			// As another process would revoke it (never, on a sole writer).
			if err := st.Stores.Accounts.RevokeToken(ctx, players.TokenHash(tok.Secret), clock.Now()); err != nil {
				t.Fatal(err)
			}
			clock.Advance(time.Minute)
			_, err = st.Players.Authenticate(ctx, tok.Secret)
			if got := err == nil; got != tc.believedAfter {
				t.Fatalf("a minute after a revocation behind the service's back: %v, want believed %v", err, tc.believedAfter)
			}
			tok2, err := st.Players.Login(ctx, "alice", "a long enough password", "127.0.0.1")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Players.Authenticate(ctx, tok2.Secret); err != nil {
				t.Fatal(err)
			}
			if err := st.Players.Logout(ctx, tok2.Secret); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Players.Authenticate(ctx, tok2.Secret); !errors.Is(err, players.ErrUnauthenticated) {
				t.Fatalf("after a logout here: %v, want unauthenticated", err)
			}
		})
	}
}
