package api_test

import (
	"testing"
	"time"
)

// A player withdraws their own registration, a teacher their student's,
// before the pairing; afterwards the withdrawal is refused, coded.
func TestExamWithdrawal(t *testing.T) {
	w := newExamWorld(t, false)
	path := "/api/v1/exams/" + w.schedule + "/registrations"
	reg := func(token string, body any) req { return req{method: "POST", path: path, token: token, body: body} }
	withdraw := func(token, player string) req {
		p := path
		if player != "" {
			p += "?player=" + player
		}
		return req{method: "DELETE", path: p, token: token}
	}
	reason := func(out *resp) any { return out.errDetails()["reason_code"] }

	w.audit.clock.Set(examFiring.Add(-48 * time.Hour))
	for _, p := range []string{"ann", "bob", "cat"} {
		w.expect(reg(w.tok[p], map[string]any{}), 201, "")
	}
	w.expect(reg(w.teacher, map[string]any{"player": "dan"}), 201, "")

	if out := w.expect(withdraw(w.tok["eve"], ""), 422, "not_eligible"); reason(out) != "not_registered" {
		t.Fatalf("eve withdraws, not registered: %s", out.Body)
	}
	w.expect(withdraw(w.tok["ann"], ""), 204, "")
	if out := w.expect(withdraw(w.tok["ann"], ""), 422, "not_eligible"); reason(out) != "not_registered" {
		t.Fatalf("ann withdraws twice: %s", out.Body)
	}
	// The wrong callers: a player for another, a teacher for a player not
	// theirs, an admin (not a role that registers), another schedule.
	w.expect(withdraw(w.tok["ann"], "bob"), 403, "forbidden")
	w.expect(withdraw(w.teacher, "bob"), 403, "not_your_student")
	w.expect(withdraw(w.admin, ""), 403, "")
	w.expect(req{method: "DELETE", path: "/api/v1/exams/nope/registrations", token: w.tok["bob"]}, 404, "not_found")
	if out := w.expect(req{method: "DELETE", path: "/api/v1/exams/nope/registrations?player=no%20one", token: w.tok["bob"]}, 400, "invalid_parameter"); out.errDetails()["parameter"] != "player" {
		t.Errorf("a malformed ?player=: %s", out.Body)
	}
	w.expect(withdraw(w.teacher, "dan"), 204, "")

	// The session opens without ann and dan; after that, bob stays.
	w.audit.clock.Set(examFiring)
	w.runJob(w.admin, "exams", "open-1")
	sess := w.sessions()[0].(map[string]any)
	if n := len(sess["standings"].([]any)); n != 2 {
		t.Fatalf("session after two withdrawals has %d candidates, want 2 (bob, cat): %v", n, sess)
	}
	if out := w.expect(withdraw(w.tok["bob"], ""), 422, "not_eligible"); reason(out) != "registration_closed" {
		t.Fatalf("bob withdraws after the pairing: %s", out.Body)
	}
}
