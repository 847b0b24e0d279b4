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
	if _, ok := Preset("aga"); ok {
		t.Error("aga is not ours")
	}
}

func TestRulesetText(t *testing.T) {
	for _, s := range []string{
		"chinese", "japanese", "ing", "qq",
		"chinese ko=positional", "japanese komi=0.5 passes=4", "qq tie=W cycle=draw",
		"ing suicide=none overtime=1",
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
