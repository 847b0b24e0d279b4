package api_test

import (
	"encoding/csv"
	"regexp"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/players"
)

// schoolWorld: school A ("a") with head teacher ta, teacher tt and class
// A (students sa, sc); school B ("b") with head teacher tb and class B
// (student sb); an admin and a game server.
type schoolWorld struct {
	*env
	admin, server, ta, tt, tb string
	tok                       map[string]string
	classA, classB, codeA     string
}

func newSchoolWorld(t *testing.T) *schoolWorld {
	e := newEnv(t)
	w := &schoolWorld{env: e, admin: e.account("root", players.RoleAdmin), server: e.account("go-server", players.RoleServer),
		ta: e.account("tea-a", players.RoleTeacher), tt: e.account("tea-t", players.RoleTeacher), tb: e.account("tea-b", players.RoleTeacher), tok: map[string]string{}}
	for _, p := range []string{"stu-a", "stu-b", "stu-c"} {
		w.tok[p] = e.register(p)
	}
	out := e.expect(req{method: "POST", path: "/api/v1/schools", token: w.admin, header: map[string]string{"Idempotency-Key": "a"},
		body: map[string]any{"name": "弈林围棋学校", "time_zone": "Asia/Shanghai", "scale": "chinese", "head_teachers": []string{"tea-a"}}}, 201, "")
	if out.JSON["id"] != "a" || out.JSON["scale"] != "chinese" {
		t.Fatalf("school a: %s", out.Body)
	}
	e.expect(req{method: "POST", path: "/api/v1/schools/a/teachers", token: w.ta, body: map[string]any{"username": "tea-t"}}, 200, "")
	e.expect(req{method: "POST", path: "/api/v1/schools", token: w.admin, header: map[string]string{"Idempotency-Key": "b"},
		body: map[string]any{"name": "B", "head_teachers": []string{"tea-b"}}}, 201, "")
	out = e.expect(req{method: "POST", path: "/api/v1/schools/a/classes", token: w.tt, body: map[string]any{"name": "初级班", "capacity": 3}}, 201, "")
	w.classA, w.codeA = out.JSON["id"].(string), out.JSON["invite_code"].(string)
	out = e.expect(req{method: "POST", path: "/api/v1/schools/b/classes", token: w.tb, body: map[string]any{"name": "B1"}}, 201, "")
	w.classB = out.JSON["id"].(string)
	for _, p := range []string{"stu-a", "stu-c"} {
		w.expect(req{method: "POST", path: "/api/v1/classes/join", token: w.tok[p], body: map[string]any{"code": w.codeA}}, 201, "")
	}
	w.expect(req{method: "POST", path: "/api/v1/classes/join", token: w.tok["stu-b"], body: map[string]any{"code": out.JSON["invite_code"]}}, 201, "")
	return w
}

// TestSchoolRoutesAreOnlyOwn: every school and class route, aimed at
// school A, class A and its student sa, refuses another school's head
// teacher and a student of another class (403), beyond the roles
// TestEveryRouteChecksTheCaller covers.
func TestSchoolRoutesAreOnlyOwn(t *testing.T) {
	w := newSchoolWorld(t)
	bodies := map[string]any{
		"PATCH /api/v1/schools/:id":                             map[string]any{"name": "x"},
		"POST /api/v1/schools/:id/teachers":                     map[string]any{"username": "tea-b"},
		"POST /api/v1/schools/:id/classes":                      map[string]any{"name": "x"},
		"PATCH /api/v1/classes/:id":                             map[string]any{"name": "x"},
		"POST /api/v1/classes/:id/teachers":                     map[string]any{"username": "tea-a"},
		"POST /api/v1/classes/:id/students":                     map[string]any{"usernames": []string{"stu-b"}},
		"POST /api/v1/classes/:id/managed-students":             map[string]any{"names": []string{"kid"}},
		"POST /api/v1/classes/:id/students/:username/move":      map[string]any{"to_class": w.classA},
		"POST /api/v1/classes/:id/students/:username/placement": map[string]any{"rank": "5k", "reason": "x"},
		"POST /api/v1/schools":                                  map[string]any{"name": "x", "head_teachers": []string{"tea-b"}},
	}
	// Routes that name no school, class or student of A answer the caller
	// their own; joining by code is how one gets in (the code is the key).
	ownOnly := map[string]bool{"GET /api/v1/schools": true, "GET /api/v1/classes": true, "POST /api/v1/classes/join": true}
	path := func(p string) string {
		p = strings.ReplaceAll(p, "/schools/:id", "/schools/a")
		p = strings.ReplaceAll(p, "/classes/:id", "/classes/"+w.classA)
		return strings.ReplaceAll(p, ":username", "stu-a")
	}
	n := 0
	for key, allowed := range routeRoles {
		method, route, _ := strings.Cut(key, " ")
		if !strings.HasPrefix(route, "/api/v1/schools") && !strings.HasPrefix(route, "/api/v1/classes") || ownOnly[key] {
			continue
		}
		n++
		t.Run(key, func(t *testing.T) {
			body := bodies[key]
			if body == nil {
				body = map[string]any{}
			}
			for who, tok := range map[string]string{"another school's teacher": w.tb, "a student of another class": w.tok["stu-b"]} {
				role := players.RoleTeacher
				if tok == w.tok["stu-b"] {
					role = players.RolePlayer
				}
				want := "forbidden"
				if slicesContains(allowed, role) {
					want = "not_yours"
				}
				out := w.expect(req{method: method, path: path(route), token: tok, body: body}, 403, want)
				if want == "not_yours" && out.errDetails()["need"] == "" {
					t.Errorf("%s: 403 without details.need: %s", who, out.Body)
				}
			}
		})
	}
	if n < 25 {
		t.Fatalf("only %d school and class routes checked", n)
	}
	// The own-only routes: tb and sb see their own, none of A's.
	out := w.expect(req{method: "GET", path: "/api/v1/schools", token: w.tb}, 200, "")
	if items := out.JSON["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != "b" {
		t.Errorf("tb's schools: %s", out.Body)
	}
	out = w.expect(req{method: "GET", path: "/api/v1/classes", token: w.tok["stu-b"]}, 200, "")
	if st := out.JSON["student"].([]any); len(st) != 1 || st[0].(map[string]any)["id"] != w.classB || st[0].(map[string]any)["invite_code"] != nil {
		t.Errorf("sb's classes: %s", out.Body)
	}
	// A plain teacher of school A who does not teach the class: refused too.
	w.expect(req{method: "POST", path: "/api/v1/schools/a/teachers", token: w.ta, body: map[string]any{"username": "tea-b"}}, 200, "")
	tbInA := w.tb
	out = w.expect(req{method: "GET", path: "/api/v1/classes/" + w.classA + "/table", token: tbInA}, 403, "not_yours")
	if !strings.Contains(out.JSON["error"].(map[string]any)["message"].(string), "teacher of this class") {
		t.Errorf("the refusal says who may: %s", out.Body)
	}
}

// TestSchoolFlowOverHTTP: the flow through the routes, with its
// bad input and edge cases.
func TestSchoolFlowOverHTTP(t *testing.T) {
	w := newSchoolWorld(t)
	cls := "/api/v1/classes/" + w.classA
	// Joining: unknown 404, twice 409, full 409, replaced 410.
	w.tok["stu-d"], w.tok["stu-e"] = w.register("stu-d"), w.register("stu-e")
	join := func(p, code string) req {
		return req{method: "POST", path: "/api/v1/classes/join", token: w.tok[p], body: map[string]any{"code": code}}
	}
	w.expect(join("stu-d", "ZZZZ-2345"), 404, "invite_code_unknown")
	w.expect(join("stu-a", w.codeA), 409, "already_member")
	w.expect(join("stu-d", strings.ToLower(w.codeA)), 201, "")
	out := w.expect(join("stu-e", w.codeA), 409, "class_full")
	if d := out.errDetails(); d["capacity"] != float64(3) || d["students"] != float64(3) {
		t.Errorf("class_full details %v", d)
	}
	out = w.expect(req{method: "POST", path: cls + "/invite-code", token: w.tt}, 200, "")
	newCode := out.JSON["invite_code"].(string)
	w.expect(join("stu-e", w.codeA), 410, "invite_code_expired")
	if newCode == w.codeA || !regexp.MustCompile(`^[2-9A-HJKMNP-Z]{8}$`).MatchString(newCode) {
		t.Errorf("new code %q", newCode)
	}
	w.expect(req{method: "POST", path: cls + "/leave", token: w.tok["stu-d"]}, 204, "")
	// Bad lists: each bad entry named, nothing done.
	out = w.expect(req{method: "POST", path: cls + "/students", token: w.tt, body: map[string]any{"usernames": []string{"stu-e", "nobody", "SE", "b d", "stu-a"}}}, 422, "invalid_entries")
	entries := out.errDetails()["entries"].([]any)
	if len(entries) != 4 || entries[0].(map[string]any)["index"] != float64(1) || entries[0].(map[string]any)["value"] != "nobody" {
		t.Errorf("entries %v", entries)
	}
	// The student list and public ranks a student sees.
	out = w.expect(req{method: "GET", path: cls, token: w.tok["stu-a"]}, 200, "")
	if out.JSON["invite_code"] != nil || out.JSON["access"] != "member" || len(out.JSON["students"].([]any)) != 2 ||
		out.JSON["students"].([]any)[0].(map[string]any)["rank"] != "1k" {
		t.Errorf("a student's view: %s", out.Body)
	}
	// A game between sa and sc, from the game server.
	w.expect(req{method: "POST", path: "/api/v1/games", token: w.server, body: map[string]any{"source_id": "s-1", "black": "stu-a", "white": "stu-c", "size": 9,
		"rules": "chinese", "komi": 7, "moves": []string{"ee", "cc", "gc", "cg", "gg"}, "end": "resign", "result": "B+R"}}, 201, "")
	// The table as JSON, sorted by score down.
	out = w.expect(req{method: "GET", path: cls + "/table?sort=-score", token: w.tt}, 200, "")
	items := out.JSON["items"].([]any)
	if len(items) != 2 || out.JSON["total"] != float64(2) {
		t.Fatalf("table %s", out.Body)
	}
	sa, sc := items[0].(map[string]any), items[1].(map[string]any)
	if sa["username"] != "stu-a" || sa["score"] != float64(0) || sa["month"].(map[string]any)["wins"] != float64(1) ||
		sc["score"] != float64(-5) || sc["rank"] != "2k" || sc["shown_rank"] != "2k?" || sc["last_game"].(map[string]any)["result"] != "loss" {
		t.Errorf("table rows %v %v", sa, sc)
	}
	page := w.expect(req{method: "GET", path: cls + "/table?sort=-score&limit=1", token: w.tt}, 200, "")
	cur := page.JSON["next_cursor"].(string)
	page = w.expect(req{method: "GET", path: cls + "/table?sort=-score&limit=1&cursor=" + cur, token: w.tt}, 200, "")
	if it := page.JSON["items"].([]any); len(it) != 1 || it[0].(map[string]any)["username"] != "stu-c" || page.JSON["next_cursor"] != nil {
		t.Errorf("second page %s", page.Body)
	}
	// A query's faults are its parameters' (invalid_parameter), as on
	// every route, not a body's fields.
	if out := w.expect(req{method: "GET", path: cls + "/table?sort=name&cursor=" + cur, token: w.tt}, 400, "invalid_parameter"); out.errDetails()["parameter"] == nil {
		t.Errorf("a cursor of another sort: %s", out.Body)
	}
	if out := w.expect(req{method: "GET", path: cls + "/table?sort=shoe", token: w.tt}, 400, "invalid_parameter"); out.errDetails()["parameter"] != "sort" {
		t.Errorf("an unknown sort: %s", out.Body)
	}
	// CSV in Chinese: BOM, header, ranks as 级.
	out = w.expect(req{method: "GET", path: cls + "/table?lang=zh", token: w.tt, header: map[string]string{"Accept": "text/csv"}}, 200, "")
	text := string(out.Body)
	if !strings.HasPrefix(text, "\ufeff用户名,") || !strings.Contains(text, "2级") {
		t.Errorf("CSV in Chinese:\n%s", text)
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(text, "\ufeff"))).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Errorf("CSV records %v, %v", recs, err)
	}
	out = w.expect(req{method: "GET", path: cls + "/table?format=csv", token: w.tt, header: map[string]string{"Accept-Language": "fr, en;q=0.8, zh;q=0.5"}}, 200, "")
	if !strings.HasPrefix(string(out.Body), "\ufeffusername,") {
		t.Errorf("CSV by Accept-Language: %.80s", out.Body)
	}
	w.expect(req{method: "GET", path: cls + "/table?lang=fr", token: w.tt, header: map[string]string{"Accept": "text/csv"}}, 400, "invalid_parameter")
	// Progress: dates checked, by week, CSV.
	for _, q := range []string{"from=2026-03-10&to=2026-03-01", "from=2020-01-01&to=2026-03-01", "from=2026-3-1"} {
		out = w.expect(req{method: "GET", path: cls + "/progress?" + q, token: w.tt}, 400, "invalid_parameter")
		want := "to"
		if strings.HasSuffix(q, "3-1") {
			want = "from"
		}
		if out.errDetails()["parameter"] != want {
			t.Errorf("%s: parameter %v, want %s", q, out.errDetails()["parameter"], want)
		}
	}
	out = w.expect(req{method: "GET", path: cls + "/progress?from=2026-02-20&to=2026-03-31&by=week", token: w.tt}, 200, "")
	series := out.JSON["series"].([]any)
	if len(series) != 2 {
		t.Fatalf("progress %s", out.Body)
	}
	for _, s := range series {
		s := s.(map[string]any)
		pts := s["points"].([]any)
		last := pts[len(pts)-1].(map[string]any)
		if s["username"] == "stu-c" && (last["score"] != float64(-5) || len(s["rank_changes"].([]any)) != 1) {
			t.Errorf("sc's series %v", s)
		}
	}
	out = w.expect(req{method: "GET", path: "/api/v1/classes/" + w.classA + "/students/stu-a/progress?lang=en", token: w.tok["stu-a"], header: map[string]string{"Accept": "text/csv"}}, 200, "")
	if !strings.HasPrefix(string(out.Body), "\ufeffdate,username") {
		t.Errorf("sa's own progress CSV: %.60s", out.Body)
	}
	w.expect(req{method: "GET", path: "/api/v1/classes/" + w.classA + "/students/stu-c/progress", token: w.tok["stu-a"]}, 403, "not_yours")
	// Placement: before the first game, then already_played.
	w.tok["stu-f"] = w.register("stu-f")
	w.expect(req{method: "POST", path: cls + "/students", token: w.tt, body: map[string]any{"usernames": []string{"stu-f"}}}, 200, "")
	// Added by username, stu-f is only followed: placed once they join
	// with the code (their consent), staying in the class.
	w.expect(req{method: "POST", path: cls + "/students/stu-f/placement", token: w.tt, body: map[string]any{"rank": "4k", "reason": "club 4k"}}, 403, "not_yours")
	code := w.expect(req{method: "GET", path: cls, token: w.tt}, 200, "").JSON["invite_code"]
	w.expect(req{method: "POST", path: "/api/v1/classes/join", token: w.tok["stu-f"], body: map[string]any{"code": code}}, 201, "")
	w.expect(req{method: "POST", path: "/api/v1/classes/join", token: w.tok["stu-f"], body: map[string]any{"code": code}}, 409, "already_member")
	placeKey := map[string]string{"Idempotency-Key": "place-f"}
	out = w.expect(req{method: "POST", path: cls + "/students/stu-f/placement", token: w.tt, header: placeKey, body: map[string]any{"rank": "4k", "reason": "club 4k"}}, 201, "")
	if e := out.JSON["entries"].([]any)[0].(map[string]any); e["cause"] != "placement" || e["actor"] != "tea-t" || e["rank_after"] != "4k" {
		t.Errorf("placement %s", out.Body)
	}
	// The key names that placement: another under it is refused.
	w.expect(req{method: "POST", path: cls + "/students/stu-f/placement", token: w.tt, header: placeKey, body: map[string]any{"rank": "3k", "reason": "club 3k"}}, 409, "idempotency_key_reused")
	w.expect(req{method: "POST", path: cls + "/students/stu-a/placement", token: w.tt, body: map[string]any{"rank": "4k", "reason": "late"}}, 409, "already_played")
	w.expect(req{method: "POST", path: cls + "/students/stu-f/placement", token: w.tt, body: map[string]any{"rank": "12k", "reason": "x"}}, 422, "invalid_field")
	w.expect(req{method: "POST", path: cls + "/students/stu-f/placement", token: w.tt, body: map[string]any{"rank": "4k"}}, 400, "missing_field")
	// Managed accounts: JSON with first passwords; CSV for printing;
	// reset; the class is full at 3.
	w.expect(req{method: "DELETE", path: cls + "/students/stu-f?reason=moved", token: w.tt}, 200, "")
	out = w.expect(req{method: "POST", path: cls + "/managed-students?lang=zh", token: w.tt, body: map[string]any{"names": []string{"王芳"}},
		header: map[string]string{"Accept": "text/csv"}}, 201, "")
	recs, _ = csv.NewReader(strings.NewReader(strings.TrimPrefix(string(out.Body), "\ufeff"))).ReadAll()
	if len(recs) != 2 || recs[0][2] != "初始密码" || recs[1][0] != "王芳" || !strings.HasPrefix(recs[1][1], "s-") {
		t.Fatalf("managed CSV %v", recs)
	}
	kid, kidPW := recs[1][1], recs[1][2]
	w.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": kid, "password": kidPW}}, 200, "")
	out = w.expect(req{method: "POST", path: cls + "/students/" + kid + "/password", token: w.tt}, 200, "")
	if out.JSON["password"] == kidPW || out.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("reset %s", out.Body)
	}
	w.expect(req{method: "POST", path: cls + "/students/stu-a/password", token: w.tt}, 409, "not_managed")
	w.expect(req{method: "POST", path: cls + "/managed-students", token: w.tt, body: map[string]any{"names": []string{"x"}}}, 409, "class_full")
	out = w.expect(req{method: "POST", path: cls + "/managed-students", token: w.tt, body: map[string]any{"names": []string{"a", "a", ""}}}, 422, "invalid_entries")
	if len(out.errDetails()["entries"].([]any)) != 2 {
		t.Errorf("bad names %s", out.Body)
	}
	// Move sc to another class of the school; a class of another school is refused.
	out = w.expect(req{method: "POST", path: "/api/v1/schools/a/classes", token: w.tt, body: map[string]any{"name": "中级班"}}, 201, "")
	other := out.JSON["id"].(string)
	w.expect(req{method: "POST", path: cls + "/students/stu-c/move", token: w.tt, body: map[string]any{"to_class": w.classB}}, 422, "invalid_field")
	out = w.expect(req{method: "POST", path: cls + "/students/stu-c/move", token: w.tt, body: map[string]any{"to_class": other}}, 200, "")
	if out.JSON["to"].(map[string]any)["student_count"] != float64(1) {
		t.Errorf("move %s", out.Body)
	}
	// sc keeps the ladder history.
	out = w.expect(req{method: "GET", path: "/api/v1/players/stu-c/history", token: w.tt}, 200, "")
	if len(out.JSON["items"].([]any)) != 1 {
		t.Errorf("sc's history after the move: %s", out.Body)
	}
	// History, archive: readable, not changeable; the head teacher's school table.
	out = w.expect(req{method: "GET", path: cls + "/history", token: w.tt}, 200, "")
	if n := len(out.JSON["items"].([]any)); n < 8 {
		t.Errorf("%d versions", n)
	}
	w.expect(req{method: "POST", path: cls + "/archive", token: w.tt, body: map[string]any{"reason": "term over"}}, 200, "")
	w.expect(req{method: "PATCH", path: cls, token: w.tt, body: map[string]any{"name": "x"}}, 409, "archived")
	w.expect(join("stu-e", newCode), 410, "class_closed")
	out = w.expect(req{method: "GET", path: "/api/v1/schools/a/table", token: w.ta}, 200, "")
	if out.JSON["total"] != float64(3) {
		t.Errorf("school table %s", out.Body)
	}
	w.expect(req{method: "GET", path: "/api/v1/schools/a/table", token: w.tt}, 403, "not_yours")
	// The last head teacher stays; school validation names the field.
	w.expect(req{method: "DELETE", path: "/api/v1/schools/a/teachers/tea-a", token: w.ta}, 409, "last_head_teacher")
	w.expect(req{method: "POST", path: "/api/v1/schools", token: w.admin, body: map[string]any{"name": "x", "time_zone": "Mars/Base", "head_teachers": []string{"tea-a"}}}, 422, "invalid_field")
	out = w.expect(req{method: "POST", path: "/api/v1/schools", token: w.admin, body: map[string]any{"name": "x", "head_teachers": []string{"stu-a", "zz-top"}}}, 422, "invalid_entries")
	if len(out.errDetails()["entries"].([]any)) != 2 {
		t.Errorf("head teachers refused: %s", out.Body)
	}
	w.expect(req{method: "POST", path: "/api/v1/schools", token: w.admin, header: map[string]string{"Idempotency-Key": "a"},
		body: map[string]any{"name": "another", "head_teachers": []string{"tea-a"}}}, 409, "exists")
	w.expect(req{method: "POST", path: "/api/v1/schools/a/archive", token: w.admin}, 200, "")
	out = w.expect(req{method: "GET", path: "/api/v1/players/stu-a", token: w.admin}, 200, "")
	if out.JSON["games"] != float64(1) {
		t.Errorf("sa after archiving the school: %s", out.Body)
	}
}

// TestManagedStudentsOncePerKey: a request for managed accounts retried
// with its Idempotency-Key makes no second set (the same usernames, made
// earlier, no password changed); the key with other names, or a retry
// into a full class, is a 409 that changes nothing; the head teacher with the same key gets none of the teacher's accounts,
// and another school's teacher nothing at all.
func TestManagedStudentsOncePerKey(t *testing.T) {
	w := newSchoolWorld(t)
	cls := w.expect(req{method: "POST", path: "/api/v1/schools/a/classes", token: w.tt, body: map[string]any{"name": "启蒙班"}}, 201, "").JSON["id"].(string)
	path := "/api/v1/classes/" + cls + "/managed-students"
	names := map[string]any{"names": []string{"小明", "Mei"}}
	key := map[string]string{"Idempotency-Key": "add-kids-1"}
	type login struct {
		username, password string
		earlier            bool
	}
	logins := func(out *resp) []login {
		var ls []login
		for _, a := range out.JSON["accounts"].([]any) {
			m := a.(map[string]any)
			p, _ := m["password"].(string)
			e, _ := m["made_earlier"].(bool)
			ls = append(ls, login{m["username"].(string), p, e})
		}
		return ls
	}
	signIn := func(l login, status int) {
		t.Helper()
		w.expect(req{method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": l.username, "password": l.password}}, status, "")
	}
	first := logins(w.expect(req{method: "POST", path: path, token: w.tt, body: names, header: key}, 201, ""))
	again := w.expect(req{method: "POST", path: path, token: w.tt, body: names, header: key}, 201, "")
	second := logins(again)
	if len(second) != 2 || second[0].username != first[0].username || second[1].username != first[1].username ||
		!second[0].earlier || second[0].password != "" || !second[1].earlier {
		t.Fatalf("the retry answered %v, the first try %v; want the same accounts, made earlier, no passwords", second, first)
	}
	if n := len(again.JSON["class"].(map[string]any)["students"].([]any)); n != 2 {
		t.Errorf("the class holds %d students, want the 2 children once", n)
	}
	signIn(first[0], 200) // a retry changes no password
	// The sheet to print says where a password shown before is.
	sheet := w.expect(req{method: "POST", path: path + "?lang=zh", token: w.tt, body: names, header: map[string]string{"Idempotency-Key": "add-kids-1", "Accept": "text/csv"}}, 201, "")
	if !strings.Contains(string(sheet.Body), "已在之前的提交中显示") {
		t.Errorf("the retry's sheet:\n%s", sheet.Body)
	}

	w.expect(req{method: "POST", path: path, token: w.tt, body: names, header: map[string]string{"Idempotency-Key": "no spaces"}}, 400, "invalid_parameter")
	w.expect(req{method: "POST", path: path, token: w.tt, body: map[string]any{"names": []string{"小明", "Lei"}}, header: key}, 409, "idempotency_key_reused")
	w.expect(req{method: "POST", path: path, token: w.tb, body: names, header: key}, 403, "not_yours")

	// The head teacher teaches the class: the same key is their own request.
	theirs := logins(w.expect(req{method: "POST", path: path, token: w.ta, body: names, header: key}, 201, ""))
	for _, l := range theirs {
		if l.username == first[0].username || l.username == first[1].username {
			t.Errorf("the head teacher got the teacher's account %s", l.username)
		}
	}

	// Class A (capacity 3, two students): a keyed request that does not
	// fit is refused; its retry too, until there is room.
	full := "/api/v1/classes/" + w.classA + "/managed-students"
	fkey := map[string]string{"Idempotency-Key": "full-1"}
	two := map[string]any{"names": []string{"Ann", "Bob"}}
	w.expect(req{method: "POST", path: full, token: w.tt, body: two, header: fkey}, 409, "class_full")
	w.expect(req{method: "POST", path: full, token: w.tt, body: two, header: fkey}, 409, "class_full")
	w.expect(req{method: "PATCH", path: "/api/v1/classes/" + w.classA, token: w.tt, body: map[string]any{"capacity": 4}}, 200, "")
	made := logins(w.expect(req{method: "POST", path: full, token: w.tt, body: two, header: fkey}, 201, ""))
	for _, l := range made {
		signIn(l, 200)
	}
}
