package intaketest

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
)

// RunPresence checks that presences made by newPresence keep the
// intake.Presence contract. Each subtest gets a fresh, empty one.
func RunPresence(t *testing.T, newPresence func(t *testing.T) intake.Presence) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, p intake.Presence)
	}{
		{"CheckInTwiceIsOnce", checkInTwice},
		{"ConcurrentCheckInsAreOne", concurrentCheckIns},
		{"PresentSortedPerGame", presentSortedPerGame},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newPresence(t)) })
	}
}

func present(t *testing.T, p intake.Presence, game string, want ...string) {
	t.Helper()
	got, err := p.Present(context.Background(), game)
	if err != nil {
		t.Fatalf("Present(%s): %v", game, err)
	}
	if want == nil {
		want = []string{}
	}
	if got == nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Present(%s) = %#v, want %#v", game, got, want)
	}
}

func checkInTwice(t *testing.T, p intake.Presence) {
	ctx := context.Background()
	for i := range 2 {
		if err := p.CheckIn(ctx, "g1", "ann", t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatalf("check-in #%d: %v", i+1, err)
		}
	}
	present(t, p, "g1", "ann")
}

func concurrentCheckIns(t *testing.T, p intake.Presence) {
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = p.CheckIn(context.Background(), "g1", "ann", t0) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("check-in %d: %v", i, err)
		}
	}
	present(t, p, "g1", "ann")
}

func presentSortedPerGame(t *testing.T, p intake.Presence) {
	ctx := context.Background()
	for _, c := range []struct{ game, player string }{{"g1", "cat"}, {"g2", "bob"}, {"g1", "ann"}, {"g10", "dan"}} {
		if err := p.CheckIn(ctx, c.game, c.player, t0); err != nil {
			t.Fatal(fmt.Errorf("check-in of %s for %s: %w", c.player, c.game, err))
		}
	}
	present(t, p, "g1", "ann", "cat")
	present(t, p, "g2", "bob")
	present(t, p, "g10", "dan")
	present(t, p, "nobody-came") // empty, not an error
}
