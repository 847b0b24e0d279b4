package examdb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/internal/mongox"
)

// Store implements exams.Store on a Mongo database.
type Store struct {
	schedules, registrations, sessions, results *mongo.Collection
	pairings, settlements, moves                *mongo.Collection
}

var _ exams.Store = (*Store)(nil)

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
		s.registrations: {{{Key: "session_id", Value: 1}}, {{Key: "player", Value: 1}}},
		s.sessions:      {{{Key: "schedule_id", Value: 1}, {Key: "at", Value: -1}}, {{Key: "state_rank", Value: 1}, {Key: "deadline", Value: 1}}},
		s.results:       {{{Key: "session_id", Value: 1}}, {{Key: "state_hint", Value: 1}, {Key: "graded_at", Value: 1}}, {{Key: "player", Value: 1}}},
		s.settlements:   {{{Key: "session_id", Value: 1}}},
		s.moves:         {{{Key: "subject", Value: 1}}},
	} {
		// One call per index: FerretDB v1 panics on a createIndexes of
		// several indexes that already exist (a second replica's Open).
		for _, k := range keys {
			if _, err := c.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: k}); err != nil {
				return nil, wrap("indexes of "+c.Name(), err)
			}
		}
	}
	return s, nil
}

// findOne decodes the document matching filter into doc, translating
// "no document" into exams.ErrNotFound.
func findOne(ctx context.Context, c *mongo.Collection, filter any, doc any, what string) error {
	err := c.FindOne(ctx, filter).Decode(doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return fmt.Errorf("examdb: %s: %w", what, exams.ErrNotFound)
	}
	return wrap("find one", err)
}

func findAll[D any](ctx context.Context, c *mongo.Collection, filter any, sort bson.D) ([]D, error) {
	cur, err := c.Find(ctx, filter, options.Find().SetSort(sort))
	if err != nil {
		return nil, wrap("find all", err)
	}
	var docs []D
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("find all", err)
	}
	return docs, nil
}

// CreateSchedule implements exams.Store.
func (s *Store) CreateSchedule(ctx context.Context, sch exams.Schedule) error {
	_, err := s.schedules.InsertOne(ctx, toScheduleDoc(sch))
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("examdb: schedule %s exists: %w", sch.ID, exams.ErrConflict)
	}
	return wrap("create schedule", err)
}

// Schedule implements exams.Store.
func (s *Store) Schedule(ctx context.Context, id string) (exams.Schedule, error) {
	var d scheduleDoc
	if err := findOne(ctx, s.schedules, bson.D{{Key: "_id", Value: id}}, &d, "schedule "+id); err != nil {
		return exams.Schedule{}, wrap("schedule", err)
	}
	return d.toDomain()
}

// Schedules implements exams.Store.
func (s *Store) Schedules(ctx context.Context) ([]exams.Schedule, error) {
	docs, err := findAll[scheduleDoc](ctx, s.schedules, bson.D{}, bson.D{{Key: "_id", Value: 1}})
	if err != nil {
		return nil, wrap("schedules", err)
	}
	out := make([]exams.Schedule, 0, len(docs))
	for _, d := range docs {
		sch, err := d.toDomain()
		if err != nil {
			return nil, wrap("schedules", err)
		}
		out = append(out, sch)
	}
	return out, nil
}

// AdvanceOpened implements exams.Store.
func (s *Store) AdvanceOpened(ctx context.Context, id string, at time.Time) error {
	_, err := s.schedules.UpdateOne(ctx,
		bson.D{{Key: "_id", Value: id}, {Key: "opened_through", Value: bson.D{{Key: "$lt", Value: at}}}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "opened_through", Value: at}}}})
	return wrap("advance opened", err)
}

// AddRegistration implements exams.Store.
func (s *Store) AddRegistration(ctx context.Context, r exams.Registration) (exams.Registration, bool, error) {
	_, err := s.registrations.InsertOne(ctx, toRegistrationDoc(r))
	if err == nil {
		return r, true, nil
	}
	if !mongo.IsDuplicateKeyError(err) {
		return exams.Registration{}, false, wrap("add registration", err)
	}
	var d registrationDoc
	if err := findOne(ctx, s.registrations, bson.D{{Key: "_id", Value: r.ID}}, &d, "registration "+r.ID); err != nil {
		return exams.Registration{}, false, wrap("add registration", err)
	}
	return d.toDomain(), false, nil
}

// Registrations implements exams.Store.
func (s *Store) Registrations(ctx context.Context, sessionID string) ([]exams.Registration, error) {
	docs, err := findAll[registrationDoc](ctx, s.registrations, bson.D{{Key: "session_id", Value: sessionID}}, bson.D{{Key: "_id", Value: 1}})
	if err != nil {
		return nil, wrap("registrations", err)
	}
	out := make([]exams.Registration, len(docs))
	for i, d := range docs {
		out[i] = d.toDomain()
	}
	return out, nil
}

// RemoveRegistration implements exams.Store: one delete by id.
func (s *Store) RemoveRegistration(ctx context.Context, id string) (bool, error) {
	res, err := s.registrations.DeleteOne(ctx, bson.D{{Key: "_id", Value: id}})
	if err != nil {
		return false, wrap("remove registration", err)
	}
	return res.DeletedCount == 1, nil
}

// RegistrationsOf implements exams.Store: one query, by the player index.
func (s *Store) RegistrationsOf(ctx context.Context, players []string) ([]exams.Registration, error) {
	docs, err := findAll[registrationDoc](ctx, s.registrations, bson.D{{Key: "player", Value: bson.D{{Key: "$in", Value: players}}}}, bson.D{{Key: "_id", Value: 1}})
	if err != nil {
		return nil, mongox.Wrap("examdb", "registrations of players", err)
	}
	out := make([]exams.Registration, len(docs))
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
		return wrap("insert once", err)
	}
	return nil
}

// CreateSession implements exams.Store.
func (s *Store) CreateSession(ctx context.Context, sess exams.Session) (exams.Session, error) {
	if err := insertOnce(ctx, s.sessions, toSessionDoc(sess)); err != nil {
		return exams.Session{}, wrap("create session", err)
	}
	return s.Session(ctx, sess.ID)
}

// Session implements exams.Store.
func (s *Store) Session(ctx context.Context, id string) (exams.Session, error) {
	var d sessionDoc
	if err := findOne(ctx, s.sessions, bson.D{{Key: "_id", Value: id}}, &d, "session "+id); err != nil {
		return exams.Session{}, wrap("session", err)
	}
	return s.assemble(ctx, d)
}

// assemble reads what happened to a session since it was created.
func (s *Store) assemble(ctx context.Context, d sessionDoc) (exams.Session, error) {
	var p *pairingDoc
	var pd pairingDoc
	switch err := findOne(ctx, s.pairings, bson.D{{Key: "_id", Value: d.ID}}, &pd, "pairing"); {
	case err == nil:
		p = &pd
	case !errors.Is(err, exams.ErrNotFound):
		return exams.Session{}, wrap("assemble", err)
	}
	settled := map[string]settlementDoc{}
	if p != nil {
		docs, err := findAll[settlementDoc](ctx, s.settlements, bson.D{{Key: "session_id", Value: d.ID}}, bson.D{{Key: "_id", Value: 1}})
		if err != nil {
			return exams.Session{}, wrap("assemble", err)
		}
		for _, st := range docs {
			settled[st.ID] = st
		}
	}
	moves, err := s.movesOf(ctx, "session:"+d.ID)
	if err != nil {
		return exams.Session{}, wrap("assemble", err)
	}
	return d.toDomain(p, settled, moves)
}

// movesOf returns a subject's moves by the state they leave.
func (s *Store) movesOf(ctx context.Context, subject string) (map[string]moveDoc, error) {
	docs, err := findAll[moveDoc](ctx, s.moves, bson.D{{Key: "subject", Value: subject}}, bson.D{{Key: "_id", Value: 1}})
	if err != nil {
		return nil, wrap("moves of", err)
	}
	out := make(map[string]moveDoc, len(docs))
	for _, m := range docs {
		out[m.From] = m
	}
	return out, nil
}

func (s *Store) sessionList(ctx context.Context, filter bson.D, sort bson.D, keep func(exams.Session) bool) ([]exams.Session, error) {
	docs, err := findAll[sessionDoc](ctx, s.sessions, filter, sort)
	if err != nil {
		return nil, wrap("session list", err)
	}
	out := make([]exams.Session, 0, len(docs))
	for _, d := range docs {
		sess, err := s.assemble(ctx, d)
		if err != nil {
			return nil, wrap("session list", err)
		}
		if keep == nil || keep(sess) {
			out = append(out, sess)
		}
	}
	return out, nil
}

// Sessions implements exams.Store.
func (s *Store) Sessions(ctx context.Context, scheduleID string) ([]exams.Session, error) {
	return s.sessionList(ctx, bson.D{{Key: "schedule_id", Value: scheduleID}}, bson.D{{Key: "at", Value: -1}}, nil)
}

// SessionsDue implements exams.Store. The state_rank hint narrows the
// query to sessions not known to be finished; a stale hint (never ahead of
// the truth) only makes a finished session be read and dropped here.
func (s *Store) SessionsDue(ctx context.Context, t time.Time) ([]exams.Session, error) {
	return s.sessionList(ctx, bson.D{
		{Key: "state_rank", Value: bson.D{{Key: "$lt", Value: sessionRank[exams.SessionGraded]}}},
		{Key: "deadline", Value: bson.D{{Key: "$lte", Value: t}}},
	}, bson.D{{Key: "deadline", Value: 1}, {Key: "_id", Value: 1}}, func(sess exams.Session) bool {
		return sess.State != exams.SessionGraded && sess.State != exams.SessionMissed
	})
}

// SetPairing implements exams.Store.
func (s *Store) SetPairing(ctx context.Context, id string, candidates, examiners []string, games []exams.Game, short map[string]int) (exams.Session, error) {
	if _, err := s.Session(ctx, id); err != nil {
		return exams.Session{}, wrap("set pairing", err)
	}
	err := insertOnce(ctx, s.pairings, pairingDoc{ID: id, Candidates: nonNil(candidates), Examiners: nonNil(examiners),
		Games: toGameDocs(games), Short: short})
	if err != nil {
		return exams.Session{}, wrap("set pairing", err)
	}
	return s.Session(ctx, id)
}

// MoveSession implements exams.Store: the move out of `from` is a
// document keyed by the session and `from`, so only one move can leave a
// state; it counts only if the session is in `from` now.
func (s *Store) MoveSession(ctx context.Context, id, from, to string, at time.Time) (exams.Session, error) {
	sess, err := s.Session(ctx, id)
	if err != nil || sess.State != from {
		return sess, wrap("move session", err)
	}
	subject := "session:" + id
	if err := insertOnce(ctx, s.moves, moveDoc{ID: subject + "|" + from, Subject: subject, From: from, To: to, At: at}); err != nil {
		return exams.Session{}, wrap("move session", err)
	}
	if sess, err = s.Session(ctx, id); err != nil {
		return exams.Session{}, wrap("move session", err)
	}
	_, err = s.sessions.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
		bson.D{{Key: "$max", Value: bson.D{{Key: "state_rank", Value: sessionRank[sess.State]}}}})
	return sess, wrap("move session", err)
}

// SettleGame implements exams.Store.
func (s *Store) SettleGame(ctx context.Context, id string, i int, st exams.Settlement) (exams.Session, error) {
	sess, err := s.Session(ctx, id)
	if err != nil {
		return exams.Session{}, wrap("settle game", err)
	}
	if i < 0 || i >= len(sess.Pairing) {
		return exams.Session{}, fmt.Errorf("examdb: session %s has no game %d: %w", id, i, exams.ErrNotFound)
	}
	if err := insertOnce(ctx, s.settlements, settlementDoc{ID: sess.Pairing[i].ID, SessionID: id, Kind: st.Kind, Winner: st.Winner}); err != nil {
		return exams.Session{}, wrap("settle game", err)
	}
	return s.Session(ctx, id)
}

// AddResult implements exams.Store.
func (s *Store) AddResult(ctx context.Context, r exams.Result) (exams.Result, error) {
	if err := insertOnce(ctx, s.results, toResultDoc(r)); err != nil {
		return exams.Result{}, wrap("add result", err)
	}
	return s.Result(ctx, r.ID)
}

// Result implements exams.Store.
func (s *Store) Result(ctx context.Context, id string) (exams.Result, error) {
	var d resultDoc
	if err := findOne(ctx, s.results, bson.D{{Key: "_id", Value: id}}, &d, "exam result "+id); err != nil {
		return exams.Result{}, wrap("result", err)
	}
	moves, err := s.movesOf(ctx, "result:"+id)
	if err != nil {
		return exams.Result{}, wrap("result", err)
	}
	return d.toDomain(moves)
}

func (s *Store) resultList(ctx context.Context, filter, sort bson.D, keep func(exams.Result) bool) ([]exams.Result, error) {
	docs, err := findAll[resultDoc](ctx, s.results, filter, sort)
	if err != nil {
		return nil, wrap("result list", err)
	}
	out := make([]exams.Result, 0, len(docs))
	for _, d := range docs {
		moves, err := s.movesOf(ctx, "result:"+d.ID)
		if err != nil {
			return nil, wrap("result list", err)
		}
		r, err := d.toDomain(moves)
		if err != nil {
			return nil, wrap("result list", err)
		}
		if keep == nil || keep(r) {
			out = append(out, r)
		}
	}
	return out, nil
}

// Results implements exams.Store.
func (s *Store) Results(ctx context.Context, sessionID string) ([]exams.Result, error) {
	return s.resultList(ctx, bson.D{{Key: "session_id", Value: sessionID}}, bson.D{{Key: "_id", Value: 1}}, nil)
}

// ResultsOf implements exams.Store: the results by the player index and
// all their moves in a second query (not one per result).
func (s *Store) ResultsOf(ctx context.Context, players []string) ([]exams.Result, error) {
	docs, err := findAll[resultDoc](ctx, s.results, bson.D{{Key: "player", Value: bson.D{{Key: "$in", Value: players}}}}, bson.D{{Key: "_id", Value: 1}})
	if err != nil || len(docs) == 0 {
		return nil, mongox.Wrap("examdb", "results of players", err)
	}
	subjects := make([]string, len(docs))
	for i, d := range docs {
		subjects[i] = "result:" + d.ID
	}
	moves, err := findAll[moveDoc](ctx, s.moves, bson.D{{Key: "subject", Value: bson.D{{Key: "$in", Value: subjects}}}}, bson.D{{Key: "_id", Value: 1}})
	if err != nil {
		return nil, mongox.Wrap("examdb", "results of players", err)
	}
	by := map[string]map[string]moveDoc{}
	for _, m := range moves {
		if by[m.Subject] == nil {
			by[m.Subject] = map[string]moveDoc{}
		}
		by[m.Subject][m.From] = m
	}
	out := make([]exams.Result, 0, len(docs))
	for i, d := range docs {
		r, err := d.toDomain(by[subjects[i]])
		if err != nil {
			return nil, mongox.Wrap("examdb", "results of players", err)
		}
		out = append(out, r)
	}
	return out, nil
}

// ResultsInState implements exams.Store, narrowing by the state hint
// to the states a result in `state` can be hinted as.
func (s *Store) ResultsInState(ctx context.Context, state string) ([]exams.Result, error) {
	hints := resultBefore[state]
	if hints == nil {
		hints = []string{state}
	}
	return s.resultList(ctx, bson.D{{Key: "state_hint", Value: bson.D{{Key: "$in", Value: hints}}}},
		bson.D{{Key: "graded_at", Value: 1}, {Key: "_id", Value: 1}},
		func(r exams.Result) bool { return r.State == state })
}

// MoveResult implements exams.Store, like MoveSession.
func (s *Store) MoveResult(ctx context.Context, id, from, to, by, reason string, at time.Time) (exams.Result, error) {
	r, err := s.Result(ctx, id)
	if err != nil || r.State != from {
		return r, wrap("move result", err)
	}
	subject := "result:" + id
	m := moveDoc{ID: subject + "|" + from, Subject: subject, From: from, To: to, At: at, By: by}
	if by != "" {
		m.Reason = reason
	}
	if err := insertOnce(ctx, s.moves, m); err != nil {
		return exams.Result{}, wrap("move result", err)
	}
	if r, err = s.Result(ctx, id); err != nil {
		return exams.Result{}, wrap("move result", err)
	}
	_, err = s.results.UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: bson.D{{Key: "state_hint", Value: r.State}}}})
	return r, wrap("move result", err)
}

// wrap names the operation of a driver error and marks connection trouble
// as an outage; the store's own answers (ErrNotFound, ErrConflict) pass
// as they are.
func wrap(op string, err error) error {
	if errors.Is(err, exams.ErrNotFound) || errors.Is(err, exams.ErrConflict) {
		return err
	}
	return mongox.Wrap("examdb", op, err)
}
