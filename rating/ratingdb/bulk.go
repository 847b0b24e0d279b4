package ratingdb

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/mongox"
	"github.com/weiqi-platform/rank/rating"
)

// Reproject holds, while a bulk commit rewrites the players' projection
// (removes and inserts it again: one scan of the players instead of one
// per player on FerretDB v1), the players being rewritten; a bulk commit
// that finds one left by a crash first repairs those players' projection.
const Reproject = "rating_reproject"

var _ rating.BulkStore = (*Store)(nil)

// reprojectDoc names the players whose projection is being rewritten.
type reprojectDoc struct {
	ID      string   `bson:"_id"`
	Players []string `bson:"players"`
}

// CreateOps implements rating.BulkStore: the markers of the untracked
// operations in one insert, then the operations in one.
func (s *Store) CreateOps(ctx context.Context, ops []rating.Operation) ([]bool, error) {
	var marks []any
	docs := make([]any, len(ops))
	for i, op := range ops {
		d, err := toOpDoc(op)
		if err != nil {
			return nil, err
		}
		docs[i] = d
		if !op.Tracked {
			marks = append(marks, mongox.Marker{ID: op.ID, At: op.At.UTC()})
		}
	}
	for _, err := range mongox.InsertMany(ctx, s.open, marks, mongox.InLane(s.lane)) {
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return nil, wrap("mark operations open", err)
		}
	}
	out := make([]bool, len(ops))
	for i, err := range mongox.InsertMany(ctx, s.ops, docs, mongox.InLane(s.lane)) {
		switch {
		case err == nil:
			out[i] = true
		case !mongo.IsDuplicateKeyError(err):
			return nil, wrap("create operations", err)
		}
	}
	return out, nil
}

// HoldAll implements rating.BulkStore.
func (s *Store) HoldAll(ctx context.Context, hs []rating.HoldRequest) ([]error, error) {
	docs := make([]any, len(hs))
	for i, h := range hs {
		docs[i] = holdDoc{ID: holdID(h.Username, h.Version), K: kindHold, Op: h.Op}
	}
	out := make([]error, len(hs))
	for i, err := range mongox.InsertMany(ctx, s.holds, docs, mongox.InLane(s.lane)) {
		if err == nil {
			continue
		}
		if !mongo.IsDuplicateKeyError(err) {
			return nil, wrap("hold players", err)
		}
		var d holdDoc
		if err := s.holds.FindOne(ctx, bson.D{{Key: "_id", Value: docs[i].(holdDoc).ID}}).Decode(&d); err != nil {
			return nil, wrap("read hold", err)
		}
		if d.Op != hs[i].Op {
			out[i] = &rating.HeldError{Username: hs[i].Username, By: d.Op}
		}
	}
	return out, nil
}

// SetPlans implements rating.BulkStore.
func (s *Store) SetPlans(ctx context.Context, ids []string, plans []rating.Plan) ([]rating.Plan, error) {
	if len(ids) != len(plans) {
		return nil, fmt.Errorf("ratingdb: SetPlans: %d ids, %d plans", len(ids), len(plans))
	}
	docs := make([]any, len(ids))
	for i, id := range ids {
		b, err := json.Marshal(plans[i])
		if err != nil {
			return nil, err
		}
		docs[i] = planDoc{ID: planID(id), K: kindPlan, Plan: string(b)}
	}
	out := make([]rating.Plan, len(ids))
	for i, err := range mongox.InsertMany(ctx, s.plans, docs, mongox.InLane(s.lane)) {
		switch {
		case err == nil:
			out[i] = plans[i]
			continue
		case !mongo.IsDuplicateKeyError(err):
			return nil, wrap("store plans", err)
		}
		var d planDoc
		if err := s.plans.FindOne(ctx, bson.D{{Key: "_id", Value: planID(ids[i])}}).Decode(&d); err != nil {
			return nil, wrap("read plan", err)
		}
		if err := json.Unmarshal([]byte(d.Plan), &out[i]); err != nil {
			return nil, fmt.Errorf("ratingdb: operation %s: stored plan: %w", ids[i], err)
		}
	}
	return out, nil
}

// CommitStates implements rating.BulkStore: the versions in one insert
// (a duplicate checked as Commit checks it), then each player's
// projection rewritten at their last version: removed in one delete and
// inserted in one insert, under a Reproject marker.
func (s *Store) CommitStates(ctx context.Context, sts []rating.PlayerState) error {
	if err := s.repairProjections(ctx); err != nil {
		return err
	}
	last, names, err := s.insertVersions(ctx, sts)
	if err != nil || len(names) == 0 {
		return err
	}
	return s.rewriteProjections(ctx, last, names)
}

// CommitVersions implements rating.BulkStore: the versions in one insert,
// after a Reproject marker naming their players (a crash before
// ReprojectAll leaves it for the next CommitStates to repair); this
// process's own markers wait for its ReprojectAll.
func (s *Store) CommitVersions(ctx context.Context, sts []rating.PlayerState) error {
	var names []string
	seen := map[string]bool{}
	for _, st := range sts {
		if !seen[st.Username] {
			seen[st.Username] = true
			names = append(names, st.Username)
		}
	}
	if len(names) == 0 {
		return nil
	}
	mark := reprojectDoc{ID: fmt.Sprintf("run:%s#%d", names[0], sts[0].Version), Players: names}
	if err := s.lane.Do(func() error { _, err := s.reproject.InsertOne(ctx, mark); return err }); err != nil && !mongo.IsDuplicateKeyError(err) {
		return wrap("mark projections", err)
	}
	s.deferred.Lock()
	if s.deferredMarks == nil {
		s.deferredMarks = map[string]bool{}
	}
	s.deferredMarks[mark.ID] = true
	s.deferred.Unlock()
	_, _, err := s.insertVersions(ctx, sts)
	return err
}

// ReprojectAll implements rating.BulkStore: the projections rewritten as
// CommitStates rewrites them, then this process's markers of deferred
// projections removed.
func (s *Store) ReprojectAll(ctx context.Context, sts []rating.PlayerState) error {
	// Others' markers first (this process's own are skipped: they are
	// what this call rewrites).
	if err := s.repairProjections(ctx); err != nil {
		return err
	}
	s.deferred.Lock()
	own := s.deferredMarks
	s.deferredMarks = nil
	s.deferred.Unlock()
	last := map[string]stateDoc{}
	var names []string
	for _, st := range sts {
		d := toStateDoc(st)
		if old, ok := last[st.Username]; !ok || d.Version > old.Version {
			if !ok {
				names = append(names, st.Username)
			}
			last[st.Username] = d
		}
	}
	if len(names) > 0 {
		if err := s.rewriteProjections(ctx, last, names); err != nil {
			return err
		}
	}
	for id := range own {
		if err := s.unmark(ctx, id); err != nil {
			return wrap("unmark projections", err)
		}
	}
	return nil
}

// insertVersions inserts the states (a duplicate checked as Commit checks
// it) and returns each player's last stored version, players in order.
func (s *Store) insertVersions(ctx context.Context, sts []rating.PlayerState) (map[string]stateDoc, []string, error) {
	docs := make([]any, len(sts))
	for i, st := range sts {
		docs[i] = toStateDoc(st)
	}
	last := map[string]stateDoc{}
	var names []string
	for i, err := range mongox.InsertMany(ctx, s.states, docs, mongox.InLane(s.lane)) {
		d := docs[i].(stateDoc)
		if err != nil {
			if !mongo.IsDuplicateKeyError(err) {
				return nil, nil, wrap("commit players", err)
			}
			var got stateDoc
			if err := s.states.FindOne(ctx, bson.D{{Key: "_id", Value: d.ID}}).Decode(&got); err != nil {
				return nil, nil, wrap("read player version", err)
			}
			if got.Op != d.Op {
				return nil, nil, fmt.Errorf("player %s version %d is operation %q's, not %q's: %w", d.Username, d.Version, got.Op, d.Op, rating.ErrVersionTaken)
			}
			d = got
		}
		old, ok := last[d.Username]
		if !ok {
			names = append(names, d.Username)
		}
		if !ok || d.Version > old.Version {
			last[d.Username] = d
		}
	}
	return last, names, nil
}

// rewriteProjections writes each named player's projection at last[name]:
// one of them by a monotonic update, more removed in one delete and
// inserted in one insert under a Reproject marker.
func (s *Store) rewriteProjections(ctx context.Context, last map[string]stateDoc, names []string) error {
	if len(names) == 1 {
		d := last[names[0]]
		return s.project(ctx, d, d.Version-1)
	}
	mark := reprojectDoc{ID: names[0] + "#" + fmt.Sprint(last[names[0]].Version), Players: names}
	if err := s.lane.Do(func() error { _, err := s.reproject.InsertOne(ctx, mark); return err }); err != nil && !mongo.IsDuplicateKeyError(err) {
		return wrap("mark projections", err)
	}
	err := s.lane.Do(func() error {
		_, err := s.players.DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: names}}}})
		return err
	})
	if err != nil {
		return wrap("rewrite player projections", err)
	}
	proj := make([]any, len(names))
	rewritten := make([]stateDoc, len(names))
	for i, n := range names {
		d := last[n]
		d.ID, d.K = n, ""
		proj[i], rewritten[i] = d, d
	}
	err = s.lane.Do(func() error {
		_, err := s.players.InsertMany(ctx, proj, options.InsertMany().SetOrdered(false))
		return err
	})
	s.cache.wrote(rewritten, err)
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return wrap("rewrite player projections", err)
	}
	return wrap("unmark projections", s.unmark(ctx, mark.ID))
}

// unmark deletes the Reproject marker id, in its turn in the lane.
func (s *Store) unmark(ctx context.Context, id string) error {
	return s.lane.Do(func() error {
		_, err := s.reproject.DeleteOne(ctx, bson.D{{Key: "_id", Value: id}})
		return err
	})
}

// repairProjections brings forward the projection of the players a
// crashed bulk commit left being rewritten.
func (s *Store) repairProjections(ctx context.Context) error {
	cur, err := s.reproject.Find(ctx, bson.D{})
	if err != nil {
		return wrap("read projection marks", err)
	}
	var marks []reprojectDoc
	if err := cur.All(ctx, &marks); err != nil {
		return wrap("read projection marks", err)
	}
	s.deferred.Lock()
	own := maps.Clone(s.deferredMarks)
	s.deferred.Unlock()
	for _, m := range marks {
		if own[m.ID] {
			continue // this process's run of batches rewrites them at its end
		}
		for _, n := range m.Players {
			if _, err := s.Player(ctx, n); err != nil {
				return err
			}
		}
		if err := s.unmark(ctx, m.ID); err != nil {
			return wrap("unmark projections", err)
		}
	}
	return nil
}

// AppendAll implements rating.BulkStore: the entries in one insert.
func (s *Store) AppendAll(ctx context.Context, es []rating.LedgerEntry) error {
	docs := make([]any, len(es))
	for i, e := range es {
		docs[i] = toEntryDoc(e)
	}
	for i, err := range mongox.InsertMany(ctx, s.ledger, docs, mongox.InLane(s.lane)) {
		if err := s.appended(ctx, es[i], err); err != nil {
			return err
		}
	}
	return nil
}

// FinishOps implements rating.BulkStore: the done documents in one
// insert; the markers go later, with others'.
func (s *Store) FinishOps(ctx context.Context, ids []string) error {
	docs := make([]any, len(ids))
	for i, id := range ids {
		docs[i] = doneDoc{ID: id}
	}
	for _, err := range mongox.InsertMany(ctx, s.done, docs, mongox.InLane(s.lane)) {
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			return wrap("finish operations", err)
		}
	}
	for _, id := range ids {
		s.delOpen.Delete(id)
	}
	return nil
}
