package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestScoreEstimateDead(t *testing.T) {
	// The file marks af dead; the engine finds the same stone alone.
	code, out, _ := runCmd("score", "--json", "--estimate-dead", golden+"dead-stones.sgf")
	var s scoreJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != exitOK {
		t.Fatalf("exit %d %v: %s", code, err, out)
	}
	if !slices.Equal(s.Dead, []string{"af"}) || s.Result != "W+29.5" || s.Agrees == nil || !*s.Agrees {
		t.Errorf("estimate on dead-stones.sgf: %s", out)
	}
	// The proposal ignores the file's marks: with none there, the same.
	code, out, _ = runCmd("score", "--json", "--estimate-dead", "--playouts", "200", "--seed", "7", golden+"seki-chinese.sgf")
	s = scoreJSON{}
	if err := json.Unmarshal([]byte(out), &s); err != nil || code != exitOK {
		t.Fatalf("exit %d %v: %s", code, err, out)
	}
	if len(s.Dead) != 0 || s.Result != "W+26" {
		t.Errorf("estimate on seki-chinese.sgf: the seki stones must live: %s", out)
	}
	code, out, _ = runCmd("score", "--estimate-dead", golden+"dead-stones.sgf")
	if code != exitOK || !strings.HasPrefix(out, "W+29.5\n") || !strings.Contains(out, "dead 1") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	// An illegal record is reported as without the flag.
	if code, out, _ := runCmd("score", "--estimate-dead", golden+"superko-chinese.sgf"); code != exitNo || !strings.Contains(out, "superko") {
		t.Errorf("illegal record: exit %d %s", code, out)
	}
	if code, _, errOut := runCmd("score", "--estimate-dead", "--dead", "af", golden+"dead-stones.sgf"); code != exitUsage || !strings.Contains(errOut, "exclude") {
		t.Errorf("--dead with --estimate-dead: exit %d %s", code, errOut)
	}
}
