package api_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
)

func withRequestTimeout(d time.Duration) option {
	return func(o *envOptions) { o.cfg.RequestTimeout = d }
}

// TestPastTheDeadlineNothingIsStored: a submission whose request deadline
// passes while it is judged is answered 503 timeout, and the game is not
// stored (issue 11: a client cut off by the write timeout must not find
// its game stored and rated).
func TestPastTheDeadlineNothingIsStored(t *testing.T) {
	e := newEnv(t, withRequestTimeout(time.Nanosecond))
	ctx := context.Background()
	for _, name := range []string{"alice", "bob"} {
		if _, _, err := e.players.Register(ctx, name, pw, "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
	}
	server := e.account("go-server", players.RoleServer)
	// Believed from the token cache, so the request gets past its
	// authentication.
	if _, err := e.players.Authenticate(ctx, server); err != nil {
		t.Fatal(err)
	}
	e.expect(req{method: "POST", path: "/api/v1/games", token: server,
		body: gameBody(randomGame(11, 60, false), "s-late", "alice", "bob")}, 503, "timeout")
	if _, err := e.intake.Game(ctx, intake.GameIDFor("s-late")); !errors.Is(err, intake.ErrNotFound) {
		t.Fatalf("the game past its deadline: %v, want not stored", err)
	}
}
