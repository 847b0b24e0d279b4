package rating_test

import (
	"fmt"
	"testing"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

// history makes a store with games, an adjustment, a certification and
// an annulment, and returns the service.
func history(t *testing.T) *rating.Service {
	t.Helper()
	svc := rating.NewService(newStore(t), rating.ServiceConfig{Now: fixedClock})
	for _, g := range []rating.GameInput{
		game("g1", "alice", "bob", rating.SideBlack), game("g2", "bob", "carol", rating.SideWhite),
		game("g3", "carol", "alice", rating.SideNone), game("g4", "alice", "carol", rating.SideWhite),
	} {
		if _, err := svc.Apply(bg, g); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []rating.ChangeInput{
		{Key: "a1", Player: "bob", Cause: rating.CauseAdjustment, Delta: intp(-30), Reason: "sandbagging", Actor: "root"},
		{Key: "x1", Player: "alice", Cause: rating.CauseExam, CauseID: "s/alice", Certify: ranks.MustParse("1k"), Reason: "passed", Actor: "system:exams"},
	} {
		if _, err := svc.Change(bg, c); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Annul(bg, rating.AnnulInput{GameID: "g2", Actor: "root", Reason: "wrong result"}); err != nil {
		t.Fatal(err)
	}
	return svc
}

// TestReportsAreKept: a report saved under the job's firing key once.
func TestReportsAreKept(t *testing.T) {
	svc := history(t)
	for _, id := range []string{"verify@0", "verify@1", "verify@0"} {
		if _, err := svc.VerifyAndKeep(bg, id); err != nil {
			t.Fatal(err)
		}
	}
	got, err := svc.Reports(bg, 10)
	if err != nil || len(got) != 2 || !got[0].OK() {
		t.Fatalf("reports %+v, %v", got, err)
	}
}

// benchGames is the store the audit benchmarks read: 400 games among 40
// players, and an adjustment each (1,200 ledger entries).
func benchGames(b *testing.B) *rating.Service {
	b.Helper()
	s, err := ratingdb.New(bg, testsvc.Mongo(b))
	if err != nil {
		b.Fatal(err)
	}
	svc := rating.NewService(s, rating.ServiceConfig{})
	for i := range 400 {
		if _, err := svc.Apply(bg, game(fmt.Sprint("b", i), fmt.Sprint("p", i%40), fmt.Sprint("p", (i+1+i/40)%40), rating.SideBlack)); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 40 {
		if _, err := svc.Change(bg, rating.ChangeInput{Key: fmt.Sprint("a", i), Player: fmt.Sprint("p", i), Cause: rating.CauseAdjustment,
			Delta: intp(1), Reason: "bench", Actor: "root"}); err != nil {
			b.Fatal(err)
		}
	}
	return svc
}

// BenchmarkVerifyAll: the whole verification of that store (the nightly
// job's work).
func BenchmarkVerifyAll(b *testing.B) {
	svc := benchGames(b)
	b.ReportAllocs()
	for b.Loop() {
		rep, err := svc.VerifyAll(bg, "bench")
		if err != nil || !rep.OK() || rep.Entries != 840 {
			b.Fatalf("%+v, %v", rep, err)
		}
	}
}

// BenchmarkAuditPage: the first page (50) of the audit trail, and of one
// player's, on that store.
func BenchmarkAuditPage(b *testing.B) {
	svc := benchGames(b)
	for _, q := range []struct {
		name string
		q    rating.AuditQuery
	}{{"all", rating.AuditQuery{Limit: 50}}, {"player", rating.AuditQuery{Player: "p7", Limit: 50}}} {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if es, err := svc.Audit(bg, q.q); err != nil || len(es) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}
