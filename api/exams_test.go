package api_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// The exam of these tests: 1d, Saturdays 19:00 in Shanghai (11:00 UTC),
// two games a candidate, two wins needed, three hours to play.
var (
	examFiring   = time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)
	examDeadline = examFiring.Add(3 * time.Hour)
)

func examDraft(approval bool) map[string]any {
	return map[string]any{"target_rank": "1d", "cron": "CRON_TZ=Asia/Shanghai 0 19 * * SAT", "session_length": "3h",
		"registration_opens": "72h", "games_per_candidate": 2, "wins_needed": 2, "needs_approval": approval}
}

// place puts a player at a ladder score through the service (an audited
// placement).
func (e *env) place(name string, score int) {
	e.t.Helper()
	if _, err := e.ratings.Change(context.Background(), rating.ChangeInput{Key: "place-" + name, Player: name, Cause: rating.CausePlacement,
		Score: &score, Reason: "test placement", Actor: "root"}); err != nil {
		e.t.Fatal(err)
	}
}

// runJob runs a job through the admin route and checks it ran.
func (e *env) runJob(admin, name, key string) {
	e.t.Helper()
	out := e.expect(req{method: "POST", path: "/api/v1/admin/jobs/" + name + "/run", token: admin, header: map[string]string{"Idempotency-Key": key}}, 200, "")
	if out.JSON["status"] != "done" {
		e.t.Fatalf("job %s run %s: %s", name, key, out.Body)
	}
}

// examWorld: an admin, a game server, a teacher and players ann, bob,
// cat, dan (eligible for 1d) and eve (3k, too low), and a 1d schedule.
type examWorld struct {
	*env
	admin, server, teacher string
	tok                    map[string]string
	schedule               string
}

func newExamWorld(t *testing.T, approval bool) *examWorld {
	e := newEnv(t)
	w := &examWorld{env: e, admin: e.account("root", players.RoleAdmin), server: e.account("go-server", players.RoleServer),
		teacher: e.account("sensei", players.RoleTeacher), tok: map[string]string{}}
	for name, score := range map[string]int{"ann": 90, "bob": 80, "cat": 70, "dan": 60, "eve": -250} {
		w.tok[name] = e.register(name)
		e.place(name, score)
	}
	out := e.expect(req{method: "POST", path: "/api/v1/exams", token: w.admin, body: examDraft(approval), header: map[string]string{"Idempotency-Key": "weekly-1d"}}, 201, "")
	w.schedule = out.JSON["id"].(string)
	if w.schedule != "weekly-1d" || out.JSON["next_session"] != examFiring.Format(time.RFC3339) || out.JSON["min_ladder_rank"] != "1k" {
		t.Fatalf("schedule %s", out.Body)
	}
	// sensei teaches dan and eve (a teacher nominates only their students).
	out = e.expect(req{method: "POST", path: "/api/v1/schools", token: w.admin, body: map[string]any{"name": "dojo", "head_teachers": []string{"sensei"}}}, 201, "")
	out = e.expect(req{method: "POST", path: "/api/v1/schools/" + out.JSON["id"].(string) + "/classes", token: w.teacher, body: map[string]any{"name": "exam class"}}, 201, "")
	// Added by the teacher, then joined with the class's code: a teacher
	// registers only students who consented.
	e.expect(req{method: "POST", path: "/api/v1/classes/" + out.JSON["id"].(string) + "/students", token: w.teacher, body: map[string]any{"usernames": []string{"dan", "eve"}}}, 200, "")
	for _, n := range []string{"dan", "eve"} {
		e.expect(req{method: "POST", path: "/api/v1/classes/join", token: w.tok[n], body: map[string]any{"code": out.JSON["invite_code"]}}, 201, "")
	}
	return w
}

func (w *examWorld) sessions() []any {
	w.t.Helper()
	out := w.expect(req{method: "GET", path: "/api/v1/exams/" + w.schedule + "/sessions", token: w.tok["eve"]}, 200, "")
	return out.JSON["items"].([]any)
}

// submit has the game server submit a pending game's result: the loser
// resigns.
func (w *examWorld) submit(gameID, winner string, black string) {
	w.t.Helper()
	by := "black"
	if winner == black {
		by = "white"
	}
	w.expect(req{method: "POST", path: "/api/v1/games", token: w.server,
		body: map[string]any{"game_id": gameID, "moves": []string{"dd"}, "end": "resign", "end_by": by}}, 201, "")
}

func TestExamScheduleRefusesBadFields(t *testing.T) {
	e := newEnv(t)
	admin := e.account("root", players.RoleAdmin)
	for _, tc := range []struct {
		edit  func(map[string]any)
		field string
	}{
		{func(d map[string]any) { d["cron"] = "0 19 * *" }, "cron"},
		{func(d map[string]any) { d["cron"] = "CRON_TZ=Mars/Olympus 0 19 * * SAT" }, "cron"},
		{func(d map[string]any) { d["target_rank"] = "11d" }, "target_rank"},
		{func(d map[string]any) { d["target_rank"] = "" }, "target_rank"},
		{func(d map[string]any) { d["games_per_candidate"] = 0 }, "games_per_candidate"},
		{func(d map[string]any) { d["wins_needed"] = 3 }, "wins_needed"},
		{func(d map[string]any) { d["session_length"] = "forever" }, "session_length"},
		{func(d map[string]any) { d["rules"] = "klingon" }, "rules"},
		{func(d map[string]any) { d["board_size"] = 12 }, "board_size"},
		{func(d map[string]any) { d["time_control"] = map[string]int{"main_seconds": -1} }, "time_control"},
		// Bounds (issue 11).
		{func(d map[string]any) { d["registration_opens"] = "1000000h" }, "registration_opens"},
		{func(d map[string]any) { d["time_control"] = map[string]int64{"main_seconds": 1 << 55} }, "time_control"},
	} {
		d := examDraft(false)
		tc.edit(d)
		out := e.expect(req{method: "POST", path: "/api/v1/exams", token: admin, body: d}, 422, "invalid_field")
		if out.errDetails()["field"] != tc.field || !strings.Contains(out.JSON["error"].(map[string]any)["message"].(string), tc.field) {
			t.Errorf("%v: answer %s, want field %s named", d, out.Body, tc.field)
		}
	}
	e.expect(req{method: "POST", path: "/api/v1/exams", token: admin, body: `{"target_rank":"1d","cron":"0 0 * * *","games":3}`}, 400, "unknown_field")
	e.expect(req{method: "POST", path: "/api/v1/exams", token: admin, body: examDraft(false), header: map[string]string{"Idempotency-Key": "bad key!"}}, 400, "invalid_parameter")
	// The same key: the same schedule once; other content under it: 409.
	for range 2 {
		e.expect(req{method: "POST", path: "/api/v1/exams", token: admin, body: examDraft(false), header: map[string]string{"Idempotency-Key": "k1"}}, 201, "")
	}
	e.expect(req{method: "POST", path: "/api/v1/exams", token: admin, body: examDraft(true), header: map[string]string{"Idempotency-Key": "k1"}}, 409, "idempotency_key_reused")
	list := e.expect(req{method: "GET", path: "/api/v1/exams", token: admin}, 200, "")
	if n := len(list.JSON["items"].([]any)); n != 1 {
		t.Fatalf("%d schedules, want 1: %s", n, list.Body)
	}
}

// TestExamFromScheduleToCertifiedRank: the whole flow over HTTP, with the
// exam job run on demand at the firing and at the deadline: players
// register and are refused with reasons, a teacher nominates, the job
// pairs and makes pending games, players check in, the game server
// submits results under the game ids, an absent player forfeits, and the
// grading sets the certified rank with an audit entry per pass.
func TestExamFromScheduleToCertifiedRank(t *testing.T) {
	w := newExamWorld(t, false)
	reg := func(token string, body any) req {
		return req{method: "POST", path: "/api/v1/exams/" + w.schedule + "/registrations", token: token, body: body}
	}
	// Before the window (72 h before the firing) opens.
	out := w.expect(reg(w.tok["ann"], map[string]any{}), 422, "not_eligible")
	if out.errDetails()["reason_code"] != "registration_not_open" {
		t.Fatalf("early registration: %s", out.Body)
	}
	w.audit.clock.Set(examFiring.Add(-48 * time.Hour))
	for _, p := range []string{"ann", "bob", "cat"} {
		w.expect(reg(w.tok[p], map[string]any{}), 201, "")
	}
	w.expect(reg(w.tok["ann"], map[string]any{"player": "ANN"}), 200, "")
	out = w.expect(reg(w.tok["eve"], map[string]any{}), 422, "not_eligible")
	if out.errDetails()["reason_code"] != "below_min_rank" || !strings.Contains(out.JSON["error"].(map[string]any)["message"].(string), "nomination") {
		t.Fatalf("eve's refusal: %s", out.Body)
	}
	w.expect(reg(w.tok["bob"], map[string]any{"player": "dan"}), 403, "forbidden")
	w.expect(reg(w.teacher, map[string]any{"player": "nobody"}), 404, "not_found")
	if out := w.expect(reg(w.teacher, map[string]any{"player": "cat"}), 403, "not_your_student"); out.errDetails()["player"] != "cat" {
		t.Errorf("a nomination of another teacher's player: %s", out.Body)
	}
	w.expect(reg(w.tok["bob"], map[string]any{"role": "judge"}), 422, "not_eligible")
	w.expect(req{method: "POST", path: "/api/v1/exams/nope/registrations", token: w.tok["bob"], body: map[string]any{}}, 404, "not_found")
	out = w.expect(reg(w.teacher, map[string]any{"player": "dan"}), 201, "")
	if out.JSON["nominated_by"] != "sensei" || out.JSON["player"] != "dan" {
		t.Fatalf("nomination: %s", out.Body)
	}
	out = w.expect(reg(w.teacher, map[string]any{"player": "eve"}), 201, "")
	if out.JSON["eligibility_waived"] != true {
		t.Fatalf("nominating eve waives her rank: %s", out.Body)
	}

	// The job at the firing opens the session: pending games.
	w.audit.clock.Set(examFiring)
	w.runJob(w.admin, "exams", "open-1")
	sessions := w.sessions()
	if len(sessions) != 1 {
		t.Fatalf("sessions %v", sessions)
	}
	sess := sessions[0].(map[string]any)
	gamesList := sess["games"].([]any)
	if sess["state"] != "open" || len(gamesList) != 5 || len(sess["standings"].([]any)) != 5 {
		t.Fatalf("session %v", sess)
	}
	// eve (3k) loses everything she plays; her first opponent does not
	// come, so eve wins that one by forfeit after checking in. The others
	// play; the higher score wins.
	score := map[string]int{"ann": 90, "bob": 80, "cat": 70, "dan": 60, "eve": -250}
	noShow := ""
	for _, x := range gamesList {
		g := x.(map[string]any)
		id, black, white := g["game_id"].(string), g["black"].(string), g["white"].(string)
		pending := w.expect(req{method: "GET", path: "/api/v1/games/" + id, token: w.tok[black]}, 200, "")
		if pending.JSON["status"] != "pending" {
			t.Fatalf("exam game %s: %s", id, pending.Body)
		}
		if noShow == "" && (black == "eve" || white == "eve") {
			noShow = id
			w.expect(req{method: "POST", path: "/api/v1/games/" + id + "/check-in", token: w.tok["eve"]}, 200, "")
			other := map[bool]string{true: white, false: black}[black == "eve"]
			for _, p := range []string{"ann", "bob", "cat", "dan"} {
				if p != other {
					w.expect(req{method: "POST", path: "/api/v1/games/" + id + "/check-in", token: w.tok[p]}, 403, "not_your_game")
					break
				}
			}
			continue
		}
		w.expect(req{method: "POST", path: "/api/v1/games/" + id + "/check-in", token: w.tok[white]}, 200, "")
		winner := black
		if score[white] > score[black] {
			winner = white
		}
		w.submit(id, winner, black)
		w.expect(req{method: "POST", path: "/api/v1/games/" + id + "/check-in", token: w.tok[black]}, 409, "game_not_pending")
	}
	if noShow == "" {
		t.Fatal("eve has no game")
	}

	// At the deadline the job grades.
	w.audit.clock.Set(examDeadline)
	w.runJob(w.admin, "exams", "grade-1")
	sess = w.sessions()[0].(map[string]any)
	if sess["state"] != "graded" {
		t.Fatalf("session after the deadline: %v", sess)
	}
	passed := map[string]bool{}
	for _, x := range sess["standings"].([]any) {
		st := x.(map[string]any)
		tally := st["tally"].(map[string]any)
		if st["player"] == "eve" && tally["forfeit_wins"] != float64(1) {
			t.Errorf("eve's forfeit win is missing: %v", st)
		}
		if st["result"] == "certified" {
			passed[st["player"].(string)] = true
		} else if st["result"] != "failed" {
			t.Errorf("standing %v", st)
		}
	}
	if !passed["ann"] || passed["dan"] {
		t.Fatalf("passed %v", passed)
	}
	for name := range score {
		p := w.expect(req{method: "GET", path: "/api/v1/players/" + name, token: w.tok["eve"]}, 200, "")
		if got := p.JSON["certified_rank"]; (got == "1d") != passed[name] {
			t.Errorf("%s's certified rank %v, passed %v", name, got, passed[name])
		}
	}
	audit := w.expect(req{method: "GET", path: "/api/v1/admin/audit?cause=exam", token: w.admin}, 200, "")
	var certified []string
	for _, x := range audit.JSON["items"].([]any) {
		en := x.(map[string]any)
		certified = append(certified, en["player"].(string))
		if en["certified_after"] != "1d" || en["actor"] != "system:exams" || len(en["evidence"].([]any)) != 2 {
			t.Errorf("exam entry %v", en)
		}
	}
	slices.Sort(certified)
	if fmt.Sprint(certified) != fmt.Sprint(keysOf(passed)) {
		t.Fatalf("exam entries for %v, passes %v", certified, passed)
	}
	// The same run id again runs nothing; the next minute's run changes
	// nothing either.
	out = w.expect(req{method: "POST", path: "/api/v1/admin/jobs/exams/run", token: w.admin, header: map[string]string{"Idempotency-Key": "grade-1"}}, 200, "")
	if out.JSON["status"] != "already_done" {
		t.Fatalf("the same run again: %s", out.Body)
	}
	w.audit.clock.Set(examDeadline.Add(time.Minute))
	w.runJob(w.admin, "exams", "grade-2")
	again := w.expect(req{method: "GET", path: "/api/v1/admin/audit?cause=exam", token: w.admin}, 200, "")
	if len(again.JSON["items"].([]any)) != len(certified) {
		t.Fatalf("a second grading certified again: %s", again.Body)
	}
}

func keysOf(m map[string]bool) []string {
	var out []string
	for k, v := range m {
		if v {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// TestPromotionApproval: a schedule that needs approval queues its
// passes; an admin approves one (reason required) and rejects another.
func TestPromotionApproval(t *testing.T) {
	w := newExamWorld(t, true)
	w.audit.clock.Set(examFiring.Add(-time.Hour))
	for _, p := range []string{"ann", "bob", "cat", "dan"} {
		w.expect(req{method: "POST", path: "/api/v1/exams/" + w.schedule + "/registrations", token: w.tok[p], body: map[string]any{}}, 201, "")
	}
	w.audit.clock.Set(examFiring)
	w.runJob(w.admin, "exams", "open")
	// Everyone comes; ann and cat win all they play against bob and dan.
	fav := map[string]bool{"ann": true, "cat": true}
	for _, x := range w.sessions()[0].(map[string]any)["games"].([]any) {
		g := x.(map[string]any)
		black, white := g["black"].(string), g["white"].(string)
		winner := black
		if fav[white] && !fav[black] {
			winner = white
		}
		w.submit(g["game_id"].(string), winner, black)
	}
	w.audit.clock.Set(examDeadline)
	w.runJob(w.admin, "exams", "grade")
	queue := w.expect(req{method: "GET", path: "/api/v1/admin/promotions", token: w.admin}, 200, "").JSON["items"].([]any)
	if len(queue) < 2 {
		t.Fatalf("approval queue %v", queue)
	}
	first, second := queue[0].(map[string]any), queue[1].(map[string]any)
	// An admin deciding as they page: the next page goes on after the
	// promotion just decided, which has left the queue.
	page1 := w.expect(req{method: "GET", path: "/api/v1/admin/promotions?limit=1", token: w.admin}, 200, "").JSON
	if items := page1["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != first["id"] || page1["next_cursor"] == nil {
		t.Fatalf("first page %v", page1)
	}
	if first["state"] != "awaiting_approval" || len(first["evidence"].([]any)) != 2 {
		t.Fatalf("queued %v", first)
	}
	approve := func(id, verb, reason string) req {
		return req{method: "POST", path: "/api/v1/admin/promotions/" + id + "/" + verb, token: w.admin, body: map[string]any{"reason": reason}}
	}
	if p := w.expect(req{method: "GET", path: "/api/v1/players/" + first["player"].(string), token: w.admin}, 200, ""); p.JSON["certified_rank"] != nil {
		t.Fatalf("certified before approval: %s", p.Body)
	}
	out := w.expect(approve(first["id"].(string), "approve", " "), 400, "missing_field")
	if out.errDetails()["field"] != "reason" {
		t.Fatalf("no reason: %s", out.Body)
	}
	out = w.expect(approve(first["id"].(string), "approve", "games reviewed"), 200, "")
	if out.JSON["state"] != "certified" || out.JSON["decided_by"] != "root" || out.JSON["reason"] != "games reviewed" {
		t.Fatalf("approved %s", out.Body)
	}
	w.expect(approve(first["id"].(string), "approve", "games reviewed"), 200, "")
	page2 := w.expect(req{method: "GET", path: "/api/v1/admin/promotions?limit=1&cursor=" + url.QueryEscape(page1["next_cursor"].(string)), token: w.admin}, 200, "").JSON
	if items := page2["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != second["id"] {
		t.Fatalf("the page after the approved one: %v, want %v", page2, second["id"])
	}
	w.expect(approve(first["id"].(string), "reject", "changed my mind"), 409, "promotion_decided")
	w.expect(approve(second["id"].(string), "reject", "suspicious games"), 200, "")
	w.expect(approve("bm9wZQ", "approve", "r"), 404, "not_found")
	w.expect(approve("!!", "approve", "r"), 404, "not_found")
	if p := w.expect(req{method: "GET", path: "/api/v1/players/" + first["player"].(string), token: w.admin}, 200, ""); p.JSON["certified_rank"] != "1d" {
		t.Fatalf("not certified after approval: %s", p.Body)
	}
	if p := w.expect(req{method: "GET", path: "/api/v1/players/" + second["player"].(string), token: w.admin}, 200, ""); p.JSON["certified_rank"] != nil {
		t.Fatalf("certified after rejection: %s", p.Body)
	}
	entries := w.expect(req{method: "GET", path: "/api/v1/admin/audit?cause=exam", token: w.admin}, 200, "").JSON["items"].([]any)
	if len(entries) != 1 || entries[0].(map[string]any)["actor"] != "root" || !strings.Contains(entries[0].(map[string]any)["reason"].(string), "games reviewed") {
		t.Fatalf("exam entries %v", entries)
	}
	rejected := w.expect(req{method: "GET", path: "/api/v1/admin/promotions?state=rejected", token: w.admin}, 200, "").JSON["items"].([]any)
	if len(rejected) != 1 {
		t.Fatalf("rejected %v", rejected)
	}
	w.expect(req{method: "GET", path: "/api/v1/admin/promotions?state=maybe", token: w.admin}, 400, "invalid_parameter")
}

func TestJobsOnDemand(t *testing.T) {
	e := newEnv(t)
	admin := e.account("root", players.RoleAdmin)
	list := e.expect(req{method: "GET", path: "/api/v1/admin/jobs", token: admin}, 200, "")
	var names []string
	for _, j := range list.JSON["items"].([]any) {
		names = append(names, j.(map[string]any)["name"].(string))
	}
	if fmt.Sprint(names) != "[exams expire integrity recover verify]" {
		t.Fatalf("jobs %s; want rankd's five", list.Body)
	}
	e.expect(req{method: "POST", path: "/api/v1/admin/jobs/nope/run", token: admin}, 404, "not_found")
	e.expect(req{method: "POST", path: "/api/v1/admin/jobs/verify/run", token: admin, header: map[string]string{"Idempotency-Key": "a b"}}, 400, "invalid_parameter")
	e.runJob(admin, "verify", "v1")
	out := e.expect(req{method: "POST", path: "/api/v1/admin/jobs/verify/run", token: admin, header: map[string]string{"Idempotency-Key": "v1"}}, 200, "")
	if out.JSON["status"] != "already_done" || out.JSON["key"] != "verify@run:v1" {
		t.Fatalf("again: %s", out.Body)
	}
	reports := e.expect(req{method: "GET", path: "/api/v1/admin/verify/reports", token: admin}, 200, "").JSON["items"].([]any)
	if len(reports) != 1 || reports[0].(map[string]any)["id"] != "verify@run:v1" || reports[0].(map[string]any)["ok"] != true {
		t.Fatalf("reports %v", reports)
	}
}
