package web_test

import (
	"github.com/weiqi-platform/rank/schools"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/players"
)

// selected is the value of the option selected in the select of id, ""
// when none is.
func selected(t *testing.T, body, id string) string {
	t.Helper()
	i := strings.Index(body, `<select id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no select %s in\n%s", id, body)
	}
	sel := body[i : i+strings.Index(body[i:], "</select>")]
	if m := regexp.MustCompile(`<option value="([^"]*)" selected>`).FindStringSubmatch(sel); m != nil {
		return m[1]
	}
	return ""
}

// TestRefusedPlayFormKeepsTheChoices: a play form refused (here the rank
// range leaves out the player's own rank) comes back with what the
// player chose, not the defaults (19×19, rapid, any rank).
func TestRefusedPlayFormKeepsTheChoices(t *testing.T) {
	w := newWorld(t, 1)
	b := newBrowser(t, w.base)
	b.login(w.students[0])
	if _, _, body := b.get("/play"); selected(t, body, "size") != "19" || selected(t, body, "time") != "rapid" {
		t.Fatalf("the form's defaults: %s %s", selected(t, body, "size"), selected(t, body, "time"))
	}
	sent := map[string]string{"size": "9", "time": "blitz", "rules": "japanese", "min": "5d", "max": "6d"}
	form := url.Values{}
	for k, v := range sent {
		form.Set(k, v)
	}
	code, _, body := b.post("/play", form, true)
	if code != http.StatusUnprocessableEntity && code != http.StatusBadRequest || !strings.Contains(body, `id="form-error"`) {
		t.Fatalf("the refused form: %d\n%s", code, body)
	}
	for id, want := range sent {
		if got := selected(t, body, id); got != want {
			t.Errorf("%s: %q selected, the player chose %q", id, got, want)
		}
	}
}

// TestRefusedManagedNamesComeBack: a teacher's list of children's names
// refused (two the same) comes back in the class page's form with the
// reason in the page's language, the names as typed; it was an error
// page and the list was lost.
func TestRefusedManagedNamesComeBack(t *testing.T) {
	w := newWorld(t, 1)
	cls := "/classes/" + url.PathEscape(w.class.ID)
	names := "王小明\n李华\n王小明"
	for _, tc := range []struct{ lang, reason string }{{"zh", "每个至多"}, {"en", "the same as entry 0"}} {
		b := newBrowser(t, w.base)
		b.login(teacherName)
		b.lang = tc.lang
		code, _, body := b.post(cls+"/managed", url.Values{"names": {names}}, true)
		if code >= 500 || code == http.StatusOK || !strings.Contains(body, `id="class-table"`) {
			t.Fatalf("%s: %d, want the class page refusing:\n%s", tc.lang, code, body)
		}
		if got := alertText(t, body); !strings.Contains(got, tc.reason) {
			t.Errorf("%s: the alert says %q, want %q", tc.lang, got, tc.reason)
		}
		if !strings.Contains(body, `name="names" rows="4">`+names+`</textarea>`) {
			t.Errorf("%s: the names typed are not in the form:\n%s", tc.lang, body)
		}
	}
}

// TestRefusedDisplayNameComesBack: a display name refused comes back in
// the field as typed (it showed the name kept before, the typing lost).
func TestRefusedDisplayNameComesBack(t *testing.T) {
	w := newWorld(t, 1)
	b := newBrowser(t, w.base)
	b.login(w.students[0])
	if code, _, _ := b.post("/account/name", url.Values{"display_name": {"小明"}}, true); code != http.StatusSeeOther {
		t.Fatalf("a good name: %d", code)
	}
	code, _, body := b.post("/account/name", url.Values{"display_name": {"王小明!"}}, true)
	if code != http.StatusBadRequest && code != http.StatusUnprocessableEntity || !strings.Contains(body, `id="name-error"`) {
		t.Fatalf("a name with '!': %d\n%s", code, body)
	}
	if !regexp.MustCompile(`<input id="display_name"[^>]* value="王小明!"`).MatchString(body) {
		t.Errorf("the field does not hold the name typed:\n%s", body)
	}
}

// TestRefusedScheduleFormComesBack: an exam schedule refused for one
// field (a cron that is not one) comes back in the exams page's form
// with the reason, every field as the admin typed it; it was an error
// page and the eight fields were lost.
func TestRefusedScheduleFormComesBack(t *testing.T) {
	w := newWorld(t, 0)
	sent := url.Values{"id": {"weekly-2d"}, "target_rank": {"2d"}, "cron": {"every saturday"}, "session_length": {"3h"},
		"registration_opens": {"72h"}, "games": {"4"}, "wins": {"3"}, "needs_approval": {"on"}}
	for _, tc := range []struct{ lang, reason string }{{"zh", "时间（cron）"}, {"en", "cron"}} {
		b := newBrowser(t, w.base)
		b.login(adminName)
		b.lang = tc.lang
		code, _, body := b.post("/admin/exams", sent, true)
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, `id="new-schedule"`) {
			t.Fatalf("%s: %d, want the exams page refusing:\n%s", tc.lang, code, body)
		}
		if got := alertText(t, body); !strings.Contains(got, tc.reason) {
			t.Errorf("%s: the alert says %q, want %q", tc.lang, got, tc.reason)
		}
		for k, v := range sent {
			if k == "needs_approval" {
				if !strings.Contains(body, `name="needs_approval" type="checkbox" checked>`) {
					t.Errorf("%s: needs approval is not checked", tc.lang)
				}
				continue
			}
			if !regexp.MustCompile(`name="` + k + `"[^>]* value="` + regexp.QuoteMeta(v[0]) + `"`).MatchString(body) {
				t.Errorf("%s: field %s does not hold %q", tc.lang, k, v[0])
			}
		}
	}
	if _, err := w.st.Exams.Schedule(t.Context(), "weekly-2d"); err == nil {
		t.Error("the refused form made the schedule")
	}
}

// TestClassLinksKeepThePeriod: on a class table of a period other than
// the default one, the CSV link and the sort links keep the period, so
// the CSV holds the table shown (it held the current month's).
func TestClassLinksKeepThePeriod(t *testing.T) {
	w := newWorld(t, 2)
	b := newBrowser(t, w.base)
	b.login(teacherName)
	cls := "/classes/" + url.PathEscape(w.class.ID)
	_, _, body := b.get(cls + "?from=2026-02-01&to=2026-02-28&sort=-games")
	csv := regexp.MustCompile(`<a href="([^"]+)" id="csv"`).FindStringSubmatch(body)
	if csv == nil {
		t.Fatalf("no CSV link:\n%s", body)
	}
	link := strings.ReplaceAll(csv[1], "&amp;", "&")
	u, _ := url.Parse(link)
	if q := u.Query(); q.Get("from") != "2026-02-01" || q.Get("to") != "2026-02-28" || q.Get("sort") != "-games" {
		t.Errorf("the CSV link %q does not keep the period and the sort", link)
	}
	_, _, data := b.get(link)
	if !strings.Contains(data, "2026-02-01") || strings.Contains(data, "2026-03-01") {
		t.Errorf("the CSV is not of the period shown:\n%s", data[:min(len(data), 600)])
	}
	for _, m := range regexp.MustCompile(`<th scope="col"[^>]*><a href="([^"]+)"`).FindAllStringSubmatch(body, -1) {
		if !strings.Contains(m[1], "from=2026-02-01") || !strings.Contains(m[1], "to=2026-02-28") {
			t.Errorf("the sort link %q drops the period", m[1])
		}
	}
}

// TestNominationNoticeNamesTheExam: after a nomination the student page
// names the exam as its form does, in the page's language (it showed
// the schedule's id alone); an id in the address that is no schedule's
// shows no notice.
func TestNominationNoticeNamesTheExam(t *testing.T) {
	w := newWorld(t, 1)
	if _, err := w.st.Exams.CreateSchedule(t.Context(), "weekly-1d", exams.Draft{TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		SessionLength: "3h", RegistrationOpens: "72h"}, adminName); err != nil {
		t.Fatal(err)
	}
	student := "/classes/" + url.PathEscape(w.class.ID) + "/students/" + w.students[0]
	for _, tc := range []struct{ lang, want string }{{"zh", "已推荐参加 1段 升段赛 (weekly-1d)。"}, {"en", "Nominated for Exam for 1d (weekly-1d)."}} {
		b := newBrowser(t, w.base)
		b.login(teacherName)
		b.lang = tc.lang
		code, h, _ := b.post(student+"/nominate", url.Values{"schedule": {"weekly-1d"}}, true)
		if code != http.StatusSeeOther {
			t.Fatalf("%s: nominate: %d", tc.lang, code)
		}
		_, _, body := b.get(h.Get("Location"))
		if !strings.Contains(body, `id="notice">`+tc.want+`<`) {
			t.Errorf("%s: the notice is not %q:\n%s", tc.lang, tc.want, body)
		}
		if _, _, body := b.get(student + "?nominated=the+world+cup"); strings.Contains(body, `id="notice"`) {
			t.Errorf("%s: a notice for no schedule", tc.lang)
		}
	}
}

// TestLanguageSwitchOnARefusedForm: a refused form is shown at the
// address it was sent to (a POST's); the language switch on that page
// came back to the address read with GET, which is no page (404). It
// now comes back to the form's page.
func TestLanguageSwitchOnARefusedForm(t *testing.T) {
	w := newWorld(t, 1)
	if _, err := w.st.Exams.CreateSchedule(t.Context(), "weekly-9d", exams.Draft{TargetRank: "9d", Cron: "0 19 * * SAT"}, adminName); err != nil {
		t.Fatal(err)
	}
	cls := "/classes/" + url.PathEscape(w.class.ID)
	for _, tc := range []struct {
		who, path string
		form      url.Values
		back      string
	}{
		{w.students[0], "/account/name", url.Values{"display_name": {"!!"}}, "/account"},
		{w.students[0], "/account/password", url.Values{"current_password": {"wrong one"}, "new_password": {password + "2"}, "new_password2": {password + "2"}}, "/account"},
		{w.students[0], "/exams/weekly-9d/register", url.Values{}, "/exams"},
		{teacherName, cls + "/managed", url.Values{"names": {"Mei\nMei"}}, cls},
		{adminName, "/admin/exams", url.Values{"target_rank": {"1d"}, "cron": {"not cron"}}, "/exams"},
		{adminName, "/admin/promotions/reject", url.Values{"id": {"eA"}, "reason": {""}}, "/admin/promotions"},
	} {
		b := newBrowser(t, w.base)
		b.login(tc.who)
		code, _, body := b.post(tc.path, tc.form, true)
		if code < 400 {
			t.Fatalf("%s was not refused: %d", tc.path, code)
		}
		m := regexp.MustCompile(`<input type="hidden" name="back" value="([^"]*)">`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no language switch:\n%s", tc.path, body)
		}
		back := strings.ReplaceAll(m[1], "&amp;", "&")
		code, h, _ := b.post("/lang", url.Values{"lang": {"zh"}, "back": {back}}, true)
		if code != http.StatusSeeOther || h.Get("Location") != tc.back {
			t.Errorf("%s: the switch went to %q (%d), want %q", tc.path, h.Get("Location"), code, tc.back)
			continue
		}
		if code, _, _ := b.get(h.Get("Location")); code != http.StatusOK {
			t.Errorf("%s: the switch landed on %s: %d", tc.path, h.Get("Location"), code)
		}
	}
}

// TestRefusedAdminFormsComeBack: the admin's school and account forms
// refused come back on the admin page with the reason in the page's
// language and the fields as typed (never the password); they were an
// error page and the fields were lost.
func TestRefusedAdminFormsComeBack(t *testing.T) {
	w := newWorld(t, 0)
	for _, tc := range []struct {
		lang, path string
		form       url.Values
		alert      string
		kept       map[string]string // input id: value
	}{
		{"zh", "/admin/schools", url.Values{"name": {"围棋少年"}, "time_zone": {"Asia/Shanghia"}, "head": {teacherName}}, "IANA 时区名",
			map[string]string{"sch-name": "围棋少年", "sch-tz": "Asia/Shanghia", "sch-head": teacherName}},
		{"en", "/admin/schools", url.Values{"name": {"Go kids"}, "time_zone": {"Asia/Shanghia"}, "head": {teacherName}}, "not an IANA time zone",
			map[string]string{"sch-name": "Go kids", "sch-tz": "Asia/Shanghia", "sch-head": teacherName}},
		{"zh", "/admin/accounts", url.Values{"username": {teacherName}, "password": {password}, "role": {"teacher"}}, "该用户名已被占用",
			map[string]string{"acc-username": teacherName}},
	} {
		b := newBrowser(t, w.base)
		b.login(adminName)
		b.lang = tc.lang
		code, _, body := b.post(tc.path, tc.form, true)
		if code < 400 || code >= 500 || !strings.Contains(body, `id="accounts-title"`) {
			t.Fatalf("%s %s: %d, want the admin page refusing:\n%s", tc.lang, tc.path, code, body)
		}
		if got := alertText(t, body); !strings.Contains(got, tc.alert) {
			t.Errorf("%s %s: the alert says %q, want %q", tc.lang, tc.path, got, tc.alert)
		}
		for id, v := range tc.kept {
			if !regexp.MustCompile(`<input id="` + id + `"[^>]* value="` + regexp.QuoteMeta(v) + `"`).MatchString(body) {
				t.Errorf("%s %s: %s does not hold %q", tc.lang, tc.path, id, v)
			}
		}
		if tc.path == "/admin/accounts" {
			if selected(t, body, "acc-role") != "teacher" {
				t.Errorf("the role chosen is not kept: %q", selected(t, body, "acc-role"))
			}
			if strings.Contains(body, password) {
				t.Error("the password typed is in the page")
			}
		}
	}
}

// TestRegisterFromTheLoginPageKeepsWhereTo: a visitor sent to the login
// page from a page that needs it (/exams) and who registers instead
// lands on that page, as one who logs in does; the register link
// dropped it and they landed on their profile.
func TestRegisterFromTheLoginPageKeepsWhereTo(t *testing.T) {
	w := newWorld(t, 0)
	b := newBrowser(t, w.base)
	_, h, _ := b.get("/exams")
	login := h.Get("Location")
	if !strings.HasPrefix(login, "/login?next=") {
		t.Fatalf("/exams sent a visitor to %q", login)
	}
	_, _, body := b.get(login)
	m := regexp.MustCompile(`<a href="([^"]*)" id="to-register"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no register link:\n%s", body)
	}
	_, _, body = b.get(strings.ReplaceAll(m[1], "&amp;", "&"))
	next := regexp.MustCompile(`name="next" value="([^"]*)"`).FindStringSubmatch(body)
	if next == nil || next[1] != "/exams" {
		t.Fatalf("the register form's next: %q", next)
	}
	code, h, _ := b.post("/register", url.Values{"username": {"newbie"}, "password": {password}, "password2": {password}, "next": {next[1]}}, true)
	if code != http.StatusSeeOther || h.Get("Location") != "/exams" {
		t.Errorf("registered and went to %q (%d), want /exams", h.Get("Location"), code)
	}
}

// TestHeaderNameLinksToAPage: the name in the header links to a page
// for every role; a game server's account has no profile (it does not
// play), so its name linked to a 404 page.
func TestHeaderNameLinksToAPage(t *testing.T) {
	w := newWorld(t, 1)
	if _, err := w.st.Players.CreateAccount(t.Context(), w.admin, "goserver", password, players.RoleServer); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{w.students[0], teacherName, adminName, "goserver"} {
		b := newBrowser(t, w.base)
		b.login(who)
		_, _, body := b.get("/")
		m := regexp.MustCompile(`<a href="([^"]*)" id="me">`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no name in the header:\n%s", who, body)
		}
		if code, _, _ := b.get(m[1]); code != http.StatusOK {
			t.Errorf("%s: the header's name links to %s: %d", who, m[1], code)
		}
	}
}

// TestChinesePagesUseChinesePunctuation: the colons and commas the
// templates put between a label and its value are full-width on Chinese
// pages (邀请码：, 提子：黑 0，白 1), as the catalogue's texts are; English
// pages keep theirs.
func TestChinesePagesUseChinesePunctuation(t *testing.T) {
	w := newWorld(t, 3)
	strip := regexp.MustCompile(`<[^>]*>`)
	for _, tc := range []struct {
		lang, who, path string
		want            []string
	}{
		{"zh", teacherName, "/classes/" + url.PathEscape(w.class.ID), []string{"邀请码："}},
		{"zh", adminName, "/games/" + w.gameID, []string{"中国规则，9×9，贴目 7", "提子：黑 0，白 1"}},
		{"en", teacherName, "/classes/" + url.PathEscape(w.class.ID), []string{"Code: "}},
		{"en", adminName, "/games/" + w.gameID, []string{"Chinese, 9×9, komi 7", "Captures: Black 0, White 1"}},
	} {
		b := newBrowser(t, w.base)
		b.login(tc.who)
		b.lang = tc.lang
		_, _, body := b.get(tc.path)
		text := strip.ReplaceAllString(body, "")
		for _, want := range tc.want {
			if !strings.Contains(text, want) {
				t.Errorf("%s %s: no %q in\n%s", tc.lang, tc.path, want, text)
			}
		}
	}
}

// TestManagedFormSentTwice: the managed-accounts form carries a key of
// its own, so sending it twice (a double click, a reload of the answer)
// makes the accounts once: both answers name the same usernames, the
// second saying the passwords were shown before (none changed); a new
// showing of the form has a new key, a new request.
func TestManagedFormSentTwice(t *testing.T) {
	w := newWorld(t, 1)
	cls := "/classes/" + url.PathEscape(w.class.ID)
	b := newBrowser(t, w.base)
	b.login(teacherName)
	_, _, page := b.get(cls)
	m := regexp.MustCompile(`name="form_key" value="([A-Za-z0-9_-]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the form has no key:\n%s", page)
	}
	rows := regexp.MustCompile(`<tr><td>(?:王小明|李华)</td><td>([^<]+)</td>`)
	var body string
	send := func(key string) []string {
		t.Helper()
		var code int
		code, _, body = b.post(cls+"/managed", url.Values{"names": {"王小明\n李华"}, "form_key": {key}}, true)
		if code != http.StatusOK {
			t.Fatalf("add: %d\n%s", code, body)
		}
		var us []string
		for _, x := range rows.FindAllStringSubmatch(body, -1) {
			us = append(us, x[1])
		}
		if len(us) != 2 {
			t.Fatalf("the answer lists %v, want two accounts:\n%s", us, body)
		}
		return us
	}
	first := send(m[1])
	if strings.Contains(body, "made-earlier") {
		t.Errorf("the first answer says its accounts were made earlier")
	}
	again := send(m[1])
	if strings.Join(first, ",") != strings.Join(again, ",") {
		t.Errorf("the form sent twice made %v and %v", first, again)
	}
	// The second answer shows no new passwords: it says where they were.
	if strings.Count(body, `class="muted made-earlier"`) != 2 {
		t.Errorf("the second answer does not say the passwords were shown before:\n%s", body)
	}
	// A lost one is given anew on the student's page, by a teacher of
	// the class only; the new password signs the child in.
	student := cls + "/students/" + url.PathEscape(first[0])
	if _, _, sp := b.get(student); !strings.Contains(sp, `id="reset-password"`) {
		t.Fatalf("the student's page offers no new password:\n%s", sp)
	}
	other := newBrowser(t, w.base)
	other.login("other-teacher")
	if code, _, _ := other.post(student+"/password", url.Values{}, true); code != http.StatusForbidden && code != http.StatusNotFound {
		t.Errorf("another teacher gave a new password: %d", code)
	}
	code, h, sp := b.post(student+"/password", url.Values{}, true)
	pw := regexp.MustCompile(`id="new-password">[^<]*<code>([^<]+)</code>`).FindStringSubmatch(sp)
	if code != http.StatusOK || pw == nil || h.Get("Cache-Control") != "no-store" {
		t.Fatalf("the new password: %d %q\n%s", code, h.Get("Cache-Control"), sp)
	}
	if _, err := w.st.Players.Login(t.Context(), first[0], pw[1], "192.0.2.7"); err != nil {
		t.Errorf("the new password does not sign %s in: %v", first[0], err)
	}
	_, _, page = b.get(cls)
	if strings.Contains(page, `value="`+m[1]+`"`) {
		t.Errorf("a new showing of the form keeps the old key")
	}
	if other := send("another-key"); strings.Join(other, ",") == strings.Join(first, ",") {
		t.Errorf("another key made the same accounts %v", other)
	}
	// A class found full keeps the form's key: sent again once there is
	// room, it is the same request (its accounts may be made already).
	v, err := w.st.Schools.Class(t.Context(), w.teacher, w.class.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.Schools.UpdateClass(t.Context(), w.teacher, w.class.ID, schools.ClassPatch{Capacity: new(len(v.Students))}); err != nil {
		t.Fatal(err)
	}
	code, _, full := b.post(cls+"/managed", url.Values{"names": {"Mei"}, "form_key": {"full-key-1"}}, true)
	if code != http.StatusConflict || !strings.Contains(full, `name="form_key" value="full-key-1"`) {
		t.Errorf("a full class: %d, want 409 with the form's key kept:\n%s", code, full)
	}
	if code, _, _ := b.post(cls+"/managed", url.Values{"names": {"Mei"}, "form_key": {"no spaces"}}, true); code != http.StatusUnprocessableEntity {
		t.Errorf("a malformed key: %d, want 422", code)
	}
}
