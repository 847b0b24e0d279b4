package ratingdb_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

// diffSeeds is how many random sequences run: enough to cross every
// pair of calls, few enough to cost seconds, not minutes, on FerretDB.
const diffSeeds = 3

func kind(err error) string {
	for _, e := range []error{rating.ErrNotFound, rating.ErrHeld, rating.ErrVersionTaken, rating.ErrLedgerConflict} {
		if errors.Is(err, e) {
			return err.Error()
		}
	}
	if err != nil {
		return "other: " + strings.NewReplacer("ratingdb: ", "", "ratingtest: ", "").Replace(err.Error())
	}
	return "nil"
}

// TestMemoryAnswersAsRatingdb runs the same random sequences of calls on
// ratingdb and on ratingtest.Memory and wants the same answers, call by
// call (errors compared by their text, without the adapter's name): the
// contract suite checks named properties, this keeps the rest of the two
// in step.
func TestMemoryAnswersAsRatingdb(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(diffSeeds) {
		db, err := ratingdb.New(ctx, testsvc.Mongo(t))
		if err != nil {
			t.Fatal(err)
		}
		var a, b rating.BatchStore = db, ratingtest.NewMemory()
		r := rand.New(rand.NewPCG(seed, 2))
		t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		users := []string{"ann", "bob", "cid"}
		for step := range 200 {
			u := users[r.IntN(3)]
			id := fmt.Sprintf("g%d", r.IntN(6))
			v := int64(r.IntN(4))
			at := t0.Add(time.Duration(r.IntN(100)) * time.Second).Add(time.Duration(r.IntN(1e6)) * time.Nanosecond)
			var x, y any
			var what string
			st := func() rating.PlayerState {
				p := rating.NewPlayer(u)
				p.Version, p.Op, p.Score, p.Seq, p.UpdatedAt = v, fmt.Sprint("g", r.IntN(2)), r.IntN(200)-100, v, at
				return p
			}
			en := func() rating.LedgerEntry {
				e := rating.LedgerEntry{Username: u, Seq: v + 1, Cause: rating.Causes[r.IntN(3)], CauseID: id, Delta: r.IntN(3), At: at}
				if r.IntN(2) == 0 {
					e.Evidence = []string{}
				}
				e.Hash = e.ComputeHash()
				return e
			}
			switch r.IntN(14) {
			case 0:
				o := rating.Operation{ID: id, Black: u, White: "zed", Game: rating.Game{Moves: r.IntN(9)}, At: at}
				what = "CreateOp " + id
				o1, e1 := a.CreateOp(ctx, o)
				o2, e2 := b.CreateOp(ctx, o)
				x, y = []any{o1, kind(e1)}, []any{o2, kind(e2)}
			case 1:
				what = "Op " + id
				o1, e1 := a.Op(ctx, id)
				o2, e2 := b.Op(ctx, id)
				x, y = []any{o1, kind(e1)}, []any{o2, kind(e2)}
			case 2:
				p := rating.Plan{Steps: []rating.Step{{Before: st(), After: st(), Entry: en()}}}
				what = "SetPlan " + id
				p1, e1 := a.SetPlan(ctx, id, p)
				p2, e2 := b.SetPlan(ctx, id, p)
				x, y = []any{p1, kind(e1)}, []any{p2, kind(e2)}
			case 3:
				what = "FinishOp " + id
				txt := fmt.Sprint(r.IntN(2))
				x, y = kind(a.FinishOp(ctx, id, txt)), kind(b.FinishOp(ctx, id, txt))
			case 4:
				what = "Unfinished"
				l1, e1 := a.Unfinished(ctx, 3)
				l2, e2 := b.Unfinished(ctx, 3)
				x, y = []any{l1, kind(e1)}, []any{l2, kind(e2)}
			case 5:
				what = "Hold"
				op := fmt.Sprint("g", r.IntN(3))
				x, y = kind(a.Hold(ctx, u, v, op)), kind(b.Hold(ctx, u, v, op))
			case 6, 7:
				s := st()
				what = fmt.Sprintf("Commit %s#%d by %s", u, v, s.Op)
				x, y = kind(a.Commit(ctx, s)), kind(b.Commit(ctx, s))
			case 8:
				what = "Player " + u
				p1, e1 := a.Player(ctx, u)
				p2, e2 := b.Player(ctx, u)
				x, y = []any{p1, kind(e1)}, []any{p2, kind(e2)}
			case 9:
				what = "Latest " + u
				p1, e1 := a.Latest(ctx, u)
				p2, e2 := b.Latest(ctx, u)
				x, y = []any{p1, kind(e1)}, []any{p2, kind(e2)}
			case 10:
				e := en()
				what = "AppendEntry"
				x, y = kind(a.AppendEntry(ctx, e)), kind(b.AppendEntry(ctx, e))
			case 11:
				what = "Ledger " + u
				l1, e1 := a.Ledger(ctx, u, v, 2)
				l2, e2 := b.Ledger(ctx, u, v, 2)
				x, y = []any{len(l1), l1, kind(e1)}, []any{len(l2), l2, kind(e2)}
				if len(l1) == 0 && len(l2) == 0 {
					x, y = kind(e1), kind(e2)
				}
			case 12:
				what = "Leaderboard"
				lo := r.IntN(100) - 50
				q := rating.LeaderQuery{MinScore: &lo, Limit: 2}
				if r.IntN(2) == 0 {
					q.After = &rating.LeaderCursor{Score: r.IntN(100) - 50, Username: u}
				}
				l1, e1 := a.Leaderboard(ctx, q)
				l2, e2 := b.Leaderboard(ctx, q)
				x, y = []any{l1, kind(e1)}, []any{l2, kind(e2)}
			case 13:
				what = "Audit"
				q := rating.AuditQuery{Limit: 3, From: at.Add(-30 * time.Second)}
				if r.IntN(2) == 0 {
					q.After = &rating.AuditCursor{At: at, Username: u, Seq: v}
				}
				if r.IntN(2) == 0 {
					q.Player = u
				}
				l1, e1 := a.Audit(ctx, q)
				l2, e2 := b.Audit(ctx, q)
				x, y = []any{l1, kind(e1)}, []any{l2, kind(e2)}
			}
			if !reflect.DeepEqual(x, y) {
				t.Fatalf("seed %d step %d %s:\n ratingdb %+v\n memory   %+v", seed, step, what, x, y)
			}
		}
	}
}
