package exams_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/exams"
)

func refusalCode(err error) string {
	var refusal *exams.RefusalError
	if errors.As(err, &refusal) {
		return refusal.Code
	}
	return ""
}

// A player withdraws before the pairing and is left out of it; once the
// session is paired, a withdrawal is refused and the registration stands.
func TestWithdrawBeforeThePairingOnly(t *testing.T) {
	r, s := registerFour(t, false)
	reg, err := r.svc.Withdraw(ctx, s.ID, "ann")
	if err != nil || reg.Player != "ann" || reg.SessionAt != firing {
		t.Fatalf("withdraw ann = %+v, %v", reg, err)
	}
	if _, err := r.svc.Withdraw(ctx, s.ID, "ann"); refusalCode(err) != exams.RefuseNotRegistered || !errors.Is(err, exams.ErrNotEligible) {
		t.Fatalf("withdraw ann again = %v; want %s", err, exams.RefuseNotRegistered)
	}
	if _, err := r.svc.Withdraw(ctx, s.ID, "nobody"); refusalCode(err) != exams.RefuseNotRegistered {
		t.Fatalf("withdraw of someone not registered = %v; want %s", err, exams.RefuseNotRegistered)
	}
	if _, err := r.svc.Withdraw(ctx, "no-such-schedule", "bob"); !errors.Is(err, exams.ErrNotFound) {
		t.Fatalf("withdraw from an unknown schedule = %v; want not found", err)
	}
	// Withdrawn, ann may come back, and go again.
	r.register(t, exams.RegisterRequest{ScheduleID: s.ID, Player: "ann"})
	if _, err := r.svc.Withdraw(ctx, s.ID, "ann"); err != nil {
		t.Fatalf("withdraw after registering again: %v", err)
	}
	regs, err := r.store.Registrations(ctx, exams.SessionID(s.ID, firing))
	if err != nil || len(regs) != 3 {
		t.Fatalf("registrations after ann withdrew = %+v, %v; want bob, cat, dan", regs, err)
	}

	// The session opens (clock still before the firing, as when a
	// replica opens it right at the firing): it is paired without ann.
	if err := r.svc.Tick(ctx, firing); err != nil {
		t.Fatal(err)
	}
	sess, err := r.store.Session(ctx, exams.SessionID(s.ID, firing))
	if err != nil || !sess.Paired || slices.Contains(sess.Candidates, "ann") || len(sess.Candidates) != 3 {
		t.Fatalf("session = %+v, %v; want bob, cat and dan paired", sess, err)
	}
	if _, err := r.svc.Withdraw(ctx, s.ID, "bob"); refusalCode(err) != exams.RefuseClosed {
		t.Fatalf("withdraw after the pairing = %v; want %s", err, exams.RefuseClosed)
	}
	r.setTime(firing.Add(time.Minute))
	if _, err := r.svc.Withdraw(ctx, s.ID, "cat"); refusalCode(err) != exams.RefuseClosed {
		t.Fatalf("withdraw after the firing = %v; want %s", err, exams.RefuseClosed)
	}
	if regs, err := r.store.Registrations(ctx, sess.ID); err != nil || len(regs) != 3 {
		t.Fatalf("registrations after refused withdrawals = %+v, %v; want all three standing", regs, err)
	}
}
