package web

import (
	"strings"
	"testing"

	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

// TestPlacementReasonTranslated: the rule's reason is written again in
// the page's language from its numbers (the English catalogue gives
// back the stored sentence); a reason the strict pattern does not
// match, one of a person, or one that does not describe its entry is
// shown as stored.
func TestPlacementReasonTranslated(t *testing.T) {
	const stored = "placed after 15 placement games: Glicko-2 1533 (RD 109) suggests 33 (1k); the ceiling is 499 (4d)"
	const zh = "下完 15 盘定级赛后定级：Glicko-2 等级分 1533（偏差 109）对应积分 33（1级）；上限为 499（4段）"
	ev := make([]string, 15)
	entry := rating.LedgerEntry{Cause: rating.CausePlacement, Actor: rating.PlacementActor, Reason: stored, Evidence: ev,
		Glicko: rating.Glicko{Rating: 1533.2, RD: 108.9, Volatility: 0.06}}
	zhPage := &page{c: &ctx{lang: "zh"}}
	enPage := &page{c: &ctx{lang: "en"}}
	if got := zhPage.Reason(entry); got != zh {
		t.Errorf("zh: %q, want %q", got, zh)
	}
	if got := enPage.Reason(entry); got != stored {
		t.Errorf("en: %q, want the stored %q", got, stored)
	}
	if got := zhPage.Reason(schools.RankChange{Cause: entry.Cause, Actor: entry.Actor, Reason: stored}); got != zh {
		t.Errorf("a class's change, zh: %q", got)
	}
	person := entry
	person.Actor = "root"
	other := entry
	other.Evidence = ev[:3]
	longer := entry
	longer.Reason = stored + " and more"
	odd := entry
	odd.Reason = strings.Replace(stored, "(1k)", "(1x)", 1)
	for what, e := range map[string]rating.LedgerEntry{"a person's": person, "another entry's": other, "a longer": longer, "an odd rank's": odd} {
		if got := zhPage.Reason(e); got != e.Reason {
			t.Errorf("%s reason: %q, want it as stored", what, got)
		}
	}
}
