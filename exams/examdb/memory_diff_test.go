package examdb_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/exams/examdb"
	"github.com/weiqi-platform/rank/exams/examtest"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/ranks"
)

// diffSeeds is how many random sequences run: enough to cross every pair
// of calls, few enough to cost seconds, not minutes, on FerretDB.
const diffSeeds = 3

func kind(err error) string {
	if err == nil {
		return "nil"
	}
	if errors.Is(err, exams.ErrNotFound) || errors.Is(err, exams.ErrConflict) {
		return strings.NewReplacer("examdb: ", "", "examtest: ", "").Replace(err.Error())
	}
	return "other: " + err.Error()
}

// TestMemoryAnswersAsExamdb runs the same random sequences of calls on
// examdb and on examtest.Memory and wants the same answers, call by call
// (errors compared by their text, without the adapter's name): the
// contract suite checks named properties, this keeps the rest of the two
// in step. States only move forward here, as the exam service moves
// them: examdb folds a move back to a state already left for ever.
func TestMemoryAnswersAsExamdb(t *testing.T) {
	ctx := context.Background()
	states := []string{exams.SessionPairing, exams.SessionOpen, exams.SessionGrading, exams.SessionGraded, exams.SessionMissed}
	rstates := []string{exams.ResultFailed, exams.ResultPassed, exams.ResultAwaiting, exams.ResultApproved, exams.ResultRejected, exams.ResultCertified}
	for seed := range uint64(diffSeeds) {
		db, err := examdb.Open(ctx, testsvc.Mongo(t))
		if err != nil {
			t.Fatal(err)
		}
		var a, b exams.Store = db, examtest.NewMemory()
		r := rand.New(rand.NewPCG(seed, 3))
		for step := range 200 {
			sid := fmt.Sprintf("s@%d", r.IntN(4))
			sch := fmt.Sprint("sch", r.IntN(2))
			p := []string{"ann", "bob", "cat"}[r.IntN(3)]
			at := examtest.T0.Add(time.Duration(r.IntN(100)) * time.Minute).Add(time.Duration(r.IntN(1e6)) * time.Nanosecond)
			i := r.IntN(len(states) - 1)
			from, to := states[i], states[i+1+r.IntN(len(states)-1-i)]
			j := r.IntN(len(rstates) - 1)
			rfrom, rto := rstates[j], rstates[j+1+r.IntN(len(rstates)-1-j)]
			var x, y []any
			var what string
			switch r.IntN(12) {
			case 0:
				s := exams.Session{ID: sid, ScheduleID: sch, At: at, Deadline: at.Add(time.Hour), Target: ranks.MustParse("1d"),
					WinsNeeded: 2, Games: 3, State: "not stored", Candidates: []string{"not stored"}}
				what = "CreateSession " + sid
				s1, e1 := a.CreateSession(ctx, s)
				s2, e2 := b.CreateSession(ctx, s)
				x, y = []any{s1, kind(e1)}, []any{s2, kind(e2)}
			case 1:
				what = "Session " + sid
				s1, e1 := a.Session(ctx, sid)
				s2, e2 := b.Session(ctx, sid)
				x, y = []any{s1, kind(e1)}, []any{s2, kind(e2)}
			case 2:
				var gs []exams.Game
				for k := range r.IntN(3) {
					gs = append(gs, exams.Game{ID: fmt.Sprintf("%s#%d", sid, k+1), Black: p, White: "zed", BoardSize: 19,
						Rules: "chinese", Deadline: at, Rated: true})
				}
				var short map[string]int
				if r.IntN(2) == 0 {
					short = map[string]int{p: 1}
				} else if r.IntN(2) == 0 {
					short = map[string]int{}
				}
				var cands []string
				if r.IntN(2) == 0 {
					cands = []string{p}
				}
				what = "SetPairing " + sid
				s1, e1 := a.SetPairing(ctx, sid, cands, nil, gs, short)
				s2, e2 := b.SetPairing(ctx, sid, cands, nil, gs, short)
				x, y = []any{s1, kind(e1)}, []any{s2, kind(e2)}
			case 3:
				what = "MoveSession " + sid + " " + from + ">" + to
				s1, e1 := a.MoveSession(ctx, sid, from, to, at)
				s2, e2 := b.MoveSession(ctx, sid, from, to, at)
				x, y = []any{s1, kind(e1)}, []any{s2, kind(e2)}
			case 4:
				k := r.IntN(3) - 1
				st := exams.Settlement{Kind: exams.SettledPlayed, Winner: p}
				what = fmt.Sprintf("SettleGame %s %d", sid, k)
				s1, e1 := a.SettleGame(ctx, sid, k, st)
				s2, e2 := b.SettleGame(ctx, sid, k, st)
				x, y = []any{s1, kind(e1)}, []any{s2, kind(e2)}
			case 5:
				res := exams.Result{ID: sid + "/" + p, SessionID: sid, ScheduleID: sch, Player: p, Target: ranks.MustParse("2k"),
					State: rstates[r.IntN(3)], GradedAt: at}
				if r.IntN(2) == 0 {
					res.Evidence = []string{sid + "#1"}
				}
				what = "AddResult " + res.ID
				r1, e1 := a.AddResult(ctx, res)
				r2, e2 := b.AddResult(ctx, res)
				x, y = []any{r1, kind(e1)}, []any{r2, kind(e2)}
			case 6:
				by := []string{"", "root"}[r.IntN(2)]
				what = "MoveResult " + sid + "/" + p + " " + rfrom + ">" + rto
				r1, e1 := a.MoveResult(ctx, sid+"/"+p, rfrom, rto, by, "why", at)
				r2, e2 := b.MoveResult(ctx, sid+"/"+p, rfrom, rto, by, "why", at)
				x, y = []any{r1, kind(e1)}, []any{r2, kind(e2)}
			case 7:
				what = "Sessions " + sch
				l1, e1 := a.Sessions(ctx, sch)
				l2, e2 := b.Sessions(ctx, sch)
				x, y = []any{l1, kind(e1)}, []any{l2, kind(e2)}
			case 8:
				what = "SessionsDue"
				l1, e1 := a.SessionsDue(ctx, at)
				l2, e2 := b.SessionsDue(ctx, at)
				x, y = []any{l1, kind(e1)}, []any{l2, kind(e2)}
			case 9:
				what = "Results " + sid
				l1, e1 := a.Results(ctx, sid)
				l2, e2 := b.Results(ctx, sid)
				x, y = []any{l1, kind(e1)}, []any{l2, kind(e2)}
			case 10:
				st := rstates[r.IntN(len(rstates))]
				what = "ResultsInState " + st
				l1, e1 := a.ResultsInState(ctx, st)
				l2, e2 := b.ResultsInState(ctx, st)
				x, y = []any{l1, kind(e1)}, []any{l2, kind(e2)}
			case 11:
				reg := exams.Registration{ID: sid + "/" + p, ScheduleID: sch, SessionID: sid, SessionAt: at, Player: p, Role: exams.RoleCandidate, At: at}
				what = "AddRegistration " + reg.ID
				r1, c1, e1 := a.AddRegistration(ctx, reg)
				r2, c2, e2 := b.AddRegistration(ctx, reg)
				l1, e3 := a.Registrations(ctx, sid)
				l2, e4 := b.Registrations(ctx, sid)
				x, y = []any{r1, c1, kind(e1), l1, kind(e3)}, []any{r2, c2, kind(e2), l2, kind(e4)}
			}
			if !reflect.DeepEqual(x, y) {
				t.Fatalf("seed %d step %d %s:\n examdb %+v\n memory %+v", seed, step, what, x, y)
			}
		}
	}
}
