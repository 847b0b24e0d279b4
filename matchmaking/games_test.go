package matchmaking_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
)

var ctx = context.Background()

// world is matchmaking on a real redis-server over the real games intake
// on embedded FerretDB, wired as rankd wires them.
type world struct {
	clock  *clockwork.FakeClock
	intake *intake.Intake
	mm     *matchmaking.Service
}

func newWorld(t *testing.T) *world {
	t.Helper()
	clock := clockwork.NewFakeClockAt(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	s := apptest.Real(t, apptest.Clock(clock), apptest.Config(app.Config{GameTTL: time.Hour}))
	for _, name := range []string{"alice", "bob", "carol"} {
		if err := s.Stores.Accounts.CreateAccount(ctx, players.Account{Username: name, Role: players.RolePlayer, CreatedAt: clock.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	return &world{clock: clock, intake: s.Intake, mm: s.Matchmaking}
}

func (w *world) enqueue(player string, score int) error {
	_, err := w.mm.Enqueue(ctx, matchmaking.Request{
		Player: player, Level: matchmaking.Level{Score: score, Rating: 1500, RD: 350},
		BoardSize: 13, TimeControl: games.TimeControl{Preset: "blitz"}, Rules: "japanese", Rated: true,
	})
	return err
}

// A pairing makes one pending game in the games store, with the pool's
// board, rules, komi and time control; while it is unfinished neither
// player may queue; its result frees them.
func TestPairingMakesPendingGameThatBlocksQueueingUntilFinished(t *testing.T) {
	w := newWorld(t)
	for _, p := range []string{"alice", "bob"} {
		if err := w.enqueue(p, 1000); err != nil {
			t.Fatal(err)
		}
	}
	w.clock.Advance(time.Second)
	if rep, err := w.mm.PassAll(ctx); err != nil || len(rep) != 1 || rep[0].Paired != 1 {
		t.Fatalf("pass = %+v, %v; want one pairing", rep, err)
	}
	mine, err := w.mm.Mine(ctx, "alice")
	if err != nil || mine.State != matchmaking.Matched || mine.Match.GameID == "" {
		t.Fatalf("alice's ticket = %+v, %v; want matched with a game", mine, err)
	}
	g, err := w.intake.Game(ctx, mine.Match.GameID)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != intake.StatusPending || g.Record.Size != 13 || g.Record.Rules != games.Japanese() || g.Record.Komi != 6.5 ||
		g.TimeControl != "300+3x10" || !g.Rated || g.SourceID != matchmaking.SourceID(mine.Match.PairID) {
		t.Fatalf("pending game = %+v, record %+v", g, g.Record)
	}
	if (mine.Match.Colour == matchmaking.Black) != (g.Black == "alice") {
		t.Fatalf("alice is %s on the ticket but the game has black=%s white=%s", mine.Match.Colour, g.Black, g.White)
	}

	// Making the game again (a replica that crashed before recording it)
	// finds the same game.
	again, err := matchmaking.IntakeGames{Intake: w.intake}.CreatePending(ctx, matchmaking.PendingGame{
		ID: mine.Match.PairID, Black: g.Black, White: g.White, BoardSize: 13, Rules: "japanese",
		TimeControl: games.TimePresets["blitz"], Rated: true,
	})
	if err != nil || again != g.ID {
		t.Fatalf("CreatePending again = %q, %v; want %q", again, err, g.ID)
	}

	for _, p := range []string{"alice", "bob"} {
		if err := w.enqueue(p, 1000); !errors.Is(err, matchmaking.ErrInGame) {
			t.Fatalf("%s queued while in a game: %v", p, err)
		}
	}
	if err := w.enqueue("carol", 1000); err != nil {
		t.Fatalf("carol, in no game: %v", err)
	}

	r := &games.Record{Komi: math.NaN(), Handicap: -1, End: games.EndResign, EndBy: games.White,
		Moves: []games.Move{games.Play(games.Black, games.Point{X: 3, Y: 3})}}
	if _, err := w.intake.Submit(ctx, intake.Submission{GameID: g.ID, Record: r, By: "go-server"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"alice", "bob"} {
		if err := w.enqueue(p, 1000); err != nil {
			t.Fatalf("%s after the game: %v", p, err)
		}
	}
}

// A pairing's game that never finishes expires, and the players may queue
// again.
func TestExpiredPairingGameFreesPlayers(t *testing.T) {
	w := newWorld(t)
	for _, p := range []string{"alice", "bob"} {
		if err := w.enqueue(p, -300); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.mm.PassAll(ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.enqueue("alice", -300); !errors.Is(err, matchmaking.ErrInGame) {
		t.Fatalf("alice queued while in a game: %v", err)
	}
	w.clock.Advance(time.Hour)
	if n, err := w.intake.ExpirePending(ctx); err != nil || n != 1 {
		t.Fatalf("ExpirePending = %d, %v; want 1", n, err)
	}
	if err := w.enqueue("alice", -300); err != nil {
		t.Fatalf("alice after expiry: %v", err)
	}
}

func TestUnknownRulesRefused(t *testing.T) {
	_, err := matchmaking.IntakeGames{}.CreatePending(ctx, matchmaking.PendingGame{ID: "x.y", Rules: "lasker"})
	if err == nil {
		t.Fatal("a pairing with unknown rules made a game")
	}
}
