package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

// browser is a cookie-keeping client of the pages that does not follow
// redirects (the tests look at them).
type browser struct {
	t    testing.TB
	base string
	c    *http.Client
	lang string
}

func newBrowser(t testing.TB, base string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: base, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) do(req *http.Request) (int, http.Header, string) {
	b.t.Helper()
	if b.lang != "" {
		req.Header.Set("Accept-Language", b.lang)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

func (b *browser) get(path string) (int, http.Header, string) {
	b.t.Helper()
	req, _ := http.NewRequest("GET", b.base+path, nil)
	return b.do(req)
}

// csrf is the CSRF cookie's value (a GET first sets it).
func (b *browser) csrf() string {
	u, _ := url.Parse(b.base)
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == "rank_csrf" {
			return c.Value
		}
	}
	b.get("/")
	for _, c := range b.c.Jar.Cookies(u) {
		if c.Name == "rank_csrf" {
			return c.Value
		}
	}
	b.t.Fatal("no CSRF cookie")
	return ""
}

// post sends a form with the CSRF token (withToken false leaves it out).
func (b *browser) post(path string, form url.Values, withToken bool) (int, http.Header, string) {
	b.t.Helper()
	if withToken {
		form.Set("csrf", b.csrf())
	}
	req, _ := http.NewRequest("POST", b.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

func (b *browser) register(name, password string) {
	b.t.Helper()
	code, h, body := b.post("/register", url.Values{"username": {name}, "password": {password}, "password2": {password}}, true)
	if code != http.StatusSeeOther {
		b.t.Fatalf("register %s: %d %s", name, code, body)
	}
	if want := "/players/" + url.PathEscape(name); h.Get("Location") != want {
		b.t.Fatalf("register went to %q, want %q", h.Get("Location"), want)
	}
}

func server(t testing.TB) (*apptest.Stack, string) {
	st := apptest.Memory(t)
	srv := httptest.NewServer(st.HTTP)
	t.Cleanup(srv.Close)
	return st, srv.URL
}

func TestRegisterShowsTheProfileInBothLanguages(t *testing.T) {
	_, base := server(t)
	b := newBrowser(t, base)
	b.register("alice", "correct horse battery")
	code, _, body := b.get("/players/alice")
	if code != 200 || !strings.Contains(body, `id="rank-graph"`) || !strings.Contains(body, "Ladder rank") {
		t.Fatalf("profile: %d\n%s", code, body)
	}
	b.lang = "zh-CN,zh;q=0.9"
	_, _, body = b.get("/players/alice")
	if !strings.Contains(body, "阶梯段位") || !strings.Contains(body, "1级") {
		t.Fatalf("Chinese profile lacks 阶梯段位 or 1级:\n%s", body)
	}
}

func TestTheAPIKeepsItsPaths(t *testing.T) {
	_, base := server(t)
	b := newBrowser(t, base)
	code, h, _ := b.get("/api/v1/leaderboard")
	if code != http.StatusUnauthorized || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		t.Fatalf("/api/v1/leaderboard: %d %s, want the API's 401 JSON", code, h.Get("Content-Type"))
	}
	code, h, body := b.get("/")
	if code != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/html") || !strings.Contains(body, "/static/style.css") {
		t.Fatalf("/: %d %s", code, h.Get("Content-Type"))
	}
	if code, _, _ := b.get("/static/style.css"); code != 200 {
		t.Fatalf("stylesheet: %d", code)
	}
	if code, _, body := b.get("/no/such/page"); code != 404 || !strings.Contains(body, "no such page") {
		t.Fatalf("unknown page: %d %s", code, body)
	}
}

// Profiles, the leaderboard and games are public only when the operator
// says so (RANK_PUBLIC_READS).
func TestPublicReadsAreTheOperatorsChoice(t *testing.T) {
	for _, public := range []bool{false, true} {
		st := apptest.Memory(t, apptest.Config(app.Config{PublicReads: public}))
		srv := httptest.NewServer(st.HTTP)
		t.Cleanup(srv.Close)
		if _, _, err := st.Players.Register(t.Context(), "dora", "correct horse battery", "10.1.1.1"); err != nil {
			t.Fatal(err)
		}
		anon := newBrowser(t, srv.URL)
		for _, p := range []string{"/players/dora", "/leaderboard", "/exams"} {
			code, h, _ := anon.get(p)
			if public && code != 200 || !public && (code != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/login")) {
				t.Errorf("public=%v %s: %d %s", public, p, code, h.Get("Location"))
			}
		}
	}
}

func TestLeaderboardFilterSearchAndTheGamesSGF(t *testing.T) {
	w := newWorld(t, 4)
	ctx := t.Context()
	score := 450 // 4d
	if _, err := w.st.Ratings.Change(ctx, rating.ChangeInput{Key: "place-top", Player: w.students[3], Cause: rating.CausePlacement,
		Score: &score, Actor: adminName, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, w.base)
	b.login(w.students[0])
	_, _, body := b.get("/leaderboard")
	body = body[strings.Index(body, "<tbody>"):] // past the header's own name
	first := strings.Index(body, ">"+w.students[3]+"<")
	if first < 0 || first > strings.Index(body, ">"+w.students[0]+"<") {
		t.Errorf("the 4d player is not first:\n%s", body)
	}
	_, _, body = b.get("/leaderboard?rank=4d")
	body = body[strings.Index(body, "<tbody>"):]
	if !strings.Contains(body, ">"+w.students[3]+"<") || strings.Contains(body, ">"+w.students[0]+"<") {
		t.Errorf("rank filter 4d:\n%s", body)
	}
	b.lang = "zh"
	if _, _, body = b.get("/leaderboard?rank=4d"); !strings.Contains(body, "4段") {
		t.Errorf("the Chinese leaderboard lacks 4段")
	}
	if code, _, _ := b.get("/leaderboard?rank=12x"); code != http.StatusBadRequest {
		t.Errorf("a bad rank: %d", code)
	}
	_, _, body = b.get("/leaderboard?q=" + w.students[2])
	if !strings.Contains(body, `id="found"`) {
		t.Errorf("name search did not find %s", w.students[2])
	}
	code, h, sgf := b.get("/games/" + w.gameID + "/sgf")
	if code != 200 || !strings.HasPrefix(sgf, "(;") || !strings.Contains(h.Get("Content-Disposition"), ".sgf") {
		t.Errorf("sgf: %d %q %q", code, h.Get("Content-Disposition"), sgf)
	}
	if _, _, body := b.get("/games/" + w.gameID); !strings.Contains(body, `id="game-deltas"`) || !strings.Contains(body, `id="stepper"`) {
		t.Errorf("the game page lacks its deltas or stepper:\n%s", body)
	}
	if code, _, _ := b.get("/games/no-such-game"); code != http.StatusNotFound {
		t.Errorf("unknown game: %d", code)
	}
}

// TestGamePageSpeaksTheLanguage: a game's result, rules and its
// count_unverified flag (a game server's claim the count did not give)
// are written in the page's language.
func TestGamePageSpeaksTheLanguage(t *testing.T) {
	w := newWorld(t, 2)
	sgf := "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]PB[" + w.students[0] + "]PW[" + w.students[1] + "]RE[B+50];B[ee];W[ec];B[];W[])"
	acc, err := w.st.Intake.Submit(t.Context(), intake.Submission{SourceID: "web-test-unverified", SGF: []byte(sgf), By: adminName, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if v := acc.Game.Verdict; v == nil || !v.CountUnverified {
		t.Fatalf("the claim was verified: %+v", acc.Game.Verdict)
	}
	b := newBrowser(t, w.base)
	b.login(adminName)
	for _, tc := range []struct{ lang, result, rules, flag string }{
		{"en", "Black wins by 50 points", "Chinese", "Count not verified"},
		{"zh", "黑胜 50 目", "中国规则", "数子未核实"},
	} {
		b.lang = tc.lang
		code, _, body := b.get("/games/" + acc.Game.ID)
		if code != 200 || !strings.Contains(body, tc.result) || !strings.Contains(body, tc.rules) || !strings.Contains(body, `id="game-flag"`) || !strings.Contains(body, tc.flag) {
			t.Errorf("%s: %d; want %q, %q and the flag %q:\n%s", tc.lang, code, tc.result, tc.rules, tc.flag, body)
		}
		if strings.Contains(body, ">B+50<") {
			t.Errorf("%s: the result is shown as the record writes it", tc.lang)
		}
	}
	b.lang = "zh"
	if _, _, body := b.get("/games/" + w.gameID); !strings.Contains(body, "白中盘胜") || strings.Contains(body, `id="game-flag"`) {
		t.Errorf("a resigned game in Chinese, not flagged:\n%s", body)
	}
}

// TestGamePageShowsAssumptions: a game read from a quirky file lists
// what the reader assumed, under a heading in the page's language: the
// English page as the reader wrote them, the Chinese page in Chinese
// (the file's values escaped in both); a game read plainly has no such
// list.
func TestGamePageShowsAssumptions(t *testing.T) {
	w := newWorld(t, 2)
	sgf := "(;GM[1]FF[4]SZ[9]KM[375]RU[Chinese]PL[<b>x</b>]PB[" + w.students[0] + "]PW[" + w.students[1] + "]RE[W+R];B[ee];W[gg];W[cc];B[dd])"
	acc, err := w.st.Intake.Submit(t.Context(), intake.Submission{SourceID: "web-test-assumed", SGF: []byte(sgf), By: adminName, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(acc.Game.Record.Assumptions) != 3 {
		t.Fatalf("assumptions %q, want the komi, the pass and PL", acc.Game.Record.Assumptions)
	}
	b := newBrowser(t, w.base)
	b.login(w.students[0])
	for _, tc := range []struct{ lang, heading, note, komi, pass, other string }{
		{"en", "Assumed when reading the record", "As the record&#39;s reader wrote them.",
			"<li>KM[375] read as komi 7.5: 3.75 stones written times 100", "<li>a colour played twice in a row: a pass by the other assumed before move 3</li>", "读作贴目"},
		{"zh", "读取棋谱时的假定", "棋谱读取程序为读取这份棋谱所作的假定。",
			"<li>KM[375] 读作贴目 7.5：即 3.75 子乘以 100 的写法（一子合两目）", "<li>同一方连下两手：假定对方在第 3 手之前停一手</li>", "read as komi"},
	} {
		b.lang = tc.lang
		code, _, body := b.get("/games/" + acc.Game.ID)
		if code != 200 || !strings.Contains(body, `id="game-assumptions"`) || !strings.Contains(body, tc.heading) || !strings.Contains(body, tc.note) ||
			!strings.Contains(body, tc.komi) || !strings.Contains(body, tc.pass) || strings.Contains(body, tc.other) || strings.Contains(body, `<li lang="en">`) {
			t.Errorf("%s: %d; want the heading %q, the note %q and both assumptions in the page's language:\n%s", tc.lang, code, tc.heading, tc.note, body)
		}
		if strings.Contains(body, "<b>x</b>") || !strings.Contains(body, "PL[&lt;b&gt;x&lt;/b&gt;]") {
			t.Errorf("%s: the file's text is not escaped:\n%s", tc.lang, body)
		}
	}
	if _, _, body := b.get("/games/" + w.gameID); strings.Contains(body, `id="game-assumptions"`) {
		t.Errorf("a game read plainly lists assumptions:\n%s", body)
	}
}

// TestFieldRuleInTheLanguage: a refused form says what is wrong with the
// field in the page's language: the API's message in English, the
// field's rule from the catalogue in Chinese (with the limits' numbers).
func TestFieldRuleInTheLanguage(t *testing.T) {
	w := newWorld(t, 0)
	for _, tc := range []struct{ lang, want, not string }{
		{"en", "must start with a letter", "用户名为"},
		{"zh", fmt.Sprintf("用户名为 %d 至 %d 个字符", players.UsernameMinLen, players.UsernameMaxLen), "must start"},
	} {
		b := newBrowser(t, w.base)
		b.lang = tc.lang
		_, _, _ = b.get("/register") // the form's token
		code, _, body := b.post("/register", url.Values{"username": {"9lives"}, "password": {password}, "password2": {password}}, true)
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, tc.want) || strings.Contains(body, tc.not) {
			t.Errorf("%s: %d; want %q and not %q:\n%s", tc.lang, code, tc.want, tc.not, body)
		}
	}
}

// alertText is the text of a page's alert (the error page's section, a
// form's notice), tags removed.
func alertText(t *testing.T, body string) string {
	t.Helper()
	i := strings.Index(body, `role="alert"`)
	if i < 0 {
		t.Fatalf("no alert in\n%s", body)
	}
	open := strings.LastIndex(body[:i], "<")
	tag := strings.Fields(body[open+1 : i])[0]
	end := strings.Index(body[i:], "</"+tag+">")
	if end < 0 {
		t.Fatalf("the alert <%s> does not end in\n%s", tag, body)
	}
	return regexp.MustCompile(`<[^>]*>`).ReplaceAllString(body[open:i+end], "")
}

// TestFieldNameInTheLanguage: a Chinese page refusing a form or an
// address names the field at fault by its rule or its Chinese label,
// never by the API's name (time_zone, head_teachers, by, ...); English
// pages keep what they showed (the API's message, the parameter's name).
func TestFieldNameInTheLanguage(t *testing.T) {
	w := newWorld(t, 2)
	cls := "/classes/" + url.PathEscape(w.class.ID)
	for _, tc := range []struct {
		who, method, path string
		form              url.Values
		raw, zh, en       string // the field's API name; what the Chinese and the English alert say
	}{
		{adminName, "POST", "/admin/schools", url.Values{"name": {"Go club"}, "head": {""}}, "head_teachers", "有问题的字段：校长（主管老师）。", "head_teachers"},
		{adminName, "POST", "/admin/schools", url.Values{"name": {"Go club"}, "time_zone": {"Mars/Olympus"}, "head": {teacherName}}, "time_zone", "IANA 时区名", "not an IANA time zone"},
		{adminName, "POST", "/admin/exams", url.Values{"target_rank": {"1d"}, "cron": {"0 19 * * SAT"}, "games": {"six"}}, "games", "有问题的字段：每名考生对局数。", "games"},
		{adminName, "POST", "/admin/exams", url.Values{"target_rank": {"1d"}, "cron": {"not cron"}}, "cron", "有问题的字段：时间（cron）。", "cron"},
		{adminName, "POST", "/admin/exams", url.Values{"target_rank": {"9p"}, "cron": {"0 19 * * SAT"}}, "target_rank", "例如 5级 或 3段", "professional ranks"},
		{adminName, "POST", "/admin/exams", url.Values{"target_rank": {"1d"}, "cron": {"0 19 * * SAT"}, "games": {"99"}}, "games_per_candidate",
			fmt.Sprintf("每名考生的对局数为 1 至 %d。", exams.MaxExamGames), "games_per_candidate"},
		{adminName, "POST", "/admin/promotions/reject", url.Values{"id": {"eA"}, "reason": {""}}, "reason", "有问题的字段：理由。", "A field is missing"},
		{adminName, "GET", "/admin/audit?from=yesterday", nil, "from", "有问题的字段：起始日期。", "from"},
		{adminName, "GET", "/admin/audit?cause=bogus", nil, "cause", "有问题的字段：原因。", "cause"},
		{adminName, "GET", "/admin/promotions?state=bogus", nil, "state", "有问题的字段：状态。", "state"},
		{adminName, "GET", "/admin?acc_prefix=a!", nil, "acc_prefix", "有问题的字段：用户名开头（账号筛选）。", "acc_prefix"},
		{teacherName, "GET", cls + "?sort=shoe-size", nil, "sort", "有问题的字段：排序列。", "not one of"},
		{teacherName, "GET", cls + "/progress?step=month", nil, "by", "有问题的字段：间隔。", "by"},
		{teacherName, "POST", cls + "/managed", url.Values{"names": {"Mei\nmei"}}, "names",
			fmt.Sprintf("共 1 至 %d 个，每个至多 %d 个字", players.ManagedBatchMax, schools.NameMax), "the same as entry 0"},
		{w.students[0], "GET", "/players/" + w.students[0] + "/games?state=lost", nil, "state", "有问题的字段：状态。", "state"},
		{w.students[0], "GET", "/leaderboard?rank=12x", nil, "rank", "有问题的字段：段位。", "rank"},
		{w.students[0], "POST", "/play", url.Values{"size": {"9"}, "time": {"blitz"}, "rules": {"go-moku"}}, "rules", "有问题的字段：规则。", "unknown rules preset"},
		{w.students[0], "POST", "/play", url.Values{"size": {"9"}, "time": {"blitz"}, "rules": {"chinese"}, "min": {"5d"}, "max": {"5d"}}, "rank_range",
			"范围须包含你自己的段位", "must include your own ladder score"},
	} {
		for _, lang := range []string{"zh", "en"} {
			b := newBrowser(t, w.base)
			b.login(tc.who)
			b.lang = lang
			var body string
			if tc.method == "GET" {
				_, _, body = b.get(tc.path)
			} else {
				_, _, body = b.post(tc.path, tc.form, true)
			}
			got := alertText(t, body)
			switch {
			// The label may hold the name as its notation: 时间（cron）.
			case lang == "zh" && (!strings.Contains(got, tc.zh) || strings.Contains(strings.Replace(got, tc.zh, "", 1), tc.raw)):
				t.Errorf("zh %s %s: %q; want %q and not %q", tc.method, tc.path, got, tc.zh, tc.raw)
			case lang == "en" && !strings.Contains(got, tc.en):
				t.Errorf("en %s %s: %q; want %q", tc.method, tc.path, got, tc.en)
			}
		}
	}
}

// TestLangInTheAddress: ?lang=zh|en chooses a page's language for that
// request, over the cookie and Accept-Language; another value is
// ignored; the language switch's way back leaves it out (else it would
// undo the switch). It did nothing: the pages answered in English.
func TestLangInTheAddress(t *testing.T) {
	w := newWorld(t, 1)
	anon := newBrowser(t, w.base)
	player := newBrowser(t, w.base)
	player.login(w.students[0])
	profile := "/players/" + w.students[0]
	for _, tc := range []struct {
		b           *browser
		accept      string
		path, html  string
		want        string
		backWithout bool
	}{
		{anon, "", "/?lang=zh", "zh-CN", "排行榜", true},
		{anon, "", "/login?lang=zh", "zh-CN", "登录", true},
		{player, "", profile + "?lang=zh", "zh-CN", "阶梯段位", true},
		{player, "zh", profile + "?lang=en", "en", "Ladder rank", true},
		{player, "zh", profile + "?lang=fr", "zh-CN", "阶梯段位", false},
		{player, "", profile + "?lang=", "en", "Ladder rank", false},
	} {
		tc.b.lang = tc.accept
		code, _, body := tc.b.get(tc.path)
		if code != 200 || !strings.Contains(body, `<html lang="`+tc.html+`">`) || !strings.Contains(body, tc.want) {
			t.Errorf("%s (Accept-Language %q): %d; want lang %q and %q", tc.path, tc.accept, code, tc.html, tc.want)
		}
		m := regexp.MustCompile(`name="back" value="([^"]*)"`).FindStringSubmatch(body)
		if m == nil || tc.backWithout && strings.Contains(m[1], "lang=") {
			t.Errorf("%s: the switch goes back to %v", tc.path, m)
		}
	}
	// A page that needs a login sends there in the language asked for.
	if _, h, _ := anon.get("/play?lang=zh"); !strings.HasSuffix(h.Get("Location"), "&lang=zh") {
		t.Errorf("/play?lang=zh sent to %q", h.Get("Location"))
	}
	// The switch from a ?lang=zh page to English lands on an English page.
	player.lang = ""
	_, _, body := player.get(profile + "?lang=zh")
	back := strings.ReplaceAll(regexp.MustCompile(`name="back" value="([^"]*)"`).FindStringSubmatch(body)[1], "&amp;", "&")
	if _, h, _ := player.post("/lang", url.Values{"lang": {"en"}, "back": {back}}, true); h.Get("Location") != profile {
		t.Fatalf("the switch went to %q", h.Get("Location"))
	}
	if _, _, body := player.get(profile); !strings.Contains(body, `<html lang="en">`) {
		t.Errorf("after the switch to English the profile is not English")
	}
}

// TestGamePageShowsTheAnnulment: a rated game an admin annulled says so,
// in the page's language, and its deltas are shown as reversed instead
// of as if they still counted.
func TestGamePageShowsTheAnnulment(t *testing.T) {
	w := newWorld(t, 2)
	b := newBrowser(t, w.base)
	b.login(adminName)
	if _, _, body := b.get("/games/" + w.gameID); strings.Contains(body, `id="game-annulled"`) || strings.Contains(body, "reversed by the annulment") {
		t.Fatalf("a rated game shown as annulled:\n%s", body)
	}
	if _, err := w.st.Ratings.Annul(t.Context(), rating.AnnulInput{GameID: w.gameID, Actor: adminName, Reason: "a cut connection"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ lang, annulled, reversed string }{
		{"en", "Annulled", "(reversed by the annulment)"},
		{"zh", "已作废", "（已因作废撤回）"},
	} {
		b.lang = tc.lang
		code, _, body := b.get("/games/" + w.gameID)
		if code != 200 || !strings.Contains(body, `id="game-annulled"`) || !strings.Contains(body, tc.annulled) ||
			!strings.Contains(body, "a cut connection") || !strings.Contains(body, tc.reversed) || !strings.Contains(body, "<s>") {
			t.Errorf("%s: %d, want the annulment and the reversed deltas:\n%s", tc.lang, code, body)
		}
		// The players' recent games say so too, instead of a delta that
		// still counts.
		for _, p := range w.students[:2] {
			if code, _, body := b.get("/players/" + p); code != 200 || !strings.Contains(body, "</s> "+tc.annulled) {
				t.Errorf("%s: %s's profile: %d, want the game's delta struck as annulled:\n%s", tc.lang, p, code, body)
			}
		}
	}
}
