package matchmaking

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
)

func TestPoolKeyRoundTrip(t *testing.T) {
	for _, size := range BoardSizes {
		for _, rules := range RulesPresets {
			for name := range games.TimePresets {
				for _, rated := range []bool{false, true} {
					p, err := NewPool(size, games.TimeControl{Preset: name}, rules, rated)
					if err != nil {
						t.Fatal(err)
					}
					back, err := ParsePool(p.Key())
					if err != nil || back != p {
						t.Fatalf("ParsePool(%q) = %+v, %v; want %+v", p.Key(), back, err, p)
					}
				}
			}
		}
	}
	if k := mustPool(t, 9, games.TimeControl{Main: 90 * time.Second}, "qq", false).Key(); k != "9/90+0x0/qq/u" {
		t.Fatalf("key = %q", k)
	}
	for _, bad := range []string{"", "19/600+3x30/chinese", "19/600+3x30/chinese/x", "15/600+3x30/chinese/r", "19/600/chinese/r", "19/600+3x30/go/r", "019/600+3x30/chinese/r", "19/600+3x30junk/chinese/r", "19/600++3x30/chinese/r"} {
		if _, err := ParsePool(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParsePool(%q) err = %v, want ErrInvalid", bad, err)
		}
	}
}

func mustPool(t *testing.T, size int, tc games.TimeControl, rules string, rated bool) Pool {
	t.Helper()
	p, err := NewPool(size, tc, rules, rated)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// FuzzParsePool: whatever ParsePool accepts prints back to the same key.
func FuzzParsePool(f *testing.F) {
	f.Add("19/600+3x30/chinese/r")
	f.Add("9/0+1x30/qq/u")
	f.Add("13/{x}/ing/r")
	f.Fuzz(func(t *testing.T, key string) {
		p, err := ParsePool(key)
		if err != nil {
			return
		}
		if p.Key() != key {
			t.Fatalf("ParsePool(%q).Key() = %q", key, p.Key())
		}
	})
}

func TestRequestValidate(t *testing.T) {
	base := Request{Player: "alice", Level: Level{Score: 120, Rating: 1600, RD: 90}, BoardSize: 19, TimeControl: games.TimeControl{Preset: "rapid"}, Rules: "chinese", Rated: true}
	pool, rng, err := base.validate()
	if err != nil || rng != AnyScore || pool.Key() != "19/600+3x30/chinese/r" {
		t.Fatalf("validate = %+v %+v %v", pool, rng, err)
	}
	for _, tc := range []struct {
		mod   func(*Request)
		field string
	}{
		{func(r *Request) { r.Player = "" }, "player"},
		{func(r *Request) { r.Player = string(make([]byte, 65)) }, "player"},
		{func(r *Request) { r.Level.Rating = math.NaN() }, "level"},
		{func(r *Request) { r.Level.RD = -1 }, "level"},
		{func(r *Request) { r.Level.Score = math.MaxInt32 }, "level.score"},
		{func(r *Request) { r.BoardSize = 21 }, "board_size"},
		{func(r *Request) { r.Rules = "Chinese" }, "rules"},
		{func(r *Request) { r.Range = &ScoreRange{Min: 200, Max: 100} }, "rank_range"},
		{func(r *Request) { r.Range = &ScoreRange{Min: -800, Max: 99} }, "rank_range"},
	} {
		r := base
		tc.mod(&r)
		var fe *FieldError
		if _, _, err := r.validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("validate err = %v, want a field error on %s", err, tc.field)
		}
	}
	r := base
	r.Range = &ScoreRange{Min: 100, Max: NoMax}
	if _, rng, err := r.validate(); err != nil || rng != *r.Range {
		t.Fatalf("open-ended range: %+v %v", rng, err)
	}
}

func TestTicketWaited(t *testing.T) {
	tk := Ticket{CreatedAt: t0, State: Waiting}
	if got := tk.Waited(t0.Add(time.Minute)); got != time.Minute {
		t.Errorf("waiting: %v", got)
	}
	if got := tk.Waited(t0.Add(-time.Second)); got != 0 {
		t.Errorf("clock behind: %v", got)
	}
	tk.State, tk.EndedAt = Matched, t0.Add(20*time.Second)
	if got := tk.Waited(t0.Add(time.Hour)); got != 20*time.Second {
		t.Errorf("matched: %v, want the wait until the match", got)
	}
}

// seq is a Rand that returns its values in turn.
type seq []int

func (s *seq) IntN(n int) int {
	v := (*s)[0]
	*s = (*s)[1:]
	return v % n
}

func TestNigiri(t *testing.T) {
	for _, tc := range []struct {
		stones, guess int // IntN results: stones-1, 1 for "odd"
		want          bool
	}{
		{0, 1, true},  // 1 stone, guessed odd
		{0, 0, false}, // 1 stone, guessed even
		{1, 0, true},  // 2 stones, guessed even
		{1, 1, false}, // 2 stones, guessed odd
	} {
		r := seq{tc.stones, tc.guess}
		if got := Nigiri(&r); got != tc.want {
			t.Errorf("Nigiri(%d stones, guess odd=%v) = %v, want %v", tc.stones+1, tc.guess == 1, got, tc.want)
		}
	}
	// Fair over many draws (a fixed seed: the count is deterministic).
	r := rand.New(rand.NewPCG(9, 9))
	black := 0
	for range 10000 {
		if Nigiri(r) {
			black++
		}
	}
	if black < 4800 || black > 5200 {
		t.Errorf("guesser took Black %d times in 10000", black)
	}
}
