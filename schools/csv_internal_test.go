package schools

import (
	"maps"
	"slices"
	"testing"

	"github.com/weiqi-platform/rank/exams"
)

// Both CSV catalogues have the same keys, so an English export never
// prints a key where the Chinese one prints a text.
func TestCSVCatalogueKeys(t *testing.T) {
	en, zh := slices.Sorted(maps.Keys(catalogue[LangEN])), slices.Sorted(maps.Keys(catalogue[LangZH]))
	if !slices.Equal(en, zh) {
		t.Errorf("CSV catalogues differ:\nen %v\nzh %v", en, zh)
	}
}

// Every exam result state reads as a text in both languages, never as its
// key, and "certified" is not the column's header.
func TestCSVResultStates(t *testing.T) {
	states := []string{exams.ResultFailed, exams.ResultPassed, exams.ResultAwaiting, exams.ResultApproved, exams.ResultRejected, exams.ResultCertified}
	for _, lang := range []string{LangEN, LangZH} {
		for _, st := range states {
			got := stateText(lang, st)
			if _, ok := catalogue[lang][st]; !ok && st != exams.ResultCertified {
				t.Errorf("%s: state %q has no text", lang, st)
			}
			if got == "" || got == text(lang, "certified") {
				t.Errorf("%s: state %q reads %q", lang, st, got)
			}
		}
	}
	if got := stateText(LangEN, exams.ResultAwaiting); got != "awaiting approval" {
		t.Errorf("en awaiting_approval reads %q", got)
	}
}
