package reviewstest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/integrity"
	"github.com/weiqi-platform/rank/reviews"
)

// Run checks that stores made by newStore keep the reviews.Store
// contract. Each subtest gets a fresh, empty store.
func Run(t *testing.T, newStore func(t *testing.T) reviews.Store) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s reviews.Store)
	}{
		{"AddOnce", addOnce},
		{"GetRoundTrip", getRoundTrip},
		{"ResolveOnce", resolveOnce},
		{"ConcurrentResolveOneWins", concurrentResolve},
		{"ListOrderFiltersAndCursor", list},
		{"NotFound", notFound},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

var (
	ctx = context.Background()
	// t0 has whole milliseconds: stores keep times to the millisecond.
	t0 = time.Date(2026, 3, 1, 12, 30, 45, 123_000_000, time.UTC)
)

func flag(player string, kind integrity.Kind, game string) integrity.Flag {
	return integrity.Flag{Kind: kind, Test: "t", Player: player, Others: []string{"x"}, Statistic: 4.5, Threshold: 4, Detail: "d",
		Evidence: []integrity.Evidence{{Game: game, Opponent: "x", Expected: 0.25, Actual: 1, Moves: 20, End: integrity.EndResign, Ended: t0}}}
}

func item(f integrity.Flag, found time.Time) reviews.Item {
	return reviews.Item{ID: reviews.ID(f), Found: found, Flag: f}
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func addOnce(t *testing.T, s reviews.Store) {
	a, b := item(flag("ann", integrity.Farming, "g1"), t0), item(flag("ben", integrity.Sandbagging, "g2"), t0)
	check(t, "first add", must[[]string](t)(s.Add(ctx, []reviews.Item{a, b})), []string{a.ID, b.ID})
	later := a
	later.Found, later.Flag.Detail = t0.Add(time.Hour), "another run"
	check(t, "again, with another", must[[]string](t)(s.Add(ctx, []reviews.Item{later, item(flag("cat", integrity.Farming, "g3"), t0)})),
		[]string{reviews.ID(flag("cat", integrity.Farming, "g3"))})
	check(t, "the first stays", must[reviews.Item](t)(s.Get(ctx, a.ID)), a)
}

func getRoundTrip(t *testing.T, s reviews.Store) {
	a := item(flag("ann", integrity.ExamCollusion, "g1"), t0)
	must[[]string](t)(s.Add(ctx, []reviews.Item{a}))
	check(t, "Get", must[reviews.Item](t)(s.Get(ctx, a.ID)), a)
}

func resolveOnce(t *testing.T, s reviews.Store) {
	a := item(flag("ann", integrity.Farming, "g1"), t0)
	must[[]string](t)(s.Add(ctx, []reviews.Item{a}))
	r := reviews.Resolution{Verdict: reviews.StatusConfirmed, Reason: "the captives are hers", By: "root", At: t0.Add(time.Minute)}
	check(t, "Resolve", must[reviews.Resolution](t)(s.Resolve(ctx, a.ID, r)), r)
	other := reviews.Resolution{Verdict: reviews.StatusDismissed, Reason: "no", By: "admin2", At: t0.Add(2 * time.Minute)}
	check(t, "Resolve again keeps the first", must[reviews.Resolution](t)(s.Resolve(ctx, a.ID, other)), r)
	got := must[reviews.Item](t)(s.Get(ctx, a.ID))
	if got.Resolution == nil || *got.Resolution != r || got.Status() != reviews.StatusConfirmed {
		t.Errorf("resolved item %+v", got)
	}
}

func concurrentResolve(t *testing.T, s reviews.Store) {
	a := item(flag("ann", integrity.Farming, "g1"), t0)
	must[[]string](t)(s.Add(ctx, []reviews.Item{a}))
	var wg sync.WaitGroup
	got := make([]reviews.Resolution, 8)
	for i := range got {
		wg.Go(func() {
			r, err := s.Resolve(ctx, a.ID, reviews.Resolution{Verdict: reviews.StatusDismissed, Reason: fmt.Sprint("reason ", i), By: "root", At: t0})
			if err != nil {
				t.Error(err)
			}
			got[i] = r
		})
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("concurrent resolutions disagree: %+v and %+v", got[0], got[i])
		}
	}
}

func list(t *testing.T, s reviews.Store) {
	var items []reviews.Item
	for i := range 6 {
		kind := integrity.Farming
		if i%2 == 1 {
			kind = integrity.Sandbagging
		}
		items = append(items, item(flag(fmt.Sprint("p", i%3), kind, fmt.Sprint("g", i)), t0.Add(time.Duration(i/2)*time.Hour)))
	}
	must[[]string](t)(s.Add(ctx, items))
	must[reviews.Resolution](t)(s.Resolve(ctx, items[5].ID, reviews.Resolution{Verdict: reviews.StatusDismissed, Reason: "r", By: "root", At: t0}))
	ids := func(its []reviews.Item) []string {
		var out []string
		for _, it := range its {
			out = append(out, it.ID)
		}
		return out
	}
	// Newest found first, then by id.
	want := []reviews.Item{items[4], items[5], items[2], items[3], items[0], items[1]}
	for i := 0; i < len(want); i += 2 {
		if want[i].ID > want[i+1].ID {
			want[i], want[i+1] = want[i+1], want[i]
		}
	}
	all := must[[]reviews.Item](t)(s.List(ctx, reviews.Query{}))
	check(t, "all", ids(all), ids(want))
	page := must[[]reviews.Item](t)(s.List(ctx, reviews.Query{Limit: 3}))
	rest := must[[]reviews.Item](t)(s.List(ctx, reviews.Query{After: &reviews.Cursor{Found: page[2].Found, ID: page[2].ID}}))
	check(t, "two pages", append(ids(page), ids(rest)...), ids(want))
	check(t, "dismissed", ids(must[[]reviews.Item](t)(s.List(ctx, reviews.Query{Status: reviews.StatusDismissed}))), []string{items[5].ID})
	if open := must[[]reviews.Item](t)(s.List(ctx, reviews.Query{Status: reviews.StatusOpen})); len(open) != 5 {
		t.Errorf("open: %d items, want 5", len(open))
	}
	for _, it := range must[[]reviews.Item](t)(s.List(ctx, reviews.Query{Kind: integrity.Sandbagging, Player: "p1"})) {
		if it.Flag.Kind != integrity.Sandbagging || it.Flag.Player != "p1" {
			t.Errorf("kind and player filter gave %+v", it)
		}
	}
	if got := must[[]reviews.Item](t)(s.List(ctx, reviews.Query{Kind: integrity.Sandbagging, Player: "p1"})); len(got) != 1 {
		t.Errorf("sandbagging of p1: %d items, want 1", len(got))
	}
}

func notFound(t *testing.T, s reviews.Store) {
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, reviews.ErrNotFound) {
		t.Errorf("Get of nothing: %v", err)
	}
	if _, err := s.Resolve(ctx, "nope", reviews.Resolution{Verdict: reviews.StatusConfirmed, Reason: "r", By: "root", At: t0}); !errors.Is(err, reviews.ErrNotFound) {
		t.Errorf("Resolve of nothing: %v", err)
	}
	if got, err := s.List(ctx, reviews.Query{}); err != nil || len(got) != 0 {
		t.Errorf("List of nothing: %v, %v", got, err)
	}
}
