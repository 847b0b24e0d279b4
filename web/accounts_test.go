package web_test

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/players"
)

// The admin page lists the accounts (filtered by role, paged); no one
// else sees it.
func TestAdminAccountList(t *testing.T) {
	w := newWorld(t, 2)
	for _, who := range []string{teacherName, w.students[0]} {
		b := newBrowser(t, w.base)
		b.login(who)
		if code, _, body := b.get("/admin?acc_role=teacher"); code != http.StatusForbidden || !strings.Contains(body, "You may not see this page") || strings.Contains(body, `id="accounts"`) {
			t.Errorf("%s opens the account list: %d", who, code)
		}
	}
	a := newBrowser(t, w.base)
	a.login(adminName)
	code, _, body := a.get("/admin")
	if code != http.StatusOK {
		t.Fatalf("admin page: %d", code)
	}
	table := section(t, body, `id="accounts"`, "</table>")
	for _, want := range []string{">" + w.students[0] + "</a>", ">" + teacherName + "</a>", ">" + adminName + "</a>", "by school " + w.school.ID} {
		if !strings.Contains(table, want) {
			t.Errorf("account list lacks %q:\n%s", want, table)
		}
	}
	if i, j := strings.Index(body, `id="accounts"`), strings.Index(body, `action="/admin/accounts"`); i < 0 || j < i {
		t.Errorf("the list is not above the create-account form")
	}
	a.lang = "zh"
	_, _, body = a.get("/admin?acc_role=teacher")
	table = section(t, body, `id="accounts"`, "</table>")
	if !strings.Contains(table, ">"+teacherName+"</a>") || !strings.Contains(table, ">other-teacher</a>") || strings.Contains(table, w.students[0]) || !strings.Contains(table, "老师") {
		t.Errorf("teachers only, in Chinese:\n%s", table)
	}
	if code, _, _ := a.get("/admin?acc_role=king"); code != http.StatusBadRequest {
		t.Errorf("a bad role filter: %d, want 400", code)
	}
	// More accounts than a page: the next page follows on.
	for i := range 55 {
		if err := w.st.Stores.Accounts.CreateAccount(t.Context(), players.Account{Username: fmt.Sprintf("p%02d", i), Role: players.RolePlayer,
			PasswordHash: "x", CreatedAt: w.clock.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	a.lang = "en"
	_, _, body = a.get("/admin?acc_prefix=p")
	first := section(t, body, `id="accounts"`, "</table>")
	if !strings.Contains(first, ">p00</a>") || !strings.Contains(first, ">p49</a>") || strings.Contains(first, ">p50</a>") {
		t.Errorf("first page:\n%s", first)
	}
	i := strings.Index(body, `id="accounts-next"`)
	if i < 0 {
		t.Fatalf("no next page link")
	}
	href := body[strings.LastIndex(body[:i], `href="`)+len(`href="`):]
	href = html.UnescapeString(href[:strings.IndexByte(href, '"')])
	_, _, body = a.get(href)
	next := section(t, body, `id="accounts"`, "</table>")
	if !strings.Contains(next, ">p50</a>") || !strings.Contains(next, ">p54</a>") || strings.Contains(next, ">p49</a>") || strings.Contains(body, `id="accounts-next"`) {
		t.Errorf("second page (%s):\n%s", href, next)
	}
}

// section is body from the first from to the next to after it.
func section(t *testing.T, body, from, to string) string {
	t.Helper()
	i := strings.Index(body, from)
	if i < 0 {
		t.Fatalf("no %s in\n%s", from, body)
	}
	j := strings.Index(body[i:], to)
	if j < 0 {
		return body[i:]
	}
	return body[i : i+j]
}
