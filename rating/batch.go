package rating

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"
)

// ArchiveActor is the actor of games rated from an archive (rankctl
// import). Their ledger entries are stamped with the operation's time (the
// game's date) instead of the clock, so that every runner computes the
// same plan from the same states: a rerun after a crash writes exactly
// the ledger one uninterrupted run writes.
const ArchiveActor = "archive"

// planTime is the time a game's plan stamps its entries with: the
// operation's for an archive's games, else the clock.
func (s *Service) planTime(op Operation) time.Time {
	if op.Actor == ArchiveActor && !op.At.IsZero() {
		return op.At.UTC().Truncate(time.Millisecond)
	}
	return s.now().UTC().Truncate(time.Millisecond)
}

// HoldRequest is one hold of a bulk HoldAll: the player's version for the
// operation.
type HoldRequest struct {
	Username string
	Version  int64
	Op       string
}

// BulkStore is a Store that writes many operations' documents per
// command, for ApplyBatch. Each element behaves as the single call would
// (CreateOp, Hold, SetPlan, AppendEntry, Commit, FinishOp); an error may
// leave some written, as the single calls would.
type BulkStore interface {
	Store
	// CreateOps stores each operation unless one with its ID exists, and
	// reports for each whether it was new.
	CreateOps(ctx context.Context, ops []Operation) ([]bool, error)
	// HoldAll holds each version as Hold does and returns each one's
	// answer (nil, or a *HeldError when another operation holds it); the
	// error is for the whole call.
	HoldAll(ctx context.Context, hs []HoldRequest) ([]error, error)
	// SetPlans stores each plan of the operation ids[i] unless one is
	// stored, and returns whichever plan was first for each.
	SetPlans(ctx context.Context, ids []string, plans []Plan) ([]Plan, error)
	// AppendAll adds the entries as AppendEntry does.
	AppendAll(ctx context.Context, es []LedgerEntry) error
	// CommitStates stores the states as Commit does (several versions of
	// one player among them, in order), with the latest-state record
	// written once per player, at their last version.
	CommitStates(ctx context.Context, sts []PlayerState) error
	// FinishOps marks the operations done as FinishOp does (no error).
	FinishOps(ctx context.Context, ids []string) error
	// CommitVersions stores the states as CommitStates does but leaves
	// the latest-state records as they are, for ReprojectAll to write
	// once for a run of batches (a crash in between leaves them for the
	// next CommitStates to repair).
	CommitVersions(ctx context.Context, sts []PlayerState) error
	// ReprojectAll writes each player's latest-state record at the state
	// given (the latest), as CommitStates does at the end of a batch.
	ReprojectAll(ctx context.Context, sts []PlayerState) error
}

// BatchRun applies batches as ApplyBatch does, but writes the players'
// latest-state records once, at Close, instead of at every batch: for an
// import of many batches, where those records (one per player, rewritten
// by each batch) are a large share of the writes. Until Close the
// leaderboard and Latest lag behind its games; Player and the ledger do
// not. One BatchRun at a time per store, as ApplyBatch.
type BatchRun struct {
	s       *Service
	players map[string]bool // whose records wait for Close
}

// NewBatchRun starts a run of batches.
func (s *Service) NewBatchRun() *BatchRun { return &BatchRun{s: s, players: map[string]bool{}} }

// Apply is ApplyBatch within the run.
func (r *BatchRun) Apply(ctx context.Context, ins []GameInput, stats *BatchStats) ([]GameResult, error) {
	return r.s.applyBatch(ctx, ins, stats, r)
}

// Close writes the latest-state records of the run's players, at the
// latest state this process wrote for each (or read, when it forgot).
func (r *BatchRun) Close(ctx context.Context) error {
	bs, ok := r.s.store.(BulkStore)
	if !ok || len(r.players) == 0 {
		return nil
	}
	sts := make([]PlayerState, 0, len(r.players))
	for n := range r.players {
		st, ok := r.s.hint(n)
		if !ok {
			var err error
			if st, err = r.s.store.Player(ctx, n); err != nil {
				return err
			}
		}
		sts = append(sts, st)
	}
	sort.Slice(sts, func(i, j int) bool { return sts[i].Username < sts[j].Username })
	if err := bs.ReprojectAll(ctx, sts); err != nil {
		return err
	}
	clear(r.players)
	return nil
}

// BatchStats counts how ApplyBatch went: games applied in bulk, and games
// applied one by one because their batch met something the bulk path
// leaves to Apply (an operation already stored, a player held by another
// operation).
type BatchStats struct {
	Bulk, Single int
}

// ApplyBatch applies the games in the order given, each exactly once
// (keyed by its ID, as Apply), and returns each one's result. On a
// BulkStore it writes the whole batch in a handful of commands, by the
// same steps as Apply: the operations, then every hold (a player's later
// versions are held for their later games of the batch), then every plan
// (computed in memory, in order, by the same formula), the ledger entries,
// the states, and the operations done. So a crash anywhere leaves what
// Recover or a rerun completes, exactly as for Apply. A batch whose
// operations are not all new (a rerun after a crash), or whose players
// another operation holds, goes through Apply game by game instead, in
// order. It should not run concurrently with another ApplyBatch on the
// same players (rankctl import runs one); Apply may run meanwhile.
func (s *Service) ApplyBatch(ctx context.Context, ins []GameInput, stats *BatchStats) ([]GameResult, error) {
	return s.applyBatch(ctx, ins, stats, nil)
}

// applyBatch is ApplyBatch, within run when it is not nil.
func (s *Service) applyBatch(ctx context.Context, ins []GameInput, stats *BatchStats, run *BatchRun) ([]GameResult, error) {
	if stats == nil {
		stats = &BatchStats{}
	}
	for _, in := range ins {
		if err := checkInput(in); err != nil {
			return nil, fmt.Errorf("game %s: %w", in.ID, err)
		}
	}
	bs, ok := s.store.(BulkStore)
	if !ok || len(ins) == 0 {
		return s.applyEach(ctx, ins, stats)
	}
	res, done, err := s.applyBulk(ctx, bs, ins, run)
	if err != nil || done {
		if done {
			stats.Bulk += len(ins)
		}
		return res, err
	}
	return s.applyEach(ctx, ins, stats)
}

// applyEach applies the games one by one, in order.
func (s *Service) applyEach(ctx context.Context, ins []GameInput, stats *BatchStats) ([]GameResult, error) {
	out := make([]GameResult, len(ins))
	for i, in := range ins {
		r, err := s.Apply(ctx, in)
		if err != nil {
			return out[:i], fmt.Errorf("game %s: %w", in.ID, err)
		}
		out[i] = r
		stats.Single++
	}
	return out, nil
}

// applyBulk is ApplyBatch's bulk path; done is false when the batch is
// to go through Apply instead (nothing is left that Apply cannot take
// on).
func (s *Service) applyBulk(ctx context.Context, bs BulkStore, ins []GameInput, run *BatchRun) (res []GameResult, done bool, err error) {
	commit := bs.CommitStates
	if run != nil {
		commit = bs.CommitVersions
		for _, in := range ins {
			run.players[in.Black], run.players[in.White] = true, true
		}
	}
	// The players' states: the hints, else one read of all.
	work := map[string]PlayerState{}
	var unknown []string
	for _, in := range ins {
		for _, n := range []string{in.Black, in.White} {
			if _, ok := work[n]; ok {
				continue
			}
			if st, ok := s.hint(n); ok {
				work[n] = st
				continue
			}
			work[n] = PlayerState{}
			unknown = append(unknown, n)
		}
	}
	var fresh []PlayerState // version 0 of new players
	if len(unknown) > 0 {
		got, err := bs.LatestOf(ctx, unknown)
		if err != nil {
			return nil, false, err
		}
		for _, st := range got {
			work[st.Username] = st
		}
		for _, n := range unknown {
			if work[n].Username == "" {
				st := s.newPlayer(n)
				work[n] = st
				fresh = append(fresh, st)
			}
		}
	}
	base := make(map[string]PlayerState, len(work))
	for n, st := range work {
		base[n] = st
	}

	// The operations and their plans, in order, in memory.
	res = make([]GameResult, len(ins))
	var ops []Operation
	var holds []HoldRequest
	batchGames := map[string][]string{} // each player's games of this batch so far
	for i, in := range ins {
		if !moves(in.Game) {
			b, w := work[in.Black], work[in.White]
			res[i] = GameResult{Black: PlayerResult{PlayerState: b}, White: PlayerResult{PlayerState: w}}
			continue
		}
		op := opFor(in)
		names := op.players()
		states := map[string]PlayerState{}
		var evidence map[string][]string
		for _, n := range names {
			st := work[n]
			states[n] = st
			holds = append(holds, HoldRequest{Username: n, Version: st.Version, Op: op.ID})
			if st.Placing && PlacementDue(st.PlacingGames+1) {
				ids, ok := s.evidenceHint(base[n])
				if !ok {
					var err error
					if ids, err = s.storedGames(ctx, base[n]); err != nil {
						return nil, false, err
					}
				}
				if evidence == nil {
					evidence = map[string][]string{}
				}
				evidence[n] = append(append(ids, batchGames[n]...), op.ID)
			}
		}
		plan, err := s.planGame(op, names, states, evidence)
		if err != nil {
			return nil, false, nil // corrupt data: Apply gives the game up
		}
		op.Plan = &plan
		for _, st := range plan.Steps {
			work[st.After.Username] = st.After
			batchGames[st.After.Username] = append(batchGames[st.After.Username], op.ID)
		}
		ops = append(ops, op)
		r, _ := resultOf(op)
		res[i] = r
	}
	if len(ops) == 0 {
		return res, true, nil
	}

	created, err := bs.CreateOps(ctx, ops)
	if err != nil {
		return nil, false, err
	}
	for _, c := range created {
		if !c {
			return nil, false, nil // stored before: a rerun, which Apply completes
		}
	}
	if len(fresh) > 0 {
		if err := commit(ctx, fresh); err != nil {
			return nil, false, err
		}
	}
	answers, err := bs.HoldAll(ctx, holds)
	if err != nil {
		return nil, false, err
	}
	for _, a := range answers {
		if errors.Is(a, ErrHeld) {
			return nil, false, nil // another operation in the way: Apply helps it
		}
		if a != nil {
			return nil, false, a
		}
	}
	ids := make([]string, len(ops))
	plans := make([]Plan, len(ops))
	for i, op := range ops {
		ids[i], plans[i] = op.ID, *op.Plan
	}
	stored, err := bs.SetPlans(ctx, ids, plans)
	if err != nil {
		return nil, false, err
	}
	for i := range stored {
		if !samePlan(stored[i], plans[i]) {
			return nil, false, nil // another runner planned it first: Apply follows its plan
		}
	}
	var entries []LedgerEntry
	var after []PlayerState
	for _, p := range plans {
		for _, st := range p.Steps {
			entries = append(entries, st.entries()...)
			after = append(after, st.After)
		}
	}
	if err := bs.AppendAll(ctx, entries); err != nil {
		return nil, false, err
	}
	if err := commit(ctx, after); err != nil {
		return nil, false, err
	}
	// Tracked operations are done by their written plans (isDone).
	var untracked []string
	for _, op := range ops {
		if !op.Tracked {
			untracked = append(untracked, op.ID)
		}
	}
	if len(untracked) > 0 {
		if err := bs.FinishOps(ctx, untracked); err != nil {
			return nil, false, err
		}
	}
	for n, st := range work {
		s.remember(st)
		s.keepEvidence(base[n], st, batchGames[n])
	}
	for range ops {
		s.rec.RatingUpdated()
	}
	return res, true, nil
}

// storedGames lists the player's rated games in the ledger up to st, for
// a placement's evidence (as placementEvidence reads them).
func (s *Service) storedGames(ctx context.Context, st PlayerState) ([]string, error) {
	if st.Seq == 0 {
		return nil, nil
	}
	es, err := s.store.Ledger(ctx, st.Username, st.Seq+1, int(min(st.Seq, maxPlacementLedger)))
	if err != nil {
		return nil, fmt.Errorf("placement evidence of %s: %w", st.Username, err)
	}
	var ids []string
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Cause == CauseGame {
			ids = append(ids, es[i].CauseID)
		}
	}
	return ids, nil
}

// samePlan reports whether two plans write the same: the same entries.
func samePlan(a, b Plan) bool {
	if len(a.Steps) != len(b.Steps) {
		return false
	}
	for i := range a.Steps {
		if a.Steps[i].After.Head != b.Steps[i].After.Head || a.Steps[i].Before.Version != b.Steps[i].Before.Version {
			return false
		}
	}
	return true
}

// evidence is what ApplyBatch remembers of a placing player's games: the
// games of their ledger up to entry seq.
type evidence struct {
	seq int64
	ids []string
}

// evidenceHint gives the placing player's games up to st from what
// ApplyBatch remembers, if it remembers them up to st.
func (s *Service) evidenceHint(st PlayerState) ([]string, bool) {
	if st.Seq == 0 {
		return nil, true
	}
	s.hintMu.Lock()
	defer s.hintMu.Unlock()
	ev, ok := s.evidence[st.Username]
	if !ok || ev.seq != st.Seq {
		return nil, false
	}
	return slices.Clone(ev.ids), true
}

// keepEvidence remembers a placing player's games after a batch moved
// them from base to st, playing games: so the next batch reads none of
// their ledger for their placement.
func (s *Service) keepEvidence(base, st PlayerState, games []string) {
	s.hintMu.Lock()
	defer s.hintMu.Unlock()
	if !st.Placing {
		delete(s.evidence, st.Username)
		return
	}
	if s.evidence == nil || len(s.evidence) >= maxHints {
		s.evidence = map[string]evidence{}
	}
	var ids []string
	if base.Seq > 0 {
		ev, ok := s.evidence[base.Username]
		if !ok || ev.seq != base.Seq {
			delete(s.evidence, st.Username)
			return
		}
		ids = ev.ids
	}
	s.evidence[st.Username] = evidence{seq: st.Seq, ids: append(slices.Clip(ids), games...)}
}
