package rating

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
)

// What a verification checks; each Mismatch names one.
const (
	CheckChain     = "chain"     // sequence, hash, link to the entry before, head
	CheckScore     = "score"     // score = placement + ledger; each entry's arithmetic
	CheckCertified = "certified" // certified rank = the ledger's last
	CheckFormula   = "formula"   // a game's deltas are the formula's for the scores before it
	CheckState     = "state"     // the latest-state record agrees with the stored version
)

// Mismatch is one fault a verification found.
type Mismatch struct {
	Player string `json:"player"`
	Seq    int64  `json:"seq,omitempty"` // the entry at fault; 0: the player's state
	Check  string `json:"check"`
	Detail string `json:"detail"`
}

// Report is what a verification found.
type Report struct {
	ID         string     `json:"id"`
	At         time.Time  `json:"at"`
	Players    int        `json:"players"`
	Entries    int        `json:"entries"`
	Games      int        `json:"games"`
	Mismatches []Mismatch `json:"mismatches"`
}

// OK reports whether nothing was wrong.
func (r Report) OK() bool { return len(r.Mismatches) == 0 }

// VerifyAll checks the whole store and reports every mismatch: for each
// player, that the ledger chain is intact (ChainFaults: sequence, hashes,
// links, head), that the score is the placement plus the ledger and the
// certified rank the ledger's last, and that the latest-state record
// agrees with the stored version; for each rated game, that both deltas
// are what the formula gives for the two scores before it (Glicko-2 is
// not recomputed: its state before is not in the ledger); for each
// annulment, that it reverses exactly the game's delta. id names the
// report (the job's firing, or a request).
//
// It reads the ledger and the operations once each (a scan: it is a
// nightly job, not a request path) and keeps the ledger in memory.
func (s *Service) VerifyAll(ctx context.Context, id string) (Report, error) {
	r := Report{ID: id, At: s.stamp(), Mismatches: []Mismatch{}}
	entries := map[string][]LedgerEntry{}
	err := s.store.EachEntry(ctx, func(e LedgerEntry) error {
		entries[e.Username] = append(entries[e.Username], e)
		r.Entries++
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("read the ledger: %w", err)
	}
	seen := map[string]bool{}
	err = s.store.EachPlayer(ctx, func(st PlayerState) error {
		seen[st.Username] = true
		return s.verifyPlayer(ctx, st.Username, entries[st.Username], &r)
	})
	if err != nil {
		return Report{}, fmt.Errorf("read the players: %w", err)
	}
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		if !seen[name] {
			if err := s.verifyPlayer(ctx, name, entries[name], &r); err != nil {
				return Report{}, err
			}
		}
	}
	if err := s.verifyFormula(ctx, entries, &r); err != nil {
		return Report{}, err
	}
	slices.SortStableFunc(r.Mismatches, func(a, b Mismatch) int {
		return cmp.Or(cmp.Compare(a.Player, b.Player), cmp.Compare(a.Seq, b.Seq))
	})
	return r, nil
}

// verifyPlayer checks one player's state and chain.
func (s *Service) verifyPlayer(ctx context.Context, name string, entries []LedgerEntry, r *Report) error {
	r.Players++
	bad := func(seq int64, check, format string, args ...any) {
		r.Mismatches = append(r.Mismatches, Mismatch{Player: name, Seq: seq, Check: check, Detail: fmt.Sprintf(format, args...)})
	}
	latest, err := s.store.Player(ctx, name)
	if errors.Is(err, ErrNotFound) {
		bad(0, CheckState, "has %d ledger entries but no rating state", len(entries))
		return nil
	}
	if err != nil {
		return err
	}
	stored, err := s.store.StateAt(ctx, name, latest.Version)
	if errors.Is(err, ErrNotFound) {
		bad(0, CheckState, "version %d, named by the latest-state record, is not stored", latest.Version)
		stored = latest
	} else if err != nil {
		return err
	}
	if d := stateDiff(latest, stored); d != "" {
		bad(0, CheckState, "the latest-state record differs from the stored version %d: %s", stored.Version, d)
	}
	for _, f := range ChainFaults(stored, entries) {
		bad(f.Seq, f.Check, "%s", f.Reason)
	}
	return nil
}

// stateDiff says how two records of one version differ in what the ledger
// vouches for ("" if they agree).
func stateDiff(a, b PlayerState) string {
	switch {
	case a.Score != b.Score:
		return fmt.Sprintf("score %d, stored %d", a.Score, b.Score)
	case a.Seq != b.Seq || a.Head != b.Head:
		return fmt.Sprintf("head %d %.12s, stored %d %.12s", a.Seq, a.Head, b.Seq, b.Head)
	case a.Certified != b.Certified:
		return fmt.Sprintf("certified rank %q, stored %q", rankText(a.Certified), rankText(b.Certified))
	case a.Placement != b.Placement:
		return fmt.Sprintf("placement %d, stored %d", a.Placement, b.Placement)
	}
	return ""
}

// verifyFormula checks every rated game's deltas against the formula and
// every annulment against the game it reverses.
func (s *Service) verifyFormula(ctx context.Context, entries map[string][]LedgerEntry, r *Report) error {
	games := map[string]map[string]LedgerEntry{} // game id → player → entry
	var annulments []LedgerEntry
	for _, es := range entries {
		for _, e := range es {
			switch e.Cause {
			case CauseGame:
				if games[e.CauseID] == nil {
					games[e.CauseID] = map[string]LedgerEntry{}
				}
				games[e.CauseID][e.Username] = e
			case CauseAnnulment:
				annulments = append(annulments, e)
			}
		}
	}
	bad := func(e LedgerEntry, format string, args ...any) {
		r.Mismatches = append(r.Mismatches, Mismatch{Player: e.Username, Seq: e.Seq, Check: CheckFormula, Detail: fmt.Sprintf(format, args...)})
	}
	checked := map[string]bool{}
	err := s.store.EachOp(ctx, func(op Operation) error {
		if op.Kind != "" && op.Kind != OpGame {
			return nil
		}
		pair := games[op.ID]
		if len(pair) == 0 {
			return nil // given up, or not applied yet: no entries
		}
		checked[op.ID] = true
		r.Games++
		b, okb := pair[op.Black]
		w, okw := pair[op.White]
		if !okb || !okw {
			for _, e := range pair {
				bad(e, "game %s has no ledger entry for %s", op.ID, map[bool]string{true: op.White, false: op.Black}[okb])
			}
			return nil
		}
		winner, loser := b, w
		if op.Winner == SideWhite {
			winner, loser = w, b
		}
		d, err := Ladder(winner.ScoreBefore, loser.ScoreBefore, op.Game)
		if err != nil {
			bad(winner, "game %s: the formula refuses the scores before it: %v", op.ID, err)
			return nil
		}
		for _, c := range []struct {
			e    LedgerEntry
			want int
		}{{winner, d.Winner}, {loser, d.Loser}} {
			if c.e.Delta != c.want {
				bad(c.e, "game %s: delta %+d, the formula gives %+d for scores %d and %d", op.ID, c.e.Delta, c.want, winner.ScoreBefore, loser.ScoreBefore)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read the operations: %w", err)
	}
	for id, pair := range games {
		if !checked[id] {
			for _, e := range pair {
				bad(e, "game %s has ledger entries but no rating operation", id)
			}
		}
	}
	for _, a := range annulments {
		g, ok := games[a.CauseID][a.Username]
		switch {
		case !ok:
			bad(a, "annuls game %s, which has no entry of %s", a.CauseID, a.Username)
		case a.Delta != -g.Delta:
			bad(a, "annuls game %s with %+d, the game's delta was %+d", a.CauseID, a.Delta, g.Delta)
		}
	}
	return nil
}

// SaveReport stores a verification report.
func (s *Service) SaveReport(ctx context.Context, r Report) error { return s.store.SaveReport(ctx, r) }

// Reports returns up to limit stored reports, newest first.
func (s *Service) Reports(ctx context.Context, limit int) ([]Report, error) {
	return s.store.Reports(ctx, limit)
}
