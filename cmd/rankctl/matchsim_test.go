package main

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/ranks"
)

// TestMatchsimBadArguments: each bad argument exits 2 with a message that
// names it.
func TestMatchsimBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		name string
	}{
		{[]string{}, "--token"},
		{[]string{"--token", "t", "--rate", "0"}, "--rate"},
		{[]string{"--token", "t", "--rate", "-3"}, "--rate"},
		{[]string{"--token", "t", "--rate", "NaN"}, "--rate"},
		{[]string{"--token", "t", "--tickets", "-1"}, "--tickets"},
		{[]string{"--token", "t", "--duration", "0s"}, "--duration"},
		{[]string{"--token", "t", "--players", "1"}, "--players"},
		{[]string{"--token", "t", "--poll", "0s"}, "--poll"},
		{[]string{"--token", "t", "--drain", "-1s"}, "--drain"},
		{[]string{"--token", "t", "--range-share", "1.5"}, "--range-share"},
		{[]string{"--token", "t", "--cancel-share", "-0.1"}, "--cancel-share"},
		{[]string{"--token", "t", "--cancel-after", "0s"}, "--cancel-after"},
		{[]string{"--token", "t", "--score-sd", "-1"}, "--score-sd"},
		{[]string{"--token", "t", "--score-mean", "Inf"}, "--score-mean"},
		{[]string{"--token", "t", "--setup-concurrency", "0"}, "--setup-concurrency"},
		{[]string{"--token", "t", "--conns", "0"}, "--conns"},
		{[]string{"--token", "t", "--pools", "19:rapid:chinese"}, "--pools"},
		{[]string{"--token", "t", "--pools", "17:rapid:chinese:rated"}, "board size"},
		{[]string{"--token", "t", "--pools", "19:bullet:chinese:rated"}, "--pools"},
		{[]string{"--token", "t", "--pools", "19:rapid:korean:rated"}, "rules"},
		{[]string{"--token", "t", "--pools", "19:rapid:chinese:maybe"}, "--pools"},
		{[]string{"--token", "t", "--pools", "19:rapid:chinese:rated,9:0+0x0:chinese:free"}, "--pools"},
		{[]string{"--token", "t", "--url", "ftp://x"}, "--url"},
		{[]string{"--token", "t", "extra"}, `"extra"`},
		{[]string{"--token", "t", "--nonsense"}, "nonsense"},
	} {
		var out, errOut bytes.Buffer
		code := runMatchsim(context.Background(), tc.args, &out, &errOut)
		if code != exitUsage || !strings.Contains(errOut.String(), tc.name) {
			t.Errorf("matchsim %v = %d, %q; want %d naming %s", tc.args, code, errOut.String(), exitUsage, tc.name)
		}
	}
	var out, errOut bytes.Buffer
	if code := runMatchsim(context.Background(), []string{"-h"}, &out, &errOut); code != exitOK || !strings.Contains(errOut.String(), "Poisson") {
		t.Errorf("-h = %d, %q", code, errOut.String())
	}
}

func TestMatchsimDefaults(t *testing.T) {
	c, code := parseMatchsim([]string{"--token", "t", "--rate", "50", "--duration", "10s", "--url", "http://127.0.0.1:1/"}, &bytes.Buffer{})
	if code != -1 || c.players != 500 || c.url != "http://127.0.0.1:1" || len(c.pools) != 1 || c.pools[0].key != "19/600+3x30/chinese/r" {
		t.Fatalf("code %d, %+v", code, c)
	}
	c, code = parseMatchsim([]string{"--token", "t", "--tickets", "40"}, &bytes.Buffer{})
	if code != -1 || c.players != 40 {
		t.Fatalf("--tickets 40: code %d, players %d", code, c.players)
	}
}

func TestParsePools(t *testing.T) {
	ps, err := parsePools("19:rapid:chinese:rated, 9:300+3x10:japanese:free,13:slow:ing:rated")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"19/600+3x30/chinese/r", "9/300+3x10/japanese/u", "13/3600+5x60/ing/r"}
	for i, p := range ps {
		if p.key != want[i] {
			t.Errorf("pool %d key %q, want %q", i, p.key, want[i])
		}
	}
	if tc, ok := ps[1].body["time_control"].(map[string]int); !ok || tc["main_seconds"] != 300 || tc["periods"] != 3 || tc["period_seconds"] != 10 {
		t.Errorf("explicit time control sent as %v", ps[1].body["time_control"])
	}
	if ps[0].body["time_control"] != "rapid" || ps[0].body["rated"] != true || ps[1].body["rated"] != false || ps[2].body["board_size"] != 13 {
		t.Errorf("bodies %v %v %v", ps[0].body, ps[1].body, ps[2].body)
	}
}

// TestSimScores: the default distribution puts about 95% of the players
// between 10k (-900) and 3d (+400), most of them in the kyu ranks, and a
// player's score depends only on the seed and its number.
func TestSimScores(t *testing.T) {
	c, _ := parseMatchsim([]string{"--token", "t", "--players", "20000"}, &bytes.Buffer{})
	scores := simScores(c)
	in, kyu, sum := 0, 0, 0.0
	for _, s := range scores {
		if s >= -900 && s < 400 {
			in++
		}
		if s < 100 {
			kyu++
		}
		sum += float64(s)
	}
	share := float64(in) / float64(len(scores))
	if share < 0.93 || share > 0.97 {
		t.Errorf("%.3f between 10k and 3d, want about 0.95", share)
	}
	if k := float64(kyu) / float64(len(scores)); k < 0.8 || k > 0.9 {
		t.Errorf("%.3f kyu players, want about 0.86", k)
	}
	if mean := sum / float64(len(scores)); math.Abs(mean-c.scoreMean) > 10 {
		t.Errorf("mean %.1f, want about %v", mean, c.scoreMean)
	}
	c.players = 100
	again := simScores(c)
	for i, s := range again {
		if s != scores[i] {
			t.Fatalf("player %d: %d with 100 players, %d with 20000", i, s, scores[i])
		}
	}
}

// TestSimRange: a ticket's range always holds the player's own score (rankd
// refuses one that does not) and reaches one to three ranks away.
func TestSimRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// ord numbers the ladder's ranks upwards: 9k is -9, 1k -1, 1d 0, 9d 8;
	// at the ends of the ladder a range end may be the player's own rank.
	ord := func(r ranks.Rank) int {
		if strings.HasSuffix(r.String(), "k") {
			return -r.Level()
		}
		return r.Level() - 1
	}
	open := [2]int{}
	for range 2000 {
		score := rng.IntN(1700) - 800 // on the ladder: off it every rank is 9k or 9d
		lo, hi := simRange(rng, score)
		if lo == "" && hi == "" {
			t.Fatal("a range with both ends open")
		}
		own := ord(ranks.FromScore(score))
		if lo == "" {
			open[0]++
		} else if r, err := ranks.Parse(lo); err != nil || !(ord(r) < own || own == -9 && ord(r) == own) || own-ord(r) > 3 {
			t.Fatalf("score %d (%v): lower end %q", score, ranks.FromScore(score), lo)
		}
		if hi == "" {
			open[1]++
		} else if r, err := ranks.Parse(hi); err != nil || !(ord(r) > own || own == 8 && ord(r) == own) || ord(r)-own > 3 {
			t.Fatalf("score %d (%v): upper end %q", score, ranks.FromScore(score), hi)
		}
	}
	if open[0] == 0 || open[1] == 0 {
		t.Errorf("open ends %v: each kind of range should occur", open)
	}
}

func TestPercentileOfNumbers(t *testing.T) {
	if got := percentile([]float64{0.5, 1, 2, 8}, .5); got != 1 {
		t.Errorf("float p50 = %v", got)
	}
	if got := percentile([]int{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}, .95); got != 100 {
		t.Errorf("int p95 = %v", got)
	}
	if got := percentile([]int(nil), .5); got != 0 {
		t.Errorf("empty = %v", got)
	}
}

func matched(player, opponent, colour string, score int, created, at time.Time, game string) simOutcome {
	o := simOutcome{Player: player}
	o.Ticket.ID = player + at.String()
	o.Ticket.State = string(matchmaking.Matched)
	o.Ticket.Pool = "19/600+3x30/chinese/r"
	o.Ticket.Level.Score = score
	o.Ticket.CreatedAt = created
	o.Ticket.MatchedAt = &at
	o.Ticket.Opponent = opponent
	o.Ticket.Colour = colour
	o.Ticket.GameID = game
	return o
}

// TestSimReport: pairs are put together from their two tickets, waits
// and gaps come from the tickets, and a pairing one side does not
// confirm is inconsistent.
func TestSimReport(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	sec := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	c, _ := parseMatchsim([]string{"--token", "t", "--players", "6"}, &bytes.Buffer{})
	r := &simRun{c: c, scores: map[string]int{"a": 0, "b": 40, "c": 100, "d": 160, "e": 0, "f": 0}, started: t0, ended: sec(20)}
	r.arrivals = 7
	r.outcomes = []simOutcome{
		matched("a", "b", "black", 0, sec(0), sec(2), "g1"),
		matched("b", "a", "white", 40, sec(1), sec(2), "g1"),
		matched("c", "d", "white", 100, sec(1), sec(5), "g2"),
		matched("d", "c", "black", 160, sec(4), sec(5), ""), // read before its game was made
	}
	cancelled := simOutcome{Player: "e"}
	cancelled.Ticket.State = string(matchmaking.Cancelled)
	cancelled.Ticket.CreatedAt = sec(3)
	expired := simOutcome{Player: "f"}
	expired.Ticket.State = string(matchmaking.Expired)
	expired.Ticket.CreatedAt = sec(3)
	r.outcomes = append(r.outcomes, cancelled, expired)
	rep := r.report()
	if rep.Tickets != 6 || rep.Matched != 4 || rep.Pairs != 2 || rep.Cancelled != 1 || rep.Expired != 1 || rep.Inconsistent != 0 {
		t.Fatalf("counts: %+v", rep)
	}
	if rep.Wait.P50 != 1 || rep.Wait.Max != 4 || rep.Wait.P95 != 4 {
		t.Errorf("waits %+v (want of 2, 1, 4, 1 s)", rep.Wait)
	}
	if rep.Gap.Mean != 50 || rep.Gap.P95 != 60 || rep.Gap.Max != 60 {
		t.Errorf("gaps %+v (want of 40 and 60)", rep.Gap)
	}
	if rep.SpanSeconds != 5 || rep.PairsPerSecond != 0.4 {
		t.Errorf("span %v, pairs/s %v", rep.SpanSeconds, rep.PairsPerSecond)
	}
	var out bytes.Buffer
	rep.print(&out)
	for _, want := range []string{"pairs 2: 0.40 pairs/s", "wait at pairing p50 1.00s", "gap at pairing mean 50.0", "inconsistent pairings 0, one-sided 0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}

	// e says it met a, but a met b: e's pairing is one-sided; and two
	// tickets of one colour cannot be a pair.
	r.outcomes = append(r.outcomes,
		matched("e", "a", "black", 0, sec(6), sec(7), "g3"),
		matched("f", "c", "black", 0, sec(6), sec(8), "g4"),
		matched("c", "f", "black", 100, sec(6), sec(8), "g4"))
	if rep := r.report(); rep.Inconsistent != 2 || rep.OneSided != 1 {
		t.Errorf("inconsistent %d, one-sided %d; want 2 and 1", rep.Inconsistent, rep.OneSided)
	}
}

// A count of nothing reads as none, not as a label with nothing after it.
func TestCountsOfNothing(t *testing.T) {
	if got := counts(map[string]int{}); got != "none" {
		t.Errorf("counts of none = %q", got)
	}
	if got := counts(map[string]int{"b": 1, "a": 2}); got != "2×a 1×b" {
		t.Errorf("counts = %q", got)
	}
}
