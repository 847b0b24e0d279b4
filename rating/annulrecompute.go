package rating

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"unicode/utf8"
)

// Recomputed is what an annulment with recompute did: the annulment, and
// one correction per later game and player whose ladder delta the
// annulled game had changed, in the order applied.
type Recomputed struct {
	Annulment   Changed   `json:"annulment"`
	Corrections []Changed `json:"corrections"`
}

// AnnulRecompute annuls the game (Annul) and then recomputes every later
// game of the players it touches (platform flow 2): walking the ledger in
// its order from the annulled game, each later game of a player whose
// score the annulment moved gets its ladder deltas again from the scores
// it would have started from, and both its players are touched from then
// on (so a change spreads to their later opponents). Each difference is
// written as its own audited entry: an adjustment of that player by the
// difference (cause id "recompute:" annulled game ":" later game ":"
// player), with both games as evidence and the reason saying so. The games' own entries stay as they
// were written (the ledger is append-only). Glicko-2 is left as it is, as
// Annul leaves it, so placements by the rule stand; a score set by a
// person or an exam ends the spreading for that player.
//
// Each correction is a Change under a key made of both games and the
// player, computed from the ledger's game entries only (never from the
// corrections), so a retry after a crash computes the same corrections
// and applies each once. Games applied while it runs are rated from the
// scores of that moment and are not corrected.
func (s *Service) AnnulRecompute(ctx context.Context, in AnnulInput) (Recomputed, error) {
	// Checked before the annulment, so that no correction can fail on it.
	if n := utf8.RuneCountInString(in.Reason); n > MaxRecomputeReason {
		return Recomputed{}, &InputError{"reason", fmt.Sprintf("is %d characters, longer than the limit of %d when later games are recomputed", n, MaxRecomputeReason)}
	}
	annul, err := s.Annul(ctx, in)
	if err != nil {
		return Recomputed{}, err
	}
	out := Recomputed{Annulment: annul, Corrections: []Changed{}}
	fixes, err := s.corrections(ctx, in.GameID)
	if err != nil {
		return out, err
	}
	for _, f := range fixes {
		d := f.delta
		key := "recompute:" + in.GameID + ":" + f.game + ":" + f.player
		ch, err := s.Change(ctx, ChangeInput{
			Key: key, Player: f.player, Cause: CauseAdjustment, CauseID: key, Delta: &d, Actor: in.Actor, Evidence: []string{in.GameID, f.game},
			Reason: fmt.Sprintf("game %s recomputed after the annulment of game %s: delta %+d, not %+d (%s)", f.game, in.GameID, f.want, f.was, in.Reason),
		})
		if err != nil {
			return out, fmt.Errorf("correct %s for game %s: %w", f.player, f.game, err)
		}
		out.Corrections = append(out.Corrections, ch)
	}
	return out, nil
}

// correction is one player's delta for one later game, and what it was.
type correction struct {
	game, player string
	delta        int // want - was
	want, was    int
}

// corrections computes, from the ledger's game entries, the corrections
// the annulment of gameID makes to later games, in ledger order.
func (s *Service) corrections(ctx context.Context, gameID string) ([]correction, error) {
	ledger := map[string][]LedgerEntry{}
	if err := s.store.EachEntry(ctx, func(e LedgerEntry) error {
		ledger[e.Username] = append(ledger[e.Username], e)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read the ledger: %w", err)
	}
	games := map[string]Operation{}
	if err := s.store.EachOp(ctx, func(op Operation) error {
		if op.Kind == "" || op.Kind == OpGame {
			games[op.ID] = op
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read the operations: %w", err)
	}
	// The events of each player's ledger, in order: a game (both players'
	// entries meet), or one player's own entry.
	type event struct {
		game  string // "" for a one-player entry
		entry LedgerEntry
	}
	queue := map[string][]event{}
	for name, es := range ledger {
		for _, e := range es {
			ev := event{entry: e}
			if e.Cause == CauseGame {
				ev.game = e.CauseID
			}
			queue[name] = append(queue[name], ev)
		}
	}
	head := map[string]int{}
	waiting := map[string][]LedgerEntry{} // a game's entries so far
	shift := map[string]int{}             // replayed minus written score, from the annulled game on
	fixed := map[string]map[string]int{}  // game → player → correction so far
	annulled := map[string]int{}          // the annulled game's deltas
	started := false
	var out []correction
	ready := slices.Sorted(maps.Keys(queue)) // players whose head is to be taken
	for len(ready) > 0 {
		n := ready[0]
		ready = ready[1:]
		if head[n] >= len(queue[n]) {
			continue
		}
		ev := queue[n][head[n]]
		if ev.game == "" {
			head[n]++
			e := ev.entry
			switch {
			case !started:
			case e.Cause == CauseAnnulment && e.CauseID == gameID:
				shift[n] += annulled[n] // the written scores leave the game out from here
			case e.Cause == CauseAnnulment:
				shift[n] -= fixed[e.CauseID][n] // it reversed the written delta only
			case e.Cause == CausePlacement, e.Cause == CauseExam && e.Delta != 0:
				shift[n] = 0 // a score set: the replay sets the same
			}
			ready = append(ready, n)
			continue
		}
		waiting[ev.game] = append(waiting[ev.game], ev.entry)
		op, ok := games[ev.game]
		if !ok || len(waiting[ev.game]) < 2 {
			if !ok {
				return nil, fmt.Errorf("game %s of %s's ledger has no operation", ev.game, n)
			}
			continue // the other player's ledger has not reached it yet
		}
		pair := waiting[ev.game]
		delete(waiting, ev.game)
		byName := map[string]LedgerEntry{pair[0].Username: pair[0], pair[1].Username: pair[1]}
		for _, e := range pair {
			head[e.Username]++
			ready = append(ready, e.Username)
		}
		if ev.game == gameID {
			started = true
			for p, e := range byName {
				shift[p] -= e.Delta
				annulled[p] = e.Delta
			}
			continue
		}
		if !started || shift[op.Black] == 0 && shift[op.White] == 0 {
			continue
		}
		wn, ln := op.Black, op.White
		if op.Winner == SideWhite {
			wn, ln = op.White, op.Black
		}
		d, err := Ladder(byName[wn].ScoreBefore+shift[wn], byName[ln].ScoreBefore+shift[ln], op.Game)
		if err != nil {
			return nil, fmt.Errorf("recompute game %s: %w", op.ID, err)
		}
		for _, c := range []struct {
			name string
			want int
		}{{wn, d.Winner}, {ln, d.Loser}} {
			was := byName[c.name].Delta
			if c.want == was {
				continue
			}
			if fixed[op.ID] == nil {
				fixed[op.ID] = map[string]int{}
			}
			fixed[op.ID][c.name] = c.want - was
			shift[c.name] += c.want - was
			out = append(out, correction{game: op.ID, player: c.name, delta: c.want - was, want: c.want, was: was})
		}
	}
	return out, nil
}
