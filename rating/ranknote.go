package rating

import (
	"fmt"
	"math"
)

// RankNote is the one sentence a profile shows under a player's numbers,
// in Chinese ("zh") or English (any other lang): which level is the rank
// (the ladder rank, moved by rated games), which is certified (set only
// by a passed exam or an audited placement), and what the Glicko-2
// rating is for (pairing and placement; it moves no rank by itself), with
// the player's own numbers.
func RankNote(p PlayerState, lang string) string {
	r, rd := math.Round(p.Glicko.Rating), math.Round(p.Glicko.RD)
	unsettled := !p.Settled()
	if lang == "zh" {
		rank := p.Rank().Chinese()
		if unsettled {
			rank += "？"
		}
		cert := "尚无认证段位（只由通过的升段考试或经审核的定级授予）"
		if !p.Certified.IsZero() {
			cert = fmt.Sprintf("认证段位%s只由通过的升段考试或经审核的定级授予", p.Certified.Chinese())
		}
		return fmt.Sprintf("段位指天梯段位%s，随每盘计分对局升降；%s；Glicko-2 等级分 %.0f ± %.0f 衡量棋力，用于配对与定级，本身不改变段位。", rank, cert, r, rd)
	}
	rank := p.Rank().String()
	if unsettled {
		rank += "?"
	}
	cert := "there is no certified rank yet (only a passed promotion exam or an audited placement sets one)"
	if !p.Certified.IsZero() {
		cert = fmt.Sprintf("the certified rank %s is set only by a passed promotion exam or an audited placement", p.Certified)
	}
	return fmt.Sprintf("The rank is the ladder rank %s, moved by every rated game; %s; the Glicko-2 rating %.0f ± %.0f measures playing strength for pairing and placement and changes no rank by itself.", rank, cert, r, rd)
}
