package exams

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/ranks"
)

// Session states, in order. A session moves forward only, each step by a
// conditional update, so replicas and restarts agree on where it is.
const (
	SessionPairing = "pairing" // created; pairing and games being made
	SessionOpen    = "open"    // games made; being played until the deadline
	SessionGrading = "grading" // deadline passed; games settled, candidates graded
	SessionGraded  = "graded"  // every candidate graded and certified or queued
	SessionMissed  = "missed"  // opened only after its deadline (no replica ran then): no games, no grades
)

// Result states. A pass becomes certified at once, or waits for an
// admin's approval when the schedule says so.
const (
	ResultFailed    = "failed"
	ResultPassed    = "passed"            // to be certified now
	ResultAwaiting  = "awaiting_approval" // a pass waiting for an admin
	ResultApproved  = "approved"          // approved, to be certified now
	ResultRejected  = "rejected"          // an admin refused the pass
	ResultCertified = "certified"         // the certified rank is set
)

// Registration roles.
const (
	RoleCandidate = "candidate"
	RoleExaminer  = "examiner" // a volunteer at or above the target rank who plays candidates
)

// Registration is one player signed up for one session, as a candidate
// (by themselves or nominated by a teacher) or as a volunteer examiner.
type Registration struct {
	ID          string // SessionID + "/" + Player
	ScheduleID  string
	SessionID   string
	SessionAt   time.Time
	Player      string
	Role        string
	NominatedBy string // the teacher, for a nomination
	Waived      bool   // eligibility waived by the nomination
	LadderScore int    // when registering
	At          time.Time
}

// Game is one game of a session, a pending game of the intake under a
// source_id made from this ID (so that its result comes back through
// POST /api/v1/games like any game's).
type Game struct {
	ID          string // SessionID + "#" + number
	SessionID   string
	Black       string
	White       string
	BoardSize   int
	Rules       string
	TimeControl games.TimeControl
	Rated       bool      // also rated on the ladder
	Deadline    time.Time // unplayed by then: forfeit of the absent side
	Settled     *Settlement
}

// Session is one firing of a schedule.
type Session struct {
	ID         string
	ScheduleID string
	At         time.Time // the firing
	Deadline   time.Time
	Target     ranks.Rank
	WinsNeeded int
	Games      int // per candidate
	Approval   bool
	State      string
	Candidates []string
	Examiners  []string
	Paired     bool
	Pairing    []Game
	Short      map[string]int // candidates short of games, and by how many
	OpenedAt   time.Time
	GradedAt   time.Time
}

// Result is one candidate's grade in one session.
type Result struct {
	ID         string // SessionID + "/" + Player
	SessionID  string
	ScheduleID string
	Player     string
	Target     ranks.Rank
	Tally      Tally
	WinsNeeded int
	Evidence   []string // the candidate's exam game ids
	State      string
	GradedAt   time.Time
	DecidedBy  string // the admin who approved or rejected
	Reason     string
	DecidedAt  time.Time
}

// Store errors; adapters translate driver errors into these.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
	// ErrNotAwaiting: an approval or rejection of a promotion that is not
	// awaiting one (decided before, or not a pass). It is an ErrConflict.
	ErrNotAwaiting = fmt.Errorf("%w: the promotion is not awaiting approval", ErrConflict)
)

// Store keeps schedules, registrations, sessions and results (adapter
// exams/examdb). Every write is one document, conditional where it moves
// state, so a step repeated after a crash or by another replica finds its
// work done instead of doing it twice.
type Store interface {
	// CreateSchedule stores s; an existing id is ErrConflict.
	CreateSchedule(ctx context.Context, s Schedule) error
	Schedule(ctx context.Context, id string) (Schedule, error)
	Schedules(ctx context.Context) ([]Schedule, error)
	// AdvanceOpened moves the schedule's OpenedThrough forward to at
	// (never back).
	AdvanceOpened(ctx context.Context, id string, at time.Time) error

	// AddRegistration stores r unless r.ID exists; it returns the stored
	// registration and whether it was created now.
	AddRegistration(ctx context.Context, r Registration) (Registration, bool, error)
	Registrations(ctx context.Context, sessionID string) ([]Registration, error)
	// RemoveRegistration deletes the registration with this id and says
	// whether there was one (a withdrawal; removing it twice is no error).
	RemoveRegistration(ctx context.Context, id string) (bool, error)
	// RegistrationsOf lists every registration of the players, by id (a
	// class table's exam column).
	RegistrationsOf(ctx context.Context, players []string) ([]Registration, error)

	// CreateSession stores s unless s.ID exists and returns the stored one.
	CreateSession(ctx context.Context, s Session) (Session, error)
	Session(ctx context.Context, id string) (Session, error)
	// Sessions lists a schedule's sessions, newest first.
	Sessions(ctx context.Context, scheduleID string) ([]Session, error)
	// SessionsDue lists sessions not graded (nor missed) whose deadline is
	// at or before t.
	SessionsDue(ctx context.Context, t time.Time) ([]Session, error)
	// SetPairing stores the pairing unless the session has one, and
	// returns the stored session: the first pairing stored wins.
	SetPairing(ctx context.Context, id string, candidates, examiners []string, games []Game, short map[string]int) (Session, error)
	// MoveSession moves the state from `from` to `to` (setting at as
	// OpenedAt or GradedAt for open and graded) and returns the stored
	// session; from a state other than `from` it changes nothing.
	MoveSession(ctx context.Context, id, from, to string, at time.Time) (Session, error)
	// SettleGame sets game i's settlement unless it has one, and returns
	// the stored session.
	SettleGame(ctx context.Context, id string, i int, s Settlement) (Session, error)

	// AddResult stores r unless r.ID exists, and returns the stored one.
	AddResult(ctx context.Context, r Result) (Result, error)
	Result(ctx context.Context, id string) (Result, error)
	Results(ctx context.Context, sessionID string) ([]Result, error)
	// ResultsOf lists every result of the players, by id.
	ResultsOf(ctx context.Context, players []string) ([]Result, error)
	// ResultsInState lists results in state, oldest graded first (the
	// approval queue is ResultsInState(ResultAwaiting)).
	ResultsInState(ctx context.Context, state string) ([]Result, error)
	// MoveResult moves the state from `from` to `to` and returns the
	// stored result; from another state it changes nothing. A non-empty
	// by records an admin's decision: by, reason and at.
	MoveResult(ctx context.Context, id, from, to, by, reason string, at time.Time) (Result, error)
}

// ErrUnknownPlayer: a username that has no account that may play.
var ErrUnknownPlayer = errors.New("unknown player")

// Actor is the actor of certifications the exam job makes by itself.
const Actor = "system:exams"
