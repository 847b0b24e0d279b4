package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobsredis"
)

const adminPassword = "a long admin secret"

// startMain runs a Main in this process on the given stores, with the
// fake clock as its clock, logging into logs.
func startMain(t *testing.T, mongoURI, db, redisURL string, clock jobs.Clock, logs *lockedBuffer, mods ...func(*Config)) (*Main, *proc) {
	t.Helper()
	cfg := defaultConfig()
	cfg.Addr, cfg.MongoURI, cfg.MongoDB, cfg.RedisURL, cfg.DataDir = "127.0.0.1:0", mongoURI, db, redisURL, t.TempDir()
	cfg.AdminUser, cfg.AdminPassword, cfg.ShutdownTimeout = "root", adminPassword, 5*time.Second
	for _, mod := range mods {
		mod(&cfg)
	}
	m := NewMain(cfg, logs)
	m.Clock = clock
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	})
	return m, &proc{t: t, URL: m.URL()}
}

// scheduledJobs is how many jobs each Main schedules (each waits on the
// clock between firings).
const scheduledJobs = 5

// TestExamThroughTheWiring: two rankd replicas in this process on one
// store and one real redis-server, their job schedulers driven minute by
// minute by one fake clock. An admin schedules an exam, players register
// and are placed; at the firing the exam job (on whichever replica took
// the lease) pairs them and makes pending games; the game server submits
// results under the game ids, one player checks in to a game whose
// opponent never comes; at the deadline the job grades: the no-show is a
// forfeit, each pass is certified once (an exam audit entry with its
// games), and every firing ran on exactly one replica.
func TestExamThroughTheWiring(t *testing.T) {
	db := testsvc.Mongo(t)
	redisURL := testsvc.RedisURL(t)
	start := time.Date(2026, 3, 7, 10, 57, 0, 0, time.UTC) // a Saturday
	firing := start.Add(3 * time.Minute)                   // 19:00 in Shanghai
	deadline := firing.Add(5 * time.Minute)
	clock := clockwork.NewFakeClockAt(start)
	logsA, logsB := &lockedBuffer{}, &lockedBuffer{}
	_, a := startMain(t, testsvc.MongoURI(t), db.Name(), redisURL, clock, logsA)
	_, b := startMain(t, testsvc.MongoURI(t), db.Name(), redisURL, clock, logsB)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replica A:\n%s\nreplica B:\n%s", logsA, logsB)
		}
	})
	opt, err := redis.ParseURL(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	leases := jobsredis.New(rdb, "")

	root := a.Login("root", adminPassword)
	a.Must(201, "POST", "/api/v1/admin/accounts", root, map[string]string{"username": "go-server", "password": adminPassword, "role": "server"})
	server := a.Login("go-server", adminPassword)
	tok := map[string]string{}
	score := map[string]int{"ann": 90, "bob": 80, "cat": 70, "dan": 60}
	for name, s := range score {
		tok[name] = a.Must(201, "POST", "/api/v1/auth/register", "", map[string]string{"username": name, "password": adminPassword}).JSON["token"].(string)
		a.Must(200, "POST", "/api/v1/admin/players/"+name+"/adjust", root, map[string]any{"score": s, "reason": "placed by the club"})
	}
	a.Must(201, "POST", "/api/v1/exams", root, map[string]any{"target_rank": "1d", "cron": "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		"session_length": "5m", "games_per_candidate": 2, "wins_needed": 2})
	schedules := b.Must(200, "GET", "/api/v1/exams", tok["ann"], nil).JSON["items"].([]any)
	id := schedules[0].(map[string]any)["id"].(string)
	for name := range score {
		b.Must(201, "POST", "/api/v1/exams/"+id+"/registrations", tok[name], map[string]any{})
	}

	ctx, cancel := context.WithTimeout(context.Background(), testsvc.Ceiling)
	defer cancel()
	var noShow string
	for at := start.Add(time.Minute); !at.After(deadline.Add(time.Minute)); at = at.Add(time.Minute) {
		if err := clock.BlockUntilContext(ctx, 2*scheduledJobs); err != nil {
			t.Fatalf("the schedulers are not waiting at %v: %v", at, err)
		}
		clock.Advance(at.Sub(clock.Now()))
		if out := waitFiring(t, leases, jobs.Firing{Job: "exams", At: at}.Key()); out != "ok" {
			t.Fatalf("exams at %v: %s", at, out)
		}
		if !at.Equal(firing) {
			continue
		}
		// The session is open: ann and cat win what they play against the
		// others; ann's first game against bob or dan is a no-show.
		sess := a.Must(200, "GET", "/api/v1/exams/"+id+"/sessions", tok["dan"], nil).JSON["items"].([]any)[0].(map[string]any)
		if sess["state"] != "open" {
			t.Fatalf("session at the firing: %v", sess)
		}
		for _, x := range sess["games"].([]any) {
			g := x.(map[string]any)
			gid, black, white := g["game_id"].(string), g["black"].(string), g["white"].(string)
			if noShow == "" && (black == "ann" || white == "ann") && !(black == "cat" || white == "cat") {
				noShow = gid
				b.Must(200, "POST", "/api/v1/games/"+gid+"/check-in", tok["ann"], nil)
				continue
			}
			winner := black
			if fav := map[string]bool{"ann": true, "cat": true}; fav[white] && !fav[black] {
				winner = white
			}
			endBy := map[bool]string{true: "white", false: "black"}[winner == black]
			b.Must(201, "POST", "/api/v1/games", server, map[string]any{"game_id": gid, "moves": []string{"dd"}, "end": "resign", "end_by": endBy})
		}
	}
	if noShow == "" {
		t.Fatal("ann had no game against bob or dan")
	}

	sess := b.Must(200, "GET", "/api/v1/exams/"+id+"/sessions", tok["dan"], nil).JSON["items"].([]any)[0].(map[string]any)
	if sess["state"] != "graded" {
		t.Fatalf("session after the deadline: %v", sess)
	}
	var passed []string
	for _, x := range sess["standings"].([]any) {
		st := x.(map[string]any)
		if st["player"] == "ann" && st["tally"].(map[string]any)["forfeit_wins"] != float64(1) {
			t.Errorf("ann's no-show game is not her forfeit win: %v", st)
		}
		if st["result"] == "certified" {
			passed = append(passed, st["player"].(string))
		}
	}
	slices.Sort(passed)
	if fmt.Sprint(passed) != "[ann cat]" {
		t.Fatalf("passed %v, want ann and cat", passed)
	}
	for name := range score {
		got := a.Must(200, "GET", "/api/v1/players/"+name, tok[name], nil).JSON["certified_rank"]
		if (got == "1d") != slices.Contains(passed, name) {
			t.Errorf("%s's certified rank %v", name, got)
		}
	}
	entries := a.Must(200, "GET", "/api/v1/admin/audit?cause=exam", root, nil).JSON["items"].([]any)
	if len(entries) != 2 {
		t.Fatalf("exam audit entries %v, want one per pass", entries)
	}
	for _, x := range entries {
		if e := x.(map[string]any); len(e["evidence"].([]any)) != 2 || e["certified_after"] != "1d" {
			t.Errorf("exam entry %v", e)
		}
	}
	// Every firing of every job ran on one replica only.
	done := regexp.MustCompile(`msg="jobs: firing done" key=(\S+)`)
	ran := map[string]int{}
	for _, logs := range []string{logsA.String(), logsB.String()} {
		for _, m := range done.FindAllStringSubmatch(logs, -1) {
			ran[m[1]]++
		}
	}
	for at := start.Add(time.Minute); !at.After(deadline.Add(time.Minute)); at = at.Add(time.Minute) {
		key := jobs.Firing{Job: "exams", At: at}.Key()
		if ran[key] != 1 {
			t.Errorf("%s ran %d times across the replicas, want 1", key, ran[key])
		}
	}
	for key, n := range ran {
		if n != 1 {
			t.Errorf("%s ran %d times", key, n)
		}
	}
	if rep := a.Must(200, "GET", "/api/v1/admin/verify", root, nil); rep.JSON["ok"] != true {
		t.Fatalf("verify after the exam: %s", rep.Body)
	}
	if !strings.Contains(logsA.String()+logsB.String(), "key=expire@") {
		t.Error("the expire job never ran")
	}
}

// waitFiring waits until the firing key is settled in Redis and returns
// its outcome ("ok", or why it failed).
func waitFiring(t *testing.T, l *jobsredis.Leases, key string) string {
	t.Helper()
	var out string
	testsvc.Eventually(t, "firing "+key+" to finish", func() bool {
		var err error
		if out, err = l.Outcome(context.Background(), key); err != nil {
			t.Fatal(err)
		}
		return out != ""
	})
	return out
}
