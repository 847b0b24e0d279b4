package reviews_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/integrity"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/reviews"
	"github.com/weiqi-platform/rank/reviews/reviewsdb"
)

var (
	bg    = context.Background()
	clock = func() time.Time { return time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC) }
)

func newService(t *testing.T) *reviews.Service {
	t.Helper()
	s, err := reviewsdb.New(bg, testsvc.Mongo(t))
	if err != nil {
		t.Fatal(err)
	}
	return reviews.NewService(s, clock, reviews.Sources{})
}

// farmed is what Detect finds in 20 games thrown to "farmer", half
// resigned at move 20, by an account with other games.
func farmed(t *testing.T) []integrity.Flag {
	t.Helper()
	g := glicko()
	var games []integrity.Game
	for i := range 40 {
		black, white, winner := "acc", "farmer", "farmer"
		end, moves := integrity.EndCount, 200
		if i >= 20 { // acc's other games: evens
			white = fmt.Sprint("other", i)
			if i%2 == 0 {
				winner = white
			} else {
				winner = "acc"
			}
		} else if i%2 == 0 {
			end, moves = integrity.EndResign, 20
		}
		games = append(games, integrity.Game{ID: fmt.Sprintf("g%02d", i), Winner: winner, Moves: moves, End: end,
			Black: integrity.Side{Player: black, Glicko: g, Games: 100}, White: integrity.Side{Player: white, Glicko: g, Games: 100},
			Ended: clock().Add(time.Duration(i) * time.Minute)})
	}
	flags, err := integrity.Detect(integrity.Input{Games: games}, integrity.Defaults())
	if err != nil || len(flags) == 0 {
		t.Fatalf("no flags to review: %v, %v", flags, err)
	}
	return flags
}

func glicko() rating.Glicko { return rating.Glicko{Rating: 1600, RD: 60, Volatility: 0.06} }

// TestQueue: flags recorded once, listed, resolved once with a reason.
func TestQueue(t *testing.T) {
	svc := newService(t)
	flags := farmed(t)
	n, err := svc.Record(bg, flags)
	if err != nil || n != len(flags) {
		t.Fatalf("Record = %d, %v; want %d", n, err, len(flags))
	}
	if n, err := svc.Record(bg, flags); err != nil || n != 0 {
		t.Fatalf("recording the same flags again = %d, %v; want 0 new", n, err)
	}
	open, err := svc.List(bg, reviews.Query{Status: reviews.StatusOpen})
	if err != nil || len(open) != len(flags) || !open[0].Found.Equal(clock()) || open[0].Status() != reviews.StatusOpen {
		t.Fatalf("open flags: %+v, %v", open, err)
	}
	id := open[0].ID
	if strings.ContainsAny(id, "/?#%") {
		t.Errorf("id %q is not URL-safe", id)
	}
	it, err := svc.Resolve(bg, id, "root", reviews.StatusConfirmed, "  the accomplice resigned at move 20 ten times  ")
	if err != nil || it.Status() != reviews.StatusConfirmed || it.Resolution.By != "root" || it.Resolution.Reason != "the accomplice resigned at move 20 ten times" || !it.Resolution.At.Equal(clock()) {
		t.Fatalf("Resolve = %+v, %v", it, err)
	}
	again, err := svc.Resolve(bg, id, "root", reviews.StatusConfirmed, "the accomplice resigned at move 20 ten times")
	if err != nil || *again.Resolution != *it.Resolution {
		t.Fatalf("the same decision again = %+v, %v; want the first", again, err)
	}
	if _, err := svc.Resolve(bg, id, "admin2", reviews.StatusDismissed, "friends"); !errors.Is(err, reviews.ErrResolved) {
		t.Fatalf("another decision = %v, want ErrResolved", err)
	}
	if got, err := svc.List(bg, reviews.Query{Status: reviews.StatusOpen}); err != nil || len(got) != len(flags)-1 {
		t.Fatalf("open after one resolution: %d, %v", len(got), err)
	}
	if _, err := svc.Resolve(bg, "nope", "root", reviews.StatusDismissed, "r"); !errors.Is(err, reviews.ErrNotFound) {
		t.Fatalf("resolving nothing: %v", err)
	}
}

// TestQueueRefusesBadInput: each bad field is a *FieldError naming it.
func TestQueueRefusesBadInput(t *testing.T) {
	svc := newService(t)
	for _, tc := range []struct {
		field string
		err   error
	}{
		{"verdict", func() error { _, err := svc.Resolve(bg, "x", "root", "maybe", "r"); return err }()},
		{"reason", func() error { _, err := svc.Resolve(bg, "x", "root", reviews.StatusDismissed, "  "); return err }()},
		{"reason", func() error {
			_, err := svc.Resolve(bg, "x", "root", reviews.StatusDismissed, strings.Repeat("a", reviews.MaxReason+1))
			return err
		}()},
		{"by", func() error { _, err := svc.Resolve(bg, "x", "", reviews.StatusDismissed, "r"); return err }()},
		{"status", func() error { _, err := svc.List(bg, reviews.Query{Status: "closed"}); return err }()},
		{"kind", func() error { _, err := svc.List(bg, reviews.Query{Kind: "cheating"}); return err }()},
		{"limit", func() error { _, err := svc.List(bg, reviews.Query{Limit: reviews.MaxLimit + 1}); return err }()},
	} {
		var fe *reviews.FieldError
		if !errors.As(tc.err, &fe) || fe.Field != tc.field || !errors.Is(tc.err, reviews.ErrInvalid) {
			t.Errorf("%s: %v", tc.field, tc.err)
		}
	}
}
