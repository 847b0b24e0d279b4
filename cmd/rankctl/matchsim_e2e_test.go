package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/matchmaking"
)

// startRankd builds cmd/rankd and runs it on 127.0.0.1:0 with embedded
// stores and a first admin; it returns the URL and the admin's token. The
// process is killed when the test ends.
func startRankd(t *testing.T, env ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "rankd")
	if out, err := exec.Command("go", "build", "-o", bin, "../rankd").CombinedOutput(); err != nil {
		t.Fatalf("go build rankd: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--data-dir", filepath.Join(dir, "data"))
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(),
		"RANK_ADMIN_USER=root", "RANK_ADMIN_PASSWORD=a long admin secret"}, env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	urls := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		listening := regexp.MustCompile(`msg="?listening"? .*url=(http://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			} else if !strings.Contains(sc.Text(), "msg=request ") && logs.Len() < 1<<20 {
				logs.WriteString(sc.Text() + "\n")
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		<-done
		if t.Failed() {
			t.Logf("rankd log:\n%s", logs.String())
		}
	})
	var url string
	select {
	case url = <-urls:
	case <-time.After(testsvc.Ceiling):
		t.Fatalf("rankd did not listen within %v", testsvc.Ceiling)
	}
	body := strings.NewReader(`{"username":"root","password":"a long admin secret"}`)
	res, err := http.Post(url+"/api/v1/auth/login", "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var tok struct{ Token string }
	if err := json.NewDecoder(res.Body).Decode(&tok); err != nil || tok.Token == "" {
		t.Fatalf("admin login: %d %v", res.StatusCode, err)
	}
	return url, tok.Token
}

// TestMatchsimAgainstRankd runs two small simulations against the real
// server: the first pairs every player exactly once within the policy's
// window; the second reuses the players (their games were resigned), with
// rank ranges, cancels and --finish, and its report adds up.
func TestMatchsimAgainstRankd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs rankd")
	}
	url, token := startRankd(t, "RANK_REGISTER_LIMIT_ADDRESS=1000", "RANK_LOGIN_LIMIT_ADDRESS=1000", "RANK_MATCH_EVERY=200ms")
	ctx := context.Background()
	base := []string{"--url", url, "--token", token, "--prefix", "sim", "--players", "40", "--poll", "200ms", "--rate", "40", "--score-sd", "40",
		"--tokens", filepath.Join(t.TempDir(), "tokens.json")}

	// One pool, no ranges, no cancels: with levels this close the
	// widening window reaches everyone, so all 40 must be paired.
	c, code := parseMatchsim(append(base, "--tickets", "40", "--range-share", "0", "--cancel-share", "0", "--drain", testsvc.Ceiling.String()), io.Discard)
	if code != -1 {
		t.Fatalf("flags: exit %d", code)
	}
	run, err := simulate(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	rep := run.report()
	if rep.HTTPErrors != 0 || len(rep.Refused) != 0 || rep.Inconsistent != 0 || rep.OneSided != 0 {
		t.Fatalf("errors %v (%s), refused %v, inconsistent %d, one-sided %d", rep.HTTPErrorsBy, rep.ErrorExample, rep.Refused, rep.Inconsistent, rep.OneSided)
	}
	queued := map[string]int{}
	for _, o := range run.outcomes {
		queued[o.Player]++
	}
	policy := matchmaking.DefaultPolicy()
	pairs, _, _ := run.pairs()
	paired := map[string]int{}
	for _, p := range pairs {
		if len(p.tickets) != 2 {
			t.Fatalf("a pairing with %d tickets of ours", len(p.tickets))
		}
		x, y := p.tickets[0].Ticket, p.tickets[1].Ticket
		paired[p.tickets[0].Player]++
		paired[p.tickets[1].Player]++
		gap := max(x.Level.Score-y.Level.Score, y.Level.Score-x.Level.Score)
		window := min(policy.Window(x.MatchedAt.Sub(x.CreatedAt)), policy.Window(y.MatchedAt.Sub(y.CreatedAt)))
		if gap > window || gap > policy.MaxWindow {
			t.Errorf("%s and %s paired %d points apart after %v and %v (window %d)", p.tickets[0].Player, p.tickets[1].Player, gap,
				x.MatchedAt.Sub(x.CreatedAt), y.MatchedAt.Sub(y.CreatedAt), window)
		}
		if x.Pool != y.Pool || x.GameID == "" || x.GameID != y.GameID {
			t.Errorf("pair in pools %s/%s, games %q/%q", x.Pool, y.Pool, x.GameID, y.GameID)
		}
	}
	if len(queued) != 40 || rep.Tickets != 40 || len(paired) != 40 {
		t.Fatalf("%d players queued, %d tickets, %d players paired", len(queued), rep.Tickets, len(paired))
	}
	for name, n := range paired {
		if n != 1 || queued[name] != 1 {
			t.Errorf("%s queued %d times, paired %d times", name, queued[name], n)
		}
	}
	if rep.Matched != 40 || rep.Pairs != 20 || rep.LeftWaiting != 0 {
		t.Errorf("matched %d, pairs %d, left waiting %d", rep.Matched, rep.Pairs, rep.LeftWaiting)
	}
	if rep.PairsPerSecond <= 0 || rep.Wait.P50 <= 0 || rep.Wait.P50 > rep.Wait.P99 || rep.Wait.P99 > rep.Wait.Max ||
		rep.Gap.Mean < 0 || float64(rep.Gap.Max) < rep.Gap.Mean || rep.Gap.P95 > rep.Gap.Max {
		t.Errorf("report %+v", rep)
	}
	if rep.GamesFinished != rep.Pairs {
		t.Errorf("%d games resigned after the run, want %d", rep.GamesFinished, rep.Pairs)
	}

	// Again with the same players (logged in; their games are over), in
	// two pools, with rank ranges, cancels and --finish.
	c, _ = parseMatchsim(append(base, "--tickets", "60", "--finish", "--range-share", "0.3", "--cancel-share", "0.2",
		"--cancel-after", "1ms", "--seed", "2", "--drain", "1m", "--pools", "19:rapid:chinese:rated,9:blitz:japanese:rated"), io.Discard)
	var progress bytes.Buffer
	c.progress = &progress
	run, err = simulate(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(progress.String(), "40 players' tokens kept; registering or logging in 0") {
		t.Errorf("the tokens of the first run were not reused:\n%s", progress.String())
	}
	rep2 := run.report()
	t.Logf("second run: %+v", rep2)
	if len(rep2.Refused) != 0 || rep2.HTTPErrors != 0 || rep2.Inconsistent != 0 || rep2.OneSided != 0 {
		t.Fatalf("second run: refused %v, errors %v, inconsistent %d", rep2.Refused, rep2.HTTPErrorsBy, rep2.Inconsistent)
	}
	ended := rep2.Matched + rep2.Cancelled + rep2.Expired + rep2.LeftWaiting
	if rep2.Arrivals != 60 || rep2.Tickets+rep2.NoIdlePlayer != 60 || ended != rep2.Tickets || rep2.Matched != 2*rep2.Pairs ||
		rep2.GamesFinished != rep2.Pairs || rep2.Pairs == 0 || rep2.Cancelled+rep2.CancelTooLate == 0 {
		t.Errorf("second run adds up wrong: %+v", rep2)
	}
	if rep2.Gap.Max > policy.MaxWindow || len(rep2.PerPool) != 2 || rep2.LatencyMillis["enqueue"].N != rep2.Tickets {
		t.Errorf("second run: %+v", rep2)
	}
	pairs, _, _ = run.pairs()
	ranged := 0
	for _, p := range pairs {
		for i, o := range p.tickets {
			other := p.tickets[1-i].Ticket.Level.Score
			if r := o.Ticket.RankRange; o.Ranged && r != nil {
				ranged++
				if r.MinScore != nil && other < *r.MinScore || r.MaxScore != nil && other > *r.MaxScore {
					t.Errorf("%s (range %v) met a player at %d", o.Player, o.Range, other)
				}
			}
		}
	}
	if ranged == 0 {
		t.Error("no paired ticket had a rank range")
	}

	// The command itself: a report in JSON, exit 0. Four players new to
	// the queue (a later flag wins): the earlier runs' players may have met
	// each other, and the cooldown keeps such a pair apart for 30 minutes.
	var out, errOut bytes.Buffer
	code = runMatchsim(ctx, append(base, "--prefix", "simjson", "--players", "4", "--tickets", "4", "--cancel-share", "0", "--range-share", "0",
		"--drain", testsvc.Ceiling.String(), "--json"), &out, &errOut)
	var rep3 simReport
	if err := json.Unmarshal(out.Bytes(), &rep3); err != nil || code != exitOK || rep3.Pairs != 2 || rep3.PairsPerSecond <= 0 {
		t.Fatalf("--json: exit %d, %v\n%s\n%s", code, err, out.String(), errOut.String())
	}
}
