package rating

import (
	"context"
	"crypto/hmac"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"
)

// A Checkpoint is every player's ledger head at a moment, signed with the
// audit key (issue 11): kept outside the database (GET
// /api/v1/audit/checkpoints, the checkpoint file), it shows a rollback of
// the whole store to an earlier consistent state, which each entry's MAC
// cannot (the earlier entries are genuine).
type Checkpoint struct {
	At    time.Time       `json:"at"`
	Heads map[string]Head `json:"heads"`
	// MAC is HMAC-SHA256 with the audit key of the checkpoint without it;
	// empty when the service has no key (then it proves nothing).
	MAC string `json:"mac,omitempty"`
}

// Head is one player's ledger head: the last entry's sequence and hash.
type Head struct {
	Seq  int64  `json:"seq"`
	Hash string `json:"hash"`
}

// CheckRollback is the check that the ledger still holds what a checkpoint
// saw.
const CheckRollback = "rollback"

func (c Checkpoint) signed(key []byte) string {
	if len(key) == 0 {
		return ""
	}
	c.MAC = ""
	b, err := json.Marshal(c) // map keys sorted: one canonical form
	if err != nil {
		panic("rating: checkpoint does not marshal: " + err.Error())
	}
	return macOf(key, "rank-checkpoint-v1", string(b))
}

// Checkpoint reads every player's head now and signs them.
func (s *Service) Checkpoint(ctx context.Context) (Checkpoint, error) {
	c := Checkpoint{At: s.stamp(), Heads: map[string]Head{}}
	err := s.store.EachPlayer(ctx, func(p PlayerState) error {
		if p.Seq > 0 {
			c.Heads[p.Username] = Head{Seq: p.Seq, Hash: p.Head}
		}
		return nil
	})
	if err != nil {
		return Checkpoint{}, fmt.Errorf("read the players: %w", err)
	}
	c.MAC = c.signed(s.key)
	return c, nil
}

// VerifyCheckpoint checks that the ledger still holds every head the
// checkpoint saw (a ledger only grows): a player whose ledger is shorter
// now, or whose entry at that sequence has another hash, was rolled back
// or rewritten. A checkpoint not signed by this service's key is refused
// (an *InputError): it proves nothing.
func (s *Service) VerifyCheckpoint(ctx context.Context, c Checkpoint) ([]Mismatch, error) {
	if len(s.key) == 0 {
		return nil, &InputError{"checkpoint", "cannot be checked: the service has no audit key"}
	}
	if want := c.signed(s.key); c.MAC == "" || !hmac.Equal([]byte(c.MAC), []byte(want)) {
		return nil, &InputError{"checkpoint", "is not signed with this service's audit key"}
	}
	out := []Mismatch{}
	for _, name := range slices.Sorted(maps.Keys(c.Heads)) {
		h := c.Heads[name]
		es, err := s.store.Ledger(ctx, name, h.Seq+1, 1)
		if err != nil {
			return nil, err
		}
		switch {
		case len(es) == 0 || es[0].Seq != h.Seq:
			have := int64(0)
			if len(es) > 0 {
				have = es[0].Seq
			}
			out = append(out, Mismatch{Player: name, Seq: h.Seq, Check: CheckRollback,
				Detail: fmt.Sprintf("the checkpoint of %s saw entry %d; the ledger now ends at %d: rolled back", c.At.Format(time.RFC3339), h.Seq, have)})
		case es[0].Hash != h.Hash:
			out = append(out, Mismatch{Player: name, Seq: h.Seq, Check: CheckRollback,
				Detail: fmt.Sprintf("entry %d is not the one the checkpoint of %s saw: rewritten", h.Seq, c.At.Format(time.RFC3339))})
		}
	}
	return out, nil
}
