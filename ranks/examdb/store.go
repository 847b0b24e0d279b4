package examdb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/ranks"
)

// Store implements ranks.ExamStore on a Mongo database.
type Store struct {
	schedules, registrations, sessions, results *mongo.Collection
	pairings, settlements, moves                *mongo.Collection
}

var _ ranks.ExamStore = (*Store)(nil)

// Open returns the store on db, creating its indexes.
func Open(ctx context.Context, db *mongo.Database) (*Store, error) {
	s := &Store{
		schedules:     db.Collection("exam_schedules"),
		registrations: db.Collection("exam_registrations"),
		sessions:      db.Collection("exam_sessions"),
		results:       db.Collection("exam_results"),
		pairings:      db.Collection("exam_pairings"),
		settlements:   db.Collection("exam_settlements"),
		moves:         db.Collection("exam_moves"),
	}
	for c, keys := range map[*mongo.Collection][]bson.D{
		s.registrations: {{{Key: "session_id", Value: 1}}},
		s.sessions:      {{{Key: "schedule_id", Value: 1}, {Key: "at", Value: -1}}, {{Key: "state_rank", Value: 1}, {Key: "deadline", Value: 1}}},
		s.results:       {{{Key: "session_id", Value: 1}}, {{Key: "state_hint", Value: 1}, {Key: "graded_at", Value: 1}}},
		s.settlements:   {{{Key: "session_id", Value: 1}}},
		s.moves:         {{{Key: "subject", Value: 1}}},
	} {
		// One call per index: FerretDB v1 panics on a createIndexes of
		// several indexes that already exist (a second replica's Open).
		for _, k := range keys {
			if _, err := c.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: k}); err != nil {
				return nil, fmt.Errorf("examdb: indexes of %s: %w", c.Name(), err)
			}
		}
	}
	return s, nil
}

// findOne decodes the document matching filter into doc, translating
// "no document" into ranks.ErrNotFound.
func findOne(ctx context.Context, c *mongo.Collection, filter any, doc any, what string) error {
	err := c.FindOne(ctx, filter).Decode(doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return fmt.Errorf("examdb: %s: %w", what, ranks.ErrNotFound)
	}
	return err
}

func findAll[D any](ctx context.Context, c *mongo.Collection, filter any, sort bson.D) ([]D, error) {
	cur, err := c.Find(ctx, filter, options.Find().SetSort(sort))
	if err != nil {
		return nil, err
	}
	var docs []D
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	return docs, nil
}

// CreateSchedule implements ranks.ExamStore.
func (s *Store) CreateSchedule(ctx context.Context, sch ranks.ExamSchedule) error {
	_, err := s.schedules.InsertOne(ctx, toScheduleDoc(sch))
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("examdb: schedule %s exists: %w", sch.ID, ranks.ErrConflict)
	}
	return err
}

// Schedule implements ranks.ExamStore.
func (s *Store) Schedule(ctx context.Context, id string) (ranks.ExamSchedule, error) {
	var d scheduleDoc
	if err := findOne(ctx, s.schedules, bson.D{{Key: "_id", Value: id}}, &d, "schedule "+id); err != nil {
		return ranks.ExamSchedule{}, err
	}
	return d.toDomain()
}

// Schedules implements ranks.ExamStore.
func (s *Store) Schedules(ctx context.Context) ([]ranks.ExamSchedule, error) {
	docs, err := findAll[scheduleDoc](ctx, s.schedules, bson.D{}, bson.D{{Key: "_id", Value: 1}})
	if err != nil {
		return nil, err
	}
	out := make([]ranks.ExamSchedule, 0, len(docs))
	for _, d := range docs {
		sch, err := d.toDomain()
		if err != nil {
			return nil, err
		}
		out = append(out, sch)
	}
	return out, nil
}

// AdvanceOpened implements ranks.ExamStore.
func (s *Store) AdvanceOpened(ctx context.Context, id string, at time.Time) error {
	_, err := s.schedules.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: id}, {Key: "opened_through", Value: bson.D{{Key: "$lt", Value: at}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "opened_through", Value: at}}}})
	return err
}

// AddRegistration implements ranks.ExamStore.
func (s *Store) AddRegistration(ctx context.Context, r ranks.Registration) (ranks.Registration, bool, error) {
	_, err := s.registrations.InsertOne(ctx, toRegistrationDoc(r))
	if err == nil {
		return r, true, nil
	}
	if !mongo.IsDuplicateKeyError(err) {
		return ranks.Registration{}, false, err
	}
	var d registrationDoc
	if err := findOne(ctx, s.registrations, bson.D{{Key: "_id", Value: r.ID}}, &d, "registration "+r.ID); err != nil {
		return ranks.Registration{}, false, err
	}
	return d.toDomain(), false, nil
}

// Registrations implements ranks.ExamStore.
func (s *Store) Registrations(ctx context.Context, sessionID string) ([]ranks.Registration, error) {
	docs, err := findAll[registrationDoc](ctx, s.registrations, bson.D{{Key: "session_id", Value: sessionID}}, bson.D{{Key: "_id", Value: 1}})
	if err != nil {
		return nil, err
	}
	out := make([]ranks.Registration, len(docs))
	for i, d := range docs {
		out[i] = d.toDomain()
	}
	return out, nil
}

// insertOnce inserts doc unless its _id exists: the one atomic
// first-writer-wins step both MongoDB and FerretDB give (FerretDB v1
// applies a conditional update as a read and a write, so two callers
// can both "win" one; an insert under a unique _id cannot).
func insertOnce(ctx context.Context, c *mongo.Collection, doc any) error {
	_, err := c.InsertOne(ctx, doc)
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return err
	}
	return nil
}

// CreateSession implements ranks.ExamStore.
func (s *Store) CreateSession(ctx context.Context, sess ranks.ExamSession) (ranks.ExamSession, error) {
	if err := insertOnce(ctx, s.sessions, toSessionDoc(sess)); err != nil {
		return ranks.ExamSession{}, err
	}
	return s.Session(ctx, sess.ID)
}

// Session implements ranks.ExamStore.
func (s *Store) Session(ctx context.Context, id string) (ranks.ExamSession, error) {
	var d sessionDoc
	if err := findOne(ctx, s.sessions, bson.D{{Key: "_id", Value: id}}, &d, "session "+id); err != nil {
		return ranks.ExamSession{}, err
	}
	return s.assemble(ctx, d)
}

// assemble reads what happened to a session since it was created.
func (s *Store) assemble(ctx context.Context, d sessionDoc) (ranks.ExamSession, error) {
	var p *pairingDoc
	var pd pairingDoc
	switch err := findOne(ctx, s.pairings, bson.D{{Key: "_id", Value: d.ID}}, &pd, "pairing"); {
	case err == nil:
		p = &pd
	case !errors.Is(err, ranks.ErrNotFound):
		return ranks.ExamSession{}, err
	}
	settled := map[string]settlementDoc{}
	if p != nil {
		docs, err := findAll[settlementDoc](ctx, s.settlements, bson.D{{Key: "session_id", Value: d.ID}}, bson.D{{Key: "_id", Value: 1}})
		if err != nil {
			return ranks.ExamSession{}, err
		}
		for _, st := range docs {
			settled[st.ID] = st
		}
	}
	moves, err := s.movesOf(ctx, "session:"+d.ID)
	if err != nil {
		return ranks.ExamSession{}, err
	}
	return d.toDomain(p, settled, moves)
}

// movesOf returns a subject's moves by the state they leave.
func (s *Store) movesOf(ctx context.Context, subject string) (map[string]moveDoc, error) {
	docs, err := findAll[moveDoc](ctx, s.moves, bson.D{{Key: "subject", Value: subject}}, bson.D{{Key: "_id", Value: 1}})
	if err != nil {
		return nil, err
	}
	out := make(map[string]moveDoc, len(docs))
	for _, m := range docs {
		out[m.From] = m
	}
	return out, nil
}

func (s *Store) sessionList(ctx context.Context, filter bson.D, sort bson.D, keep func(ranks.ExamSession) bool) ([]ranks.ExamSession, error) {
	docs, err := findAll[sessionDoc](ctx, s.sessions, filter, sort)
	if err != nil {
		return nil, err
	}
	out := make([]ranks.ExamSession, 0, len(docs))
	for _, d := range docs {
		sess, err := s.assemble(ctx, d)
		if err != nil {
			return nil, err
		}
		if keep == nil || keep(sess) {
			out = append(out, sess)
		}
	}
	return out, nil
}

// Sessions implements ranks.ExamStore.
func (s *Store) Sessions(ctx context.Context, scheduleID string) ([]ranks.ExamSession, error) {
	return s.sessionList(ctx, bson.D{{Key: "schedule_id", Value: scheduleID}}, bson.D{{Key: "at", Value: -1}}, nil)
}

// SessionsDue implements ranks.ExamStore. The state_rank hint narrows the
// query to sessions not known to be finished; a stale hint (never ahead of
// the truth) only makes a finished session be read and dropped here.
func (s *Store) SessionsDue(ctx context.Context, t time.Time) ([]ranks.ExamSession, error) {
	return s.sessionList(ctx, bson.D{
		{Key: "state_rank", Value: bson.D{{Key: "$lt", Value: sessionRank[ranks.SessionGraded]}}},
		{Key: "deadline", Value: bson.D{{Key: "$lte", Value: t}}},
	}, bson.D{{Key: "deadline", Value: 1}, {Key: "_id", Value: 1}}, func(sess ranks.ExamSession) bool {
		return sess.State != ranks.SessionGraded && sess.State != ranks.SessionMissed
	})
}

// SetPairing implements ranks.ExamStore.
func (s *Store) SetPairing(ctx context.Context, id string, candidates, examiners []string, games []ranks.ExamGame, short map[string]int) (ranks.ExamSession, error) {
	if _, err := s.Session(ctx, id); err != nil {
		return ranks.ExamSession{}, err
	}
	err := insertOnce(ctx, s.pairings, pairingDoc{ID: id, Candidates: nonNil(candidates), Examiners: nonNil(examiners),
		Games: toGameDocs(games), Short: short})
	if err != nil {
		return ranks.ExamSession{}, err
	}
	return s.Session(ctx, id)
}

// MoveSession implements ranks.ExamStore: the move out of `from` is a
// document keyed by the session and `from`, so only one move can leave a
// state; it counts only if the session is in `from` now.
func (s *Store) MoveSession(ctx context.Context, id, from, to string, at time.Time) (ranks.ExamSession, error) {
	sess, err := s.Session(ctx, id)
	if err != nil || sess.State != from {
		return sess, err
	}
	subject := "session:" + id
	if err := insertOnce(ctx, s.moves, moveDoc{ID: subject + "|" + from, Subject: subject, From: from, To: to, At: at}); err != nil {
		return ranks.ExamSession{}, err
	}
	if sess, err = s.Session(ctx, id); err != nil {
		return ranks.ExamSession{}, err
	}
	_, err = s.sessions.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
		bson.D{{Key: "$max", Value: bson.D{{Key: "state_rank", Value: sessionRank[sess.State]}}}})
	return sess, err
}

// SettleGame implements ranks.ExamStore.
func (s *Store) SettleGame(ctx context.Context, id string, i int, st ranks.Settlement) (ranks.ExamSession, error) {
	sess, err := s.Session(ctx, id)
	if err != nil {
		return ranks.ExamSession{}, err
	}
	if i < 0 || i >= len(sess.Pairing) {
		return ranks.ExamSession{}, fmt.Errorf("examdb: session %s has no game %d: %w", id, i, ranks.ErrNotFound)
	}
	if err := insertOnce(ctx, s.settlements, settlementDoc{ID: sess.Pairing[i].ID, SessionID: id, Kind: st.Kind, Winner: st.Winner}); err != nil {
		return ranks.ExamSession{}, err
	}
	return s.Session(ctx, id)
}

// AddResult implements ranks.ExamStore.
func (s *Store) AddResult(ctx context.Context, r ranks.ExamResult) (ranks.ExamResult, error) {
	if err := insertOnce(ctx, s.results, toResultDoc(r)); err != nil {
		return ranks.ExamResult{}, err
	}
	return s.Result(ctx, r.ID)
}

// Result implements ranks.ExamStore.
func (s *Store) Result(ctx context.Context, id string) (ranks.ExamResult, error) {
	var d resultDoc
	if err := findOne(ctx, s.results, bson.D{{Key: "_id", Value: id}}, &d, "exam result "+id); err != nil {
		return ranks.ExamResult{}, err
	}
	moves, err := s.movesOf(ctx, "result:"+id)
	if err != nil {
		return ranks.ExamResult{}, err
	}
	return d.toDomain(moves)
}

func (s *Store) resultList(ctx context.Context, filter, sort bson.D, keep func(ranks.ExamResult) bool) ([]ranks.ExamResult, error) {
	docs, err := findAll[resultDoc](ctx, s.results, filter, sort)
	if err != nil {
		return nil, err
	}
	out := make([]ranks.ExamResult, 0, len(docs))
	for _, d := range docs {
		moves, err := s.movesOf(ctx, "result:"+d.ID)
		if err != nil {
			return nil, err
		}
		r, err := d.toDomain(moves)
		if err != nil {
			return nil, err
		}
		if keep == nil || keep(r) {
			out = append(out, r)
		}
	}
	return out, nil
}

// Results implements ranks.ExamStore.
func (s *Store) Results(ctx context.Context, sessionID string) ([]ranks.ExamResult, error) {
	return s.resultList(ctx, bson.D{{Key: "session_id", Value: sessionID}}, bson.D{{Key: "_id", Value: 1}}, nil)
}

// ResultsInState implements ranks.ExamStore, narrowing by the state hint
// to the states a result in `state` can be hinted as.
func (s *Store) ResultsInState(ctx context.Context, state string) ([]ranks.ExamResult, error) {
	hints := resultBefore[state]
	if hints == nil {
		hints = []string{state}
	}
	return s.resultList(ctx, bson.D{{Key: "state_hint", Value: bson.D{{Key: "$in", Value: hints}}}},
		bson.D{{Key: "graded_at", Value: 1}, {Key: "_id", Value: 1}},
		func(r ranks.ExamResult) bool { return r.State == state })
}

// MoveResult implements ranks.ExamStore, like MoveSession.
func (s *Store) MoveResult(ctx context.Context, id, from, to, by, reason string, at time.Time) (ranks.ExamResult, error) {
	r, err := s.Result(ctx, id)
	if err != nil || r.State != from {
		return r, err
	}
	subject := "result:" + id
	m := moveDoc{ID: subject + "|" + from, Subject: subject, From: from, To: to, At: at, By: by}
	if by != "" {
		m.Reason = reason
	}
	if err := insertOnce(ctx, s.moves, m); err != nil {
		return ranks.ExamResult{}, err
	}
	if r, err = s.Result(ctx, id); err != nil {
		return ranks.ExamResult{}, err
	}
	_, err = s.results.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: bson.D{{Key: "state_hint", Value: r.State}}}})
	return r, err
}
