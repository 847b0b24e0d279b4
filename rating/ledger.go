package rating

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/ranks"
)

// Causes of a ledger entry: every change of a ladder score, a ladder rank
// or a certified rank has one (platform.md flow 6).
const (
	CauseGame       = "game"       // a rated game (CauseID: the game)
	CauseExam       = "exam"       // a passed promotion exam (CauseID: the exam result)
	CausePlacement  = "placement"  // an admin placed the player: a ladder rank or a certified rank
	CauseAdjustment = "adjustment" // an admin moved the ladder score
	CauseAnnulment  = "annulment"  // a game's deltas reversed (CauseID: the game)
	CauseRevocation = "revocation" // an admin revoked the certified rank
)

// Causes lists every cause, for filters and documentation.
var Causes = []string{CauseGame, CauseExam, CausePlacement, CauseAdjustment, CauseAnnulment, CauseRevocation}

// LedgerEntry is one change of a player's rating: the player's next
// sequence number, the cause and its id, who caused it, the score and
// rank before and after, the Glicko-2 rating after, the reason and the
// time. Hash chains it to the previous entry (Prev), so editing or
// deleting any entry is detected by VerifyChain.
type LedgerEntry struct {
	Username    string    `json:"username"`
	Seq         int64     `json:"seq"` // 1, 2, … per player
	Cause       string    `json:"cause"`
	CauseID     string    `json:"cause_id"` // the game id for CauseGame
	SourceID    string    `json:"source_id,omitempty"`
	Actor       string    `json:"actor,omitempty"` // the account that caused it
	Opponent    string    `json:"opponent,omitempty"`
	ScoreBefore int       `json:"score_before"`
	ScoreAfter  int       `json:"score_after"`
	RankBefore  string    `json:"rank_before"`
	RankAfter   string    `json:"rank_after"`
	Delta       int       `json:"delta"`
	Glicko      Glicko    `json:"glicko"` // after
	Reason      string    `json:"reason,omitempty"`
	At          time.Time `json:"at"`
	Prev        string    `json:"prev"` // the previous entry's hash; "" for the first
	Hash        string    `json:"hash"`
	// The certified rank before and after ("" for none), on entries
	// that may change it (exam, placement, revocation), and the evidence
	// (an exam's game ids). Empty fields are left out of the canonical
	// form, so the hashes of entries written before these fields existed
	// do not change.
	CertifiedBefore string   `json:"certified_before,omitempty"`
	CertifiedAfter  string   `json:"certified_after,omitempty"`
	Evidence        []string `json:"evidence,omitempty"`
	// Result is, on a game's entry, how the game went for this player
	// (ResultWin, ResultLoss, ResultDraw): a zero delta may be a draw or
	// a win that gains nothing. Left out of the canonical form when
	// empty, like the fields above; entries written before it have none.
	Result string `json:"result,omitempty"`
	// GameHash is, on a game's entry, the content hash of the stored game
	// it rates (intake's), so an edited stored game is found by
	// verification; entries written before it have none.
	GameHash string `json:"game_hash,omitempty"`
	// MAC authenticates the entry with the audit key, which the database
	// does not hold (see audit_key.go): HMAC-SHA256 of its Hash. Not part
	// of the hash; empty on an entry written without a key.
	MAC string `json:"mac,omitempty"`
}

// Results of a game for one player (LedgerEntry.Result).
const (
	ResultWin  = "win"
	ResultLoss = "loss"
	ResultDraw = "draw"
)

// ComputeHash is sha256(canonical entry ‖ previous hash) in hex. The
// canonical entry is the JSON of every field but Hash, in field order,
// with the time in UTC to the millisecond.
func (e LedgerEntry) ComputeHash() string {
	c := e
	c.Hash, c.MAC = "", ""
	c.At = c.At.UTC().Truncate(time.Millisecond)
	b, err := json.Marshal(c)
	if err != nil {
		panic("rating: ledger entry does not marshal: " + err.Error()) // plain values only
	}
	h := sha256.New()
	h.Write(b)
	h.Write([]byte(e.Prev))
	return hex.EncodeToString(h.Sum(nil))
}

// ChainError says where a ledger fails verification.
type ChainError struct {
	Username string
	Seq      int64  // the entry at fault; 0 for the head
	Check    string // CheckChain, CheckScore or CheckCertified
	Reason   string
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("ledger of %s, entry %d: %s", e.Username, e.Seq, e.Reason)
}

// VerifyChain checks a player's whole ledger, oldest first, against the
// state's head, and returns the first fault (see ChainFaults).
func VerifyChain(st PlayerState, entries []LedgerEntry) error {
	if faults := ChainFaults(st, entries); len(faults) > 0 {
		return faults[0]
	}
	return nil
}

// ChainFaults checks a player's whole ledger, oldest first, against the
// state's head and returns every fault found: sequence numbers 1…n
// without gaps, each hash right and linked to the one before, each entry
// starting from the score and certified rank the one before ended at (the
// first from the placement and no certified rank), the last one's hash
// and sequence equal to the head, and the score and certified rank equal
// to the placement plus every delta and the last certified rank. After a
// fault it goes on from the faulty entry as written, so one edit is
// reported once, not at every entry after it.
func ChainFaults(st PlayerState, entries []LedgerEntry) []*ChainError {
	var out []*ChainError
	fault := func(seq int64, check, format string, args ...any) {
		out = append(out, &ChainError{st.Username, seq, check, fmt.Sprintf(format, args...)})
	}
	prev, score, certified := "", st.Placement, ""
	want := int64(1)
	for _, e := range entries {
		switch {
		case e.Seq > want:
			fault(e.Seq, CheckChain, "entries %d to %d are missing", want, e.Seq-1)
		case e.Seq < want:
			fault(e.Seq, CheckChain, "sequence %d where %d was due", e.Seq, want)
		}
		if e.Username != st.Username {
			fault(e.Seq, CheckChain, "belongs to %s", e.Username)
		}
		if e.Seq == want && e.Prev != prev {
			fault(e.Seq, CheckChain, "does not link to the entry before")
		}
		if e.ComputeHash() != e.Hash {
			fault(e.Seq, CheckChain, "hash does not match its content")
		}
		if e.ScoreBefore != score {
			fault(e.Seq, CheckScore, "starts from score %d, the entry before ended at %d", e.ScoreBefore, score)
		}
		if e.ScoreBefore+e.Delta != e.ScoreAfter {
			fault(e.Seq, CheckScore, "%d%+d is not %d", e.ScoreBefore, e.Delta, e.ScoreAfter)
		}
		if e.CertifiedBefore != certified && (e.CertifiedBefore != "" || e.CertifiedAfter != "") {
			fault(e.Seq, CheckCertified, "starts from certified rank %q, the entry before ended at %q", e.CertifiedBefore, certified)
		}
		if e.CertifiedBefore != "" || e.CertifiedAfter != "" {
			certified = e.CertifiedAfter
		}
		prev, score, want = e.Hash, e.ScoreAfter, e.Seq+1
	}
	n := want - 1
	switch {
	case st.Seq != n:
		fault(0, CheckChain, "head is entry %d, the ledger ends at %d", st.Seq, n)
	case st.Head != prev:
		fault(0, CheckChain, "head hash is not the last entry's")
	}
	if st.Score != score {
		fault(0, CheckScore, "score %d is not placement %d plus the ledger (%d)", st.Score, st.Placement, score)
	}
	if got := rankText(st.Certified); got != certified {
		fault(0, CheckCertified, "certified rank %q is not the ledger's last (%q)", got, certified)
	}
	return out
}

// rankText is a rank as the ledger writes it: "" for none.
func rankText(r ranks.Rank) string {
	if r.IsZero() {
		return ""
	}
	return r.String()
}
