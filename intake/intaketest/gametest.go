package intaketest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
)

// Run checks that stores made by newStore keep the intake.Store contract.
// Each subtest gets a fresh, empty store.
func Run(t *testing.T, newStore func(t *testing.T) intake.Store) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s intake.Store)
	}{
		{"RoundTrip", roundTrip},
		{"NotFound", notFound},
		{"SourceIsUnique", sourceIsUnique},
		{"ConcurrentCreateOneWins", concurrentCreate},
		{"FinishOnlyPending", finishOnlyPending},
		{"ConcurrentEndsOneWins", concurrentEnds},
		{"MarkRatedIdempotent", markRatedIdempotent},
		{"FinishedOldestFirst", finishedOldestFirst},
		{"ExpirePending", expirePending},
		{"UnfinishedUntilEnded", unfinishedUntilEnded},
		{"FlaggedOnceNewestFirst", flaggedOnceNewestFirst},
		{"TimesInUTCToTheMillisecond", timesInUTC},
		{"PlayerGamesNewestFirst", playerGamesNewestFirst},
		{"AbortOncePending", abortOncePending},
		{"BulkWrites", bulkWrites},
		{"AssumptionsKept", assumptionsKept},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
}

// t0 has whole milliseconds: stores keep times to the millisecond.
var t0 = time.Date(2026, 3, 1, 12, 30, 45, 123_000_000, time.UTC)

// Finished returns a judged finished game between black and white (a
// short game Black wins by resignation), as intake would store it.
func Finished(id, source, black, white string, at time.Time) intake.StoredGame {
	rec := &games.Record{
		Size: 9, Rules: games.Chinese(), Komi: 7, End: games.EndResign, EndBy: games.White, Result: "B+R",
		Moves: []games.Move{
			games.Play(games.Black, games.Point{X: 2, Y: 2}), games.Play(games.White, games.Point{X: 6, Y: 6}),
			games.PassMove(games.Black),
		},
		Dead:      nil,
		Black:     games.Player{Name: black, Rank: "3k"},
		Penalties: games.Penalties{BlackWarnings: 1},
	}
	v, err := games.Judge(rec)
	if err != nil {
		panic(err)
	}
	return intake.StoredGame{
		ID: id, SourceID: source, Status: intake.StatusFinished, Black: black, White: white, Rated: true,
		TimeControl: "byoyomi 10m 3x30s", Record: rec, Verdict: &v, Hash: intake.ContentHash(black, white, true, rec, v),
		SubmittedBy: "go-server", CreatedAt: at, FinishedAt: at, PlayedAt: at.Add(-time.Hour),
	}
}

// PendingGame returns a pending game as intake would store it.
func PendingGame(id, black, white string, at time.Time, ttl time.Duration) intake.StoredGame {
	return intake.StoredGame{
		ID: id, SourceID: id, Status: intake.StatusPending, Black: black, White: white, Rated: true,
		Record:    &games.Record{Size: 19, Rules: games.Japanese(), Komi: 6.5, Black: games.Player{Name: black}, White: games.Player{Name: white}},
		CreatedAt: at, ExpiresAt: at.Add(ttl), SubmittedBy: "matchmaking",
	}
}

func mustCreate(t *testing.T, s intake.Store, g intake.StoredGame) {
	t.Helper()
	if err := s.Create(context.Background(), g); err != nil {
		t.Fatalf("Create(%s): %v", g.ID, err)
	}
}

func mustGet(t *testing.T, s intake.Store, id string) intake.StoredGame {
	t.Helper()
	g, err := s.Game(context.Background(), id)
	if err != nil {
		t.Fatalf("Game(%s): %v", id, err)
	}
	return g
}

func same(t *testing.T, what string, got, want intake.StoredGame) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v\n got record %+v\nwant record %+v", what, got, want, got.Record, want.Record)
	}
}

func roundTrip(t *testing.T, s intake.Store) {
	ctx := context.Background()
	f := Finished("g1", "src-1", "alice", "bob", t0)
	p := PendingGame("g2", "carol", "dave", t0, time.Hour)
	mustCreate(t, s, f)
	mustCreate(t, s, p)
	same(t, "finished by id", mustGet(t, s, "g1"), f)
	same(t, "pending by id", mustGet(t, s, "g2"), p)
	got, err := s.BySource(ctx, "src-1")
	if err != nil {
		t.Fatal(err)
	}
	same(t, "by source", got, f)
}

// Assumed is what a reader might have assumed to read a record, for
// games stored with assumptions.
var Assumed = []string{"KM[375] read as komi 7.5: 3.75 stones written times 100", "no CA: read as GB18030 (PB[柯洁])"}

// assumptionsKept: the reader's assumptions come back with the game from
// every read and every write (Create, Finish, CreateAll); a game without
// any has none (nil).
func assumptionsKept(t *testing.T, s intake.Store) {
	ctx := context.Background()
	with := func(g intake.StoredGame) intake.StoredGame {
		r := *g.Record
		r.Assumptions = slices.Clone(Assumed)
		g.Record = &r
		return g
	}
	f := with(Finished("g1", "src-1", "alice", "bob", t0))
	mustCreate(t, s, f)
	mustCreate(t, s, PendingGame("p1", "alice", "bob", t0, time.Hour))
	fin := with(Finished("p1", "p1", "alice", "bob", t0.Add(time.Minute)))
	fin.CreatedAt = t0
	if err := s.Finish(ctx, fin); err != nil {
		t.Fatal(err)
	}
	reads := []intake.StoredGame{mustGet(t, s, "g1"), mustGet(t, s, "p1")}
	bySource, err := s.BySource(ctx, "src-1")
	if err != nil {
		t.Fatal(err)
	}
	finished, err := s.Finished(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := s.PlayerGames(ctx, intake.GamesQuery{Player: "alice", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	reads = append(append(append(reads, bySource), finished...), listed...)
	if bs, ok := s.(intake.BulkStore); ok {
		if _, err := bs.CreateAll(ctx, []intake.StoredGame{with(Finished("g2", "src-2", "bob", "alice", t0))}); err != nil {
			t.Fatal(err)
		}
		reads = append(reads, mustGet(t, s, "g2"))
	}
	if len(reads) < 5 {
		t.Fatalf("only %d games read", len(reads))
	}
	for _, g := range reads {
		if !slices.Equal(g.Record.Assumptions, Assumed) {
			t.Errorf("game %s read with assumptions %q, want %q", g.ID, g.Record.Assumptions, Assumed)
		}
	}
	same(t, "with assumptions", mustGet(t, s, "g1"), f)
	mustCreate(t, s, Finished("g3", "src-3", "alice", "bob", t0))
	if as := mustGet(t, s, "g3").Record.Assumptions; as != nil {
		t.Errorf("a game stored without assumptions reads with %q", as)
	}
}

func notFound(t *testing.T, s intake.Store) {
	ctx := context.Background()
	if _, err := s.Game(ctx, "nope"); !errors.Is(err, intake.ErrNotFound) {
		t.Errorf("Game(nope) = %v, want ErrNotFound", err)
	}
	if _, err := s.BySource(ctx, "nope"); !errors.Is(err, intake.ErrNotFound) {
		t.Errorf("BySource(nope) = %v, want ErrNotFound", err)
	}
	if err := s.Finish(ctx, Finished("nope", "nope", "a", "b", t0)); !errors.Is(err, intake.ErrNotFound) {
		t.Errorf("Finish(nope) = %v, want ErrNotFound", err)
	}
}

func sourceIsUnique(t *testing.T, s intake.Store) {
	ctx := context.Background()
	first := Finished("g1", "src", "alice", "bob", t0)
	mustCreate(t, s, first)
	other := Finished("g2", "src", "carol", "dave", t0.Add(time.Minute))
	if err := s.Create(ctx, other); !errors.Is(err, intake.ErrSourceTaken) {
		t.Fatalf("second Create with the same source_id = %v, want ErrSourceTaken", err)
	}
	sameID := Finished("g1", "src-other", "carol", "dave", t0)
	if err := s.Create(ctx, sameID); !errors.Is(err, intake.ErrSourceTaken) {
		t.Fatalf("Create with a taken id = %v, want ErrSourceTaken", err)
	}
	same(t, "the first stays", mustGet(t, s, "g1"), first)
	if _, err := s.Game(ctx, "g2"); !errors.Is(err, intake.ErrNotFound) {
		t.Fatalf("the refused game was stored: %v", err)
	}
}

func concurrentCreate(t *testing.T, s intake.Store) {
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = s.Create(context.Background(), Finished(fmt.Sprintf("g%d", i), "same-source", "alice", "bob", t0))
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, intake.ErrSourceTaken):
			t.Errorf("unexpected error %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d creates of one source_id succeeded, want 1", ok)
	}
}

func finishOnlyPending(t *testing.T, s intake.Store) {
	ctx := context.Background()
	p := PendingGame("g1", "alice", "bob", t0, time.Hour)
	mustCreate(t, s, p)
	f := Finished("g1", "g1", "alice", "bob", t0.Add(time.Minute))
	f.CreatedAt = t0
	if err := s.Finish(ctx, f); err != nil {
		t.Fatal(err)
	}
	want := f
	want.ExpiresAt = time.Time{}
	same(t, "finished pending game", mustGet(t, s, "g1"), want)
	again := f
	again.Hash = "other"
	if err := s.Finish(ctx, again); !errors.Is(err, intake.ErrNotPending) {
		t.Fatalf("Finish of a finished game = %v, want ErrNotPending", err)
	}
	same(t, "second finish changed nothing", mustGet(t, s, "g1"), want)
	// Once rated, neither another result nor the same one again finishes
	// it, nor makes it read as not rated.
	if err := s.MarkRated(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	want.Status = intake.StatusRated
	for _, late := range []intake.StoredGame{again, f} {
		if err := s.Finish(ctx, late); !errors.Is(err, intake.ErrNotPending) {
			t.Fatalf("Finish of a rated game (hash %s) = %v, want ErrNotPending", late.Hash, err)
		}
		same(t, "a finish after the rating changed nothing", mustGet(t, s, "g1"), want)
	}
	// A finished game never created pending cannot be finished either.
	mustCreate(t, s, Finished("g2", "src-2", "alice", "bob", t0))
	if err := s.Finish(ctx, Finished("g2", "src-2", "alice", "bob", t0)); !errors.Is(err, intake.ErrNotPending) {
		t.Fatalf("Finish of a submitted game = %v, want ErrNotPending", err)
	}
}

// concurrentEnds: results with different content and an expiry race for
// one pending game; exactly one wins, and the game is what it says.
func concurrentEnds(t *testing.T, s intake.Store) {
	ctx := context.Background()
	for round := range 5 {
		id := fmt.Sprintf("g%d", round)
		mustCreate(t, s, PendingGame(id, "alice", "bob", t0, time.Hour))
		const n = 6
		var wg sync.WaitGroup
		errs := make([]error, n)
		expired := make([]int, n)
		hashes := make([]string, n)
		for i := range n {
			wg.Go(func() {
				if i == 0 {
					expired[i], errs[i] = s.ExpirePending(ctx, t0.Add(2*time.Hour))
					return
				}
				f := Finished(id, id, "alice", "bob", t0)
				f.Hash = fmt.Sprintf("content-%d", i)
				hashes[i] = f.Hash
				errs[i] = s.Finish(ctx, f)
			})
		}
		wg.Wait()
		wins, winner := 0, -1
		for i, err := range errs {
			switch {
			case i == 0 && err == nil && expired[0] == 1, i > 0 && err == nil:
				wins++
				winner = i
			case err != nil && !errors.Is(err, intake.ErrNotPending):
				t.Fatalf("unexpected %v", err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d ends won (%v, expired %d)", round, wins, errs, expired[0])
		}
		g := mustGet(t, s, id)
		if winner == 0 && g.Status != intake.StatusExpired || winner > 0 && (g.Status != intake.StatusFinished || g.Hash != hashes[winner]) {
			t.Fatalf("round %d: winner %d, game is %s with hash %q", round, winner, g.Status, g.Hash)
		}
	}
}

func markRatedIdempotent(t *testing.T, s intake.Store) {
	ctx := context.Background()
	mustCreate(t, s, Finished("g1", "src", "alice", "bob", t0))
	for range 2 {
		if err := s.MarkRated(ctx, "g1"); err != nil {
			t.Fatal(err)
		}
		if g := mustGet(t, s, "g1"); g.Status != intake.StatusRated {
			t.Fatalf("status %s after MarkRated", g.Status)
		}
	}
	// The same game created again (a retried submission, under its id or
	// another) is refused. Its mark may stay beside the stored game, which
	// then reads finished (another call may be rating it under that
	// mark), until it is marked rated again; never the other way round.
	for _, again := range []intake.StoredGame{Finished("g1", "src", "alice", "bob", t0), Finished("g2", "src", "alice", "bob", t0)} {
		if err := s.Create(ctx, again); !errors.Is(err, intake.ErrSourceTaken) {
			t.Fatalf("Create %s again: %v, want ErrSourceTaken", again.ID, err)
		}
		g := mustGet(t, s, "g1")
		gs, err := s.Finished(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		listed := len(gs) == 1 && gs[0].ID == "g1"
		if g.Status == intake.StatusFinished != listed || len(gs) > 1 {
			t.Fatalf("after %s was created again: g1 %s, Finished %v; want it listed exactly when it reads finished", again.ID, g.Status, ids(gs))
		}
		if err := s.MarkRated(ctx, "g1"); err != nil {
			t.Fatal(err)
		}
		if g := mustGet(t, s, "g1"); g.Status != intake.StatusRated {
			t.Fatalf("status %s after %s was created again and g1 marked rated", g.Status, again.ID)
		}
	}
}

func finishedOldestFirst(t *testing.T, s intake.Store) {
	ctx := context.Background()
	for i, off := range []int{3, 1, 2, 0} {
		mustCreate(t, s, Finished(fmt.Sprintf("g%d", i), fmt.Sprintf("src-%d", i), "alice", "bob", t0.Add(time.Duration(off)*time.Minute)))
	}
	mustCreate(t, s, PendingGame("p", "alice", "bob", t0, time.Hour))
	if err := s.MarkRated(ctx, "g2"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Finished(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "g3" || got[1].ID != "g1" {
		t.Fatalf("Finished(2) = %v, want g3, g1", ids(got))
	}
	got, err = s.Finished(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ids(got)) != "[g3 g1 g0]" {
		t.Fatalf("Finished(10) = %v, want [g3 g1 g0]", ids(got))
	}
}

func ids(gs []intake.StoredGame) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.ID
	}
	return out
}

func expirePending(t *testing.T, s intake.Store) {
	ctx := context.Background()
	mustCreate(t, s, PendingGame("old", "alice", "bob", t0, time.Hour))
	mustCreate(t, s, PendingGame("new", "alice", "bob", t0, 3*time.Hour))
	mustCreate(t, s, Finished("done", "src", "alice", "bob", t0))
	n, err := s.ExpirePending(ctx, t0.Add(2*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("ExpirePending = %d, %v; want 1", n, err)
	}
	if g := mustGet(t, s, "old"); g.Status != intake.StatusExpired {
		t.Fatalf("old is %s", g.Status)
	}
	for _, id := range []string{"new"} {
		if g := mustGet(t, s, id); g.Status != intake.StatusPending {
			t.Fatalf("%s is %s", id, g.Status)
		}
	}
	if g := mustGet(t, s, "done"); g.Status != intake.StatusFinished {
		t.Fatalf("done is %s", g.Status)
	}
	// An expired game cannot be finished.
	f := Finished("old", "old", "alice", "bob", t0)
	if err := s.Finish(ctx, f); !errors.Is(err, intake.ErrNotPending) {
		t.Fatalf("Finish of an expired game = %v", err)
	}
	if n, err := s.ExpirePending(ctx, t0.Add(2*time.Hour)); err != nil || n != 0 {
		t.Fatalf("second ExpirePending = %d, %v; want 0", n, err)
	}
}

func unfinishedUntilEnded(t *testing.T, s intake.Store) {
	ctx := context.Background()
	want := func(player string, ids ...string) {
		t.Helper()
		got, err := s.Unfinished(ctx, player)
		if err != nil {
			t.Fatalf("Unfinished(%s): %v", player, err)
		}
		if len(got) != len(ids) || (len(ids) > 0 && !reflect.DeepEqual(sorted(got), sorted(ids))) {
			t.Fatalf("Unfinished(%s) = %v, want %v", player, got, ids)
		}
	}
	want("alice")
	mustCreate(t, s, PendingGame("p1", "alice", "bob", t0, time.Hour))
	mustCreate(t, s, PendingGame("p2", "carol", "alice", t0, 3*time.Hour))
	mustCreate(t, s, Finished("done", "src", "dave", "erin", t0))
	want("alice", "p1", "p2")
	want("bob", "p1")
	want("carol", "p2")
	want("dave")
	// A result ends it for both players.
	if err := s.Finish(ctx, Finished("p1", "p1", "alice", "bob", t0)); err != nil {
		t.Fatal(err)
	}
	want("bob")
	want("alice", "p2")
	// So does expiry.
	if n, err := s.ExpirePending(ctx, t0.Add(4*time.Hour)); err != nil || n != 1 {
		t.Fatalf("ExpirePending = %d, %v; want 1", n, err)
	}
	want("alice")
	want("carol")
}

func sorted(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// timesInUTC: a store keeps times as BSON dates do, in UTC to the
// millisecond, whatever zone and precision they came in.
func timesInUTC(t *testing.T, s intake.Store) {
	shanghai := time.FixedZone("CST", 8*3600)
	at := time.Date(2026, 3, 1, 20, 30, 45, 123_456_789, shanghai) // t0 and a bit, in Shanghai
	mustCreate(t, s, PendingGame("p", "alice", "bob", at, time.Hour))
	mustCreate(t, s, Finished("f", "src", "alice", "bob", at))
	p, f := mustGet(t, s, "p"), mustGet(t, s, "f")
	for _, c := range []struct {
		what      string
		got, want time.Time
	}{
		{"pending created", p.CreatedAt, t0}, {"pending expires", p.ExpiresAt, t0.Add(time.Hour)},
		{"finished created", f.CreatedAt, t0}, {"finished finished", f.FinishedAt, t0},
	} {
		if c.got != c.want {
			t.Errorf("%s at %v, want %v", c.what, c.got, c.want)
		}
	}
}

// flaggedOnceNewestFirst: a game is flagged once per flag (the first
// mark's time stays), listed newest mark first, then by id, in pages
// after a cursor, with the game as stored (a finished pending game's
// final form too); other flags are apart.
func flaggedOnceNewestFirst(t *testing.T, s intake.Store) {
	ctx := context.Background()
	for i, id := range []string{"g1", "g2", "g3"} {
		mustCreate(t, s, Finished(id, "src-"+id, "ann", "bob", t0.Add(time.Duration(i)*time.Minute)))
	}
	mustCreate(t, s, PendingGame("p1", "ann", "bob", t0, time.Hour))
	f := Finished("p1", "p1", "ann", "bob", t0.Add(time.Minute))
	if err := s.Finish(ctx, f); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		id string
		at time.Duration
	}{{"g1", 1}, {"g2", 3}, {"g3", 3}, {"p1", 2}, {"g1", 9}} {
		if err := s.Flag(ctx, m.id, intake.FlagCountUnverified, t0.Add(m.at*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Flag(ctx, "g2", "other", t0); err != nil {
		t.Fatal(err)
	}
	var got []string
	var after *intake.FlagCursor
	for page := 0; page < 4; page++ {
		fs, err := s.Flagged(ctx, intake.FlagCountUnverified, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 {
			break
		}
		for _, fg := range fs {
			got = append(got, fmt.Sprintf("%s@%d", fg.Game.ID, int(fg.At.Sub(t0)/time.Minute)))
			if fg.Flag != intake.FlagCountUnverified || fg.Game.Record == nil {
				t.Fatalf("flagged %+v", fg)
			}
			if fg.Game.ID == "p1" && fg.Game.Status != intake.StatusFinished {
				t.Fatalf("the flagged pending game is %s, want its finished form", fg.Game.Status)
			}
		}
		last := fs[len(fs)-1]
		after = &intake.FlagCursor{At: last.At, ID: last.Game.ID}
	}
	if want := "[g2@3 g3@3 p1@2 g1@1]"; fmt.Sprint(got) != want {
		t.Fatalf("flagged = %v, want %s", got, want)
	}
	if g := mustGet(t, s, "g1"); !g.PlayedAt.Equal(t0.Add(-time.Hour)) {
		t.Fatalf("played_at %v, want %v", g.PlayedAt, t0.Add(-time.Hour))
	}
}

// playerGamesNewestFirst: a player's games on either side, newest created
// first then by id descending, paged by the cursor, filtered by opponent
// and by state (as the game stands: a pending game finished and rated
// is rated, listed at its creation time).
func playerGamesNewestFirst(t *testing.T, s intake.Store) {
	ctx := context.Background()
	mustCreate(t, s, Finished("g1", "s1", "alice", "bob", t0))
	mustCreate(t, s, Finished("g2", "s2", "carol", "alice", t0.Add(time.Minute)))
	mustCreate(t, s, Finished("g3", "s3", "bob", "carol", t0.Add(2*time.Minute)))
	mustCreate(t, s, PendingGame("p4", "alice", "bob", t0.Add(3*time.Minute), time.Hour))
	mustCreate(t, s, PendingGame("p5", "bob", "alice", t0.Add(3*time.Minute), time.Hour))
	mustCreate(t, s, PendingGame("p6", "alice", "dave", t0.Add(4*time.Minute), time.Hour))
	fin := Finished("p5", "p5", "bob", "alice", t0.Add(10*time.Minute))
	if err := s.Finish(ctx, fin); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRated(ctx, "p5"); err != nil {
		t.Fatal(err)
	}
	list := func(q intake.GamesQuery) []intake.StoredGame {
		t.Helper()
		gs, err := s.PlayerGames(ctx, q)
		if err != nil {
			t.Fatalf("PlayerGames(%+v): %v", q, err)
		}
		return gs
	}
	want := func(what string, gs []intake.StoredGame, ids ...string) {
		t.Helper()
		if got := gameIDs(gs); !reflect.DeepEqual(got, ids) {
			t.Errorf("%s: %v, want %v", what, got, ids)
		}
	}
	all := list(intake.GamesQuery{Player: "alice"})
	want("all of alice's", all, "p6", "p5", "p4", "g2", "g1")
	if all[1].Status != intake.StatusRated || !all[1].CreatedAt.Equal(t0.Add(3*time.Minute)) || all[1].Verdict == nil {
		t.Errorf("p5 as listed: %+v", all[1])
	}
	page := list(intake.GamesQuery{Player: "alice", Limit: 2})
	want("page 1", page, "p6", "p5")
	c := intake.CursorOf(page[1])
	page = list(intake.GamesQuery{Player: "alice", Limit: 2, After: &c})
	want("page 2", page, "p4", "g2")
	c = intake.CursorOf(page[1])
	want("page 3", list(intake.GamesQuery{Player: "alice", Limit: 2, After: &c}), "g1")
	want("against bob", list(intake.GamesQuery{Player: "alice", Opponent: "bob"}), "p5", "p4", "g1")
	want("pending", list(intake.GamesQuery{Player: "alice", States: []intake.Status{intake.StatusPending}}), "p6", "p4")
	want("finished or rated, one a page", list(intake.GamesQuery{Player: "alice", Limit: 1, States: []intake.Status{intake.StatusFinished, intake.StatusRated}}), "p5")
	want("pending against dave", list(intake.GamesQuery{Player: "alice", Opponent: "dave", States: []intake.Status{intake.StatusPending}}), "p6")
	want("nobody's", list(intake.GamesQuery{Player: "zed"}), []string{}...)
}

func gameIDs(gs []intake.StoredGame) []string {
	out := []string{}
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return out
}

// abortOncePending: only a pending game is aborted, once; it then stands
// aborted, is no longer unfinished, cannot be finished or expired, and is
// listed with who aborted it from since on.
func abortOncePending(t *testing.T, s intake.Store) {
	ctx := context.Background()
	mustCreate(t, s, PendingGame("p1", "alice", "bob", t0, time.Hour))
	mustCreate(t, s, PendingGame("p2", "carol", "alice", t0, time.Hour))
	mustCreate(t, s, Finished("g1", "s1", "alice", "bob", t0))
	if err := s.Abort(ctx, "p1", "bob", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if g := mustGet(t, s, "p1"); g.Status != intake.StatusAborted {
		t.Errorf("p1 after its abort: %s", g.Status)
	}
	for _, id := range []string{"p1", "g1"} {
		if err := s.Abort(ctx, id, "alice", t0.Add(2*time.Minute)); !errors.Is(err, intake.ErrNotPending) {
			t.Errorf("abort %s: %v, want ErrNotPending", id, err)
		}
	}
	if err := s.Abort(ctx, "nope", "alice", t0); !errors.Is(err, intake.ErrNotFound) {
		t.Errorf("abort of no game: %v", err)
	}
	if err := s.Finish(ctx, Finished("p1", "p1", "alice", "bob", t0)); !errors.Is(err, intake.ErrNotPending) {
		t.Errorf("finish after abort: %v", err)
	}
	if n, err := s.ExpirePending(ctx, t0.Add(2*time.Hour)); err != nil || n != 1 {
		t.Errorf("expiry after abort: %d, %v; want p2 only", n, err)
	}
	if ids, err := s.Unfinished(ctx, "bob"); err != nil || len(ids) != 0 {
		t.Errorf("bob's unfinished: %v, %v", ids, err)
	}
	mustCreate(t, s, PendingGame("p3", "dave", "alice", t0, time.Hour))
	if err := s.Abort(ctx, "p3", "alice", t0.Add(3*time.Minute)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Aborts(ctx, t0)
	want := []intake.Abort{{GameID: "p3", By: "alice", Black: "dave", White: "alice", At: t0.Add(3 * time.Minute)},
		{GameID: "p1", By: "bob", Black: "alice", White: "bob", At: t0.Add(time.Minute)}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Aborts = %+v, %v; want %+v", got, err, want)
	}
	if got, err := s.Aborts(ctx, t0.Add(2*time.Minute)); err != nil || len(got) != 1 || got[0].GameID != "p3" {
		t.Errorf("Aborts since the second: %+v, %v", got, err)
	}
}
