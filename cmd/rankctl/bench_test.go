package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
)

func TestPercentile(t *testing.T) {
	ms := func(n ...int) []time.Duration {
		out := make([]time.Duration, len(n))
		for i, v := range n {
			out[i] = time.Duration(v) * time.Millisecond
		}
		return out
	}
	for _, tc := range []struct {
		sorted []time.Duration
		q      float64
		want   time.Duration
	}{
		{nil, .5, 0},
		{ms(7), .99, 7 * time.Millisecond},
		{ms(1, 2, 3, 4), .5, 2 * time.Millisecond},
		{ms(1, 2, 3, 4), .75, 3 * time.Millisecond},
		{ms(1, 2, 3, 4), 1, 4 * time.Millisecond},
		{ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), .95, 10 * time.Millisecond},
	} {
		if got := percentile(tc.sorted, tc.q); got != tc.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", tc.sorted, tc.q, got, tc.want)
		}
	}
}

// TestBenchGamesAreLegal: the generated submissions are legal games
// between two different bench players, with the result the engine gives,
// and a seed gives the same games again.
func TestBenchGamesAreLegal(t *testing.T) {
	c := benchConfig{prefix: "b", players: 5, games: 20, size: 9, moves: 60, seed: 7}
	bodies := benchGames(c)
	again := benchGames(c)
	for i, b := range bodies {
		if !bytes.Equal(b, again[i]) {
			t.Fatalf("game %d differs between two runs of one seed", i)
		}
		var in struct {
			SourceID                         string `json:"source_id"`
			Black, White, Rules, End, Result string
			Size                             int
			Komi                             float64
			Moves                            []string
		}
		if err := json.Unmarshal(b, &in); err != nil {
			t.Fatal(err)
		}
		if in.Black == in.White || !strings.HasPrefix(in.Black, "b") || in.SourceID == "" {
			t.Fatalf("game %d: %s against %s, source %q", i, in.Black, in.White, in.SourceID)
		}
		r := &games.Record{Size: in.Size, Rules: games.Chinese(), Komi: in.Komi, End: games.EndReason(in.End), Result: in.Result}
		next := games.Black
		for _, m := range in.Moves {
			if m == "" {
				r.Moves = append(r.Moves, games.PassMove(next))
			} else {
				p, err := games.ParseSGFPoint(m)
				if err != nil {
					t.Fatal(err)
				}
				r.Moves = append(r.Moves, games.Play(next, p))
			}
			next = next.Opponent()
		}
		if res, _, _ := games.ParseResult(in.Result); r.End == games.EndResign {
			r.EndBy = res.Winner.Opponent()
		}
		v, err := games.Judge(r)
		if err != nil || v.Result != in.Result {
			t.Fatalf("game %d judged %v, %v; claims %s", i, v.Result, err, in.Result)
		}
	}
}

func TestBenchUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--token", "t", "--players", "1"}, {"--token", "t", "--games", "0"}, {"--token", "t", "extra"}} {
		var out, errOut bytes.Buffer
		if code := runBench(context.Background(), args, &out, &errOut); code != exitUsage {
			t.Errorf("bench %v = %d, want %d (%s)", args, code, exitUsage, errOut.String())
		}
	}
}

// The bench registers only the players that do not exist yet: a
// registration costs a password hash on the server, which would be
// counted against the games measured.
func TestBenchRegistersOnlyMissingPlayers(t *testing.T) {
	var mu sync.Mutex
	var registered []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == "GET" && r.URL.Path == "/api/v1/players/bench0":
			if r.Header.Get("Authorization") != "Bearer tok" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			_, _ = w.Write([]byte(`{"username":"bench0"}`))
		case r.Method == "GET":
			w.WriteHeader(http.StatusNotFound)
		case r.Method == "POST" && r.URL.Path == "/api/v1/auth/register":
			var body struct{ Username string }
			_ = json.NewDecoder(r.Body).Decode(&body)
			mu.Lock()
			registered = append(registered, body.Username)
			mu.Unlock()
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte(`{}`))
		default:
			w.WriteHeader(http.StatusTeapot)
		}
	}))
	defer srv.Close()
	c := benchConfig{url: srv.URL, token: "tok", prefix: "bench", players: 3, concurrency: 2}
	if err := benchPlayers(context.Background(), srv.Client(), c); err != nil {
		t.Fatal(err)
	}
	slices.Sort(registered)
	if !slices.Equal(registered, []string{"bench1", "bench2"}) {
		t.Fatalf("registered %v; want bench1 and bench2 (bench0 exists)", registered)
	}
}
