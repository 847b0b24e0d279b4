package examtest

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/weiqi-platform/rank/exams"
)

// Memory is a exams.Store in memory that answers as examdb does. It
// keeps the same facts, each decided once under the same key: a
// schedule, a registration, a session as opened, its pairing, each
// game's settlement, each result as graded, and each state move under
// "<subject>|<state it leaves>"; a session or result is read by folding
// its moves over its first state. Times come back as BSON dates keep
// them (UTC, to the millisecond), durations to the millisecond, and
// values are copied in and out, so no caller shares stored state. It is
// safe for concurrent use, and passes StoreContract.
type Memory struct {
	// Fail, when set, is asked at the start of every method with the
	// method's name ("CreateSession", "MoveResult", …); an error it
	// returns is the method's answer and nothing is done (an outage, or
	// a crash before the write). Set it before the store is shared; to
	// switch an outage on and off, have it read an atomic.
	Fail func(method string) error

	mu            sync.Mutex
	schedules     map[string]exams.Schedule
	registrations map[string]exams.Registration
	sessions      map[string]exams.Session // as opened: the fields examdb keeps
	opened        []string                 // session ids in the order opened
	pairings      map[string]memPairing
	settlements   map[string]memSettlement      // by game id
	moves         map[string]map[string]memMove // subject → the state it leaves → the move
	results       map[string]exams.Result       // as graded
}

type memPairing struct {
	candidates, examiners []string
	games                 []exams.Game
	short                 map[string]int
}

type memSettlement struct {
	session string
	exams.Settlement
}

type memMove struct {
	to         string
	at         time.Time
	by, reason string
}

var _ exams.Store = (*Memory)(nil)

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	return &Memory{
		schedules: map[string]exams.Schedule{}, registrations: map[string]exams.Registration{},
		sessions: map[string]exams.Session{}, pairings: map[string]memPairing{},
		settlements: map[string]memSettlement{}, moves: map[string]map[string]memMove{},
		results: map[string]exams.Result{},
	}
}

// enter runs the fault hook and refuses a finished context, as a driver
// call would.
func (m *Memory) enter(ctx context.Context, method string) error {
	if m.Fail != nil {
		if err := m.Fail(method); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("examtest: %s: %w", method, err)
	}
	return nil
}

// memTime is t as a BSON date keeps it.
func memTime(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// nonNil is a copy of s, empty rather than nil, as examdb reads an
// array back.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

func notFound(what string) error { return fmt.Errorf("examtest: %s: %w", what, exams.ErrNotFound) }

// CreateSchedule implements exams.Store.
func (m *Memory) CreateSchedule(ctx context.Context, s exams.Schedule) error {
	if err := m.enter(ctx, "CreateSchedule"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.schedules[s.ID]; ok {
		return fmt.Errorf("examtest: schedule %s exists: %w", s.ID, exams.ErrConflict)
	}
	s.RegistrationOpens = s.RegistrationOpens.Truncate(time.Millisecond)
	s.RegistrationCloses = s.RegistrationCloses.Truncate(time.Millisecond)
	s.SessionLength = s.SessionLength.Truncate(time.Millisecond)
	s.CreatedAt, s.OpenedThrough = memTime(s.CreatedAt), memTime(s.OpenedThrough)
	m.schedules[s.ID] = s
	return nil
}

// Schedule implements exams.Store.
func (m *Memory) Schedule(ctx context.Context, id string) (exams.Schedule, error) {
	if err := m.enter(ctx, "Schedule"); err != nil {
		return exams.Schedule{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.schedules[id]
	if !ok {
		return exams.Schedule{}, notFound("schedule " + id)
	}
	return s, nil
}

// Schedules implements exams.Store: by id.
func (m *Memory) Schedules(ctx context.Context) ([]exams.Schedule, error) {
	if err := m.enter(ctx, "Schedules"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := slices.Collect(maps.Values(m.schedules))
	slices.SortFunc(out, func(a, b exams.Schedule) int { return cmp.Compare(a.ID, b.ID) })
	return append([]exams.Schedule{}, out...), nil
}

// AdvanceOpened implements exams.Store: forward only; an unknown
// schedule is no error (examdb's update matches nothing).
func (m *Memory) AdvanceOpened(ctx context.Context, id string, at time.Time) error {
	if err := m.enter(ctx, "AdvanceOpened"); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.schedules[id]
	if at = memTime(at); ok && s.OpenedThrough.Before(at) {
		s.OpenedThrough = at
		m.schedules[id] = s
	}
	return nil
}

// AddRegistration implements exams.Store.
func (m *Memory) AddRegistration(ctx context.Context, r exams.Registration) (exams.Registration, bool, error) {
	if err := m.enter(ctx, "AddRegistration"); err != nil {
		return exams.Registration{}, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if stored, ok := m.registrations[r.ID]; ok {
		return stored, false, nil
	}
	stored := r
	stored.SessionAt, stored.At = memTime(r.SessionAt), memTime(r.At)
	m.registrations[r.ID] = stored
	return r, true, nil // as examdb: the caller's registration, as given
}

// Registrations implements exams.Store: the session's, by id.
func (m *Memory) Registrations(ctx context.Context, sessionID string) ([]exams.Registration, error) {
	if err := m.enter(ctx, "Registrations"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []exams.Registration{}
	for _, r := range m.registrations {
		if r.SessionID == sessionID {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b exams.Registration) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// RemoveRegistration implements exams.Store.
func (m *Memory) RemoveRegistration(ctx context.Context, id string) (bool, error) {
	if err := m.enter(ctx, "RemoveRegistration"); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.registrations[id]
	delete(m.registrations, id)
	return ok, nil
}

// RegistrationsOf implements exams.Store.
func (m *Memory) RegistrationsOf(ctx context.Context, players []string) ([]exams.Registration, error) {
	if err := m.enter(ctx, "RegistrationsOf"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []exams.Registration{}
	for _, r := range m.registrations {
		if slices.Contains(players, r.Player) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b exams.Registration) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// CreateSession implements exams.Store: a session is opened with the
// fields a firing gives it; its state, pairing and times come from what
// is done to it later.
func (m *Memory) CreateSession(ctx context.Context, s exams.Session) (exams.Session, error) {
	if err := m.enter(ctx, "CreateSession"); err != nil {
		return exams.Session{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.sessions[s.ID]; !ok {
		m.sessions[s.ID] = exams.Session{
			ID: s.ID, ScheduleID: s.ScheduleID, At: memTime(s.At), Deadline: memTime(s.Deadline), Target: s.Target,
			WinsNeeded: s.WinsNeeded, Games: s.Games, Approval: s.Approval,
		}
		m.opened = append(m.opened, s.ID)
	}
	return m.session(s.ID)
}

// Session implements exams.Store.
func (m *Memory) Session(ctx context.Context, id string) (exams.Session, error) {
	if err := m.enter(ctx, "Session"); err != nil {
		return exams.Session{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.session(id)
}

// fold follows the subject's moves from state: each move leaves one
// state, and is followed once (examdb would loop on a move back to a
// state already left; no caller makes one).
func (m *Memory) fold(subject, state string, apply func(memMove)) string {
	moves := m.moves[subject]
	left := map[string]bool{}
	for mv, ok := moves[state]; ok && !left[state]; mv, ok = moves[state] {
		left[state] = true
		state = mv.to
		apply(mv)
	}
	return state
}

// session assembles the session from what was decided about it.
func (m *Memory) session(id string) (exams.Session, error) {
	s, ok := m.sessions[id]
	if !ok {
		return exams.Session{}, notFound("session " + id)
	}
	s.State = m.fold("session:"+id, exams.SessionPairing, func(mv memMove) {
		switch mv.to {
		case exams.SessionOpen:
			s.OpenedAt = mv.at
		case exams.SessionGraded:
			s.GradedAt = mv.at
		}
	})
	s.Candidates, s.Examiners = []string{}, []string{}
	p, ok := m.pairings[id]
	if !ok {
		return s, nil
	}
	s.Paired, s.Candidates, s.Examiners = true, slices.Clone(p.candidates), slices.Clone(p.examiners)
	if len(p.short) > 0 {
		s.Short = maps.Clone(p.short)
	}
	for _, g := range p.games {
		g.SessionID, g.Deadline = id, s.Deadline
		if st, ok := m.settlements[g.ID]; ok && st.session == id {
			g.Settled = &exams.Settlement{Kind: st.Kind, Winner: st.Winner}
		}
		s.Pairing = append(s.Pairing, g)
	}
	return s, nil
}

// sessionList assembles the sessions keep selects, in the order opened,
// then sorted stably by cmp.
func (m *Memory) sessionList(keep func(exams.Session) bool, order func(a, b exams.Session) int) ([]exams.Session, error) {
	out := []exams.Session{}
	for _, id := range m.opened {
		s, err := m.session(id)
		if err != nil {
			return nil, err
		}
		if keep(s) {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, order)
	return out, nil
}

// Sessions implements exams.Store: the schedule's, newest first.
func (m *Memory) Sessions(ctx context.Context, scheduleID string) ([]exams.Session, error) {
	if err := m.enter(ctx, "Sessions"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sessionList(func(s exams.Session) bool { return s.ScheduleID == scheduleID },
		func(a, b exams.Session) int { return b.At.Compare(a.At) })
}

// SessionsDue implements exams.Store: by deadline, then id.
func (m *Memory) SessionsDue(ctx context.Context, t time.Time) ([]exams.Session, error) {
	if err := m.enter(ctx, "SessionsDue"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t = memTime(t)
	return m.sessionList(func(s exams.Session) bool {
		return !s.Deadline.After(t) && s.State != exams.SessionGraded && s.State != exams.SessionMissed
	}, func(a, b exams.Session) int {
		return cmp.Or(a.Deadline.Compare(b.Deadline), cmp.Compare(a.ID, b.ID))
	})
}

// SetPairing implements exams.Store: the first pairing stays.
func (m *Memory) SetPairing(ctx context.Context, id string, candidates, examiners []string, games []exams.Game, short map[string]int) (exams.Session, error) {
	if err := m.enter(ctx, "SetPairing"); err != nil {
		return exams.Session{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.sessions[id]; !ok {
		return exams.Session{}, notFound("session " + id)
	}
	if _, ok := m.pairings[id]; !ok {
		p := memPairing{candidates: nonNil(candidates), examiners: nonNil(examiners), short: maps.Clone(short)}
		for _, g := range games {
			// What examdb keeps of a game; the session gives the rest.
			p.games = append(p.games, exams.Game{ID: g.ID, Black: g.Black, White: g.White, BoardSize: g.BoardSize,
				Rules: g.Rules, TimeControl: g.TimeControl, Rated: g.Rated})
		}
		m.pairings[id] = p
	}
	return m.session(id)
}

// move stores the move of subject out of from, unless one left it.
func (m *Memory) move(subject, from string, mv memMove) {
	if m.moves[subject] == nil {
		m.moves[subject] = map[string]memMove{}
	}
	if _, ok := m.moves[subject][from]; !ok {
		mv.at = memTime(mv.at)
		m.moves[subject][from] = mv
	}
}

// MoveSession implements exams.Store.
func (m *Memory) MoveSession(ctx context.Context, id, from, to string, at time.Time) (exams.Session, error) {
	if err := m.enter(ctx, "MoveSession"); err != nil {
		return exams.Session{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.session(id)
	if err != nil || s.State != from {
		return s, err
	}
	m.move("session:"+id, from, memMove{to: to, at: at})
	return m.session(id)
}

// SettleGame implements exams.Store: the first settlement of a game
// stays.
func (m *Memory) SettleGame(ctx context.Context, id string, i int, st exams.Settlement) (exams.Session, error) {
	if err := m.enter(ctx, "SettleGame"); err != nil {
		return exams.Session{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.session(id)
	if err != nil {
		return exams.Session{}, err
	}
	if i < 0 || i >= len(s.Pairing) {
		return exams.Session{}, fmt.Errorf("examtest: session %s has no game %d: %w", id, i, exams.ErrNotFound)
	}
	if _, ok := m.settlements[s.Pairing[i].ID]; !ok {
		m.settlements[s.Pairing[i].ID] = memSettlement{session: id, Settlement: st}
	}
	return m.session(id)
}

// AddResult implements exams.Store: the first grade stays.
func (m *Memory) AddResult(ctx context.Context, r exams.Result) (exams.Result, error) {
	if err := m.enter(ctx, "AddResult"); err != nil {
		return exams.Result{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.results[r.ID]; !ok {
		// As graded: the decision comes from moves only.
		r.Evidence, r.GradedAt = nonNil(r.Evidence), memTime(r.GradedAt)
		r.DecidedBy, r.Reason, r.DecidedAt = "", "", time.Time{}
		m.results[r.ID] = r
	}
	return m.result(r.ID)
}

// Result implements exams.Store.
func (m *Memory) Result(ctx context.Context, id string) (exams.Result, error) {
	if err := m.enter(ctx, "Result"); err != nil {
		return exams.Result{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.result(id)
}

// result folds the result's moves over its grade.
func (m *Memory) result(id string) (exams.Result, error) {
	r, ok := m.results[id]
	if !ok {
		return exams.Result{}, notFound("exam result " + id)
	}
	r.Evidence = slices.Clone(r.Evidence)
	r.State = m.fold("result:"+id, r.State, func(mv memMove) {
		if mv.by != "" {
			r.DecidedBy, r.Reason, r.DecidedAt = mv.by, mv.reason, mv.at
		}
	})
	return r, nil
}

// resultList folds the results keep selects, sorted by order.
func (m *Memory) resultList(keep func(exams.Result) bool, order func(a, b exams.Result) int) ([]exams.Result, error) {
	out := []exams.Result{}
	for id := range m.results {
		r, err := m.result(id)
		if err != nil {
			return nil, err
		}
		if keep(r) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, order)
	return out, nil
}

// Results implements exams.Store: the session's, by id.
func (m *Memory) Results(ctx context.Context, sessionID string) ([]exams.Result, error) {
	if err := m.enter(ctx, "Results"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.resultList(func(r exams.Result) bool { return r.SessionID == sessionID },
		func(a, b exams.Result) int { return cmp.Compare(a.ID, b.ID) })
}

// ResultsOf implements exams.Store.
func (m *Memory) ResultsOf(ctx context.Context, players []string) ([]exams.Result, error) {
	if err := m.enter(ctx, "ResultsOf"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.resultList(func(r exams.Result) bool { return slices.Contains(players, r.Player) },
		func(a, b exams.Result) int { return cmp.Compare(a.ID, b.ID) })
}

// ResultsInState implements exams.Store: oldest graded first, then
// by id.
func (m *Memory) ResultsInState(ctx context.Context, state string) ([]exams.Result, error) {
	if err := m.enter(ctx, "ResultsInState"); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.resultList(func(r exams.Result) bool { return r.State == state },
		func(a, b exams.Result) int {
			return cmp.Or(a.GradedAt.Compare(b.GradedAt), cmp.Compare(a.ID, b.ID))
		})
}

// MoveResult implements exams.Store: a decision (by set) records
// who, why and when; a move by nobody keeps the decision there is.
func (m *Memory) MoveResult(ctx context.Context, id, from, to, by, reason string, at time.Time) (exams.Result, error) {
	if err := m.enter(ctx, "MoveResult"); err != nil {
		return exams.Result{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.result(id)
	if err != nil || r.State != from {
		return r, err
	}
	mv := memMove{to: to, at: at, by: by}
	if by != "" {
		mv.reason = reason
	}
	m.move("result:"+id, from, mv)
	return m.result(id)
}
