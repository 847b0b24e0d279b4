package matchmaking

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// mapHistory is a History over a fixed map that counts whom it was asked
// about.
type mapHistory struct {
	met   Recent
	asked int
}

func (h *mapHistory) Met(context.Context, []Meeting, time.Duration) error { return nil }

func (h *mapHistory) Recent(_ context.Context, players []string, _ time.Time) (Recent, error) {
	h.asked += len(players)
	out := Recent{}
	for _, p := range players {
		if v := h.met[p]; len(v) > 0 {
			out[p] = v
		}
	}
	return out, nil
}

// TestLazyCooldownMatchesEager: asking only about paired players gives the
// same optimum as forbidding every recent meeting up front.
func TestLazyCooldownMatchesEager(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	p := DefaultPolicy()
	p.Lookback = maxLookback
	asked, players := 0, 0
	for iter := range 300 {
		cs, recent := randomPool(r, 2+r.IntN(11), false)
		// History keeps both sides of a meeting.
		sym := Recent{}
		for a, bs := range recent {
			for _, b := range bs {
				sym[a] = append(sym[a], b)
				sym[b] = append(sym[b], a)
			}
		}
		h := &mapHistory{met: sym}
		s := &Service{history: h, cfg: Config{Policy: p}}
		m := &Matcher{Policy: p}
		lazy, err := s.pairRespectingCooldown(context.Background(), m, cs, t0)
		if err != nil {
			t.Fatal(err)
		}
		ok := func(i, j int) bool { return p.Accepts(t0, cs[i], cs[j]) && !sym.Met(cs[i].Player, cs[j].Player) }
		got := checkPairs(t, cs, lazy, ok)
		if want := checkPairs(t, cs, p.Pair(t0, cs, sym), ok); got != want {
			t.Fatalf("pool %d: lazy %+v, eager %+v", iter, got, want)
		}
		asked += h.asked
		players += len(cs)
	}
	if asked >= players {
		t.Errorf("asked about %d of %d players: no saving", asked, players)
	}
}
