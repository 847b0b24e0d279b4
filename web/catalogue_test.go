package web

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/rating"
)

// TestCataloguesHaveTheSameKeys: every key of one language is in the
// other, and no text is empty.
func TestCataloguesHaveTheSameKeys(t *testing.T) {
	for lang, cat := range catalogues {
		for other, oc := range catalogues {
			for k := range cat {
				if _, ok := oc[k]; !ok {
					t.Errorf("key %q is in %s but not in %s", k, lang, other)
				}
			}
		}
		for k, v := range cat {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: key %q is empty", lang, k)
			}
			if strings.Count(v, "%") != strings.Count(catalogues["en"][k], "%") {
				t.Errorf("%s: key %q has other placeholders than English", lang, k)
			}
		}
	}
}

var (
	templateKey = regexp.MustCompile(`\.T "([^"]+)"`)
	// dynamicKey is a key built in a template: (print "prefix." .Field).
	dynamicKey = regexp.MustCompile(`\(print "([a-z_]+\.)"`)
	goKey      = regexp.MustCompile(`"([a-z_]+\.[a-z_0-9]+)"`)
)

// TestEveryUsedKeyExists: the keys the templates and the Go code name are
// in the catalogue, and the families of keys built from values (causes,
// statuses, results, presets) have every value.
func TestEveryUsedKeyExists(t *testing.T) {
	prefixes := map[string]bool{}
	for k := range en {
		prefixes[k[:strings.IndexByte(k, '.')+1]] = true
	}
	check := func(where, key string) {
		if _, ok := en[key]; !ok {
			t.Errorf("%s uses key %q, which is not in the catalogue", where, key)
		}
	}
	err := fs.WalkDir(templateFS, "templates", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templateFS, path)
		if err != nil {
			return err
		}
		for _, m := range templateKey.FindAllStringSubmatch(string(b), -1) {
			check(path, m[1])
		}
		for _, m := range dynamicKey.FindAllStringSubmatch(string(b), -1) {
			if !prefixes[m[1]] {
				t.Errorf("%s builds keys %q… that the catalogue has none of", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "catalogue.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range goKey.FindAllStringSubmatch(string(b), -1) {
			if prefixes[m[1][:strings.IndexByte(m[1], '.')+1]] {
				check(f, m[1])
			}
		}
	}
	families := map[string][]string{
		"cause.":         {rating.CauseGame, rating.CauseExam, rating.CausePlacement, rating.CauseAdjustment, rating.CauseAnnulment, rating.CauseRevocation},
		"result.":        {rating.ResultWin, rating.ResultLoss, rating.ResultDraw},
		"status.":        statuses(),
		"ticket.":        {string(matchmaking.Waiting), string(matchmaking.Matched), string(matchmaking.Cancelled), string(matchmaking.Expired), "none"},
		"rules.":         matchmaking.RulesPresets,
		"time.":          games.PresetNames(),
		"colour.":        {"black", "white"},
		"refusal.":       {exams.RefuseNotOpen, exams.RefuseBelowMinRank, exams.RefuseAlreadyCertified, exams.RefuseExaminerTooLow, exams.RefuseRole, exams.RefuseRegisteredAs, exams.RefuseNotRegistered, exams.RefuseClosed},
		"promotion.":     promotionStates,
		"role.":          {"player", "teacher", "admin", "server"},
		"cause. (audit)": causes,
		"exam.session.":  {exams.SessionPairing, exams.SessionOpen, exams.SessionGrading, exams.SessionGraded, exams.SessionMissed},
		"exam.result.":   {exams.ResultFailed, exams.ResultPassed, exams.ResultAwaiting, exams.ResultApproved, exams.ResultRejected, exams.ResultCertified},
		"exam.settled.":  {exams.SettledPlayed, exams.SettledDraw, exams.SettledVoid, exams.SettledForfeit},
		"job.":           {"done", "already_done", "running_elsewhere", "failed"},
		"err.":           api.Codes(),
		"auditcsv.":      auditCSVColumns,
	}
	for prefix, values := range families {
		for _, v := range slices.Sorted(slices.Values(values)) {
			check("family "+prefix, strings.Fields(prefix)[0]+v)
		}
	}
}

func statuses() []string {
	var out []string
	for _, s := range intake.Statuses {
		out = append(out, string(s))
	}
	return out
}
