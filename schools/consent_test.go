package schools_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
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
		r.advance(time.Minute) // moves are told apart by their times
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
	// Once done, a start reads no class: a student the old move (still
	// wrapping this store) marks now is not traced again.
	r.player("fay")
	if _, err := r.svc.AddStudents(bg, r.tea, a.ID, []string{"fay"}); err != nil {
		t.Fatal(err)
	}
	move(a.ID, "fay", b.ID)
	if fixed, err := r.svc.RepairMovedConsent(bg); err != nil || fixed != 0 || !teaches("fay") {
		t.Errorf("a repair after the mark: %d, %v, fay consented %v; want 0, nil, true (not traced)", fixed, err, teaches("fay"))
	}
}

// TestRepairMovedConsentPastItsBound: a student moved back and forth
// more often than the repair follows is left as they are, and the
// repair (which rankd runs at start) goes on with the others.
func TestRepairMovedConsentPastItsBound(t *testing.T) {
	r := newRig(t, apptest.Wrap(func(s app.Stores) app.Stores { s.Schools = oldMoves{s.Schools}; return s }))
	a, b := r.class("a", 0), r.class("b", 0)
	r.player("bob")
	r.player("ann")
	if _, err := r.svc.AddStudents(bg, r.tea, a.ID, []string{"bob", "ann"}); err != nil {
		t.Fatal(err)
	}
	from, to := a.ID, b.ID
	for range schools.MaxMoveTrace + 2 {
		r.advance(time.Minute) // moves are told apart by their times
		if _, _, err := r.svc.Move(bg, r.tea, from, "bob", to); err != nil {
			t.Fatal(err)
		}
		from, to = to, from
	}
	if _, _, err := r.svc.Move(bg, r.tea, a.ID, "ann", b.ID); err != nil {
		t.Fatal(err)
	}
	fixed, err := r.svc.RepairMovedConsent(bg)
	if err != nil || fixed != 1 {
		t.Fatalf("repair: %d, %v; want ann repaired and bob left", fixed, err)
	}
}
