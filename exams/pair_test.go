package exams_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/weiqi-platform/rank/exams"
)

// checkPairing asserts what every pairing must give: real and distinct
// opponents, each candidate's games = games − short, examiners within
// capacity, Black and White within one of each other for everyone.
func checkPairing(t *testing.T, cands, exms []exams.Entrant, games int, p exams.Pairing) {
	t.Helper()
	role := map[string]string{}
	capacity := map[string]int{}
	for _, c := range cands {
		role[c.Player] = "candidate"
	}
	for _, e := range exms {
		if role[e.Player] == "" {
			role[e.Player] = "examiner"
			capacity[e.Player] = e.Capacity
		}
	}
	black, white := map[string]int{}, map[string]int{}
	met := map[[2]string]bool{}
	for _, g := range p.Games {
		if role[g.Black] == "" || role[g.White] == "" || g.Black == g.White {
			t.Fatalf("game %+v: unknown player or self-play", g)
		}
		if role[g.Black] == "examiner" && role[g.White] == "examiner" {
			t.Fatalf("game %+v between two examiners", g)
		}
		k := [2]string{min(g.Black, g.White), max(g.Black, g.White)}
		if met[k] {
			t.Fatalf("%s and %s meet twice", k[0], k[1])
		}
		met[k] = true
		black[g.Black]++
		white[g.White]++
	}
	for name, r := range role {
		n := black[name] + white[name]
		if d := black[name] - white[name]; d > 1 || d < -1 {
			t.Errorf("%s plays Black %d times and White %d times", name, black[name], white[name])
		}
		switch r {
		case "candidate":
			if n+p.Short[name] != games {
				t.Errorf("%s plays %d games, short %d; want %d in all", name, n, p.Short[name], games)
			}
		case "examiner":
			if n > capacity[name] {
				t.Errorf("examiner %s plays %d games, capacity %d", name, n, capacity[name])
			}
		}
	}
}

// spaced returns n candidates c0… with scores from top down by step.
func spaced(n, top, step int) []exams.Entrant {
	out := make([]exams.Entrant, n)
	for i := range out {
		out[i] = exams.Entrant{Player: fmt.Sprintf("c%d", i), Score: top - i*step}
	}
	return out
}

func examiners(n, score, capacity int) []exams.Entrant {
	out := make([]exams.Entrant, n)
	for i := range out {
		out[i] = exams.Entrant{Player: fmt.Sprintf("x%d", i), Score: score + 10*i, Capacity: capacity}
	}
	return out
}

func maxGap(cands, exms []exams.Entrant, p exams.Pairing) int {
	score := map[string]int{}
	for _, e := range append(append([]exams.Entrant{}, cands...), exms...) {
		score[e.Player] = e.Score
	}
	worst := 0
	for _, g := range p.Games {
		worst = max(worst, abs(score[g.Black]-score[g.White]))
	}
	return worst
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestPairEntrants(t *testing.T) {
	for _, tc := range []struct {
		name         string
		cands, exms  []exams.Entrant
		games        int
		short        map[string]int // nil: nobody short
		maxGap       int            // 0: not checked
		examinerGame int            // games with an examiner; -1: not checked
	}{
		{name: "seven close candidates, six games: everyone meets everyone", cands: spaced(7, 150, 10), games: 6, examinerGame: 0},
		{name: "seven spread candidates, two games: nearest only, ends too", cands: spaced(7, 400, 100), games: 2, maxGap: 200, examinerGame: 0},
		{name: "nine candidates, four games, within two ranks", cands: spaced(9, 300, 50), games: 4, maxGap: 200, examinerGame: 0},
		{name: "odd count and odd games: an examiner makes it even", cands: spaced(5, 150, 20), exms: examiners(1, 200, 3), games: 3, examinerGame: 1},
		{name: "odd count and odd games without examiners: one short", cands: spaced(5, 150, 20), games: 3, short: map[string]int{"c4": 1}, examinerGame: 0},
		{name: "a lone candidate plays the examiners", cands: spaced(1, 150, 0), exms: examiners(6, 200, 1), games: 6, examinerGame: 6},
		{name: "too few people: short by what is missing", cands: spaced(3, 150, 10), exms: examiners(2, 200, 6), games: 6,
			short: map[string]int{"c0": 2, "c1": 2, "c2": 2}, examinerGame: 6},
		{name: "examiner before a far candidate", cands: []exams.Entrant{{Player: "a", Score: 150}, {Player: "far", Score: -300}},
			exms: examiners(1, 180, 1), games: 1, short: map[string]int{"far": 1}, examinerGame: 1, maxGap: 30},
		{name: "far candidates meet when no one else is left", cands: []exams.Entrant{{Player: "a", Score: 150}, {Player: "far", Score: -300}}, games: 1, examinerGame: 0},
		{name: "no candidates", exms: examiners(2, 200, 6), games: 6, examinerGame: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := exams.PairEntrants(tc.cands, tc.exms, tc.games)
			checkPairing(t, tc.cands, tc.exms, tc.games, p)
			if !reflect.DeepEqual(p.Short, tc.short) {
				t.Errorf("short = %v, want %v", p.Short, tc.short)
			}
			if g := maxGap(tc.cands, tc.exms, p); tc.maxGap > 0 && g > tc.maxGap {
				t.Errorf("widest gap %d, want at most %d; games %v", g, tc.maxGap, p.Games)
			}
			if tc.examinerGame >= 0 {
				n := 0
				for _, g := range p.Games {
					if g.Black[0] == 'x' || g.White[0] == 'x' {
						n++
					}
				}
				if n != tc.examinerGame {
					t.Errorf("%d games with examiners, want %d", n, tc.examinerGame)
				}
			}
		})
	}
}

// Two groups far apart each play among themselves.
func TestPairEntrantsKeepsLevelsApart(t *testing.T) {
	cands := append(spaced(4, 130, 10), spaced(4, 530, 10)...)
	for i := 4; i < 8; i++ {
		cands[i].Player = fmt.Sprintf("d%d", i)
	}
	p := exams.PairEntrants(cands, nil, 3)
	checkPairing(t, cands, nil, 3, p)
	for _, g := range p.Games {
		if g.Black[0] != g.White[0] {
			t.Fatalf("%s (one group) plays %s (the other, 400 points away)", g.Black, g.White)
		}
	}
}

func TestPairEntrantsIsDeterministic(t *testing.T) {
	cands := spaced(11, 300, 37)
	exms := examiners(3, 250, 4)
	want := exams.PairEntrants(cands, exms, 5)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		c := append([]exams.Entrant{}, cands...)
		r.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
		if got := exams.PairEntrants(c, exms, 5); !reflect.DeepEqual(got, want) {
			t.Fatalf("shuffled entrants give another pairing:\n%v\nwant\n%v", got, want)
		}
	}
}

// Random sessions: the invariants always hold, and with enough candidates
// (n > games, n·games even) nobody is short even without examiners.
func TestPairEntrantsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for trial := range 400 {
		n, games := 1+r.IntN(24), 1+r.IntN(8)
		cands := make([]exams.Entrant, n)
		for i := range cands {
			cands[i] = exams.Entrant{Player: fmt.Sprintf("c%02d", i), Score: -200 + r.IntN(600)}
		}
		exms := examiners(r.IntN(4), 300, 1+r.IntN(games))
		p := exams.PairEntrants(cands, exms, games)
		checkPairing(t, cands, exms, games, p)
		if len(exms) == 0 && n > games && n*games%2 == 0 && p.Short != nil {
			t.Fatalf("trial %d: %d candidates, %d games: short %v", trial, n, games, p.Short)
		}
	}
}

func BenchmarkPairEntrants(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	cands := make([]exams.Entrant, 100)
	for i := range cands {
		cands[i] = exams.Entrant{Player: fmt.Sprintf("c%03d", i), Score: -300 + r.IntN(700)}
	}
	exms := examiners(10, 400, 6)
	b.ReportAllocs()
	for b.Loop() {
		exams.PairEntrants(cands, exms, 6)
	}
}
