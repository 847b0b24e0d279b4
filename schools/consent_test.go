package schools_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/schools"
)

// oldMoves is the schools store under the Move of before consent was
// kept by moves: every student a move brings in is marked moved.
type oldMoves struct{ schools.Store }

func (s oldMoves) PutClass(ctx context.Context, c schools.Class) error {
	if c.Change.What == schools.WhatMovedIn {
		c.Students = slices.Clone(c.Students)
		for i, m := range c.Students {
			if m.Username == c.Change.Subject {
				c.Students[i].Via = schools.ViaMoved
			}
		}
	}
	return s.Store.PutClass(ctx, c)
}

// TestRepairMovedConsent: students moved by the old Move are traced back
// through the classes' histories; those a teacher had only added by
// username are only followed again (the teacher no longer Teaches them),
// with the correction in the class's history; those who consented keep
// it; a second run changes nothing.
func TestRepairMovedConsent(t *testing.T) {
	r := newRig(t, apptest.Wrap(func(s app.Stores) app.Stores { s.Schools = oldMoves{s.Schools}; return s }))
	a, b, c := r.class("a", 0), r.class("b", 0), r.class("c", 0)
	for _, n := range []string{"ann", "cid", "dan", "eve"} {
		r.player(n)
	}
	if _, err := r.svc.AddStudents(bg, r.tea, a.ID, []string{"ann", "cid", "dan", "eve"}); err != nil {
		t.Fatal(err)
	}
	r.join(a, "bob")
	move := func(from, name, to string) {
		t.Helper()
		if _, _, err := r.svc.Move(bg, r.tea, from, name, to); err != nil {
			t.Fatalf("move %s from %s to %s: %v", name, from, to, err)
		}
	}
	move(a.ID, "ann", b.ID) // added by username, moved once
	move(a.ID, "bob", b.ID) // joined with the code, moved
	move(a.ID, "cid", b.ID) // added by username, moved twice
	move(b.ID, "cid", c.ID)
	// dan was added by username, then joined with the code, then moved.
	if _, _, err := r.svc.Join(bg, playerP("dan"), a.Code); err != nil {
		t.Fatal(err)
	}
	move(a.ID, "dan", b.ID)
	move(a.ID, "eve", b.ID) // added by username, moved there and back
	move(b.ID, "eve", a.ID)

	teaches := func(name string) bool {
		t.Helper()
		ok, err := r.svc.Teaches(bg, r.tea, name)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	for _, n := range []string{"ann", "bob", "cid", "dan", "eve"} {
		if !teaches(n) {
			t.Fatalf("before the repair the old moves made %s consented; the test's premise fails", n)
		}
	}

	fixed, err := r.svc.RepairMovedConsent(bg)
	if err != nil {
		t.Fatal(err)
	}
	if fixed != 3 {
		t.Errorf("repaired %d students, want 3 (ann, cid, eve)", fixed)
	}
	want := map[string]bool{"ann": false, "bob": true, "cid": false, "dan": true, "eve": false}
	for n, w := range want {
		if got := teaches(n); got != w {
			t.Errorf("after the repair tea teaches %s: %v, want %v", n, got, w)
		}
	}
	hist, err := r.svc.ClassHistory(bg, r.tea, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := hist[len(hist)-1].Change
	if last.What != schools.WhatConsentCorrected || last.Subject != "cid" || last.By != schools.RepairBy {
		t.Errorf("c's last change is %+v, want the correction of cid", last)
	}
	if fixed, err := r.svc.RepairMovedConsent(bg); err != nil || fixed != 0 {
		t.Errorf("a second repair: %d, %v; want 0, nil", fixed, err)
	}
}

// TestAddManagedRetriedWithItsKey: the same children's names sent again
// with the same key (a lost answer retried, a second click) make no
// second account and add no one twice, also in a class the first try
// filled; the retry's passwords are the ones that work. Without a key,
// or with another, a second set is made.
func TestAddManagedRetriedWithItsKey(t *testing.T) {
	r := newRig(t)
	c := r.class("a", 2)
	names := []string{"张伟", "Li Na"}
	_, first, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k-1")
	if err != nil {
		t.Fatal(err)
	}
	cl, again, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k-1")
	if err != nil {
		t.Fatalf("the retry: %v", err)
	}
	if len(cl.Students) != 2 || len(again) != 2 {
		t.Fatalf("after the retry %d students, %d accounts answered; want 2 and 2", len(cl.Students), len(again))
	}
	hist, err := r.svc.ClassHistory(bg, r.tea, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(hist); n != 2 {
		t.Errorf("the class has %d versions, want 2 (created, added once)", n)
	}
	for i := range first {
		if first[i].Username != again[i].Username || first[i].Password == again[i].Password {
			t.Fatalf("account %d: first %s/%s, retry %s/%s; want the same username with a new password", i, first[i].Username, first[i].Password, again[i].Username, again[i].Password)
		}
		if _, err := r.st.Players.Login(bg, first[i].Username, first[i].Password, "192.0.2.9"); err == nil {
			t.Errorf("%s: the first password still works", first[i].Username)
		}
		if _, err := r.st.Players.Login(bg, again[i].Username, again[i].Password, "192.0.2.9"); err != nil {
			t.Errorf("%s: the retry's password: %v", again[i].Username, err)
		}
	}
	// Another key is another request: the class is full now, and no
	// account is made for it.
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k-2"); !errors.Is(err, schools.ErrClassFull) {
		t.Errorf("another key: %v, want the class full", err)
	}
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"王芳"}, "k-3"); !errors.Is(err, schools.ErrClassFull) {
		t.Errorf("another child: %v, want the class full", err)
	}
	accs, err := r.st.Players.Accounts(bg, r.admin, players.AccountQuery{Role: players.RolePlayer, Limit: players.MaxAccountsPage})
	if err != nil {
		t.Fatal(err)
	}
	managed := 0
	for _, a := range accs {
		if a.ManagedBy != "" {
			managed++
		}
	}
	if managed != 2 {
		t.Errorf("%d managed accounts, want the 2 of the first request", managed)
	}
}
