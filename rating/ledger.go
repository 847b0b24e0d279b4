package rating

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// Causes of a ledger entry. Only CauseGame is written so far; the others
// are the audit trail's (exams, placements, adjustments, annulments).
const (
	CauseGame = "game"
)

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
}

// ComputeHash is sha256(canonical entry ‖ previous hash) in hex. The
// canonical entry is the JSON of every field but Hash, in field order,
// with the time in UTC to the millisecond.
func (e LedgerEntry) ComputeHash() string {
	c := e
	c.Hash = ""
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
	Seq      int64 // the entry at fault; 0 for the head
	Reason   string
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("ledger of %s, entry %d: %s", e.Username, e.Seq, e.Reason)
}

// VerifyChain checks a player's whole ledger, oldest first, against the
// state's head: sequence numbers 1…n without gaps, each hash right and
// linked to the one before, each entry starting from the score the one
// before ended at (the first from the placement), the last one's hash and
// sequence equal to the head, and the score equal to the placement plus
// every delta.
func VerifyChain(st PlayerState, entries []LedgerEntry) error {
	prev, score := "", st.Placement
	for i, e := range entries {
		want := int64(i + 1)
		switch {
		case e.Seq != want:
			return &ChainError{st.Username, e.Seq, fmt.Sprintf("sequence %d where %d was due", e.Seq, want)}
		case e.Username != st.Username:
			return &ChainError{st.Username, e.Seq, "belongs to " + e.Username}
		case e.Prev != prev:
			return &ChainError{st.Username, e.Seq, "does not link to the entry before"}
		case e.ComputeHash() != e.Hash:
			return &ChainError{st.Username, e.Seq, "hash does not match its content"}
		case e.ScoreBefore != score:
			return &ChainError{st.Username, e.Seq, fmt.Sprintf("starts from score %d, the entry before ended at %d", e.ScoreBefore, score)}
		case e.ScoreBefore+e.Delta != e.ScoreAfter:
			return &ChainError{st.Username, e.Seq, fmt.Sprintf("%d%+d is not %d", e.ScoreBefore, e.Delta, e.ScoreAfter)}
		}
		prev, score = e.Hash, e.ScoreAfter
	}
	switch {
	case st.Seq != int64(len(entries)):
		return &ChainError{st.Username, 0, fmt.Sprintf("head is entry %d, the ledger has %d", st.Seq, len(entries))}
	case st.Head != prev:
		return &ChainError{st.Username, 0, "head hash is not the last entry's"}
	case st.Score != score:
		return &ChainError{st.Username, 0, fmt.Sprintf("score %d is not placement %d plus the ledger (%d)", st.Score, st.Placement, score)}
	}
	return nil
}
