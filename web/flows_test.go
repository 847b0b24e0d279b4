package web_test

import (
	"encoding/csv"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

func (b *browser) login(name string) {
	b.t.Helper()
	code, _, body := b.post("/login", url.Values{"username": {name}, "password": {password}}, true)
	if code != http.StatusSeeOther {
		b.t.Fatalf("login %s: %d %s", name, code, body)
	}
}

func TestTeacherSeesTheClassTableAndItsCSV(t *testing.T) {
	w := newWorld(t, 5)
	b := newBrowser(t, w.base)
	b.login(teacherName)
	code, _, body := b.get("/teach")
	if code != 200 || !strings.Contains(body, "/classes/"+w.class.ID) {
		t.Fatalf("teach: %d %s", code, body)
	}
	code, _, body = b.get("/classes/" + w.class.ID + "?sort=-score")
	if code != 200 {
		t.Fatalf("class: %d %s", code, body)
	}
	for _, s := range w.students {
		if !strings.Contains(body, ">"+s+"<") {
			t.Errorf("class page lacks %s", s)
		}
	}
	if strings.Contains(body, evilName) || !strings.Contains(body, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&#39;&#34;") {
		t.Errorf("the class name is not escaped as text:\n%s", body)
	}
	code, h, csvBody := b.get("/classes/" + w.class.ID + "/table.csv")
	if code != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", code, h.Get("Content-Type"))
	}
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(csvBody, "\ufeff"))).ReadAll()
	if err != nil || len(rows) != len(w.students)+2 { // a header, the students, the managed one
		t.Fatalf("csv rows %d (%v):\n%s", len(rows), err, csvBody)
	}
	code, _, body = b.get("/classes/" + w.class.ID + "/progress?step=week")
	if code != 200 || !strings.Contains(body, `id="class-graph"`) || strings.Count(body, "<polyline") != len(w.students)+1 {
		t.Fatalf("progress: %d %d lines\n%s", code, strings.Count(body, "<polyline"), body)
	}
	code, _, body = b.get("/classes/" + w.class.ID + "/students/" + w.students[1])
	if code != 200 || !strings.Contains(body, `id="rank-graph"`) || !strings.Contains(body, "game") {
		t.Fatalf("student page: %d %s", code, body)
	}
	// Dates on class pages are in the school's time zone (Asia/Shanghai).
	if !strings.Contains(body, " CST</td>") {
		t.Errorf("the student page's dates are not in the school's zone:\n%s", body)
	}
}

func TestAnotherSchoolsClassIsRefused(t *testing.T) {
	w := newWorld(t, 2)
	b := newBrowser(t, w.base)
	b.login(teacherName)
	for _, p := range []string{"/classes/" + w.otherCls.ID, "/classes/" + w.otherCls.ID + "/table.csv", "/classes/" + w.otherCls.ID + "/progress",
		"/classes/" + w.otherCls.ID + "/students/" + w.students[0], "/admin", "/admin/audit", "/admin/promotions", "/admin/verification"} {
		code, _, body := b.get(p)
		if code != http.StatusForbidden || !strings.Contains(body, "You may not see this page") || strings.Contains(body, "panic") {
			t.Errorf("%s: %d, want 403 with the page saying so:\n%s", p, code, body)
		}
	}
	b.lang = "zh"
	if code, _, body := b.get("/classes/" + w.otherCls.ID); code != 403 || !strings.Contains(body, "你无权查看此页面") || !strings.Contains(body, "这不是你的学校、班级或学生") {
		t.Errorf("Chinese 403: %d %s", code, body)
	}
	// A player sees no teacher page, and no one's class.
	p := newBrowser(t, w.base)
	p.login(w.students[0])
	if code, _, _ := p.get("/classes/" + w.class.ID); code != http.StatusForbidden {
		t.Errorf("a student opened the class table: %d", code)
	}
	// Not logged in: the login page.
	anon := newBrowser(t, w.base)
	if code, h, _ := anon.get("/teach"); code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/login?next=") {
		t.Errorf("anonymous /teach: %d %s", code, h.Get("Location"))
	}
}

func TestFormsWithoutTheCSRFTokenAreRefused(t *testing.T) {
	w := newWorld(t, 2)
	b := newBrowser(t, w.base)
	b.csrf()
	for _, path := range []string{"/login", "/register", "/lang"} {
		code, _, body := b.post(path, url.Values{"username": {adminName}, "password": {password}, "password2": {password}, "lang": {"zh"}}, false)
		if code != http.StatusForbidden || !strings.Contains(body, "did not come from this site") {
			t.Errorf("%s without the token: %d %s", path, code, body)
		}
	}
	// A wrong token is as bad as none.
	code, _, _ := b.post("/login", url.Values{"username": {adminName}, "password": {password}, "csrf": {"forged-token-of-another-site"}}, false)
	if code != http.StatusForbidden {
		t.Errorf("forged token: %d", code)
	}
	b.login(adminName)
	code, _, _ = b.post("/admin/accounts", url.Values{"username": {"mallory"}, "password": {password}, "role": {"admin"}}, false)
	if code != http.StatusForbidden {
		t.Errorf("admin form without the token: %d", code)
	}
	if _, err := w.st.Players.Account(t.Context(), "mallory"); err == nil {
		t.Error("the refused form made the account")
	}
	if code, _, _ := b.post("/logout", url.Values{}, false); code != http.StatusForbidden {
		t.Errorf("logout without the token: %d", code)
	}
}

func TestSessionCookieFlagsAndLogoutRevokes(t *testing.T) {
	for _, secure := range []bool{false, true} {
		w := newWorld(t, 0)
		if secure {
			w.st.Pages.SetSecureCookies(true)
		}
		b := newBrowser(t, w.base)
		_, h, _ := b.post("/login", url.Values{"username": {adminName}, "password": {password}}, true)
		var session string
		for _, c := range h.Values("Set-Cookie") {
			if strings.HasPrefix(c, "rank_session=") {
				session = c
			}
		}
		if !strings.Contains(session, "HttpOnly") || !strings.Contains(session, "SameSite=Lax") || strings.Contains(session, "Secure") != secure {
			t.Errorf("secure=%v: session cookie %q", secure, session)
		}
		token := strings.TrimPrefix(strings.SplitN(session, ";", 2)[0], "rank_session=")
		if _, err := w.st.Players.Authenticate(t.Context(), token); err != nil {
			t.Fatalf("the cookie's token is not the token store's: %v", err)
		}
		if code, _, _ := b.post("/logout", url.Values{}, true); code != http.StatusSeeOther {
			t.Fatalf("logout: %d", code)
		}
		if _, err := w.st.Players.Authenticate(t.Context(), token); err == nil {
			t.Error("logout did not revoke the token")
		}
	}
}

func TestScriptInAUsernameShowsAsText(t *testing.T) {
	w := newWorld(t, 4)
	b := newBrowser(t, w.base)
	b.login(teacherName)
	_, _, body := b.get("/classes/" + w.class.ID)
	managed := regexp.MustCompile(`/students/([^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(managed) == 0 {
		t.Fatal("no student links")
	}
	if strings.Contains(body, "<script>alert") {
		t.Fatalf("raw script on the class page")
	}
	// The registration form refuses such a username and shows it back as
	// text.
	a := newBrowser(t, w.base)
	code, _, body := a.post("/register", url.Values{"username": {evilName}, "password": {password}, "password2": {password}}, true)
	if code < 400 || strings.Contains(body, "<script>alert") {
		t.Fatalf("register %q: %d\n%s", evilName, code, body)
	}
}

func TestAdminApprovesAPromotionAndFindsItInTheAuditTrail(t *testing.T) {
	w := newWorld(t, 0)
	waiting := w.awaitingPromotions()
	b := newBrowser(t, w.base)
	b.login(adminName)
	code, _, body := b.get("/exams/" + w.schedule)
	if code != 200 || strings.Count(body, `href="/games/`) < 4 || !strings.Contains(body, "awaiting approval") || strings.Contains(body, "awaiting_approval") {
		t.Fatalf("the session's pairings and standings: %d\n%s", code, body)
	}
	code, _, body = b.get("/admin/promotions")
	if code != 200 || !strings.Contains(body, waiting[0]) {
		t.Fatalf("promotions: %d %s", code, body)
	}
	id := regexp.MustCompile(`name="id" value="([^"]+)"`).FindStringSubmatch(body)[1]
	code, h, body := b.post("/admin/promotions/approve", url.Values{"id": {id}, "reason": {"games reviewed"}}, true)
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "certified") {
		t.Fatalf("approve: %d %s %s", code, h.Get("Location"), body)
	}
	// Decided already: the page says so, not a bare conflict.
	code, _, body = b.post("/admin/promotions/reject", url.Values{"id": {id}, "reason": {"changed my mind"}}, true)
	if code != http.StatusConflict || !strings.Contains(body, "it was decided before, or it is not a pass") {
		t.Fatalf("reject after the approval: %d\n%s", code, body)
	}
	_, _, body = b.get("/admin/audit?cause=exam")
	if !strings.Contains(body, "games reviewed") {
		t.Fatalf("the audit trail lacks the approval:\n%s", body)
	}
	code, _, csvBody := b.get("/admin/audit.csv?cause=exam")
	if code != 200 || !strings.Contains(csvBody, "games reviewed") || !strings.HasPrefix(csvBody, "\ufefftime (UTC),username,") {
		t.Fatalf("audit csv: %d %s", code, csvBody)
	}
	// In Chinese, as the page that links it: the header, the causes and
	// the ranks.
	b.lang = "zh"
	code, _, csvBody = b.get("/admin/audit.csv?cause=exam")
	if code != 200 || !strings.HasPrefix(csvBody, "\ufeff时间（UTC）,用户名,") || !strings.Contains(csvBody, ",升段赛,") || !strings.Contains(csvBody, "段") {
		t.Fatalf("the Chinese audit csv: %d %s", code, csvBody)
	}
}

func TestExamRegistrationAndItsRefusal(t *testing.T) {
	w := newWorld(t, 0)
	a := newBrowser(t, w.base)
	a.login(adminName)
	code, h, body := a.post("/admin/exams", url.Values{"id": {"weekly-1d"}, "target_rank": {"1d"}, "cron": {"CRON_TZ=Asia/Shanghai 0 19 * * SAT"},
		"session_length": {"3h"}, "registration_opens": {"72h"}, "games": {"2"}, "wins": {"2"}}, true)
	if code != http.StatusSeeOther || h.Get("Location") != "/exams" {
		t.Fatalf("create schedule: %d %s", code, body)
	}
	// A bad field is refused naming it, and nothing is made.
	code, _, body = a.post("/admin/exams", url.Values{"id": {"bad"}, "target_rank": {"12d"}, "cron": {"0 19 * * SAT"}}, true)
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "target_rank") {
		t.Errorf("bad schedule: %d %s", code, body)
	}
	p := newBrowser(t, w.base)
	p.register("ann", password)
	code, h, _ = p.post("/exams/weekly-1d/register", url.Values{}, true)
	if code != http.StatusSeeOther || h.Get("Location") != "/exams?registered=1" {
		t.Fatalf("register: %d %s", code, h.Get("Location"))
	}
	if _, _, body = p.get("/exams"); !strings.Contains(body, `id="my-exams"`) || !strings.Contains(body, "Registered: Exam for 1d (weekly-1d)") {
		t.Errorf("own exams:\n%s", body)
	}
	p.lang = "zh"
	if _, _, body = p.get("/exams"); !strings.Contains(body, "已报名 1段 升段赛 (weekly-1d)") {
		t.Errorf("own exams in Chinese name the exam:\n%s", body)
	}
	p.lang = ""
	// 3k is below the exam's lowest rank (1k): refused, the reason shown.
	weak := newBrowser(t, w.base)
	weak.register("eve", password)
	score := -250
	if _, err := w.st.Ratings.Change(t.Context(), rating.ChangeInput{Key: "place-eve", Player: "eve", Cause: rating.CausePlacement,
		Score: &score, Actor: adminName, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	weak.lang = "zh"
	code, _, body = weak.post("/exams/weekly-1d/register", url.Values{}, true)
	// In Chinese only: the service's English reason is not shown there.
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "你的阶梯段位低于本次升段赛的最低要求") || !strings.Contains(body, `id="refusal-reason"`) || strings.Contains(body, "is below the") {
		t.Errorf("refusal: %d\n%s", code, body)
	}
	weak.lang = "en"
	code, _, body = weak.post("/exams/weekly-1d/register", url.Values{}, true)
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, `id="refusal"`) || !strings.Contains(body, "is below the") {
		t.Errorf("refusal in English: %d\n%s", code, body)
	}
}

func TestAccountPasswordAndDisplayName(t *testing.T) {
	w := newWorld(t, 0)
	b := newBrowser(t, w.base)
	b.register("carol", password)
	other := newBrowser(t, w.base)
	other.login("carol")
	// A wrong current password changes nothing, and says it is the
	// current password (the API's 403 wrong_password), not a failed login.
	code, _, body := b.post("/account/password", url.Values{"current_password": {"wrong one"}, "new_password": {"a new long passphrase"}, "new_password2": {"a new long passphrase"}}, true)
	if code != http.StatusForbidden || !strings.Contains(body, `id="password-error"`) || !strings.Contains(body, "The current password is wrong.") {
		t.Fatalf("wrong current: %d %s", code, body)
	}
	code, h, _ := b.post("/account/password", url.Values{"current_password": {password}, "new_password": {"a new long passphrase"}, "new_password2": {"a new long passphrase"}}, true)
	if code != http.StatusSeeOther || h.Get("Location") != "/account?done=password" {
		t.Fatalf("change: %d %s", code, h.Get("Location"))
	}
	if code, _, body := b.get("/account?done=password"); code != 200 || !strings.Contains(body, "every other browser was logged out") {
		t.Errorf("this browser after the change: %d", code)
	}
	if code, h, _ := other.get("/account"); code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/login") {
		t.Errorf("the other browser is still logged in: %d %s", code, h.Get("Location"))
	}
	// Markup is not a display name: refused naming the character, shown
	// as text.
	code, _, body = b.post("/account/name", url.Values{"display_name": {`<b>Carol</b>`}}, true)
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, `id="name-error"`) || strings.Contains(body, "<b>Carol") {
		t.Fatalf("markup as a display name: %d %s", code, body)
	}
	if code, _, body := b.post("/account/name", url.Values{"display_name": {"Carol 棋手"}}, true); code != http.StatusSeeOther {
		t.Fatalf("display name: %d %s", code, body)
	}
	if _, _, body = b.get("/players/carol"); !strings.Contains(body, "· Carol 棋手") {
		t.Errorf("the profile lacks the display name:\n%s", body)
	}
}

func TestPlayersGamesArchiveAndAbort(t *testing.T) {
	w := newWorld(t, 3)
	b := newBrowser(t, w.base)
	b.login(w.students[1])
	code, _, body := b.get("/players/" + w.students[1] + "/games")
	if code != 200 || strings.Count(body, `href="/games/`) != 2 {
		t.Fatalf("games list: %d\n%s", code, body)
	}
	code, h, sgf := b.get("/players/" + w.students[1] + "/games.sgf")
	if code != 200 || strings.Count(sgf, "(;") != 2 || !strings.Contains(h.Get("Content-Disposition"), "attachment") {
		t.Fatalf("archive: %d %q", code, sgf)
	}
	// A pairing's game, aborted by one of its players; another may not.
	ctx := t.Context()
	for _, p := range []string{"ann", "bob"} {
		if _, _, err := w.st.Players.Register(ctx, p, password, "10.9.9.9"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.st.Matchmaking.Enqueue(ctx, matchmaking.Request{Player: p, Level: matchmaking.Level{Rating: 1500, RD: 350},
			BoardSize: 19, TimeControl: games.TimeControl{Preset: "rapid"}, Rules: "chinese", Rated: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.st.Matchmaking.PassAll(ctx); err != nil {
		t.Fatal(err)
	}
	tk, err := w.st.Matchmaking.Mine(ctx, "ann")
	if err != nil || tk.Match == nil || tk.Match.GameID == "" {
		t.Fatalf("no game: %+v %v", tk, err)
	}
	game := "/games/" + tk.Match.GameID
	if code, _, body := b.post(game+"/abort", url.Values{}, true); code != http.StatusForbidden {
		t.Errorf("another player aborted: %d %s", code, body)
	}
	ann := newBrowser(t, w.base)
	ann.login("ann")
	if code, h, _ := ann.get("/play"); code != http.StatusSeeOther || h.Get("Location") != game {
		t.Errorf("the play page of a matched player: %d %s, want the game", code, h.Get("Location"))
	}
	if _, _, body := ann.get(game); !strings.Contains(body, `id="abort"`) {
		t.Fatalf("no abort button:\n%s", body)
	}
	if code, h, _ := ann.post(game+"/abort", url.Values{}, true); code != http.StatusSeeOther || h.Get("Location") != game {
		t.Fatalf("abort: %d %s", code, h.Get("Location"))
	}
	if _, _, body := ann.get(game); !strings.Contains(body, "aborted") || strings.Contains(body, `id="abort"`) {
		t.Errorf("after the abort:\n%s", body)
	}
	// Her ticket stays matched to the aborted game: the play page is the
	// queue form again, not the game (it sent her back to it), and she
	// can queue anew.
	if code, h, body := ann.get("/play"); code != http.StatusOK || !strings.Contains(body, `id="queue-form"`) {
		t.Errorf("the play page after the abort: %d %s, want the queue form", code, h.Get("Location"))
	}
	if code, h, _ := ann.post("/play", url.Values{"size": {"19"}, "time": {"rapid"}, "rules": {"chinese"}}, true); code != http.StatusSeeOther || h.Get("Location") != "/play" {
		t.Errorf("queueing after the abort: %d %s", code, h.Get("Location"))
	}
	if _, _, body := ann.get("/play"); !strings.Contains(body, `id="waiting"`) {
		t.Errorf("not waiting after queueing again:\n%s", body)
	}
	// Again: refused as the API refuses it, in the page's words.
	if code, _, body := ann.post(game+"/abort", url.Values{}, true); code != http.StatusConflict || !strings.Contains(body, "may no longer be aborted") && !strings.Contains(body, "not waiting for its result") {
		t.Errorf("a second abort: %d\n%s", code, body)
	}
	// The admins see who aborts.
	admin := newBrowser(t, w.base)
	admin.login(adminName)
	if _, _, body := admin.get("/admin"); !regexp.MustCompile(`(?s)id="aborts".*>ann<.*>1<`).MatchString(body) {
		t.Errorf("the admin page does not count ann's abort:\n%s", body)
	}
}

// The pages send a browser on only within the site: a next or back
// address of another host goes home.
func TestRedirectsStayOnTheSite(t *testing.T) {
	w := newWorld(t, 0)
	b := newBrowser(t, w.base)
	for _, next := range []string{"//evil.example/x", "https://evil.example/", "/\\evil.example"} {
		code, h, _ := b.post("/login", url.Values{"username": {adminName}, "password": {password}, "next": {next}}, true)
		if code != http.StatusSeeOther || h.Get("Location") != "/" {
			t.Errorf("login next=%s went to %q", next, h.Get("Location"))
		}
		code, h, _ = b.post("/lang", url.Values{"lang": {"zh"}, "back": {next}}, true)
		if code != http.StatusSeeOther || h.Get("Location") != "/" {
			t.Errorf("lang back=%s went to %q", next, h.Get("Location"))
		}
	}
	code, h, _ := b.post("/login", url.Values{"username": {adminName}, "password": {password}, "next": {"/admin/audit?cause=exam"}}, true)
	if code != http.StatusSeeOther || h.Get("Location") != "/admin/audit?cause=exam" {
		t.Errorf("a local next went to %q", h.Get("Location"))
	}
}

func TestTeacherNominatesOnlyTheirStudents(t *testing.T) {
	w := newWorld(t, 2)
	if _, err := w.st.Exams.CreateSchedule(t.Context(), "weekly-1d", exams.Draft{TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		SessionLength: "3h", RegistrationOpens: "72h"}, adminName); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, w.base)
	b.login(teacherName)
	student := "/classes/" + w.class.ID + "/students/" + w.students[0]
	if _, _, body := b.get(student); !strings.Contains(body, `id="nominate"`) {
		t.Fatalf("no nomination form:\n%s", body)
	}
	code, h, body := b.post(student+"/nominate", url.Values{"schedule": {"weekly-1d"}}, true)
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "nominated=weekly-1d") {
		t.Fatalf("nominate: %d %s", code, body)
	}
	regs, _, err := w.st.Exams.OfPlayers(t.Context(), []string{w.students[0]})
	if err != nil || len(regs) != 1 || regs[0].NominatedBy != teacherName {
		t.Fatalf("registrations %+v %v", regs, err)
	}
	// The other school's teacher may not nominate this school's student.
	o := newBrowser(t, w.base)
	o.login("other-teacher")
	if code, _, _ := o.post(student+"/nominate", url.Values{"schedule": {"weekly-1d"}}, true); code != http.StatusForbidden {
		t.Errorf("another teacher nominated: %d", code)
	}
	// A player the teacher only added by username is followed: no
	// nomination form, and a nomination sent anyway is refused.
	if _, _, err := w.st.Players.Register(t.Context(), "newkid", password, "10.9.9.9"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.Schools.AddStudents(t.Context(), w.teacher, w.class.ID, []string{"newkid"}); err != nil {
		t.Fatal(err)
	}
	followed := "/classes/" + w.class.ID + "/students/newkid"
	if _, _, body := b.get(followed); !strings.Contains(body, `id="followed"`) || strings.Contains(body, `id="nominate"`) {
		t.Errorf("the page of a followed player:\n%s", body)
	}
	if code, _, _ := b.post(followed+"/nominate", url.Values{"schedule": {"weekly-1d"}}, true); code != http.StatusForbidden {
		t.Errorf("nominated a followed player: %d", code)
	}
}

// TestClassTableShowsTheProfilesRank: a student's rank in the class
// table carries the "?" their profile shows (a student of one game
// showed 1级 in the table, 1级? on the profile), in both languages.
func TestClassTableShowsTheProfilesRank(t *testing.T) {
	w := newWorld(t, 2)
	stu := newBrowser(t, w.base)
	stu.login(w.students[0])
	b := newBrowser(t, w.base)
	b.login(teacherName)
	for _, lang := range []string{"zh", "en"} {
		stu.lang, b.lang = lang, lang
		_, _, prof := stu.get("/players/" + w.students[0])
		m := regexp.MustCompile(`id="ladder-rank">([^ <]+) ·`).FindStringSubmatch(prof)
		if m == nil || !strings.HasSuffix(m[1], "?") {
			t.Fatalf("%s: the profile's rank %v is not unsettled", lang, m)
		}
		_, _, body := b.get("/classes/" + w.class.ID)
		row := regexp.MustCompile(`(?s)<tr>\s*<td><a href="/classes/[^"]*/students/` + w.students[0] + `">.*?</tr>`).FindString(body)
		if strings.Count(row, "<td>"+m[1]+"</td>") != 2 {
			t.Errorf("%s: the class table's row lacks the profile's %q twice (ladder and school rank):\n%s", lang, m[1], row)
		}
	}
}

// TestAdminLinksOnlyPlayerPages: the admin page's account list links a
// player page only for accounts that have one: a game server's account
// is listed without a link (it linked /players/go-server, a 404 page).
func TestAdminLinksOnlyPlayerPages(t *testing.T) {
	w := newWorld(t, 1)
	if _, err := w.st.Players.CreateAccount(t.Context(), w.admin, "go-server", password, players.RoleServer); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, w.base)
	b.login(adminName)
	_, _, body := b.get("/admin")
	if !strings.Contains(body, ">go-server<") {
		t.Fatalf("the admin page does not list go-server:\n%s", body)
	}
	links := regexp.MustCompile(`href="(/players/[^"]*)"`).FindAllStringSubmatch(body, -1)
	if len(links) < 2 {
		t.Fatalf("too few player links to check: %v", links)
	}
	for _, l := range links {
		if code, _, _ := b.get(strings.ReplaceAll(l[1], "&amp;", "&")); code != http.StatusOK {
			t.Errorf("the admin page links %s: %d", l[1], code)
		}
	}
}

// TestPlacementReasonInThePagesLanguage: the placement rule writes its
// entry's reason in English from numbers; the Chinese profile and audit
// page write those numbers in Chinese (they showed the English), the
// English pages the stored sentence as it is (it is hashed, unchanged).
func TestPlacementReasonInThePagesLanguage(t *testing.T) {
	st := apptest.Memory(t, apptest.Config(app.Config{Placement: true}))
	srv := httptest.NewServer(st.HTTP)
	t.Cleanup(srv.Close)
	ctx := t.Context()
	if _, err := st.Players.EnsureAdmin(ctx, adminName, password); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"alice", "bob"} {
		if _, _, err := st.Players.Register(ctx, p, password, "10.3.3.3"); err != nil {
			t.Fatal(err)
		}
	}
	for i := range rating.PlacementGames {
		sgf := "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[bob]PW[alice]RE[W+R];B[aa];W[ba];B[ee];W[ab];B[ff])"
		if _, err := st.Intake.Submit(ctx, intake.Submission{SourceID: fmt.Sprintf("place-%d", i), SGF: []byte(sgf), By: adminName}); err != nil {
			t.Fatal(err)
		}
	}
	es, err := st.Ratings.History(ctx, "alice", 0, 5)
	if err != nil {
		t.Fatal(err)
	}
	var stored string
	for _, e := range es {
		if e.Actor == rating.PlacementActor {
			stored = e.Reason
		}
	}
	if !strings.HasPrefix(stored, "placed after ") {
		t.Fatalf("no placement entry with the rule's reason: %+v", es)
	}
	b := newBrowser(t, srv.URL)
	b.login(adminName)
	for _, path := range []string{"/players/alice", "/admin/audit?player=alice"} {
		b.lang = "zh"
		_, _, body := b.get(path)
		if strings.Contains(body, "placed after") || !regexp.MustCompile(`下完 15 盘定级赛后定级：Glicko-2 等级分 \d+（偏差 \d+）对应积分 -?\d+（\d+[级段]）；上限为 \d+（\d+[级段]）`).MatchString(body) {
			t.Errorf("zh %s: the placement's reason is not in Chinese (stored %q):\n%s", path, stored, body)
		}
		b.lang = "en"
		if _, _, body := b.get(path); !strings.Contains(body, html.EscapeString(stored)) {
			t.Errorf("en %s lacks the stored reason %q", path, stored)
		}
	}
}
