package games

import (
	"errors"
	"testing"
)

func TestRulesetPresets(t *testing.T) {
	tests := []struct {
		name string
		want Ruleset
	}{
		{"chinese", Ruleset{Ko: KoSituational, Scoring: ScoringArea, Komi: 7.5, PassesToEnd: 2, HandicapCompensation: 1, WarningPenalty: 2, WarningsToLose: 2}},
		{"Japanese", Ruleset{Ko: KoSimple, Scoring: ScoringTerritory, Komi: 6.5, PassesToEnd: 2}},
		{"korean", Japanese()},
		{"ING", Ruleset{Ko: KoSituational, MultiStoneSuicide: true, Scoring: ScoringArea, Komi: 8, PassesToEnd: 2, HandicapCompensation: 1, TieWinner: Black, OvertimePenalty: 2}},
		{"qq", Ruleset{Ko: KoSimple, Scoring: ScoringArea, Komi: 7.5, PassesToEnd: 6, HandicapCompensation: 1}},
		{"AGA", Ruleset{Ko: KoSituational, Scoring: ScoringArea, Komi: 7.5, HandicapKomi: 0.5, PassesToEnd: 2, HandicapCompensation: 1, UncompensatedStones: 1}},
		{"New Zealand rules", Ruleset{Ko: KoPositional, MultiStoneSuicide: true, Scoring: ScoringArea, Komi: 7, PassesToEnd: 2}},
		{"tromp-taylor", NZ()},
		{"Chinese_Rules", Chinese()},
	}
	for _, tc := range tests {
		got, ok := Preset(tc.name)
		if !ok || got != tc.want {
			t.Errorf("%s: %+v", tc.name, got)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if _, ok := Preset("tibetan"); ok {
		t.Error("tibetan is not ours")
	}
	// The compensation of each: Chinese and Ing one point per stone, AGA
	// one per stone after the first, Japanese and NZ none.
	for _, tc := range []struct {
		r    Ruleset
		ha   int
		want float64
	}{{Chinese(), 4, 4}, {Ing(), 3, 3}, {AGA(), 4, 3}, {AGA(), 1, 0}, {Japanese(), 4, 0}, {NZ(), 4, 0}, {Chinese(), 1, 0}} {
		if got := compensation(tc.r, tc.ha); got != tc.want {
			t.Errorf("%v with %d stones: compensation %v, want %v", tc.r, tc.ha, got, tc.want)
		}
	}
	if DefaultKomi(AGA(), 3) != 0.5 || DefaultKomi(Chinese(), 3) != 0 || DefaultKomi(NZ(), 0) != 7 {
		t.Error("default komi")
	}
	// Written before AGA and NZ existed, a ruleset keeps its text (the
	// content hash of stored games depends on it).
	if s := (Ruleset{Ko: KoPositional, MultiStoneSuicide: true, Scoring: ScoringArea, Komi: 7.5, PassesToEnd: 2, HandicapCompensation: 1}).String(); s != "qq ko=positional suicide=multi passes=2" {
		t.Errorf("near NZ: %q", s)
	}
}

func TestRulesetText(t *testing.T) {
	for _, s := range []string{
		"chinese", "japanese", "ing", "qq",
		"chinese ko=positional", "japanese komi=0.5 passes=4", "qq tie=W cycle=draw",
		"ing suicide=none overtime=1", "aga", "nz", "chinese uncompensated=1 handicapkomi=0.5",
	} {
		r, err := ParseRuleset(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if r.String() != s {
			t.Errorf("%q reads back as %q", s, r.String())
		}
		back, err := ParseRuleset(r.String())
		if err != nil || back != r {
			t.Errorf("%q: round trip %+v %v", s, back, err)
		}
	}
	// Written from the nearest preset: this is Japanese with two changes.
	r, err := ParseRuleset("chinese scoring=territory compensation=0 warning=0 warnings=0 ko=simple komi=6.5 ko=situational")
	if err != nil || r.String() != "japanese ko=situational" {
		t.Errorf("nearest preset: %q %v", r.String(), err)
	}
	r, err = ParseRuleset("ko=simple, scoring=territory; passes=2")
	if err != nil || r.Ko != KoSimple || r.Scoring != ScoringTerritory || r.Komi != 7.5 {
		t.Errorf("parameters on top of Chinese: %+v %v", r, err)
	}
	for _, bad := range []string{"", "chess", "chinese ko=sideways", "chinese komi=x", "chinese komi=7.3", "chinese passes=0", "chinese colour=red", "chinese tie=x", "chinese ko"} {
		if _, err := ParseRuleset(bad); !errors.Is(err, ErrInvalidRecord) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
