package web_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/testsvc"
)

// chromium is Debian's, installed by .ci/services.sh (make test).
const chromium = "/usr/bin/chromium"

// browserTimeout bounds one browser's whole journey: generous, for a
// loaded machine; every step waits for an element, never for a time.
const browserTimeout = 4 * time.Minute

// chrome starts a headless Chromium with a fresh profile, a window of
// width×height and an Accept-Language of lang, and returns its context.
func chrome(t *testing.T, width, height int, lang string) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.WindowSize(width, height),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, browserTimeout)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": lang}}); err != nil {
		t.Fatal(err)
	}
	run(t, ctx, "viewport", chromedp.EmulateViewport(int64(width), int64(height)))
	return ctx
}

// run runs the actions, failing the test on the first error.
func run(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// value runs one action that gives a value.
func value[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// shot writes a screenshot of the viewport as name.png into
// RANK_SCREENSHOT_DIR (the test's temporary directory when unset).
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("RANK_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	png := value(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot())
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return value(t, ctx, "text of "+sel, chromedp.Text(chromedp.CSS(sel)))
}

func loginIn(t *testing.T, ctx context.Context, base, name string) {
	t.Helper()
	run(t, ctx, "log in "+name,
		chromedp.Navigate(base+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#username")),
		chromedp.SendKeys(chromedp.CSS("#username"), name),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#me")))
}

func registerIn(t *testing.T, ctx context.Context, base, name string) {
	t.Helper()
	run(t, ctx, "register "+name,
		chromedp.Navigate(base+"/register"),
		chromedp.WaitVisible(chromedp.CSS("#username")),
		chromedp.SendKeys(chromedp.CSS("#username"), name),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.SendKeys(chromedp.CSS("#password2"), password),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.WaitVisible(chromedp.CSS("#rank-graph")))
}

// A player registers and sees their profile with its graph; two players
// in two browsers queue, are matched and land on their game's page; the
// game page steps through a finished game by buttons and arrow keys.
func TestBrowserPlayerJourney(t *testing.T) {
	w := newWorld(t, 3)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.st.Matchmaking.Run(ctx, 100*time.Millisecond, nil); close(done) }()
	t.Cleanup(func() { stop(); <-done })

	a := chrome(t, 1100, 900, "en-GB,en;q=0.9")
	b := chrome(t, 1100, 900, "zh-CN,zh;q=0.9")
	registerIn(t, a, w.base, "alice")
	if got := text(t, a, "#ladder-rank"); !strings.Contains(got, "1k") {
		t.Errorf("English profile rank %q, want 1k", got)
	}
	shot(t, a, "profile-en")
	registerIn(t, b, w.base, "bob")
	if got := text(t, b, "#ladder-rank"); !strings.Contains(got, "1级") {
		t.Errorf("Chinese profile rank %q, want 1级", got)
	}
	if got := text(t, b, "h1"); got != "棋手" {
		t.Errorf("Chinese title %q", got)
	}
	for _, c := range []context.Context{a, b} {
		run(t, c, "queue",
			chromedp.Navigate(w.base+"/play"),
			chromedp.WaitVisible(chromedp.CSS("#queue")),
			chromedp.Click(chromedp.CSS("#queue")))
	}
	// Both pages poll the wait and go to the game when matched.
	for i, c := range []context.Context{a, b} {
		run(t, c, "matched", chromedp.WaitVisible(chromedp.CSS("#game-status")))
		url := value(t, c, "location", chromedp.Location())
		if !strings.Contains(url, "/games/") {
			t.Errorf("browser %d is at %s after the match", i, url)
		}
	}
	players := text(t, a, "#players")
	if !strings.Contains(players, "alice") || !strings.Contains(players, "bob") {
		t.Errorf("the game page names %q", players)
	}
	shot(t, b, "game-pending-zh")

	// alice registers for an exam.
	if _, err := w.st.Exams.CreateSchedule(context.Background(), "weekly-1d", exams.Draft{TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		SessionLength: "3h", RegistrationOpens: "72h"}, adminName); err != nil {
		t.Fatal(err)
	}
	run(t, a, "register for the exam",
		chromedp.Navigate(w.base+"/exams"),
		chromedp.WaitVisible(chromedp.CSS("#register-weekly-1d")),
		chromedp.Click(chromedp.CSS("#register-weekly-1d")),
		chromedp.WaitVisible(chromedp.CSS("#notice")))
	if got := text(t, a, "#my-exams"); !strings.Contains(got, "weekly-1d") {
		t.Errorf("own exams %q", got)
	}

	// A finished game: 5 moves, White captured one stone.
	run(t, a, "finished game",
		chromedp.Navigate(w.base+"/games/"+w.gameID),
		chromedp.WaitVisible(chromedp.CSS("#stepper[data-ready]")))
	if got := text(t, a, "#move-no"); got != "5 / 5" {
		t.Errorf("move shown %q, want 5 / 5", got)
	}
	if got := text(t, a, "#cap-w"); got != "1" {
		t.Errorf("White's captures %q, want 1", got)
	}
	run(t, a, "step back by key", chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft))
	if got := text(t, a, "#move-no"); got != "3 / 5" {
		t.Errorf("after two ArrowLeft %q, want 3 / 5", got)
	}
	if got := text(t, a, "#cap-w"); got != "0" {
		t.Errorf("White's captures at move 3 %q, want 0", got)
	}
	run(t, a, "step by button", chromedp.Click(chromedp.CSS("#next")))
	if got := text(t, a, "#move-no"); got != "4 / 5" {
		t.Errorf("after next %q, want 4 / 5", got)
	}
	shot(t, a, "game-en")
}

// A teacher opens their class, sorts it and downloads the CSV, in
// Chinese; the class's name, with script in it, shows as text.
func TestBrowserTeacherJourney(t *testing.T) {
	w := newWorld(t, 6)
	c := chrome(t, 1280, 900, "zh-CN")
	loginIn(t, c, w.base, teacherName)
	run(t, c, "open the class",
		chromedp.Navigate(w.base+"/teach"),
		chromedp.WaitVisible(chromedp.CSS(`a[href="/classes/`+w.class.ID+`"]`)),
		chromedp.Click(chromedp.CSS(`a[href="/classes/`+w.class.ID+`"]`)),
		chromedp.WaitVisible(chromedp.CSS("#class-table")))
	if got := text(t, c, "#class-name"); !strings.Contains(got, evilName) {
		t.Errorf("class name shows as %q, want the text %q", got, evilName)
	}
	xss := value(t, c, "no script element", chromedp.Evaluate[bool](`document.querySelectorAll("main script").length > 0`))
	if xss {
		t.Error("the class name became a script element")
	}
	if got := text(t, c, "#csv"); got != "下载表格（CSV）" {
		t.Errorf("CSV link %q", got)
	}
	run(t, c, "sort by score", chromedp.Click(chromedp.CSS(`th a[href*="sort=score"]`)),
		chromedp.WaitVisible(chromedp.CSS(`th[aria-sort="ascending"]`)))
	shot(t, c, "class-zh")
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(c, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatal(err)
	}
	run(t, c, "download", chromedp.Click(chromedp.CSS("#csv")))
	var csvText string
	testsvc.Eventually(t, "the CSV download", func() bool {
		files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
		if len(files) == 0 {
			return false
		}
		b, _ := os.ReadFile(files[0])
		csvText = string(b)
		return strings.Count(csvText, "\n") >= len(w.students)+2
	})
	for _, s := range w.students {
		if !strings.Contains(csvText, s) {
			t.Errorf("the CSV lacks %s", s)
		}
	}
	run(t, c, "a student", chromedp.Navigate(w.base+"/classes/"+w.class.ID+"/students/"+w.students[2]),
		chromedp.WaitVisible(chromedp.CSS("#student-changes")))
}

// An admin approves a promotion with a reason and finds it in the audit
// trail.
func TestBrowserAdminJourney(t *testing.T) {
	w := newWorld(t, 0)
	w.awaitingPromotions()
	c := chrome(t, 1280, 900, "en")
	loginIn(t, c, w.base, adminName)
	run(t, c, "the promotion queue",
		chromedp.Navigate(w.base+"/admin"),
		chromedp.WaitVisible(chromedp.CSS("#promotions-link")),
		chromedp.Click(chromedp.CSS("#promotions-link")),
		chromedp.WaitVisible(chromedp.CSS("#promotions .approve")))
	shot(t, c, "promotions-en")
	run(t, c, "approve",
		chromedp.SendKeys(chromedp.CSS("#promotions input.reason"), "games reviewed by the board"),
		chromedp.Click(chromedp.CSS("#promotions .approve")),
		chromedp.WaitVisible(chromedp.CSS("#notice")))
	if got := text(t, c, "#notice"); !strings.Contains(got, "certified") {
		t.Errorf("notice %q", got)
	}
	run(t, c, "the audit trail",
		chromedp.Navigate(w.base+"/admin"),
		chromedp.WaitVisible(chromedp.CSS("#audit-link")),
		chromedp.Click(chromedp.CSS("#audit-link")),
		chromedp.WaitVisible(chromedp.CSS("#cause")),
		chromedp.SetValue(chromedp.CSS("#cause"), "exam"),
		chromedp.Submit(chromedp.CSS("#cause")),
		chromedp.WaitVisible(chromedp.CSS("#audit")))
	if got := text(t, c, "#audit"); !strings.Contains(got, "games reviewed by the board") {
		t.Errorf("the audit trail lacks the approval:\n%s", got)
	}
}

// At a phone's width (375 px) the pages fit: nothing but the tables'
// own scrolling areas is wider than the screen; the language switch
// works and is kept.
func TestBrowserPhoneWidth(t *testing.T) {
	w := newWorld(t, 4)
	c := chrome(t, 375, 812, "en")
	loginIn(t, c, w.base, teacherName)
	for _, p := range []string{"/players/" + w.students[1], "/leaderboard", "/classes/" + w.class.ID, "/games/" + w.gameID, "/play"} {
		run(t, c, "open "+p, chromedp.Navigate(w.base+p), chromedp.WaitVisible(chromedp.CSS("h1")))
		fits := value(t, c, "width of "+p, chromedp.Evaluate[bool](`document.documentElement.scrollWidth <= window.innerWidth`))
		if !fits {
			t.Errorf("%s is wider than 375 px", p)
		}
	}
	run(t, c, "switch to Chinese", chromedp.Navigate(w.base+"/players/"+w.students[1]), chromedp.WaitVisible(chromedp.CSS("#lang-switch")),
		chromedp.Click(chromedp.CSS("#lang-switch")), chromedp.WaitVisible(chromedp.CSS(`html[lang="zh-CN"]`)))
	shot(t, c, "profile-phone-zh")
	run(t, c, "kept", chromedp.Navigate(w.base+"/leaderboard"), chromedp.WaitVisible(chromedp.CSS("#leaderboard")))
	if got := text(t, c, "h1"); got != "排行榜" {
		t.Errorf("after the switch the leaderboard is titled %q", got)
	}
}

// TestBrowserAssumptionsFitAPhone: a game's assumptions quoting a long
// unbroken value from the file still fit a phone's width; on the Chinese
// page they read in Chinese, but for the one the intake cut, shown in
// English as stored.
func TestBrowserAssumptionsFitAPhone(t *testing.T) {
	w := newWorld(t, 2)
	sgf := "(;GM[1]FF[4]SZ[9]KM[750]RU[Chinese]PL[" + strings.Repeat("x", 280) + "]PB[" + w.students[0] + "]PW[" + w.students[1] + "]RE[W+R];B[ee];W[gg])"
	acc, err := w.st.Intake.Submit(t.Context(), intake.Submission{SourceID: "browser-assumed", SGF: []byte(sgf), By: adminName})
	if err != nil {
		t.Fatal(err)
	}
	c := chrome(t, 375, 812, "zh")
	loginIn(t, c, w.base, w.students[0])
	p := "/games/" + acc.Game.ID
	run(t, c, "open "+p, chromedp.Navigate(w.base+p), chromedp.WaitVisible(chromedp.CSS("#game-assumptions li")))
	if !value(t, c, "width", chromedp.Evaluate[bool](`document.documentElement.scrollWidth <= window.innerWidth`)) {
		t.Errorf("%s is wider than 375 px", p)
	}
	if got := text(t, c, "#game-assumptions h2"); got != "读取棋谱时的假定" {
		t.Errorf("heading %q", got)
	}
	if got := text(t, c, "#game-assumptions li:not([lang])"); !strings.HasPrefix(got, "KM[750] 读作贴目 7.5：") {
		t.Errorf("the komi's assumption %q, want it in Chinese", got)
	}
	if got := text(t, c, `#game-assumptions li[lang="en"]`); !strings.HasPrefix(got, "PL[xxx") || !strings.HasSuffix(got, "…") {
		t.Errorf("the cut assumption %q, want it as stored", got)
	}
	if got := text(t, c, "#game-assumptions p"); !strings.Contains(got, "英文") {
		t.Errorf("the note %q does not say some stay in English", got)
	}
	shot(t, c, "game-assumptions-phone-zh")
}
