package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/exams"
)

func TestExamWithdrawalAndItsRefusal(t *testing.T) {
	w := newWorld(t, 0)
	if _, err := w.st.Exams.CreateSchedule(t.Context(), "weekly-1d", exams.Draft{TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		SessionLength: "3h", RegistrationOpens: "72h"}, adminName); err != nil {
		t.Fatal(err)
	}
	p := newBrowser(t, w.base)
	p.register("ann", password)
	if code, _, _ := p.post("/exams/weekly-1d/register", url.Values{}, true); code != http.StatusSeeOther {
		t.Fatalf("register: %d", code)
	}
	if _, _, body := p.get("/exams"); !strings.Contains(body, `id="withdraw-weekly-1d"`) || !strings.Contains(body, `action="/exams/weekly-1d/withdraw"`) {
		t.Fatalf("no withdraw button beside the registration:\n%s", body)
	}
	// Without the CSRF token, nothing is withdrawn.
	if code, _, _ := p.post("/exams/weekly-1d/withdraw", url.Values{}, false); code != http.StatusForbidden {
		t.Errorf("withdraw without the token: %d, want 403", code)
	}
	code, h, _ := p.post("/exams/weekly-1d/withdraw", url.Values{}, true)
	if code != http.StatusSeeOther || h.Get("Location") != "/exams?withdrawn=1" {
		t.Fatalf("withdraw: %d %s", code, h.Get("Location"))
	}
	if _, _, body := p.get("/exams?withdrawn=1"); !strings.Contains(body, "You have withdrawn") || strings.Contains(body, "Registered: Exam for 1d (weekly-1d)") {
		t.Errorf("after withdrawing:\n%s", body)
	}
	// Again, in Chinese: not registered, the reason shown.
	p.lang = "zh"
	code, _, body := p.post("/exams/weekly-1d/withdraw", url.Values{}, true)
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "退出报名被拒绝") || !strings.Contains(body, "你没有报名下一场") {
		t.Errorf("withdraw twice: %d\n%s", code, body)
	}
	// Registered again, then the session is paired: the withdrawal is
	// refused and the registration stands.
	p.lang = "en"
	if code, _, _ := p.post("/exams/weekly-1d/register", url.Values{}, true); code != http.StatusSeeOther {
		t.Fatalf("register again: %d", code)
	}
	if err := w.st.Exams.Tick(t.Context(), examFiring); err != nil {
		t.Fatal(err)
	}
	code, _, body = p.post("/exams/weekly-1d/withdraw", url.Values{}, true)
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "The session is already paired") || !strings.Contains(body, "Registered: Exam for 1d (weekly-1d)") {
		t.Errorf("withdraw after the pairing: %d\n%s", code, body)
	}
	// After the firing, no button.
	w.clock.Advance(examFiring.Add(time.Minute).Sub(w.clock.Now()))
	if _, _, body := p.get("/exams"); strings.Contains(body, `id="withdraw-weekly-1d"`) {
		t.Errorf("a withdraw button after the session began:\n%s", body)
	}
}
