package web

import (
	"math"
	"regexp"
	"strconv"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

// placementReasonRE is exactly the English reason rating's placement
// rule writes (placementEntry); a text it does not match is shown as it
// is, never half translated.
var placementReasonRE = regexp.MustCompile(`^placed after (\d{1,4}) placement games: Glicko-2 (-?\d{1,5}) \(RD (\d{1,4})\) suggests (-?\d{1,5}) \((\d{1,2}[kd])\); the ceiling is (-?\d{1,5}) \((\d{1,2}[kd])\)$`)

// placementReason is what a placement's reason says, as numbers.
type placementReason struct {
	games, rating, rd, suggested, ceiling int
	suggestedRank, ceilingRank            string
}

func parsePlacementReason(s string) (placementReason, bool) {
	m := placementReasonRE.FindStringSubmatch(s)
	if m == nil {
		return placementReason{}, false
	}
	n := make([]int, 0, 5)
	for _, i := range []int{1, 2, 3, 4, 6} {
		v, err := strconv.Atoi(m[i])
		if err != nil {
			return placementReason{}, false
		}
		n = append(n, v)
	}
	for _, r := range []string{m[5], m[7]} {
		if _, err := ranks.Parse(r); err != nil {
			return placementReason{}, false
		}
	}
	return placementReason{games: n[0], rating: n[1], rd: n[2], suggested: n[3], ceiling: n[4], suggestedRank: m[5], ceilingRank: m[7]}, true
}

// Reason is a ledger entry's reason (a rating.LedgerEntry or a class's
// schools.RankChange) in the page's language. People's reasons are shown
// as they wrote them; the placement rule's (actor
// rating.PlacementActor) is an English sentence the system wrote from
// numbers, so those numbers are written again in the page's language.
// The stored reason never changes: it is hashed in the audit chain.
func (p *page) Reason(v any) string {
	switch e := v.(type) {
	case rating.LedgerEntry:
		return reasonText(p.c.lang, e.Cause, e.Actor, e.Reason, agreesWith(e))
	case schools.RankChange:
		return reasonText(p.c.lang, e.Cause, e.Actor, e.Reason, nil)
	}
	return ""
}

// agreesWith checks a parsed reason against what its entry keeps (its
// evidence, its Glicko-2 and the suggestion the rule takes from it), so
// a reason that does not describe its entry is shown as stored.
func agreesWith(e rating.LedgerEntry) func(placementReason) bool {
	return func(r placementReason) bool {
		if len(e.Evidence) > 0 && r.games != len(e.Evidence) {
			return false
		}
		if e.Glicko.RD > 0 {
			if r.rating != int(math.Round(e.Glicko.Rating)) || r.rd != int(math.Round(e.Glicko.RD)) {
				return false
			}
			if s, err := rating.Suggest(e.Glicko); err == nil && (s.Score != r.suggested || s.Rank.String() != r.suggestedRank) {
				return false
			}
		}
		return true
	}
}

// reasonText is reason in lang; check, when not nil, confirms a parsed
// placement reason against its entry.
func reasonText(lang, cause, actor, reason string, check func(placementReason) bool) string {
	if cause != rating.CausePlacement || actor != rating.PlacementActor {
		return reason
	}
	r, ok := parsePlacementReason(reason)
	if !ok || check != nil && !check(r) {
		return reason
	}
	return tr(lang, "reason.placement", r.games, r.rating, r.rd, r.suggested, rankText(lang, r.suggestedRank), r.ceiling, rankText(lang, r.ceilingRank))
}
