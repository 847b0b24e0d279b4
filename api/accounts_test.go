package api_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/players"
)

// The admin's account list: username order, a role filter, a prefix,
// cursor pages; bad parameters named; no one else may read it.
func TestAdminListsAccounts(t *testing.T) {
	e := newEnv(t)
	root := e.account("root", players.RoleAdmin)
	teacher := e.account("sensei", players.RoleTeacher)
	alice := e.register("alice")
	for _, name := range []string{"zed", "bob", "al-2"} {
		e.register(name)
	}
	if _, err := e.players.SetDisplayName(context.Background(), "bob", "Bob Li"); err != nil {
		t.Fatal(err)
	}
	list := func(query string) (string, map[string]any) {
		t.Helper()
		out := e.expect(req{method: "GET", path: "/api/v1/admin/accounts" + query, token: root}, 200, "")
		var names []string
		for _, x := range out.JSON["items"].([]any) {
			a := x.(map[string]any)
			names = append(names, a["username"].(string))
			if _, ok := a["password_hash"]; ok {
				t.Fatalf("a hash is listed: %s", out.Body)
			}
			if a["username"] == "bob" && (a["display_name"] != "Bob Li" || a["role"] != "player" || a["created_at"] == nil) {
				t.Errorf("bob listed as %v", a)
			}
		}
		return strings.Join(names, ","), out.JSON
	}
	if got, _ := list(""); got != "al-2,alice,bob,root,sensei,zed" {
		t.Fatalf("all accounts = %s", got)
	}
	if got, _ := list("?role=teacher"); got != "sensei" {
		t.Errorf("teachers = %s", got)
	}
	if got, _ := list("?prefix=AL"); got != "al-2,alice" {
		t.Errorf("prefix AL = %s", got)
	}
	// Pages of two, following the cursor to the end.
	var pages []string
	query := "?limit=2"
	for range 10 {
		got, page := list(query)
		pages = append(pages, got)
		next, _ := page["next_cursor"].(string)
		if next == "" {
			break
		}
		query = "?limit=2&cursor=" + url.QueryEscape(next)
	}
	if strings.Join(pages, "|") != "al-2,alice|bob,root|sensei,zed" {
		t.Errorf("pages = %v", pages)
	}
	for q, param := range map[string]string{"?role=king": "role", "?prefix=a*b": "prefix", "?limit=0": "limit", "?cursor=nope!": "cursor"} {
		out := e.expect(req{method: "GET", path: "/api/v1/admin/accounts" + q, token: root}, 400, "")
		if out.errDetails()["parameter"] != param {
			t.Errorf("%s: %s; want the parameter %s named", q, out.Body, param)
		}
	}
	for _, tok := range []string{alice, teacher} {
		e.expect(req{method: "GET", path: "/api/v1/admin/accounts", token: tok}, 403, "")
	}
	e.expect(req{method: "GET", path: "/api/v1/admin/accounts"}, 401, "")
}
