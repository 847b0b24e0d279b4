package ratingtest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/rating"
)

// Memory is a rating.BatchStore in memory that answers as ratingdb does.
// It keeps the same facts, each decided once under the same key: an
// operation by its id (with its plan and its being done beside it), a
// hold and a state per "player#version", a ledger entry per
// "player#seq", a report per id. Like ratingdb it keeps each player's
// latest state as a hint that Commit overwrites and Player brings
// forward, so Latest, EachPlayer and the leaderboard can be behind
// Player in the same cases. Times come back as BSON dates keep them (UTC,
// to the millisecond), plans and reports as their JSON does. Values are
// copied in and out, so no caller shares stored state. It is safe for
// concurrent use, and passes RunBatch.
type Memory struct {
	// Fail, when set, is asked at the start of every method with the
	// method's name ("CreateOp", "Hold", "CommitAll", …); an error it
	// returns is the method's answer and nothing is done (an outage, or a
	// crash before the write). Set it before the store is shared; to
	// switch an outage on and off, have it read an atomic.
	Fail func(method string) error

	mu      sync.Mutex
	ops     map[string]rating.Operation // as created: no plan, not done
	plans   map[string][]byte           // the plan's JSON, as ratingdb keeps it
	done    map[string]string           // the error text it was given up with
	holds   map[string]string           // player#version → operation
	states  map[string]rating.PlayerState
	latest  map[string]rating.PlayerState // the hint, by player
	ledger  map[string]rating.LedgerEntry
	reports map[string]memReport
}

type memReport struct {
	at   time.Time
	json []byte
}

var (
	_ rating.Store      = (*Memory)(nil)
	_ rating.BatchStore = (*Memory)(nil)
)

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	return &Memory{
		ops: map[string]rating.Operation{}, plans: map[string][]byte{}, done: map[string]string{},
		holds: map[string]string{}, states: map[string]rating.PlayerState{}, latest: map[string]rating.PlayerState{},
		ledger: map[string]rating.LedgerEntry{}, reports: map[string]memReport{},
	}
}

// enter runs the fault hook and refuses a finished context, as a driver
// call would (a deadline is the store being unavailable).
func (m *Memory) enter(ctx context.Context, method string) error {
	if m.Fail != nil {
		if err := m.Fail(method); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return outage.Wrap("memory", "ratingtest: "+method, err)
		}
		return fmt.Errorf("ratingtest: %s: %w", method, err)
	}
	return nil
}

func memKey(username string, n int64) string { return username + "#" + strconv.FormatInt(n, 10) }

// memTime is t as a BSON date keeps it.
func memTime(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// viaJSON copies v through its JSON, as ratingdb keeps changes, plans and
// reports.
func viaJSON[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		panic("ratingtest: " + err.Error()) // plain values only
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		panic("ratingtest: " + err.Error())
	}
	return out
}

// storedOp is op as ratingdb keeps it: what CreateOp stores, nothing of
// its plan or its being done.
func storedOp(op rating.Operation) rating.Operation {
	op.Plan, op.Done, op.Error = nil, false, ""
	op.At = memTime(op.At)
	if op.Change != nil {
		c := viaJSON(*op.Change)
		op.Change = &c
	}
	return op
}

// copyOp is a stored operation given out: its change is the caller's own.
func copyOp(op rating.Operation) rating.Operation {
	if op.Change != nil {
		c := viaJSON(*op.Change)
		op.Change = &c
	}
	return op
}

func storedState(st rating.PlayerState) rating.PlayerState {
	st.UpdatedAt = memTime(st.UpdatedAt)
	return st
}

// storedEntry is e as ratingdb keeps it: an empty evidence list is left
// out, so it reads as none.
func storedEntry(e rating.LedgerEntry) rating.LedgerEntry {
	e.At = memTime(e.At)
	e.Evidence = copyEvidence(e.Evidence)
	return e
}

func copyEvidence(ev []string) []string {
	if len(ev) == 0 {
		return nil
	}
	return slices.Clone(ev)
}

func copyEntry(e rating.LedgerEntry) rating.LedgerEntry {
	e.Evidence = copyEvidence(e.Evidence)
	return e
}

// ApplyOp implements rating.OpWriter, by the steps one after the other.
func (m *Memory) ApplyOp(ctx context.Context, op rating.Operation) (bool, error) {
	return rating.ApplyInSteps(ctx, m, op)
}

// CreateOp implements rating.Store.
func (m *Memory) CreateOp(ctx context.Context, op rating.Operation) (rating.Operation, error) {
	if err := m.enter(ctx, "CreateOp"); err != nil {
		return rating.Operation{}, err
	}
	// An outcome with no text form is refused, as ratingdb cannot store it.
	if _, err := op.Game.Outcome.MarshalText(); err != nil {
		return rating.Operation{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.ops[op.ID]; ok {
		return m.op(op.ID)
	}
	m.ops[op.ID] = storedOp(op)
	return op, nil // as ratingdb: the caller's operation, as given
}

// Op implements rating.Store.
func (m *Memory) Op(ctx context.Context, id string) (rating.Operation, error) {
	if err := m.enter(ctx, "Op"); err != nil {
		return rating.Operation{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.op(id)
}

// op is the stored operation with its plan and its being done.
func (m *Memory) op(id string) (rating.Operation, error) {
	stored, ok := m.ops[id]
	if !ok {
		return rating.Operation{}, fmt.Errorf("operation %s: %w", id, rating.ErrNotFound)
	}
	op := copyOp(stored)
	if errText, ok := m.done[id]; ok {
		op.Done, op.Error = true, errText
	}
	if b, ok := m.plans[id]; ok {
		op.Plan = new(rating.Plan)
		if err := json.Unmarshal(b, op.Plan); err != nil {
			return rating.Operation{}, fmt.Errorf("ratingtest: operation %s: stored plan: %w", id, err)
		}
	}
	return op, nil
}

// SetPlan implements rating.Store: the first plan stays.
func (m *Memory) SetPlan(ctx context.Context, id string, p rating.Plan) (rating.Plan, error) {
	if err := m.enter(ctx, "SetPlan"); err != nil {
		return rating.Plan{}, err
	}
	b, err := json.Marshal(p)
	if err != nil {
		return rating.Plan{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	stored, ok := m.plans[id]
	if !ok {
		m.plans[id] = b
		return p, nil // as ratingdb: the caller's plan, as given
	}
	var out rating.Plan
	if err := json.Unmarshal(stored, &out); err != nil {
		return rating.Plan{}, fmt.Errorf("ratingtest: operation %s: stored plan: %w", id, err)
	}
	return out, nil
}

// FinishOp implements rating.Store: the first text stays.
func (m *Memory) FinishOp(ctx context.Context, id, errText string) error {
	if err := m.enter(ctx, "FinishOp"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.done[id]; !ok {
		m.done[id] = errText
	}
	return nil
}

// Unfinished implements rating.Store: oldest first (by the time the
// operation was accepted, then id), as ratingdb's markers are.
func (m *Memory) Unfinished(ctx context.Context, limit int) ([]rating.Operation, error) {
	if err := m.enter(ctx, "Unfinished"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var open []rating.Operation
	for id, op := range m.ops {
		if _, done := m.done[id]; !done && !op.Tracked {
			open = append(open, op)
		}
	}
	slices.SortFunc(open, func(a, b rating.Operation) int {
		return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.ID, b.ID))
	})
	out := make([]rating.Operation, 0, max(limit, 0))
	for _, op := range open {
		if len(out) == limit {
			break
		}
		full, err := m.op(op.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, full)
	}
	return out, nil
}

// Player implements rating.Store.
func (m *Memory) Player(ctx context.Context, username string) (rating.PlayerState, error) {
	if err := m.enter(ctx, "Player"); err != nil {
		return rating.PlayerState{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.player(username)
}

// player follows the versions from the hint (or version 0) to the last
// one and brings the hint forward, as ratingdb's Player does.
func (m *Memory) player(username string) (rating.PlayerState, error) {
	st, hinted := m.latest[username]
	if !hinted {
		var ok bool
		if st, ok = m.states[memKey(username, 0)]; !ok {
			return rating.PlayerState{}, fmt.Errorf("player %s: %w", username, rating.ErrNotFound)
		}
	}
	moved := !hinted
	for {
		next, ok := m.states[memKey(username, st.Version+1)]
		if !ok {
			break
		}
		st, moved = next, true
	}
	if moved {
		m.latest[username] = st
	}
	return st, nil
}

// Latest implements rating.Store: the hint, which may be behind.
func (m *Memory) Latest(ctx context.Context, username string) (rating.PlayerState, error) {
	if err := m.enter(ctx, "Latest"); err != nil {
		return rating.PlayerState{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.latest[username]
	if !ok {
		return rating.PlayerState{}, fmt.Errorf("player %s: %w", username, rating.ErrNotFound)
	}
	return st, nil
}

// LatestOf implements rating.Store.
func (m *Memory) LatestOf(ctx context.Context, usernames []string) ([]rating.PlayerState, error) {
	if err := m.enter(ctx, "LatestOf"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []rating.PlayerState
	for _, u := range slices.Sorted(slices.Values(usernames)) {
		if st, ok := m.latest[u]; ok && (len(out) == 0 || out[len(out)-1].Username != u) {
			out = append(out, st)
		}
	}
	return out, nil
}

// Hold implements rating.Store.
func (m *Memory) Hold(ctx context.Context, username string, version int64, opID string) error {
	if err := m.enter(ctx, "Hold"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := memKey(username, version)
	by, ok := m.holds[k]
	if !ok {
		m.holds[k] = opID
		return nil
	}
	if by == opID {
		return nil
	}
	return &rating.HeldError{Username: username, By: by}
}

// HoldOp implements rating.BatchStore: Hold of each in order, stopping
// at the first failure.
func (m *Memory) HoldOp(ctx context.Context, opID string, names []string, versions []int64) (int, error) {
	for i, n := range names {
		if err := m.Hold(ctx, n, versions[i], opID); err != nil {
			return i, err
		}
	}
	return len(names), nil
}

// Commit implements rating.Store.
func (m *Memory) Commit(ctx context.Context, st rating.PlayerState) error {
	if err := m.enter(ctx, "Commit"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.committed(st, m.insertState(st), true)
}

// CommitAll implements rating.BatchStore: as ratingdb, every state is
// inserted first, then each is checked and projected in order, up to the
// first error.
func (m *Memory) CommitAll(ctx context.Context, sts []rating.PlayerState) error {
	return m.commitAll(ctx, "CommitAll", sts, true)
}

// commitAll is CommitAll and CommitStates, entered as the step op.
func (m *Memory) commitAll(ctx context.Context, op string, sts []rating.PlayerState, hint bool) error {
	if err := m.enter(ctx, op); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	inserted := make([]bool, len(sts))
	for i, st := range sts {
		inserted[i] = m.insertState(st)
	}
	for i, st := range sts {
		if err := m.committed(st, inserted[i], hint); err != nil {
			return err
		}
	}
	return nil
}

// insertState stores st under its version unless one is there, and
// reports whether it did.
func (m *Memory) insertState(st rating.PlayerState) bool {
	k := memKey(st.Username, st.Version)
	if _, ok := m.states[k]; ok {
		return false
	}
	m.states[k] = storedState(st)
	return true
}

// committed finishes a commit of st: the version is the same operation's
// (or another's: ErrVersionTaken), and the stored version becomes the
// hint (when hint is set), as ratingdb's projection does even when it is
// older.
func (m *Memory) committed(st rating.PlayerState, inserted, hint bool) error {
	got := m.states[memKey(st.Username, st.Version)]
	if !inserted && got.Op != st.Op {
		return fmt.Errorf("player %s version %d is operation %q's, not %q's: %w", st.Username, st.Version, got.Op, st.Op, rating.ErrVersionTaken)
	}
	if hint {
		m.latest[st.Username] = got
	}
	return nil
}

// AppendEntry implements rating.Store.
func (m *Memory) AppendEntry(ctx context.Context, e rating.LedgerEntry) error {
	if err := m.enter(ctx, "AppendEntry"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.appended(e, m.insertEntry(e))
}

// AppendEntries implements rating.BatchStore: every entry is inserted
// first, then each is checked in order, up to the first conflict.
func (m *Memory) AppendEntries(ctx context.Context, es []rating.LedgerEntry) error {
	return m.appendAll(ctx, "AppendEntries", es)
}

// appendAll is AppendEntries under the method name op.
func (m *Memory) appendAll(ctx context.Context, op string, es []rating.LedgerEntry) error {
	if err := m.enter(ctx, op); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	inserted := make([]bool, len(es))
	for i, e := range es {
		inserted[i] = m.insertEntry(e)
	}
	for i, e := range es {
		if err := m.appended(e, inserted[i]); err != nil {
			return err
		}
	}
	return nil
}

func (m *Memory) insertEntry(e rating.LedgerEntry) bool {
	k := memKey(e.Username, e.Seq)
	if _, ok := m.ledger[k]; ok {
		return false
	}
	m.ledger[k] = storedEntry(e)
	return true
}

// appended: an entry already there with the same hash is a retry.
func (m *Memory) appended(e rating.LedgerEntry, inserted bool) error {
	if inserted {
		return nil
	}
	if m.ledger[memKey(e.Username, e.Seq)].Hash != e.Hash {
		return fmt.Errorf("%s entry %d: %w", e.Username, e.Seq, rating.ErrLedgerConflict)
	}
	return nil
}

// Ledger implements rating.Store: from the player's head (or below
// before) down, as ratingdb reads it, so an entry past the head is not
// shown.
func (m *Memory) Ledger(ctx context.Context, username string, before int64, limit int) ([]rating.LedgerEntry, error) {
	if err := m.enter(ctx, "Ledger"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	st, err := m.player(username)
	if errors.Is(err, rating.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	from := st.Seq
	if before > 0 && before-1 < from {
		from = before - 1
	}
	out := make([]rating.LedgerEntry, 0, max(min(int64(limit), from), 0))
	for seq := from; seq >= 1 && len(out) < limit; seq-- {
		e, ok := m.ledger[memKey(username, seq)]
		if !ok {
			return nil, fmt.Errorf("ratingtest: %s's ledger has no entry %d below its head %d", username, seq, st.Seq)
		}
		out = append(out, copyEntry(e))
	}
	return out, nil
}

// Leaderboard implements rating.Store: the hints, by score down, then
// username.
func (m *Memory) Leaderboard(ctx context.Context, q rating.LeaderQuery) ([]rating.PlayerState, error) {
	if err := m.enter(ctx, "Leaderboard"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []rating.PlayerState{}
	for _, st := range m.latest {
		switch c := q.After; {
		case q.MinScore != nil && st.Score < *q.MinScore, q.MaxScore != nil && st.Score > *q.MaxScore:
			continue
		case c != nil && (st.Score > c.Score || st.Score == c.Score && st.Username <= c.Username):
			continue
		}
		out = append(out, st)
	}
	slices.SortFunc(out, func(a, b rating.PlayerState) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Username, b.Username))
	})
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// Audit implements rating.Store: newest first by time, then username,
// then sequence number down; times compared as stored (to the
// millisecond).
func (m *Memory) Audit(ctx context.Context, q rating.AuditQuery) ([]rating.LedgerEntry, error) {
	if err := m.enter(ctx, "Audit"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	from, to := memTime(q.From), memTime(q.To)
	out := []rating.LedgerEntry{}
	for _, e := range m.ledger {
		switch c := q.After; {
		case q.Player != "" && e.Username != q.Player, q.Cause != "" && e.Cause != q.Cause:
			continue
		case !q.From.IsZero() && e.At.Before(from), !q.To.IsZero() && !e.At.Before(to):
			continue
		case c != nil && !auditAfter(e, *c):
			continue
		}
		out = append(out, copyEntry(e))
	}
	slices.SortFunc(out, func(a, b rating.LedgerEntry) int {
		return cmp.Or(b.At.Compare(a.At), cmp.Compare(a.Username, b.Username), cmp.Compare(b.Seq, a.Seq))
	})
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// auditAfter reports whether e comes after the cursor c in the audit
// order.
func auditAfter(e rating.LedgerEntry, c rating.AuditCursor) bool {
	at := memTime(c.At)
	switch {
	case !e.At.Equal(at):
		return e.At.Before(at)
	case e.Username != c.Username:
		return e.Username > c.Username
	}
	return e.Seq < c.Seq
}

// each calls fn with the values in order, outside the lock, so that fn
// may use the store.
func each[T any](vs []T, fn func(T) error) error {
	for _, v := range vs {
		if err := fn(v); err != nil {
			return err
		}
	}
	return nil
}

// EachState implements rating.Store.
func (m *Memory) EachState(ctx context.Context, fn func(rating.PlayerState) error) error {
	if err := m.enter(ctx, "EachState"); err != nil {
		return err
	}
	m.mu.Lock()
	sts := make([]rating.PlayerState, 0, len(m.states))
	for _, st := range m.states {
		sts = append(sts, st)
	}
	m.mu.Unlock()
	slices.SortFunc(sts, func(a, b rating.PlayerState) int {
		return cmp.Or(cmp.Compare(a.Username, b.Username), cmp.Compare(a.Version, b.Version))
	})
	return each(sts, fn)
}

// EachPlayer implements rating.Store: the hints, as Latest gives them.
func (m *Memory) EachPlayer(ctx context.Context, fn func(rating.PlayerState) error) error {
	if err := m.enter(ctx, "EachPlayer"); err != nil {
		return err
	}
	m.mu.Lock()
	sts := make([]rating.PlayerState, 0, len(m.latest))
	for _, st := range m.latest {
		sts = append(sts, st)
	}
	m.mu.Unlock()
	slices.SortFunc(sts, func(a, b rating.PlayerState) int { return cmp.Compare(a.Username, b.Username) })
	return each(sts, fn)
}

// EachEntry implements rating.Store.
func (m *Memory) EachEntry(ctx context.Context, fn func(rating.LedgerEntry) error) error {
	if err := m.enter(ctx, "EachEntry"); err != nil {
		return err
	}
	m.mu.Lock()
	es := make([]rating.LedgerEntry, 0, len(m.ledger))
	for _, e := range m.ledger {
		es = append(es, copyEntry(e))
	}
	m.mu.Unlock()
	slices.SortFunc(es, func(a, b rating.LedgerEntry) int {
		return cmp.Or(cmp.Compare(a.Username, b.Username), cmp.Compare(a.Seq, b.Seq))
	})
	return each(es, fn)
}

// EachOp implements rating.Store: by id, as created.
func (m *Memory) EachOp(ctx context.Context, fn func(rating.Operation) error) error {
	if err := m.enter(ctx, "EachOp"); err != nil {
		return err
	}
	m.mu.Lock()
	ops := make([]rating.Operation, 0, len(m.ops))
	for _, op := range m.ops {
		ops = append(ops, copyOp(op))
	}
	m.mu.Unlock()
	slices.SortFunc(ops, func(a, b rating.Operation) int { return cmp.Compare(a.ID, b.ID) })
	return each(ops, fn)
}

// SaveReport implements rating.Store: the first report under an id stays.
func (m *Memory) SaveReport(ctx context.Context, r rating.Report) error {
	if err := m.enter(ctx, "SaveReport"); err != nil {
		return err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.reports[r.ID]; !ok {
		m.reports[r.ID] = memReport{at: memTime(r.At), json: b}
	}
	return nil
}

// Reports implements rating.Store: newest first, then by id down.
func (m *Memory) Reports(ctx context.Context, limit int) ([]rating.Report, error) {
	if err := m.enter(ctx, "Reports"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	type row struct {
		id string
		memReport
	}
	rows := make([]row, 0, len(m.reports))
	for id, r := range m.reports {
		rows = append(rows, row{id, r})
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Or(b.at.Compare(a.at), cmp.Compare(b.id, a.id)) })
	if limit > 0 && len(rows) > limit {
		rows = rows[:limit]
	}
	out := make([]rating.Report, len(rows))
	for i, r := range rows {
		if err := json.Unmarshal(r.json, &out[i]); err != nil {
			return nil, fmt.Errorf("ratingtest: report %s: %w", r.id, err)
		}
	}
	return out, nil
}
