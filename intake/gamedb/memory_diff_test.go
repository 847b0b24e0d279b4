package gamedb_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/gamedb"
	"github.com/weiqi-platform/rank/intake/intaketest"
	"github.com/weiqi-platform/rank/internal/testsvc"
)

// diffSeeds is how many random sequences run: enough to cross every
// pair of calls, few enough to cost seconds, not minutes, on FerretDB.
const diffSeeds = 3

func kind(err error) string {
	for _, e := range []error{intake.ErrNotFound, intake.ErrSourceTaken, intake.ErrNotPending} {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	if err != nil {
		return "other: " + err.Error()
	}
	return "nil"
}

// TestMemoryAnswersAsGamedb runs the same random sequences of calls on
// gamedb and on intaketest.Memory and wants the same answers, call by call:
// the contract suite checks named properties, this keeps the rest of the
// two in step. Known difference, avoided here: gamedb marks a game
// (pending or unrated) before inserting it, so a Create refused for a
// taken source_id under a new id leaves a mark that ExpirePending counts
// and Finished orders by; Memory leaves nothing. Intake never makes one
// (a pending game's source_id is its id; a submission's id is fresh).
func TestMemoryAnswersAsGamedb(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(diffSeeds) {
		db, err := gamedb.New(ctx, testsvc.Mongo(t))
		if err != nil {
			t.Fatal(err)
		}
		mem := intaketest.NewMemory()
		r := rand.New(rand.NewPCG(seed, 1))
		t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		players := []string{"a", "b", "c", "d"}
		for step := range 150 {
			// gN are submitted games (source sgN), pN pending ones.
			id := fmt.Sprintf("g%d", r.IntN(12))
			src := fmt.Sprintf("s%d", r.IntN(12))
			p1, p2 := players[r.IntN(4)], players[r.IntN(4)]
			at := t0.Add(time.Duration(r.IntN(600)) * time.Second).Add(time.Duration(r.IntN(1000)) * time.Microsecond)
			var a, b any
			var what string
			switch r.IntN(9) {
			case 0:
				id = "p" + id[1:]
				g := intaketest.PendingGame(id, p1, p2, at, time.Duration(r.IntN(3)+1)*time.Minute)
				what = "CreatePending " + id
				a, b = kind(db.Create(ctx, g)), kind(mem.Create(ctx, g))
			case 1:
				src = "s" + id
				g := intaketest.Finished(id, src, p1, p2, at)
				what = "CreateFinished " + id + " " + src
				a, b = kind(db.Create(ctx, g)), kind(mem.Create(ctx, g))
			case 2:
				if r.IntN(3) > 0 {
					id = "p" + id[1:]
				}
				f := intaketest.Finished(id, id, p1, p2, at)
				f.Hash = fmt.Sprint("h", r.IntN(2))
				what = "Finish " + id
				a, b = kind(db.Finish(ctx, f)), kind(mem.Finish(ctx, f))
			case 3:
				if r.IntN(2) > 0 {
					id = "p" + id[1:]
				}
				what = "MarkRated " + id
				a, b = kind(db.MarkRated(ctx, id)), kind(mem.MarkRated(ctx, id))
			case 4:
				what = "Expire"
				n1, e1 := db.ExpirePending(ctx, at)
				n2, e2 := mem.ExpirePending(ctx, at)
				a, b = fmt.Sprint(n1, kind(e1)), fmt.Sprint(n2, kind(e2))
			case 5:
				if r.IntN(2) > 0 {
					id = "p" + id[1:]
				}
				what = "Game " + id
				g1, e1 := db.Game(ctx, id)
				g2, e2 := mem.Game(ctx, id)
				if e1 != nil || e2 != nil {
					a, b = kind(e1), kind(e2)
				} else {
					a, b = g1, g2
				}
			case 6:
				if r.IntN(2) > 0 {
					src = "s" + id
				} else if r.IntN(2) > 0 {
					src = "p" + id[1:]
				}
				what = "BySource " + src
				g1, e1 := db.BySource(ctx, src)
				g2, e2 := mem.BySource(ctx, src)
				if e1 != nil || e2 != nil {
					a, b = kind(e1), kind(e2)
				} else {
					a, b = g1, g2
				}
			case 7:
				what = "Finished"
				l1, e1 := db.Finished(ctx, 5)
				l2, e2 := mem.Finished(ctx, 5)
				a, b = []any{l1, kind(e1)}, []any{l2, kind(e2)}
			case 8:
				what = "Unfinished " + p1
				l1, e1 := db.Unfinished(ctx, p1)
				l2, e2 := mem.Unfinished(ctx, p1)
				a, b = fmt.Sprint(sorted(l1), kind(e1)), fmt.Sprint(sorted(l2), kind(e2))
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("seed %d step %d %s:\n gamedb %v\n memory %v", seed, step, what, a, b)
			}
		}
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
