package integrity_test

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/integrity"
)

// rates are what the detectors found in a simulated population.
type rates struct {
	planted, caught map[string]int // by kind of cheat
	honest, falsely int
	falseBy         map[string]int // test → honest players it flagged
}

func measure(t *testing.T, seed uint64) rates {
	t.Helper()
	w := simulate(seed)
	flags, err := integrity.Detect(integrity.Input{Games: w.games, Checks: w.checks}, integrity.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string][]integrity.Kind{}
	tests := map[string][]string{}
	for _, f := range flags {
		kinds[f.Player] = append(kinds[f.Player], f.Kind)
		tests[f.Player] = append(tests[f.Player], f.Test)
	}
	r := rates{planted: map[string]int{}, caught: map[string]int{}, falseBy: map[string]int{}}
	want := map[kind]integrity.Kind{farmer: integrity.Farming, sandbagger: integrity.Sandbagging, colluder: integrity.ExamCollusion}
	for _, p := range w.players {
		switch p.kind {
		case honest:
			r.honest++
			if len(kinds[p.name]) > 0 {
				r.falsely++
				for _, test := range tests[p.name] {
					r.falseBy[test]++
				}
			}
		case farmer, sandbagger, colluder:
			k := string(want[p.kind])
			r.planted[k]++
			if slices.Contains(kinds[p.name], want[p.kind]) {
				r.caught[k]++
			}
		}
	}
	return r
}

// seeds is how many simulated populations TestDetectionRates measures
// (go test ./integrity -run DetectionRates -v -args -seeds 8).
var seeds = flag.Int("seeds", 3, "simulated populations of TestDetectionRates (seeds 1…n)")

// TestDetectionRates: on the simulated population of sim_test.go (seeds
// 1, 2, 3 unless -seeds says otherwise), the detectors with the default
// thresholds flag at least 95% of the planted cheats of each kind and at
// most 1% of the honest players.
func TestDetectionRates(t *testing.T) {
	for seed := uint64(1); seed <= uint64(*seeds); seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := measure(t, seed)
			var b strings.Builder
			for _, k := range []integrity.Kind{integrity.Farming, integrity.Sandbagging, integrity.ExamCollusion} {
				got, of := r.caught[string(k)], r.planted[string(k)]
				fmt.Fprintf(&b, "%s %d/%d; ", k, got, of)
				if of == 0 || float64(got) < 0.95*float64(of) {
					t.Errorf("%s: %d of %d planted flagged, want at least 95%%", k, got, of)
				}
			}
			fmt.Fprintf(&b, "honest flagged %d/%d %v", r.falsely, r.honest, r.falseBy)
			t.Log(b.String())
			if r.honest < 1000 || float64(r.falsely) > 0.01*float64(r.honest) {
				t.Errorf("%d of %d honest players flagged (%v), want at most 1%%", r.falsely, r.honest, r.falseBy)
			}
		})
	}
}

// BenchmarkDetect: every detector over one simulated population (60 days
// of about 1,500 players: 85,000 games, 2,000 eligibility checks).
func BenchmarkDetect(b *testing.B) {
	w := simulate(1)
	in := integrity.Input{Games: w.games, Checks: w.checks}
	b.ReportAllocs()
	b.ReportMetric(float64(len(w.games)), "games")
	for b.Loop() {
		if _, err := integrity.Detect(in, integrity.Defaults()); err != nil {
			b.Fatal(err)
		}
	}
}
