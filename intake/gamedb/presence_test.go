package gamedb_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/gamedb"
	"github.com/weiqi-platform/rank/intake/intaketest"
	"github.com/weiqi-platform/rank/internal/testsvc"
)

func TestPresenceContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			intaketest.RunPresence(t, func(t *testing.T) intake.Presence {
				p, err := gamedb.NewPresence(context.Background(), testsvc.MongoOf(t, kind))
				if err != nil {
					t.Fatal(err)
				}
				return p
			})
		})
	}
}

// TestAttendance: the players of a pending game check in once each, until
// its time is up; nobody else, and not for a game that ended.
func TestAttendance(t *testing.T) {
	ctx := context.Background()
	db := testsvc.Mongo(t)
	store, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	presence, err := gamedb.NewPresence(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)
	now := t0
	a := intake.New(store, presence, nil, nil, nil, intake.Config{Now: func() time.Time { return now }})
	if err := store.Create(ctx, intaketest.PendingGame("g1", "ann", "bob", t0, time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := store.Create(ctx, intaketest.Finished("g2", "src-2", "ann", "bob", t0)); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			if _, err := a.CheckIn(ctx, "g1", "ann"); err != nil {
				t.Errorf("check-in %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	for _, tc := range []struct {
		game, player string
		at           time.Time
		want         error
	}{
		{"g1", "cat", t0, intake.ErrNotInGame},
		{"g2", "ann", t0, intake.ErrNotPending},
		{"nope", "ann", t0, intake.ErrNotFound},
		{"g1", "bob", t0.Add(time.Hour), intake.ErrNotPending}, // its time is up
	} {
		now = tc.at
		if _, err := a.CheckIn(ctx, tc.game, tc.player); !errors.Is(err, tc.want) {
			t.Errorf("check-in of %s for %s at %v = %v, want %v", tc.player, tc.game, tc.at, err, tc.want)
		}
	}
	got, err := a.Present(ctx, "g1")
	if err != nil || fmt.Sprint(got) != "[ann]" {
		t.Fatalf("present = %v, %v; want [ann] once", got, err)
	}
	now = t0.Add(time.Minute)
	if _, err := a.CheckIn(ctx, "g1", "bob"); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Present(ctx, "g1"); fmt.Sprint(got) != "[ann bob]" {
		t.Fatalf("present = %v, want [ann bob]", got)
	}
	if got, err := a.Present(ctx, "g2"); err != nil || len(got) != 0 {
		t.Fatalf("present for a game nobody checked in to = %v, %v", got, err)
	}
}
