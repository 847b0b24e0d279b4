package players_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/players"
)

func TestAdminListsAccounts(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t, players.Config{})
	admin := players.Principal{Username: "root", Role: players.RoleAdmin}
	for _, name := range []string{"zoe", "amy", "Bea"} {
		if _, _, err := svc.Register(ctx, name, "correct horse battery", "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.CreateAccount(ctx, admin, "teach", "correct horse battery", players.RoleTeacher); err != nil {
		t.Fatal(err)
	}
	list, err := svc.Accounts(ctx, admin, players.AccountQuery{Limit: 10})
	var names []string
	for _, a := range list {
		names = append(names, a.Username)
		if a.PasswordHash != "" {
			t.Errorf("%s's password hash is listed", a.Username)
		}
	}
	if err != nil || strings.Join(names, ",") != "amy,bea,teach,zoe" {
		t.Fatalf("accounts = %v, %v", names, err)
	}
	if list, err := svc.Accounts(ctx, admin, players.AccountQuery{Role: players.RoleTeacher, Limit: 10}); err != nil || len(list) != 1 || list[0].CreatedBy != "root" {
		t.Errorf("teachers = %+v, %v", list, err)
	}
	if list, err := svc.Accounts(ctx, admin, players.AccountQuery{Prefix: "B", Limit: 10}); err != nil || len(list) != 1 || list[0].Username != "bea" {
		t.Errorf("prefix B = %+v, %v", list, err)
	}
	var fe *players.FieldError
	for q, field := range map[players.AccountQuery]string{
		{Limit: 0}:                                  "limit",
		{Limit: players.MaxAccountsPage + 1}:        "limit",
		{Role: "king", Limit: 1}:                    "role",
		{Prefix: "a*", Limit: 1}:                    "prefix",
		{Prefix: strings.Repeat("a", 33), Limit: 1}: "prefix",
	} {
		if _, err := svc.Accounts(ctx, admin, q); !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("Accounts(%+v) = %v; want a field error on %s", q, err, field)
		}
	}
	for _, by := range []players.Principal{{Username: "amy", Role: players.RolePlayer}, {Username: "teach", Role: players.RoleTeacher}} {
		if _, err := svc.Accounts(ctx, by, players.AccountQuery{Limit: 10}); !errors.Is(err, players.ErrForbidden) {
			t.Errorf("%s lists accounts: %v", by.Role, err)
		}
	}
}
