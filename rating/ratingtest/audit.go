package ratingtest

import (
	"fmt"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// The contract of the audit trail's part of rating.Store.

func changeRoundTrip(t *testing.T, s rating.Store) {
	delta := -40
	o := rating.Operation{ID: "change:k1", Kind: rating.OpChange, Player: "alice", Actor: "root", At: t0,
		Change: &rating.Change{Cause: rating.CauseExam, CauseID: "s@t/alice", Delta: &delta, Certify: "1d", KeepHigher: true,
			Reason: "passed", Evidence: []string{"g1", "g2"}}}
	check(t, "CreateOp", must[rating.Operation](t)(s.CreateOp(ctx, o)), o)
	check(t, "Op", must[rating.Operation](t)(s.Op(ctx, "change:k1")), o)
	a := rating.Operation{ID: "annul:g1", Kind: rating.OpAnnul, Black: "alice", White: "bob", Winner: rating.SideBlack,
		Game: rating.Game{Moves: 80, Outcome: rating.Decisive}, Actor: "root", At: t0,
		Change: &rating.Change{Cause: rating.CauseAnnulment, CauseID: "g1", Reason: "cheating", Reverse: map[string]int{"alice": 5, "bob": -5}}}
	must[rating.Operation](t)(s.CreateOp(ctx, a))
	check(t, "annulment", must[rating.Operation](t)(s.Op(ctx, "annul:g1")), a)
	ops := must[[]rating.Operation](t)(s.Unfinished(ctx, 10))
	check(t, "unfinished changes", len(ops), 2)
}

func certifiedRoundTrip(t *testing.T, s rating.Store) {
	v0 := rating.NewPlayer("alice")
	if err := s.Commit(ctx, v0); err != nil {
		t.Fatal(err)
	}
	v1 := next(v0, "change:k", 0)
	v1.Certified = ranks.MustParse("2k")
	if err := s.Commit(ctx, v1); err != nil {
		t.Fatal(err)
	}
	check(t, "Player", must[rating.PlayerState](t)(s.Player(ctx, "alice")), v1)
	check(t, "Latest", must[rating.PlayerState](t)(s.Latest(ctx, "alice")), v1)
	e := entry("alice", 1, 0)
	e.Cause, e.CertifiedBefore, e.CertifiedAfter, e.Evidence = rating.CauseExam, "", "2k", []string{"g1", "g2"}
	e.Hash = e.ComputeHash()
	if err := s.AppendEntry(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendEntry(ctx, e); err != nil {
		t.Fatalf("the same entry again: %v", err)
	}
	check(t, "ledger", must[[]rating.LedgerEntry](t)(s.Ledger(ctx, "alice", 0, 5)), []rating.LedgerEntry{e})
}

// auditEntry is entry seq of user at t0 + minute minutes, of the cause.
func auditEntry(user string, seq int64, minute int, cause string) rating.LedgerEntry {
	e := entry(user, seq, 1)
	e.Cause, e.At = cause, t0.Add(time.Duration(minute)*time.Minute)
	e.Hash = e.ComputeHash()
	return e
}

func keys(es []rating.LedgerEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = fmt.Sprintf("%s#%d", e.Username, e.Seq)
	}
	return out
}

func auditFiltersAndPages(t *testing.T, s rating.Store) {
	for _, e := range []rating.LedgerEntry{
		auditEntry("alice", 1, 1, rating.CauseGame), auditEntry("bob", 1, 1, rating.CauseGame),
		auditEntry("alice", 2, 2, rating.CauseAdjustment), auditEntry("carol", 1, 3, rating.CauseExam),
		auditEntry("alice", 3, 3, rating.CauseGame), auditEntry("carol", 2, 3, rating.CauseGame),
	} {
		if err := s.AppendEntry(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	all := must[[]rating.LedgerEntry](t)(s.Audit(ctx, rating.AuditQuery{Limit: 10}))
	check(t, "newest first", keys(all), []string{"alice#3", "carol#2", "carol#1", "alice#2", "alice#1", "bob#1"})
	var paged []rating.LedgerEntry
	q := rating.AuditQuery{Limit: 2}
	for {
		page := must[[]rating.LedgerEntry](t)(s.Audit(ctx, q))
		paged = append(paged, page...)
		if len(page) < 2 {
			break
		}
		c := rating.CursorOf(page[len(page)-1])
		q.After = &c
	}
	check(t, "pages", keys(paged), keys(all))
	check(t, "alice", keys(must[[]rating.LedgerEntry](t)(s.Audit(ctx, rating.AuditQuery{Player: "alice", Limit: 10}))), []string{"alice#3", "alice#2", "alice#1"})
	check(t, "games", keys(must[[]rating.LedgerEntry](t)(s.Audit(ctx, rating.AuditQuery{Cause: rating.CauseGame, Limit: 10}))), []string{"alice#3", "carol#2", "alice#1", "bob#1"})
	check(t, "[minute 2, minute 3)", keys(must[[]rating.LedgerEntry](t)(s.Audit(ctx, rating.AuditQuery{From: t0.Add(2 * time.Minute), To: t0.Add(3 * time.Minute), Limit: 10}))), []string{"alice#2"})
	check(t, "alice's games from minute 2", keys(must[[]rating.LedgerEntry](t)(s.Audit(ctx, rating.AuditQuery{Player: "alice", Cause: rating.CauseGame, From: t0.Add(2 * time.Minute), Limit: 10}))), []string{"alice#3"})
	check(t, "one of everything", all[3], auditEntry("alice", 2, 2, rating.CauseAdjustment))
}

func eachInOrder(t *testing.T, s rating.Store) {
	for _, name := range []string{"carol", "alice", "bob"} {
		v0 := rating.NewPlayer(name)
		if err := s.Commit(ctx, v0); err != nil {
			t.Fatal(err)
		}
		for seq := int64(3); seq >= 1; seq-- {
			if err := s.AppendEntry(ctx, entry(name, seq, int(seq))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Commit(ctx, next(rating.NewPlayer("bob"), "g1", 5)); err != nil {
		t.Fatal(err)
	}
	var players, states, entries, ops []string
	if err := s.EachPlayer(ctx, func(st rating.PlayerState) error { players = append(players, st.Username); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.EachState(ctx, func(st rating.PlayerState) error {
		states = append(states, fmt.Sprintf("%s#%d", st.Username, st.Version))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.EachEntry(ctx, func(e rating.LedgerEntry) error {
		entries = append(entries, fmt.Sprintf("%s#%d", e.Username, e.Seq))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"g2", "g1"} {
		must[rating.Operation](t)(s.CreateOp(ctx, op(id)))
	}
	if err := s.EachOp(ctx, func(o rating.Operation) error { ops = append(ops, o.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	check(t, "players", players, []string{"alice", "bob", "carol"})
	check(t, "states", states, []string{"alice#0", "bob#0", "bob#1", "carol#0"})
	check(t, "entries", entries, []string{"alice#1", "alice#2", "alice#3", "bob#1", "bob#2", "bob#3", "carol#1", "carol#2", "carol#3"})
	check(t, "ops", ops, []string{"g1", "g2"})
	stop := fmt.Errorf("stop")
	if err := s.EachEntry(ctx, func(rating.LedgerEntry) error { return stop }); err != stop {
		t.Fatalf("EachEntry did not pass fn's error on: %v", err)
	}
}

func reportsNewestFirst(t *testing.T, s rating.Store) {
	r1 := rating.Report{ID: "verify@1", At: t0, Players: 2, Entries: 4, Games: 2, Mismatches: []rating.Mismatch{}}
	r2 := rating.Report{ID: "verify@2", At: t0.Add(time.Hour), Players: 2, Entries: 4, Games: 2,
		Mismatches: []rating.Mismatch{{Player: "alice", Seq: 3, Check: rating.CheckChain, Detail: "hash does not match its content"}}}
	for _, r := range []rating.Report{r1, r2, r1} {
		if err := s.SaveReport(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	check(t, "reports", must[[]rating.Report](t)(s.Reports(ctx, 5)), []rating.Report{r2, r1})
	check(t, "the newest", must[[]rating.Report](t)(s.Reports(ctx, 1)), []rating.Report{r2})
}
