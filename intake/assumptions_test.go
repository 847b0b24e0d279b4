package intake_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
)

// Two files of one game: Fox's komi ×100 and an omitted pass in the
// first, written plainly in the second.
const (
	quirkySGF = "(;GM[1]FF[4]SZ[9]KM[375]RU[Chinese]PB[alice]PW[bob]RE[W+R];B[ee];W[gg];W[cc];B[dd])"
	plainSGF  = "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[alice]PW[bob]RE[W+R];B[ee];W[gg];B[];W[cc];B[dd])"
)

// stacks runs f on the in-memory stores and on the real ones (gamedb).
func stacks(t *testing.T, f func(t *testing.T, s *apptest.Stack)) {
	for _, tc := range []struct {
		name string
		new  func(testing.TB, ...apptest.Option) *apptest.Stack
	}{{"memory", apptest.Memory}, {"gamedb", apptest.Real}} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.new(t)
			for _, n := range []string{"alice", "bob"} {
				if err := s.Stores.Accounts.CreateAccount(t.Context(), players.Account{Username: n, Role: players.RolePlayer, PasswordHash: "x", CreatedAt: time.Unix(0, 0)}); err != nil {
					t.Fatal(err)
				}
			}
			f(t, s)
		})
	}
}

func hasAssumption(as []string, part string) bool {
	return slices.ContainsFunc(as, func(a string) bool { return strings.Contains(a, part) })
}

// TestAssumptionsKeptWithTheGame: what the reader assumed to read a
// submitted SGF is stored with the game and read back; it changes
// neither the content hash nor what counts as the same game.
func TestAssumptionsKeptWithTheGame(t *testing.T) {
	stacks(t, func(t *testing.T, s *apptest.Stack) {
		ctx := t.Context()
		acc, err := s.Intake.Submit(ctx, intake.Submission{SourceID: "fox/1", SGF: []byte(quirkySGF), By: "srv"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Intake.Game(ctx, acc.Game.ID)
		if err != nil {
			t.Fatal(err)
		}
		as := got.Record.Assumptions
		if len(as) != 2 || !hasAssumption(as, "KM[375]") || !hasAssumption(as, "a pass by the other assumed before move 3") {
			t.Fatalf("stored assumptions %q, want the komi and the pass", as)
		}
		if !slices.Equal(acc.Game.Record.Assumptions, as) {
			t.Errorf("the answer's assumptions %q, the stored %q", acc.Game.Record.Assumptions, as)
		}

		// The same game written plainly: a retry under the same source_id,
		// and under another its own game with the same hash and none.
		again, err := s.Intake.Submit(ctx, intake.Submission{SourceID: "fox/1", SGF: []byte(plainSGF), By: "srv"})
		if err != nil || !again.Retry {
			t.Fatalf("the plain file under the same source_id: retry %v, %v", again.Retry, err)
		}
		plain, err := s.Intake.Submit(ctx, intake.Submission{SourceID: "plain/1", SGF: []byte(plainSGF), By: "srv"})
		if err != nil {
			t.Fatal(err)
		}
		if plain.Game.Hash != got.Hash {
			t.Errorf("hashes differ: %s plain, %s quirky", plain.Game.Hash, got.Hash)
		}
		stored, err := s.Intake.Game(ctx, plain.Game.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Record.Assumptions != nil {
			t.Errorf("a plain file's game has assumptions %q", stored.Record.Assumptions)
		}
	})
}

// TestArchiveKeepsAssumptions: an archive's game keeps its assumptions
// too, and the plain file of the same game is a duplicate.
func TestArchiveKeepsAssumptions(t *testing.T) {
	stacks(t, func(t *testing.T, s *apptest.Stack) {
		ctx := t.Context()
		at := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
		game := func(src, sgf string) intake.ArchiveGame {
			rs, err := games.ReadRecords([]byte(sgf), games.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			return intake.ArchiveGame{Source: src, Record: rs[0], At: at}
		}
		a := s.Intake.Archive(intake.ArchiveOptions{})
		out, err := a.Submit(ctx, []intake.ArchiveGame{game("q.sgf", quirkySGF)})
		if err != nil || out[0].Status != intake.ArchiveRated {
			t.Fatalf("%+v, %v", out, err)
		}
		g, err := s.Intake.Game(ctx, out[0].GameID)
		if err != nil {
			t.Fatal(err)
		}
		if as := g.Record.Assumptions; len(as) != 2 || !hasAssumption(as, "KM[375]") {
			t.Errorf("archived game's assumptions %q", as)
		}
		out, err = a.Submit(ctx, []intake.ArchiveGame{game("p.sgf", plainSGF)})
		if err != nil || out[0].Status != intake.ArchiveDuplicate || out[0].GameID != g.ID {
			t.Fatalf("the plain file: %+v, %v; want a duplicate of %s", out, err, g.ID)
		}
		if err := a.Close(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// TestAssumptionsBounded: a hostile file's hundreds of quirks, and a
// quoted value of 3,000 bytes, are kept within MaxAssumptions entries of
// at most MaxAssumptionText bytes each, the last saying how many more
// there were.
func TestAssumptionsBounded(t *testing.T) {
	var many strings.Builder
	many.WriteString("(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]PB[alice]PW[bob]RE[W+R]")
	n := 0
	for y := 0; y < 19; y += 2 {
		for x := range 19 {
			fmt.Fprintf(&many, ";%s[%c%c]PL", "BW"[n%2:n%2+1], 'a'+x, 'a'+y) // PL without a value: one note each
			n++
		}
	}
	many.WriteString(")")
	long := "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[alice]PW[bob]RE[W+R]PL[" + strings.Repeat("长", 1000) + "];B[ee];W[gg])"
	rs, err := games.ReadRecords([]byte(many.String()), games.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs[0].Assumptions) != n {
		t.Fatalf("the reader made %d assumptions, want %d", len(rs[0].Assumptions), n)
	}
	stacks(t, func(t *testing.T, s *apptest.Stack) {
		ctx := t.Context()
		kept := func(source, sgf string) []string {
			t.Helper()
			acc, err := s.Intake.Submit(ctx, intake.Submission{SourceID: source, SGF: []byte(sgf), By: "srv"})
			if err != nil {
				t.Fatal(err)
			}
			g, err := s.Intake.Game(ctx, acc.Game.ID)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range g.Record.Assumptions {
				if len(a) > intake.MaxAssumptionText || !utf8.ValidString(a) {
					t.Errorf("%s: assumption %d: %d bytes (valid UTF-8 %v)", source, i, len(a), utf8.ValidString(a))
				}
			}
			return g.Record.Assumptions
		}
		as := kept("hostile/many", many.String())
		if len(as) != intake.MaxAssumptions {
			t.Fatalf("%d assumptions kept, want %d", len(as), intake.MaxAssumptions)
		}
		want := fmt.Sprintf("and %d more assumptions, not kept", n-(intake.MaxAssumptions-1))
		if as[len(as)-1] != want || as[0] != rs[0].Assumptions[0] {
			t.Errorf("first %q, last %q; want the reader's first and %q", as[0], as[len(as)-1], want)
		}
		as = kept("hostile/long", long)
		if len(as) != 1 || !strings.HasPrefix(as[0], "PL[长长") || !strings.HasSuffix(as[0], "长…") {
			t.Errorf("the long one is not cut with an ellipsis: %q", as)
		}
	})
}

// TestContentHashIgnoresAssumptions: the content hash of a game with
// assumptions is the one it had when they were dropped before storing.
func TestContentHashIgnoresAssumptions(t *testing.T) {
	rs, err := games.ReadRecords([]byte(quirkySGF), games.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	v, err := games.Judge(r)
	if err != nil {
		t.Fatal(err)
	}
	with := intake.ContentHash("alice", "bob", true, r, v)
	r.Assumptions = nil
	if without := intake.ContentHash("alice", "bob", true, r, v); with != without {
		t.Fatalf("the hash depends on the assumptions: %s with, %s without", with, without)
	}
	// As computed before assumptions were kept: games stored then keep
	// their hash.
	if with != pinnedHash {
		t.Errorf("hash %s, want %s", with, pinnedHash)
	}
}

const pinnedHash = "04663676a8e24a1da77abc6c80c21d6044af24fc80fe53c68c4b1471f97fbecb"
