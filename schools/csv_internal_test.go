package schools

import (
	"encoding/csv"
	"maps"
	"slices"
	"strings"
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

// A child's name a teacher typed, an opponent's display name or a class
// name that starts like a formula reaches the spreadsheet as text, in
// every CSV a school downloads; numbers (a negative change) stay numbers.
func TestCSVCellsAreNoFormulas(t *testing.T) {
	evil := "=HYPERLINK(\"http://x\",\"点我\")"
	var b strings.Builder
	tb := Table{TimeZone: "Asia/Shanghai", Scale: "chinese", Rows: []Row{{Username: "kid1", Name: evil, Classes: []string{"@c1"}, Change: -12,
		LastGame: &LastGame{Opponent: "+x", Result: "win"}}}}
	if err := WriteTableCSV(&b, tb, LangZH); err != nil {
		t.Fatal(err)
	}
	if err := WriteProgressCSV(&b, Progress{Scale: "chinese", Series: []Series{{Username: "kid1", Name: evil, Points: []Point{{Date: "2026-12-01"}}}}}, LangEN); err != nil {
		t.Fatal(err)
	}
	if err := WriteNewStudentsCSV(&b, []NewStudent{{Name: evil, Username: "kid1", Password: "pw"}}, LangEN); err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(strings.NewReader(strings.ReplaceAll(b.String(), BOM, "")))
	r.FieldsPerRecord = -1 // three files of different widths
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, rec := range recs {
		for _, cell := range rec {
			if cell != "" && strings.ContainsRune("=+@", rune(cell[0])) {
				t.Errorf("a cell a spreadsheet reads as a formula: %q", cell)
			}
			if cell == "'"+evil {
				cells++
			}
		}
		if slices.Contains(rec, "-12") {
			cells++
		}
	}
	if cells != 4 {
		t.Errorf("found the name as text %d times and the change as a number, want 3 and 1 (4 in all): %q", cells, recs)
	}
}
