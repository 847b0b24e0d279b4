package exams

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// ErrNotEligible is wrapped by a *RefusalError.
var ErrNotEligible = errors.New("not eligible")

// Refusal codes: why a registration was refused.
const (
	RefuseNotOpen          = "registration_not_open"
	RefuseBelowMinRank     = "below_min_rank"
	RefuseAlreadyCertified = "already_certified"
	RefuseExaminerTooLow   = "examiner_below_target"
	RefuseRole             = "bad_role"
	RefuseRegisteredAs     = "registered_otherwise"
	RefuseNotRegistered    = "not_registered"      // a withdrawal with no registration to withdraw
	RefuseClosed           = "registration_closed" // a withdrawal once the session is paired
)

// RefusalError says why a registration was refused.
type RefusalError struct {
	Code   string
	Reason string
}

func (e *RefusalError) Error() string { return "ranks: registration refused: " + e.Reason }

// Unwrap lets errors.Is(err, ErrNotEligible) match.
func (e *RefusalError) Unwrap() error { return ErrNotEligible }

func refuse(code, format string, args ...any) error {
	return &RefusalError{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// ErrReasonRequired is returned by Approve and Reject without a reason.
var ErrReasonRequired = errors.New("a reason is required")

// maxCatchUp bounds the missed firings one schedule opens in one tick.
const maxCatchUp = 10

// Clock tells the service the time; tests inject a fixed one.
type Clock interface{ Now() time.Time }

// Service runs promotion exams: schedules, registrations, sessions
// opened at each firing and graded at their deadline. Every step is
// idempotent and resumable (see Store), so the exam job may run it on any
// replica, again after a crash, or twice at once.
//
// Exam games are pending games of the games intake; ladder scores and
// certified ranks are the rating service's, and a certification is one of
// its ledger entries; accounts are the players service's. The service
// calls them directly (games.go).
type Service struct {
	Store    Store
	Intake   *intake.Intake
	Ratings  *rating.Service
	Accounts *players.Service
	Calendar Calendar
	Clock    Clock
}

// CreateSchedule validates d and stores it under id (a fresh id when
// empty). Repeating the same create with the same id returns the stored
// schedule; another schedule under that id is ErrConflict.
func (s *Service) CreateSchedule(ctx context.Context, id string, d Draft, by string) (Schedule, error) {
	if id == "" {
		id = newID()
	}
	sch, err := d.Build(Checks{Calendar: s.Calendar}, id, by, s.Clock.Now())
	if err != nil {
		return Schedule{}, err
	}
	err = s.Store.CreateSchedule(ctx, sch)
	if errors.Is(err, ErrConflict) {
		old, gerr := s.Store.Schedule(ctx, id)
		if gerr == nil && sameSchedule(old, sch) {
			return old, nil
		}
	}
	if err != nil {
		return Schedule{}, err
	}
	return sch, nil
}

func sameSchedule(a, b Schedule) bool {
	a.CreatedAt, a.OpenedThrough, b.CreatedAt, b.OpenedThrough = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	return a == b
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// RegisterRequest is a registration: a player for themselves, or a
// teacher (NominatedBy) for a student. The caller (the API) has checked
// that the teacher teaches the student.
type RegisterRequest struct {
	ScheduleID  string
	Player      string
	Role        string // RoleCandidate (default) or RoleExaminer
	NominatedBy string
}

// Register signs the player up for the schedule's next session whose
// registration is open. It returns the registration and whether it was
// made now (false: the same registration existed). A refusal is a
// *RefusalError saying why.
func (s *Service) Register(ctx context.Context, req RegisterRequest) (Registration, bool, error) {
	sch, err := s.Store.Schedule(ctx, req.ScheduleID)
	if err != nil {
		return Registration{}, false, err
	}
	now := s.Clock.Now().UTC()
	at, err := sch.SessionFor(s.Calendar, now)
	if err != nil {
		return Registration{}, false, err
	}
	if at.IsZero() {
		return Registration{}, false, refuse(RefuseNotOpen, "the schedule fires no more sessions")
	}
	if opens := at.Add(-sch.RegistrationOpens); now.Before(opens) {
		return Registration{}, false, refuse(RefuseNotOpen, "registration for the session at %s opens at %s",
			at.UTC().Format(time.RFC3339), opens.UTC().Format(time.RFC3339))
	}
	// A session already being paired takes no one else: a registration
	// after its pairing would get no games and no grade.
	switch sess, err := s.Store.Session(ctx, SessionID(sch.ID, at)); {
	case err == nil && (sess.Paired || sess.State != SessionPairing):
		return Registration{}, false, refuse(RefuseNotOpen, "the session at %s is already paired", at.UTC().Format(time.RFC3339))
	case err != nil && !errors.Is(err, ErrNotFound):
		return Registration{}, false, err
	}
	role := req.Role
	if role == "" {
		role = RoleCandidate
	}
	r := Registration{
		ScheduleID: sch.ID, SessionID: SessionID(sch.ID, at), SessionAt: at.UTC(),
		Player: req.Player, Role: role, NominatedBy: req.NominatedBy, At: now,
	}
	r.ID = r.SessionID + "/" + r.Player

	st, err := s.state(ctx, req.Player)
	if err != nil {
		return Registration{}, false, err
	}
	certified, score := st.Certified, st.Score
	r.LadderScore = score
	ladder := ranks.FromScore(score)
	switch role {
	case RoleCandidate:
		if !certified.IsZero() && certified.Compare(sch.Target) >= 0 {
			return Registration{}, false, refuse(RefuseAlreadyCertified, "%s is already certified %s, at or above the exam's %s", req.Player, certified, sch.Target)
		}
		if ladder.Compare(sch.MinLadderRank) < 0 {
			if req.NominatedBy == "" || !sch.NominationWaives {
				hint := ""
				if sch.NominationWaives {
					hint = " (a teacher's nomination can waive this)"
				}
				return Registration{}, false, refuse(RefuseBelowMinRank, "%s's ladder rank %s (score %d) is below the %s this %s exam needs%s",
					req.Player, ladder, score, sch.MinLadderRank, sch.Target, hint)
			}
			r.Waived = true
		}
	case RoleExaminer:
		if req.NominatedBy != "" {
			return Registration{}, false, refuse(RefuseRole, "examiners volunteer themselves; they are not nominated")
		}
		if ladder.Compare(sch.Target) < 0 && (certified.IsZero() || certified.Compare(sch.Target) < 0) {
			return Registration{}, false, refuse(RefuseExaminerTooLow, "an examiner must be at or above %s; %s is %s on the ladder", sch.Target, req.Player, ladder)
		}
	default:
		return Registration{}, false, refuse(RefuseRole, "role must be %s or %s, not %q", RoleCandidate, RoleExaminer, role)
	}
	stored, created, err := s.Store.AddRegistration(ctx, r)
	if err != nil {
		return Registration{}, false, err
	}
	if !created && stored.Role != r.Role {
		return Registration{}, false, refuse(RefuseRegisteredAs, "%s is already registered for this session as %s", req.Player, stored.Role)
	}
	return stored, created, nil
}

// Withdraw takes the player's registration for the schedule's next
// session back, while that session is not paired yet. It returns the
// registration withdrawn. No registration is a *RefusalError coded
// RefuseNotRegistered; a session paired (or begun) already is one coded
// RefuseClosed: its games are made with the player in them.
func (s *Service) Withdraw(ctx context.Context, scheduleID, player string) (Registration, error) {
	sch, err := s.Store.Schedule(ctx, scheduleID)
	if err != nil {
		return Registration{}, err
	}
	regs, err := s.Store.RegistrationsOf(ctx, []string{player})
	if err != nil {
		return Registration{}, err
	}
	now := s.Clock.Now().UTC()
	var next, past *Registration
	for i := range regs {
		r := &regs[i]
		if r.ScheduleID != sch.ID {
			continue
		}
		if r.SessionAt.After(now) {
			if next == nil || r.SessionAt.Before(next.SessionAt) {
				next = r
			}
		} else if past == nil || r.SessionAt.After(past.SessionAt) {
			past = r
		}
	}
	if next == nil {
		if past != nil {
			return Registration{}, refuse(RefuseClosed, "the session at %s has begun; its registrations stand", past.SessionAt.UTC().Format(time.RFC3339))
		}
		return Registration{}, refuse(RefuseNotRegistered, "%s is not registered for the next session of %s", player, sch.ID)
	}
	r := *next
	paired := func() (bool, error) {
		sess, err := s.Store.Session(ctx, r.SessionID)
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return sess.Paired || sess.State != SessionPairing, nil
	}
	if p, err := paired(); err != nil || p {
		if err == nil {
			err = refuse(RefuseClosed, "the session at %s is already paired", r.SessionAt.UTC().Format(time.RFC3339))
		}
		return Registration{}, err
	}
	removed, err := s.Store.RemoveRegistration(ctx, r.ID)
	if err != nil {
		return Registration{}, err
	}
	if !removed {
		return Registration{}, refuse(RefuseNotRegistered, "%s is not registered for the next session of %s", player, sch.ID)
	}
	// A pairing made between the check and the removal may have read the
	// registration: then it stands, put back as it was.
	if sess, err := s.Store.Session(ctx, r.SessionID); err == nil && sess.Paired &&
		(slices.Contains(sess.Candidates, player) || slices.Contains(sess.Examiners, player)) {
		if _, _, err := s.Store.AddRegistration(ctx, r); err != nil {
			return Registration{}, err
		}
		return Registration{}, refuse(RefuseClosed, "the session at %s is already paired", r.SessionAt.UTC().Format(time.RFC3339))
	} else if err != nil && !errors.Is(err, ErrNotFound) {
		return Registration{}, err
	}
	return r, nil
}

// Tick does the exam work due at `at`: it opens the sessions of every
// firing up to at that is not open yet (catching up on firings missed
// while no replica ran), then grades the sessions whose deadline has
// passed. The exam job calls it with its firing time, so a resumed run
// does the same work.
func (s *Service) Tick(ctx context.Context, at time.Time) error {
	var errs []error
	schedules, err := s.Store.Schedules(ctx)
	if err != nil {
		return err
	}
	for _, sch := range schedules {
		if err := s.openDue(ctx, sch, at); err != nil {
			errs = append(errs, fmt.Errorf("exam schedule %s: %w", sch.ID, err))
		}
	}
	due, err := s.Store.SessionsDue(ctx, at)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	for _, sess := range due {
		if _, err := s.Grade(ctx, sess.ID, at); err != nil {
			errs = append(errs, fmt.Errorf("exam session %s: %w", sess.ID, err))
		}
	}
	return errors.Join(errs...)
}

func (s *Service) openDue(ctx context.Context, sch Schedule, at time.Time) error {
	for range maxCatchUp {
		f, err := s.Calendar.Next(sch.Cron, sch.OpenedThrough)
		if err != nil {
			return err
		}
		if f.IsZero() || f.After(at) {
			return nil
		}
		if _, err := s.OpenSession(ctx, sch, f, at); err != nil {
			return err
		}
		if err := s.Store.AdvanceOpened(ctx, sch.ID, f); err != nil {
			return err
		}
		sch.OpenedThrough = f
	}
	return nil
}

// OpenSession opens the session of sch firing at f, as of now: it
// creates the session, pairs its registered candidates, stores the
// pairing and creates the games as pending games. Each step is
// idempotent; calling it again finishes what a crash left. A session
// opened only after its deadline is marked missed.
func (s *Service) OpenSession(ctx context.Context, sch Schedule, f, now time.Time) (Session, error) {
	sess, err := s.Store.CreateSession(ctx, Session{
		ID: SessionID(sch.ID, f), ScheduleID: sch.ID, At: f.UTC(), Deadline: f.Add(sch.SessionLength).UTC(),
		Target: sch.Target, WinsNeeded: sch.WinsNeeded, Games: sch.Games, Approval: sch.NeedsApproval,
		State: SessionPairing,
	})
	if err != nil {
		return Session{}, err
	}
	return s.finishOpening(ctx, sess, sch, now)
}

func (s *Service) finishOpening(ctx context.Context, sess Session, sch Schedule, now time.Time) (Session, error) {
	if sess.State != SessionPairing {
		return sess, nil
	}
	if !sess.Paired {
		if !now.Before(sess.Deadline) {
			return s.Store.MoveSession(ctx, sess.ID, SessionPairing, SessionMissed, now)
		}
		var err error
		if sess, err = s.pair(ctx, sess, sch); err != nil {
			return Session{}, err
		}
	}
	for _, g := range sess.Pairing {
		if err := s.createGame(ctx, g); err != nil {
			return Session{}, fmt.Errorf("create exam game %s: %w", g.ID, err)
		}
	}
	return s.Store.MoveSession(ctx, sess.ID, SessionPairing, SessionOpen, now)
}

// pair reads the registrations and the ladder, pairs, and stores the
// pairing (the first stored wins, so a concurrent opener's pairing is
// used if it was first).
func (s *Service) pair(ctx context.Context, sess Session, sch Schedule) (Session, error) {
	regs, err := s.Store.Registrations(ctx, sess.ID)
	if err != nil {
		return Session{}, err
	}
	var cands, exams []Entrant
	var candNames, examNames []string
	for _, r := range regs {
		st, err := s.state(ctx, r.Player)
		if errors.Is(err, ErrUnknownPlayer) {
			continue // the account is gone
		}
		if err != nil {
			return Session{}, err
		}
		score := st.Score
		// Decided: a volunteer examiner plays at most as many games as a
		// candidate does.
		e := Entrant{Player: r.Player, Score: score, Capacity: sch.Games}
		if r.Role == RoleExaminer {
			exams = append(exams, e)
			examNames = append(examNames, r.Player)
		} else {
			cands = append(cands, e)
			candNames = append(candNames, r.Player)
		}
	}
	p := PairEntrants(cands, exams, sch.Games)
	games := make([]Game, len(p.Games))
	for i, pg := range p.Games {
		games[i] = Game{
			ID: sess.ID + "#" + strconv.Itoa(i+1), SessionID: sess.ID, Black: pg.Black, White: pg.White,
			BoardSize: sch.BoardSize, Rules: sch.Rules, TimeControl: sch.TimeControl, Rated: sch.Rated,
			Deadline: sess.Deadline,
		}
	}
	return s.Store.SetPairing(ctx, sess.ID, candNames, examNames, games, p.Short)
}

// Grade grades the session as of now if its deadline has passed: it
// settles each game once (an unplayed game is a forfeit of the absent
// side, void when both were absent), grades each candidate once, and
// certifies each pass or queues it for approval. A crash anywhere is
// repaired by calling it again: settled games and stored results are
// reused, never recomputed, and certification is idempotent by result.
func (s *Service) Grade(ctx context.Context, id string, now time.Time) (Session, error) {
	sess, err := s.Store.Session(ctx, id)
	if err != nil {
		return Session{}, err
	}
	if sess.State == SessionPairing {
		sch, err := s.Store.Schedule(ctx, sess.ScheduleID)
		if err != nil {
			return Session{}, err
		}
		if sess, err = s.finishOpening(ctx, sess, sch, now); err != nil {
			return Session{}, err
		}
	}
	if sess.State == SessionOpen {
		if now.Before(sess.Deadline) {
			return sess, nil
		}
		if sess, err = s.Store.MoveSession(ctx, id, SessionOpen, SessionGrading, now); err != nil {
			return Session{}, err
		}
	}
	if sess.State != SessionGrading {
		return sess, nil // graded or missed
	}
	for i, g := range sess.Pairing {
		if g.Settled != nil {
			continue
		}
		o, err := s.outcome(ctx, g.ID)
		if err != nil {
			return Session{}, fmt.Errorf("outcome of exam game %s: %w", g.ID, err)
		}
		if sess, err = s.Store.SettleGame(ctx, id, i, Settle(g.Black, g.White, o)); err != nil {
			return Session{}, err
		}
	}
	for _, c := range sess.Candidates {
		r, err := s.gradeCandidate(ctx, sess, c, now)
		if err != nil {
			return Session{}, err
		}
		if _, err := s.certify(ctx, r, now); err != nil {
			return Session{}, err
		}
	}
	return s.Store.MoveSession(ctx, id, SessionGrading, SessionGraded, now)
}

// gradeCandidate returns the candidate's stored result, or grades them
// from the settled games and stores it (the first stored wins).
func (s *Service) gradeCandidate(ctx context.Context, sess Session, player string, now time.Time) (Result, error) {
	id := sess.ID + "/" + player
	r, err := s.Store.Result(ctx, id)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return r, err
	}
	t := TallyGames(player, sess.Pairing)
	state := ResultFailed
	switch {
	case t.Passes(sess.WinsNeeded) && sess.Approval:
		state = ResultAwaiting
	case t.Passes(sess.WinsNeeded):
		state = ResultPassed
	}
	var evidence []string
	for _, g := range sess.Pairing {
		if g.Black == player || g.White == player {
			evidence = append(evidence, g.ID)
		}
	}
	return s.Store.AddResult(ctx, Result{
		ID: id, SessionID: sess.ID, ScheduleID: sess.ScheduleID, Player: player, Target: sess.Target,
		Tally: t, WinsNeeded: sess.WinsNeeded, Evidence: evidence, State: state, GradedAt: now.UTC(),
	})
}

// certify sets the certified rank of a passed or approved result and
// marks it certified; other states are left as they are.
func (s *Service) certify(ctx context.Context, r Result, now time.Time) (Result, error) {
	if r.State != ResultPassed && r.State != ResultApproved {
		return r, nil
	}
	actor, reason, at := Actor, fmt.Sprintf("passed the %s exam: %d of %d wins needed", r.Target, r.Tally.Wins, r.WinsNeeded), r.GradedAt
	if r.State == ResultApproved {
		actor, reason, at = r.DecidedBy, reason+"; approved: "+r.Reason, r.DecidedAt
	}
	// One ledger entry of cause exam per result; an exam never lowers a
	// certified rank (a higher one stays, and the entry records the pass).
	_, err := s.Ratings.Change(ctx, rating.ChangeInput{
		Key: "exam:" + r.ID, Player: r.Player, Cause: rating.CauseExam, CauseID: r.ID, Certify: r.Target, KeepHigher: true,
		Actor: actor, Reason: reason, Evidence: r.Evidence, At: at,
	})
	if err != nil {
		return Result{}, fmt.Errorf("certify %s: %w", r.ID, err)
	}
	return s.Store.MoveResult(ctx, r.ID, r.State, ResultCertified, "", "", now)
}

// Approve approves a pass awaiting approval and certifies it. Repeating
// the approval by the same admin is no error.
func (s *Service) Approve(ctx context.Context, resultID, admin, reason string) (Result, error) {
	return s.decide(ctx, resultID, admin, reason, ResultApproved)
}

// Reject refuses a pass awaiting approval; nothing is certified.
func (s *Service) Reject(ctx context.Context, resultID, admin, reason string) (Result, error) {
	return s.decide(ctx, resultID, admin, reason, ResultRejected)
}

func (s *Service) decide(ctx context.Context, id, admin, reason, to string) (Result, error) {
	if reason == "" {
		return Result{}, ErrReasonRequired
	}
	if n := utf8.RuneCountInString(reason); n > MaxDecisionReason {
		return Result{}, &ValidationError{Fields: []FieldError{{"reason", fmt.Sprintf("is %d characters, longer than the limit of %d", n, MaxDecisionReason)}}}
	}
	if err := rating.CheckReason(reason); err != nil {
		return Result{}, &ValidationError{Fields: []FieldError{{"reason", strings.TrimPrefix(err.Error(), "rating: reason ")}}}
	}
	r, err := s.Store.Result(ctx, id)
	if err != nil {
		return Result{}, err
	}
	if r.State == ResultAwaiting {
		if r, err = s.Store.MoveResult(ctx, id, ResultAwaiting, to, admin, reason, s.Clock.Now().UTC()); err != nil {
			return Result{}, err
		}
	}
	done := map[string]bool{ResultApproved: r.State == ResultApproved || r.State == ResultCertified, ResultRejected: r.State == ResultRejected}
	if !done[to] || r.DecidedBy != admin {
		return Result{}, fmt.Errorf("%w: result %s is %s", ErrNotAwaiting, id, r.State)
	}
	if to == ResultApproved {
		return s.certify(ctx, r, s.Clock.Now())
	}
	return r, nil
}
