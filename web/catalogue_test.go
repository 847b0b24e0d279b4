package web

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
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
	eachTemplate(t, func(path, text string) {
		for _, m := range templateKey.FindAllStringSubmatch(text, -1) {
			check(path, m[1])
		}
		for _, m := range dynamicKey.FindAllStringSubmatch(text, -1) {
			if !prefixes[m[1]] {
				t.Errorf("%s builds keys %q… that the catalogue has none of", path, m[1])
			}
		}
	})
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

// formInput is a form field of a template: an input, select or textarea
// and its name.
var formInput = regexp.MustCompile(`<(?:input|select|textarea)\b[^>]*\bname="([^"]+)"`)

// plumbing inputs hold nothing a reader typed or chose about the request:
// the CSRF token, where to go after, the language switch.
var plumbing = []string{"csrf", "next", "back", "lang"}

// TestEveryFieldHasAName: every field a page's form sends, and every
// field the domain errors of the pages' calls name, is in fieldNames
// (the list errorDetail reads), and each has a label in both catalogues.
func TestEveryFieldHasAName(t *testing.T) {
	for _, n := range fieldNames {
		for lang, cat := range catalogues {
			if _, ok := cat["field."+n]; !ok {
				t.Errorf("field %q has no label in %s", n, lang)
			}
		}
	}
	for k := range en {
		if n, ok := strings.CutPrefix(k, "rule."); ok && !slices.Contains(fieldNames, n) {
			t.Errorf("%s is for a field not in fieldNames", k)
		}
	}
	eachTemplate(t, func(path, text string) {
		for _, m := range formInput.FindAllStringSubmatch(text, -1) {
			if !slices.Contains(plumbing, m[1]) && !slices.Contains(fieldNames, m[1]) {
				t.Errorf("%s sends field %q, which is not in fieldNames", path, m[1])
			}
		}
	})
	for _, n := range domainFieldNames(t) {
		if !slices.Contains(fieldNames, n) {
			t.Errorf("a domain error the pages show names field %q, which is not in fieldNames", n)
		}
	}
}

// domainFieldNames are the fields the domain's own checks name for what
// the pages send them (the pages' tests reach the rest through the
// services: sort, by, names, reason, head_teachers, rank_range).
func domainFieldNames(t *testing.T) []string {
	t.Helper()
	var errs []error
	add := func(_ any, err error) { errs = append(errs, err) }
	add(players.NormalizeUsername("9lives"))
	add(players.NormalizeDisplayName(""))
	errs = append(errs, players.CheckPassword("alice", "x"))
	// The exam schedule form's fields, every one wrong: the error lists
	// them all.
	add(exams.Draft{TargetRank: "x", Cron: "", SessionLength: "x", RegistrationOpens: "x",
		GamesPerCandidate: new(0), WinsNeeded: new(0)}.Build(exams.Checks{}, "id", "root", time.Now()))
	// The play form's pool.
	blitz := games.TimeControl{Preset: "blitz"}
	add(matchmaking.NewPool(0, blitz, "chinese", true))
	add(matchmaking.NewPool(9, blitz, "no-such-rules", true))
	add(matchmaking.NewPool(9, games.TimeControl{Preset: "no-such-preset"}, "chinese", true))
	add(matchmaking.NewPool(9, games.TimeControl{}, "chinese", true))
	var out []string
	for _, err := range errs {
		var ve *exams.ValidationError
		if errors.As(err, &ve) {
			for _, f := range ve.Fields {
				out = append(out, f.Field)
			}
			continue
		}
		if f := api.ErrorField(err); f != "" {
			out = append(out, f)
		} else {
			t.Errorf("%v names no field", err)
		}
	}
	return out
}

// TestChineseErrorsNameTheField: on a Chinese page an error naming any
// field of fieldNames shows the field's rule (its numbers filled) or its
// label, never the API's name; English pages keep the API's message.
func TestChineseErrorsNameTheField(t *testing.T) {
	for _, n := range fieldNames {
		err := &schools.FieldError{Field: n, Reason: "is wrong"}
		got := errorDetail("zh", err, "msg")
		if got == "" || got == tr("zh", "detail.field", n) || strings.Contains(got, "field.") || strings.Contains(got, "%!") {
			t.Errorf("%s: %q", n, got)
		}
		if en := errorDetail("en", err, "msg"); en != "msg" {
			t.Errorf("%s in English: %q, want the API's message", n, en)
		}
	}
	for n, want := range map[string]string{
		"head_teachers":       "有问题的字段：校长（主管老师）。",
		"by":                  "有问题的字段：间隔。",
		"time_control.preset": "有问题的字段：用时。",
		"games_per_candidate": "每名考生的对局数为 1 至 " + strconv.Itoa(exams.MaxExamGames) + "。",
		"session_length":      "至多 " + strconv.Itoa(int(exams.MaxSessionLength/(24*time.Hour))) + " 天",
	} {
		if got := errorDetail("zh", &schools.FieldError{Field: n, Reason: "is wrong"}, "msg"); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", n, got, want)
		}
	}
}

// eachTemplate calls f with each page template's path and text.
func eachTemplate(t *testing.T, f func(path, text string)) {
	t.Helper()
	err := fs.WalkDir(templateFS, "templates", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(templateFS, path)
		if err != nil {
			return err
		}
		f(path, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
