package playertest_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playertest"
)

// TestMemory holds the in-memory store to the contract playerdb passes.
func TestMemory(t *testing.T) {
	playertest.Run(t, func(t *testing.T) players.Store { return playertest.NewMemory() })
}

// TestMemoryFail: the fault hook answers for the method it names, and
// nothing is written while it fails.
func TestMemoryFail(t *testing.T) {
	ctx := context.Background()
	m := playertest.NewMemory()
	var down atomic.Bool
	m.Fail = func(method string) error {
		if down.Load() && method == "CreateAccount" {
			return outage.Wrap("memory", "test", errors.New("store down"))
		}
		return nil
	}
	down.Store(true)
	if err := m.CreateAccount(ctx, players.Account{Username: "ann"}); !outage.Is(err) {
		t.Fatalf("CreateAccount during the outage = %v, want ErrUnavailable", err)
	}
	if _, err := m.Account(ctx, "ann"); !errors.Is(err, players.ErrNotFound) {
		t.Fatalf("Account after a failed create = %v, want ErrNotFound", err)
	}
	down.Store(false)
	if err := m.CreateAccount(ctx, players.Account{Username: "ann"}); err != nil {
		t.Fatalf("CreateAccount after the outage: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.Account(cancelled, "ann"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Account with a cancelled context = %v, want context.Canceled", err)
	}
}
