package api_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/weiqi-platform/rank/api"
)

// TestAuditRangeEndsAfterItStarts: an audit query whose to is not after
// its from is refused naming to, on both audit routes, not answered with
// an empty list.
func TestAuditRangeEndsAfterItStarts(t *testing.T) {
	w := newAdminWorld(t)
	for _, path := range []string{"/api/v1/admin/audit", "/api/v1/players/bob/audit"} {
		for _, q := range []string{"?from=2026-03-10T00:00:00Z&to=2026-03-01T00:00:00Z", "?from=2026-03-01T00:00:00Z&to=2026-03-01T00:00:00Z"} {
			out := w.expect(req{method: "GET", path: path + q, token: w.admin}, 400, "invalid_parameter")
			if out.errDetails()["parameter"] != "to" || !strings.Contains(string(out.Body), "must be after from") {
				t.Errorf("%s%s: %s", path, q, out.Body)
			}
		}
		w.expect(req{method: "GET", path: path + "?from=2026-02-01T00:00:00Z&to=2026-03-02T00:00:00Z", token: w.admin}, 200, "")
	}
}

// TestUsernamesInBodiesAreCheckedFirst: a body's username that is empty
// or not a username at all is refused naming the field (400
// missing_field, 422 invalid_field), not looked up and answered 404 "no
// player <the whole text>".
func TestUsernamesInBodiesAreCheckedFirst(t *testing.T) {
	w := newAdminWorld(t)
	big := strings.Repeat("x", 100_000)
	for _, tc := range []struct {
		name   string
		r      req
		field  string
		status int
		code   string
	}{
		{"link, empty", req{method: "PUT", path: "/api/v1/server/players/ext-1", token: w.server, body: map[string]any{"username": ""}}, "username", 400, "missing_field"},
		{"link, no field", req{method: "PUT", path: "/api/v1/server/players/ext-1", token: w.server, body: map[string]any{}}, "username", 400, "missing_field"},
		{"link, huge", req{method: "PUT", path: "/api/v1/server/players/ext-1", token: w.server, body: map[string]any{"username": big}}, "username", 422, "invalid_field"},
		{"link, not a username", req{method: "PUT", path: "/api/v1/server/players/ext-1", token: w.server, body: map[string]any{"username": "bob smith"}}, "username", 422, "invalid_field"},
		{"nomination, huge", req{method: "POST", path: "/api/v1/exams/x/registrations", token: w.bob, body: map[string]any{"player": big}}, "player", 422, "invalid_field"},
	} {
		out := w.expect(tc.r, tc.status, tc.code)
		if out.errDetails()["field"] != tc.field || len(out.Body) > 1000 {
			t.Errorf("%s: %.300s", tc.name, out.Body)
		}
	}
	// A well-formed name of no one is still 404, naming it.
	out := w.expect(req{method: "PUT", path: "/api/v1/server/players/ext-1", token: w.server, body: map[string]any{"username": "Nobody"}}, 404, "not_found")
	if !strings.Contains(string(out.Body), "no player nobody") {
		t.Errorf("unknown player: %s", out.Body)
	}
	w.expect(req{method: "PUT", path: "/api/v1/server/players/ext-1", token: w.server, body: map[string]any{"username": "Alice"}}, 200, "")
}

// TestSchoolNamesRefuseInvisibleCharacters: a school, class or child's
// name holding a format character (a direction override, a zero-width
// space) or a C1 control is refused naming the field; such a name shows
// as nothing, or turns around the text after it in every table and CSV.
func TestSchoolNamesRefuseInvisibleCharacters(t *testing.T) {
	w := newSchoolWorld(t)
	for _, name := range []string{"a\u202eb", "\u200b", "x\u2066y", "a\u009bb"} {
		out := w.expect(req{method: "POST", path: "/api/v1/schools/a/classes", token: w.tt, body: map[string]any{"name": name}}, 422, "invalid_field")
		if out.errDetails()["field"] != "name" {
			t.Errorf("class %q: %s", name, out.Body)
		}
		w.expect(req{method: "PATCH", path: "/api/v1/schools/a", token: w.ta, body: map[string]any{"name": name}}, 422, "invalid_field")
		out = w.expect(req{method: "POST", path: "/api/v1/classes/" + w.classA + "/managed-students", token: w.tt, body: map[string]any{"names": []string{name}}}, 422, "invalid_entries")
		if out.errDetails()["field"] != "names" {
			t.Errorf("child %q: %s", name, out.Body)
		}
	}
	w.expect(req{method: "POST", path: "/api/v1/schools/a/classes", token: w.tt, body: map[string]any{"name": "中级班 B"}}, 201, "")
}

// TestExamRoleCheckedFirst: a registration's unknown role is refused
// with reason_code bad_role whatever the schedule's window, not answered
// "registration not open", and a huge one is not echoed back.
func TestExamRoleCheckedFirst(t *testing.T) {
	w := newExamWorld(t, false) // the clock is before the window opens
	p := "/api/v1/exams/" + w.schedule + "/registrations"
	for _, role := range []string{"judge", strings.Repeat("x", 100_000)} {
		out := w.expect(req{method: "POST", path: p, token: w.tok["ann"], body: map[string]any{"role": role}}, 422, "not_eligible")
		if out.errDetails()["reason_code"] != "bad_role" || !strings.Contains(string(out.Body), "role must be candidate or examiner") || len(out.Body) > 1000 {
			t.Errorf("role %.20q: %.300s", role, out.Body)
		}
	}
	// A good role still meets the window.
	out := w.expect(req{method: "POST", path: p, token: w.tok["ann"], body: map[string]any{"role": "examiner"}}, 422, "not_eligible")
	if out.errDetails()["reason_code"] != "registration_not_open" {
		t.Errorf("examiner before the window: %s", out.Body)
	}
}

// TestMoveBoundsToClass: a to_class longer than any class id is refused
// naming the field and the limit, not looked up and echoed whole.
func TestMoveBoundsToClass(t *testing.T) {
	w := newSchoolWorld(t)
	out := w.expect(req{method: "POST", path: "/api/v1/classes/" + w.classA + "/students/stu-a/move", token: w.tt,
		body: map[string]any{"to_class": strings.Repeat("x", 100_000)}}, 422, "invalid_field")
	if out.errDetails()["field"] != "to_class" || !strings.Contains(string(out.Body), "256") || len(out.Body) > 1000 {
		t.Errorf("huge to_class: %.300s", out.Body)
	}
	w.expect(req{method: "POST", path: "/api/v1/classes/" + w.classA + "/students/stu-a/move", token: w.tt,
		body: map[string]any{"to_class": "nope"}}, 422, "invalid_field")
}

// TestMoveShowsOnlyWhatTheCallerMaySee: a teacher of the class a
// student leaves may move them to another class of the school they do
// not teach, but the answer must not hand them that class's invite code
// or its other students (a teacher sees only their own classes).
func TestMoveShowsOnlyWhatTheCallerMaySee(t *testing.T) {
	w := newSchoolWorld(t)
	// The head teacher's class A2, which tt does not teach, with a student.
	out := w.expect(req{method: "POST", path: "/api/v1/schools/a/classes", token: w.ta, body: map[string]any{"name": "A2"}}, 201, "")
	a2, code := out.JSON["id"].(string), out.JSON["invite_code"].(string)
	w.tok["stu-d"] = w.register("stu-d")
	w.expect(req{method: "POST", path: "/api/v1/classes/join", token: w.tok["stu-d"], body: map[string]any{"code": code}}, 201, "")
	w.expect(req{method: "GET", path: "/api/v1/classes/" + a2, token: w.tt}, 403, "not_yours")

	out = w.expect(req{method: "POST", path: "/api/v1/classes/" + w.classA + "/students/stu-a/move", token: w.tt, body: map[string]any{"to_class": a2}}, 200, "")
	to := out.JSON["to"].(map[string]any)
	if to["id"] != a2 || to["invite_code"] != nil || to["code_expires_at"] != nil || strings.Contains(string(out.Body), "stu-d") || strings.Contains(string(out.Body), code) {
		t.Errorf("tt sees of A2 more than the move: %s", out.Body)
	}
	if st := to["students"].([]any); len(st) != 1 || st[0].(map[string]any)["username"] != "stu-a" {
		t.Errorf("to.students: %v, want the moved student only", st)
	}
	// The head teacher, who teaches both, sees A2 whole.
	out = w.expect(req{method: "POST", path: "/api/v1/classes/" + a2 + "/students/stu-a/move", token: w.ta, body: map[string]any{"to_class": w.classA}}, 200, "")
	if out.JSON["from"].(map[string]any)["invite_code"] != code || !strings.Contains(string(out.Body), "stu-d") {
		t.Errorf("ta's answer: %s", out.Body)
	}
}

// TestCreateClassIsIdempotent: a class create retried with the same
// Idempotency-Key makes one class and answers it again; the key reused
// for another class is 409 idempotency_key_reused; another caller's same
// key is theirs.
func TestCreateClassIsIdempotent(t *testing.T) {
	w := newSchoolWorld(t)
	create := func(tok, key, name string, status int, code string) *resp {
		return w.expect(req{method: "POST", path: "/api/v1/schools/a/classes", token: tok, body: map[string]any{"name": name, "capacity": 10},
			header: map[string]string{"Idempotency-Key": key}}, status, code)
	}
	first := create(w.tt, "k-1", "周六班", 201, "")
	again := create(w.tt, "k-1", "周六班", 201, "")
	if first.JSON["id"] != again.JSON["id"] || first.JSON["invite_code"] != again.JSON["invite_code"] {
		t.Fatalf("retry made another class: %s\n%s", first.Body, again.Body)
	}
	out := w.expect(req{method: "GET", path: "/api/v1/schools/a/classes", token: w.ta}, 200, "")
	n := 0
	for _, it := range out.JSON["items"].([]any) {
		if it.(map[string]any)["name"] == "周六班" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d classes named 周六班 after a retry, want 1", n)
	}
	create(w.tt, "k-1", "周日班", 409, "idempotency_key_reused")
	if other := create(w.ta, "k-1", "周六班", 201, ""); other.JSON["id"] == first.JSON["id"] {
		t.Errorf("another teacher's key gave the same class")
	}
	w.expect(req{method: "POST", path: "/api/v1/schools/a/classes", token: w.tt, body: map[string]any{"name": "x"},
		header: map[string]string{"Idempotency-Key": "a b"}}, 400, "invalid_parameter")
}

// TestInvisibleReasonIsNoReason: an admin's change needs a reason; one of
// only invisible characters (U+200B, U+FEFF) is none, refused as missing
// like spaces are, and nothing is changed.
func TestInvisibleReasonIsNoReason(t *testing.T) {
	w := newAdminWorld(t)
	for _, reason := range []string{"\u200b", " \ufeff\u2060 "} {
		w.post("/api/v1/admin/players/bob/adjust", map[string]any{"delta": 5, "reason": reason}, "", 400, "missing_field")
		w.post("/api/v1/admin/players/bob/certified-rank", map[string]any{"rank": "3k", "reason": reason}, "", 400, "missing_field")
		w.post("/api/v1/admin/games/"+w.gameID+"/annul", map[string]any{"reason": reason}, "", 400, "missing_field")
	}
	if n := len(w.expect(req{method: "GET", path: "/api/v1/players/bob/audit", token: w.admin}, 200, "").JSON["items"].([]any)); n != 1 {
		t.Errorf("bob's trail has %d entries, want the game's 1", n)
	}
	w.post("/api/v1/admin/players/bob/adjust", map[string]any{"delta": 5, "reason": "补录 \u200b"}, "", 200, "")
}

// TestFlagListParameters: the review queue's ?status= and ?kind= are
// query parameters: a bad one is 400 invalid_parameter naming it, as on
// every other list, not a 422 about a body field.
func TestFlagListParameters(t *testing.T) {
	w := newAdminWorld(t)
	for _, q := range []string{"status", "kind"} {
		out := w.expect(req{method: "GET", path: "/api/v1/admin/flags?" + q + "=bogus", token: w.admin}, 400, "invalid_parameter")
		if out.errDetails()["parameter"] != q || !strings.Contains(string(out.Body), `\"bogus\"`) {
			t.Errorf("%s=bogus: %s", q, out.Body)
		}
	}
	w.expect(req{method: "GET", path: "/api/v1/admin/flags?status=open&kind=farming", token: w.admin}, 200, "")
}

// TestSubmissionIDsRefuseInvisibleCharacters: a source_id (or game_id,
// black_id, white_id) holding a zero-width or direction character is
// refused naming the field; such an id looks like another one, so a
// resubmission under it was a second game.
func TestSubmissionIDsRefuseInvisibleCharacters(t *testing.T) {
	e := newGamesEnv(t)
	for i, id := range []string{"fox/1\u200b", "fox/\u202e1", "\ufefffox/1"} {
		b := gameBody(randomGame(31, 40, false), id, "alice", "bob")
		if out := e.submit(b, 422, "invalid_field"); out.errDetails()["field"] != "source_id" {
			t.Errorf("%d: %s", i, out.Body)
		}
	}
	b := gameBody(randomGame(31, 40, false), "fox/2", "", "bob")
	delete(b, "black")
	b["black_id"] = "a\u2066b"
	if out := e.submit(b, 422, "invalid_field"); out.errDetails()["field"] != "black_id" {
		t.Errorf("black_id: %s", out.Body)
	}
	e.submit(gameBody(randomGame(31, 40, false), "fox/1", "alice", "bob"), 201, "")
}

// TestLinkRefusesInvisibleExternalID: a server's player id holding an
// invisible or direction character is refused naming external_id: games
// could never name it (black_id and white_id refuse them).
func TestLinkRefusesInvisibleExternalID(t *testing.T) {
	w := newAdminWorld(t)
	out := w.expect(req{method: "PUT", path: "/api/v1/server/players/ext%E2%80%8B1", token: w.server, body: map[string]any{"username": "alice"}}, 422, "invalid_field")
	if out.errDetails()["field"] != "external_id" {
		t.Errorf("external_id with U+200B: %s", out.Body)
	}
	w.expect(req{method: "PUT", path: "/api/v1/server/players/ext1", token: w.server, body: map[string]any{"username": "alice"}}, 200, "")
}

// TestDecisionReasonRefusalNamesNoSchedule: a promotion decision's
// too-long reason is refused naming the reason and its limit, not as an
// "invalid exam schedule".
func TestDecisionReasonRefusalNamesNoSchedule(t *testing.T) {
	w := newAdminWorld(t)
	out := w.post("/api/v1/admin/promotions/eA/approve", map[string]any{"reason": strings.Repeat("r", 900)}, "", 422, "invalid_field")
	msg := out.JSON["error"].(map[string]any)["message"].(string)
	if out.errDetails()["field"] != "reason" || strings.Contains(msg, "schedule") || !strings.HasPrefix(msg, "reason: ") || !strings.Contains(msg, "800") {
		t.Errorf("long reason: %s", out.Body)
	}
}

// TestLongValuesAreNotEchoedWhole: a message quoting a value the request
// carried (a result text, a rules text, an unknown player's name of
// 100 KB) is cut at api.MaxMessage, at a character's start, and says how
// long it was; the code and the field are as before.
func TestLongValuesAreNotEchoedWhole(t *testing.T) {
	w := newAdminWorld(t)
	big := strings.Repeat("黑", 40_000)
	game := func(k, v string) map[string]any {
		b := map[string]any{"source_id": "s-long", "black": "alice", "white": "bob", "size": 9, "rules": "chinese", "komi": 7,
			"moves": []string{"ee"}, "end": "resign", "result": "B+R"}
		b[k] = v
		return b
	}
	for _, k := range []string{"result", "rules"} {
		out := w.env.do(req{method: "POST", path: "/api/v1/games", token: w.server, body: game(k, big)})
		if out.Code < 400 || out.Code >= 500 {
			t.Fatalf("%s of 120 KB: %d %.200s", k, out.Code, out.Body)
		}
		msg, _ := out.JSON["error"].(map[string]any)["message"].(string)
		if len(msg) > api.MaxMessage+100 || !strings.Contains(msg, "bytes in all") || !utf8.ValidString(msg) {
			t.Errorf("%s of 120 KB: a message of %d bytes: %.300s", k, len(msg), msg)
		}
	}
}

// TestListEntriesQuoteBoundedValues: a list's refused entry is quoted at
// most api.MaxValue bytes (a child's name of 100 KB came back whole).
func TestListEntriesQuoteBoundedValues(t *testing.T) {
	w := newSchoolWorld(t)
	big := strings.Repeat("名", 40_000)
	out := w.expect(req{method: "POST", path: "/api/v1/classes/" + w.classA + "/managed-students", token: w.tt, body: map[string]any{"names": []string{big}}}, 422, "invalid_entries")
	entries, _ := out.errDetails()["entries"].([]any)
	if len(entries) != 1 {
		t.Fatalf("entries: %.300s", out.Body)
	}
	v, _ := entries[0].(map[string]any)["value"].(string)
	if len(v) > api.MaxValue+50 || !utf8.ValidString(v) || !strings.Contains(v, "bytes in all") {
		t.Errorf("the entry quotes %d bytes: %.300s", len(v), v)
	}
}
