package games

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestRandomRecordIsLegal: random games judge to the result they claim,
// in both endings, and the same seed gives the same game.
func TestRandomRecordIsLegal(t *testing.T) {
	for seed := range uint64(20) {
		for _, counted := range []bool{false, true} {
			r := RandomRecord(rand.New(rand.NewPCG(seed, 1)), 9, 60, counted)
			v, err := Judge(r)
			if err != nil {
				t.Fatalf("seed %d counted %v: %v", seed, counted, err)
			}
			if v.Result != r.Result || v.Moves != len(r.Moves) || len(r.Moves) == 0 {
				t.Fatalf("seed %d: judged %s in %d moves, record says %s in %d", seed, v.Result, v.Moves, r.Result, len(r.Moves))
			}
			if counted != (r.End == EndScore) && r.End != EndScore {
				t.Fatalf("seed %d: end %s, counted %v", seed, r.End, counted)
			}
			again := RandomRecord(rand.New(rand.NewPCG(seed, 1)), 9, 60, counted)
			if !reflect.DeepEqual(r, again) {
				t.Fatalf("seed %d: not reproducible", seed)
			}
		}
	}
}
