package intake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
)

// BoundHash is what a rated game's ledger entries bind (rating's
// LedgerEntry.GameHash): the content hash and the verdict as stored (the
// winner, margin, end, move count and result the players see), so that
// editing any of it in the stored game is reported by verification
// (issue 11). A game not judged has none.
func BoundHash(g StoredGame) string {
	if g.Record == nil || g.Verdict == nil {
		return ""
	}
	return boundHash(g, ContentHash(g.Black, g.White, g.Rated, g.Record, *g.Verdict))
}

// boundHash is BoundHash with the game's content hash already taken.
func boundHash(g StoredGame, content string) string {
	v := g.Verdict
	b, err := json.Marshal(struct {
		Content      string  `json:"content"`
		Winner       string  `json:"winner"`
		Margin       float64 `json:"margin"`
		End          string  `json:"end"`
		Moves        int     `json:"moves"`
		Result       string  `json:"result"`
		RecordResult string  `json:"record_result"`
		Black, White string
		Rated        bool
	}{content, v.Winner.String(), v.Margin, string(v.End), v.Moves, v.Result, g.Record.Result,
		g.Black, g.White, g.Rated})
	if err != nil {
		panic("intake: hashing a stored game: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// BoundHashOf is BoundHash of the stored game with the id as it is now; ""
// when no such game is stored. Verification compares it with the ledger's.
func (in *Intake) BoundHashOf(ctx context.Context, id string) (string, error) {
	g, err := in.store.Game(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return BoundHash(g), nil
}
