package schools_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/schools"
)

// interleave is the schools store with a hook: armed with a class id, it
// runs do once, just before the next write of a version of that class.
// do is meant to act through another service on the store underneath
// (another replica, with its own in-process locks), so it can run while
// the service writing holds its lock on the class.
type interleave struct {
	schools.Store
	mu    sync.Mutex
	class string
	do    func()
}

func (s *interleave) arm(classID string, do func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.class, s.do = classID, do
}

func (s *interleave) PutClass(ctx context.Context, c schools.Class) error {
	s.mu.Lock()
	var do func()
	if s.do != nil && c.ID == s.class {
		do, s.do = s.do, nil
	}
	s.mu.Unlock()
	if do != nil {
		do()
	}
	return s.Store.PutClass(ctx, c)
}

// TestMoveOfAPlayerWhoLeavesMeanwhile: ann is moved from class a to
// class b while, on another replica, she leaves a, is removed from it or
// is moved elsewhere, before the move adds her to b or before it takes
// her out of a. A move of a player no longer in a when it ends leaves
// her out of b (ErrNotMember, the undo audited in b's history); the same
// move run meanwhile (a retry, a second click) is no such case: both
// calls succeed and she is in b once.
func TestMoveOfAPlayerWhoLeavesMeanwhile(t *testing.T) {
	cases := []struct {
		name string
		at   string // the class whose next write the other replica goes before: "a" (taking ann out) or "b" (adding her)
		// byName: ann came into a added by username (only followed), not by the code.
		byName bool
		// meanwhile is what the other replica does.
		meanwhile func(r *rig, other *schools.Service, a, b, c schools.Class) error
		wantErr   error  // nil: the move succeeds
		in        string // the class ann ends in: "b", "c" or "" for none
		undone    string // in the reason of b's last version, the undo; "" for no undo
	}{
		{name: "left before the add", at: "b", wantErr: schools.ErrNotMember, undone: "ann left",
			meanwhile: func(r *rig, o *schools.Service, a, _, _ schools.Class) error {
				_, err := o.Leave(bg, playerP("ann"), a.ID)
				return err
			}},
		{name: "removed before the add", at: "b", wantErr: schools.ErrNotMember, undone: "removed from",
			meanwhile: func(r *rig, o *schools.Service, a, _, _ schools.Class) error {
				_, err := o.Remove(bg, r.head, a.ID, "ann", "transferred")
				return err
			}},
		{name: "left after the add", at: "a", wantErr: schools.ErrNotMember, undone: "ann left",
			meanwhile: func(r *rig, o *schools.Service, a, _, _ schools.Class) error {
				_, err := o.Leave(bg, playerP("ann"), a.ID)
				return err
			}},
		{name: "moved elsewhere before the add", at: "b", wantErr: schools.ErrNotMember, in: "c", undone: "moved from",
			meanwhile: func(r *rig, o *schools.Service, a, _, c schools.Class) error {
				_, _, err := o.Move(bg, r.head, a.ID, "ann", c.ID)
				return err
			}},
		{name: "the same move before the add", at: "b", in: "b",
			meanwhile: func(r *rig, o *schools.Service, a, b, _ schools.Class) error {
				_, _, err := o.Move(bg, r.head, a.ID, "ann", b.ID)
				return err
			}},
		{name: "the same move after the add", at: "a", in: "b",
			meanwhile: func(r *rig, o *schools.Service, a, b, _ schools.Class) error {
				_, _, err := o.Move(bg, r.head, a.ID, "ann", b.ID)
				return err
			}},
		// Joining b with its code is her own choice: the undo leaves it.
		{name: "left and joined the destination after the add", at: "a", byName: true, wantErr: schools.ErrNotMember, in: "b",
			meanwhile: func(r *rig, o *schools.Service, a, b, _ schools.Class) error {
				if _, err := o.Leave(bg, playerP("ann"), a.ID); err != nil {
					return err
				}
				_, _, err := o.Join(bg, playerP("ann"), b.Code)
				return err
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hook := &interleave{}
			r := newRig(t, apptest.Wrap(func(s app.Stores) app.Stores {
				hook.Store, s.Schools = s.Schools, hook
				return s
			}))
			other := schools.New(hook.Store, r.st.Players, r.st.Ratings, r.st.Exams, r.clock)
			a, b, c := r.class("a", 0), r.class("b", 0), r.class("c", 0)
			if tc.byName {
				r.player("ann")
				if _, err := r.svc.AddStudents(bg, r.tea, a.ID, []string{"ann"}); err != nil {
					t.Fatal(err)
				}
			} else {
				r.join(a, "ann")
			}
			at := map[string]string{"a": a.ID, "b": b.ID}[tc.at]
			var meanwhile error
			hook.arm(at, func() { meanwhile = tc.meanwhile(r, other, a, b, c) })

			_, _, err := r.svc.Move(bg, r.tea, a.ID, "ann", b.ID)
			if meanwhile != nil {
				t.Fatalf("meanwhile: %v", meanwhile)
			}
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("move: %v, want %v", err, tc.wantErr)
			}
			for name, id := range map[string]string{"a": a.ID, "b": b.ID, "c": c.ID} {
				got, err := hook.Store.Class(bg, id)
				if err != nil {
					t.Fatal(err)
				}
				if _, in := got.Member("ann"); in != (name == tc.in) {
					t.Errorf("ann in %s: %v, want her in %q only", name, in, tc.in)
				}
			}
			hist, err := r.svc.ClassHistory(bg, r.tea, b.ID)
			if err != nil {
				t.Fatal(err)
			}
			var whats []string
			in := 0
			for _, v := range hist {
				whats = append(whats, v.Change.What)
				if v.Change.What == schools.WhatMovedIn {
					in++
				}
			}
			last := hist[len(hist)-1].Change
			switch {
			case tc.undone == "" && slices.Contains(whats, schools.WhatMovedOut):
				t.Errorf("b's history %v: an undo, want none", whats)
			case tc.undone == "":
			case last.What != schools.WhatMovedOut || last.Subject != "ann" || last.By != "tea" || !strings.Contains(last.Reason, tc.undone):
				t.Errorf("b's last change %+v, want ann moved out by tea saying %q", last, tc.undone)
			}
			if in != 1 {
				t.Errorf("b's history %v: %d moves in, want 1", whats, in)
			}
		})
	}
}
