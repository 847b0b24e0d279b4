package rating

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Difference is one way the stored ratings differ from a replay of the
// ledger's operations: a ledger entry (Seq > 0) or a player's state (Seq
// 0) whose Field holds Stored where the replay gives Replayed.
type Difference struct {
	Player   string `json:"player"`
	Seq      int64  `json:"seq,omitempty"`
	Field    string `json:"field"`
	Stored   string `json:"stored"`
	Replayed string `json:"replayed"`
}

// RecomputeReport is what Recompute found.
type RecomputeReport struct {
	Players     int          `json:"players"`
	Entries     int          `json:"entries"`
	Operations  int          `json:"operations"`
	Differences []Difference `json:"differences"`
}

// OK reports whether the replay gave exactly what is stored.
func (r RecomputeReport) OK() bool { return len(r.Differences) == 0 }

// Recompute replays the whole ledger into fresh states and reports every
// difference from the stored ones. The replay starts each player from
// their first stored state (version 0: the score they start from, and
// whether they are placed) and applies, in the ledger's order, the
// operation behind each entry from its stored input only — a game's
// players, result and facts, a change's delta, score or rank, an
// annulment's game — with the pure formula (System.Apply, the placement
// rule, the plans of changes and annulments: an annulment reverses the
// game's replayed deltas). Operations that touch two players are applied
// once both players' ledgers reach them, so every player's entries are
// replayed in their order. Every replayed entry is compared with the
// stored one (score before and after, delta, rank, Glicko-2, result,
// certified rank), every player's replayed state with the latest stored
// version and the latest-state record (score, Glicko-2, counts,
// certified rank, placement progress). Nothing is written.
//
// It reads the operations, the ledger and the states once each and keeps
// them in memory: an admin's tool (rankctl recompute), not a request
// path.
func (s *Service) Recompute(ctx context.Context) (RecomputeReport, error) {
	r := RecomputeReport{Differences: []Difference{}}
	diff := func(player string, seq int64, field string, stored, replayed any) {
		r.Differences = append(r.Differences, Difference{player, seq, field, fmt.Sprint(stored), fmt.Sprint(replayed)})
	}
	ops := map[string]Operation{}
	changes := map[string]string{} // player + "\x00" + cause id → change operation
	if err := s.store.EachOp(ctx, func(op Operation) error {
		ops[op.ID] = op
		if op.Kind == OpChange && op.Change != nil {
			changes[op.Player+"\x00"+op.Change.CauseID] = op.ID
		}
		return nil
	}); err != nil {
		return r, fmt.Errorf("read the operations: %w", err)
	}
	r.Operations = len(ops)
	first, latest := map[string]PlayerState{}, map[string]PlayerState{}
	if err := s.store.EachState(ctx, func(st PlayerState) error {
		if old, ok := first[st.Username]; !ok || st.Version < old.Version {
			first[st.Username] = st
		}
		if old, ok := latest[st.Username]; !ok || st.Version > old.Version {
			latest[st.Username] = st
		}
		return nil
	}); err != nil {
		return r, fmt.Errorf("read the states: %w", err)
	}
	records := map[string]PlayerState{}
	if err := s.store.EachPlayer(ctx, func(st PlayerState) error { records[st.Username] = st; return nil }); err != nil {
		return r, fmt.Errorf("read the players: %w", err)
	}
	ledger := map[string][]LedgerEntry{}
	if err := s.store.EachEntry(ctx, func(e LedgerEntry) error {
		ledger[e.Username] = append(ledger[e.Username], e)
		r.Entries++
		return nil
	}); err != nil {
		return r, fmt.Errorf("read the ledger: %w", err)
	}

	// Each player's operations, in their ledger's order.
	queue := map[string][]string{}
	broken := map[string]bool{}
	for name, es := range ledger {
		for i, e := range es {
			var id string
			switch {
			case e.Cause == CauseGame:
				id = e.CauseID
			case e.Cause == CausePlacement && e.Actor == PlacementActor && i > 0 && es[i-1].Cause == CauseGame && es[i-1].CauseID == e.CauseID:
				continue // the placement its game's plan makes
			case e.Cause == CauseAnnulment:
				id = annulPrefix + e.CauseID
			default:
				id = changes[name+"\x00"+e.CauseID]
			}
			if _, ok := ops[id]; !ok {
				diff(name, e.Seq, "operation", e.Cause+" "+e.CauseID, "no such operation stored")
				broken[name] = true
				break
			}
			queue[name] = append(queue[name], id)
		}
	}

	states := map[string]PlayerState{}
	for name := range ledger {
		st, ok := first[name]
		if !ok {
			st = NewPlayer(name)
			diff(name, 0, "state", "none", "a ledger without a rating state")
		}
		states[name] = st
	}
	replayed := map[string][]LedgerEntry{}
	gameDeltas := map[string]map[string]int{}
	placing := map[string][]string{} // each placing player's games so far
	head := map[string]int{}
	waiting := map[string]int{} // operation → players whose next it is
	var ready []string
	arrive := func(name string) {
		if broken[name] || head[name] >= len(queue[name]) {
			return
		}
		id := queue[name][head[name]]
		waiting[id]++
		if waiting[id] == len(ops[id].players()) {
			ready = append(ready, id)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(queue)) {
		arrive(name)
	}
	for len(ready) > 0 {
		id := ready[0]
		ready = ready[1:]
		op := ops[id]
		names := op.players()
		held := make(map[string]PlayerState, len(names))
		for _, n := range names {
			held[n] = states[n]
		}
		var plan Plan
		var err error
		switch op.Kind {
		case OpChange:
			plan, err = planChange(op, held[op.Player])
		case OpAnnul:
			a := op
			ch := *op.Change
			ch.Reverse = gameDeltas[ch.CauseID]
			a.Change = &ch
			plan, err = planAnnul(a, names, held)
		default:
			var evidence map[string][]string
			for _, n := range names {
				if st := held[n]; st.Placing && PlacementDue(st.PlacingGames+1) {
					if evidence == nil {
						evidence = map[string][]string{}
					}
					evidence[n] = append(slices.Clone(placing[n]), op.ID)
				}
			}
			plan, err = s.planGame(op, names, held, evidence)
		}
		if err != nil {
			for _, n := range names {
				diff(n, held[n].Seq+1, "operation", id, "the replay refuses it: "+err.Error())
				broken[n] = true
			}
			continue
		}
		for _, st := range plan.Steps {
			n := st.After.Username
			states[n] = st.After
			replayed[n] = append(replayed[n], st.entries()...)
			if op.Kind == "" || op.Kind == OpGame {
				if gameDeltas[op.ID] == nil {
					gameDeltas[op.ID] = map[string]int{}
				}
				gameDeltas[op.ID][n] = st.Entry.Delta
				if held[n].Placing {
					placing[n] = append(placing[n], op.ID)
				}
			}
			head[n]++
			arrive(n)
		}
	}

	for _, name := range slices.Sorted(maps.Keys(ledger)) {
		stored, got := ledger[name], replayed[name]
		if !broken[name] && head[name] < len(queue[name]) {
			diff(name, 0, "replay", fmt.Sprintf("operation %s next", queue[name][head[name]]), "its other player's ledger never reaches it")
			broken[name] = true
		}
		for i := range min(len(stored), len(got)) {
			compareEntry(name, stored[i], got[i], diff)
		}
		if broken[name] {
			continue
		}
		if len(stored) != len(got) {
			diff(name, 0, "entries", len(stored), len(got))
		}
		st := states[name]
		if l, ok := latest[name]; ok {
			compareState(name, "", l, st, diff)
		}
		if rec, ok := records[name]; ok && rec.Version == latest[name].Version {
			compareState(name, "latest-state record ", rec, st, diff)
		}
	}
	r.Players = len(latest)
	slices.SortStableFunc(r.Differences, func(a, b Difference) int {
		return cmp.Or(cmp.Compare(a.Player, b.Player), cmp.Compare(a.Seq, b.Seq))
	})
	return r, nil
}

// compareEntry reports each field of a stored entry the replay does not
// give.
func compareEntry(name string, stored, got LedgerEntry, diff func(string, int64, string, any, any)) {
	seq := stored.Seq
	if stored.Seq != got.Seq || stored.Cause != got.Cause || stored.CauseID != got.CauseID {
		diff(name, seq, "entry", stored.Cause+" "+stored.CauseID, fmt.Sprintf("entry %d: %s %s", got.Seq, got.Cause, got.CauseID))
		return
	}
	for _, f := range []struct {
		field      string
		stored, in any
	}{
		{"score_before", stored.ScoreBefore, got.ScoreBefore},
		{"delta", stored.Delta, got.Delta},
		{"score_after", stored.ScoreAfter, got.ScoreAfter},
		{"rank_after", stored.RankAfter, got.RankAfter},
		{"glicko", stored.Glicko, got.Glicko},
		{"result", stored.Result, got.Result},
		{"certified_after", stored.CertifiedAfter, got.CertifiedAfter},
	} {
		if f.stored != f.in {
			diff(name, seq, f.field, f.stored, f.in)
		}
	}
}

// compareState reports each field of a stored state the replay does not
// give.
func compareState(name, what string, stored, got PlayerState, diff func(string, int64, string, any, any)) {
	for _, f := range []struct {
		field      string
		stored, in any
	}{
		{"score", stored.Score, got.Score},
		{"glicko", stored.Glicko, got.Glicko},
		{"games", stored.Games, got.Games},
		{"wins", stored.Wins, got.Wins},
		{"losses", stored.Losses, got.Losses},
		{"draws", stored.Draws, got.Draws},
		{"certified_rank", rankText(stored.Certified), rankText(got.Certified)},
		{"placing", stored.Placing, got.Placing},
		{"placing_games", stored.PlacingGames, got.PlacingGames},
	} {
		if f.stored != f.in {
			diff(name, 0, strings.TrimSpace(what+f.field), f.stored, f.in)
		}
	}
}
