package ranks

import (
	"context"
	"errors"
	"time"
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

// ExamGame is one pending game of a session, created through the
// ExamGames port with this ID (so that its result comes back through
// POST /api/v1/games like any game's).
type ExamGame struct {
	ID          string // SessionID + "#" + number
	SessionID   string
	Black       string
	White       string
	BoardSize   int
	Rules       string
	TimeControl TimeControl
	Rated       bool      // also rated on the ladder
	Deadline    time.Time // unplayed by then: forfeit of the absent side
	Settled     *Settlement
}

// ExamSession is one firing of a schedule.
type ExamSession struct {
	ID         string
	ScheduleID string
	At         time.Time // the firing
	Deadline   time.Time
	Target     Rank
	WinsNeeded int
	Games      int // per candidate
	Approval   bool
	State      string
	Candidates []string
	Examiners  []string
	Paired     bool
	Pairing    []ExamGame
	Short      map[string]int // candidates short of games, and by how many
	OpenedAt   time.Time
	GradedAt   time.Time
}

// ExamResult is one candidate's grade in one session.
type ExamResult struct {
	ID         string // SessionID + "/" + Player
	SessionID  string
	ScheduleID string
	Player     string
	Target     Rank
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
)

// ExamStore keeps schedules, registrations, sessions and results (adapter
// ranks/examdb). Every write is one document, conditional where it moves
// state, so a step repeated after a crash or by another replica finds its
// work done instead of doing it twice.
type ExamStore interface {
	// CreateSchedule stores s; an existing id is ErrConflict.
	CreateSchedule(ctx context.Context, s ExamSchedule) error
	Schedule(ctx context.Context, id string) (ExamSchedule, error)
	Schedules(ctx context.Context) ([]ExamSchedule, error)
	// AdvanceOpened moves the schedule's OpenedThrough forward to at
	// (never back).
	AdvanceOpened(ctx context.Context, id string, at time.Time) error

	// AddRegistration stores r unless r.ID exists; it returns the stored
	// registration and whether it was created now.
	AddRegistration(ctx context.Context, r Registration) (Registration, bool, error)
	Registrations(ctx context.Context, sessionID string) ([]Registration, error)

	// CreateSession stores s unless s.ID exists and returns the stored one.
	CreateSession(ctx context.Context, s ExamSession) (ExamSession, error)
	Session(ctx context.Context, id string) (ExamSession, error)
	// Sessions lists a schedule's sessions, newest first.
	Sessions(ctx context.Context, scheduleID string) ([]ExamSession, error)
	// SessionsDue lists sessions not graded (nor missed) whose deadline is
	// at or before t.
	SessionsDue(ctx context.Context, t time.Time) ([]ExamSession, error)
	// SetPairing stores the pairing unless the session has one, and
	// returns the stored session: the first pairing stored wins.
	SetPairing(ctx context.Context, id string, candidates, examiners []string, games []ExamGame, short map[string]int) (ExamSession, error)
	// MoveSession moves the state from `from` to `to` (setting at as
	// OpenedAt or GradedAt for open and graded) and returns the stored
	// session; from a state other than `from` it changes nothing.
	MoveSession(ctx context.Context, id, from, to string, at time.Time) (ExamSession, error)
	// SettleGame sets game i's settlement unless it has one, and returns
	// the stored session.
	SettleGame(ctx context.Context, id string, i int, s Settlement) (ExamSession, error)

	// AddResult stores r unless r.ID exists, and returns the stored one.
	AddResult(ctx context.Context, r ExamResult) (ExamResult, error)
	Result(ctx context.Context, id string) (ExamResult, error)
	Results(ctx context.Context, sessionID string) ([]ExamResult, error)
	// ResultsInState lists results in state, oldest graded first (the
	// approval queue is ResultsInState(ResultAwaiting)).
	ResultsInState(ctx context.Context, state string) ([]ExamResult, error)
	// MoveResult moves the state from `from` to `to` and returns the
	// stored result; from another state it changes nothing. A non-empty
	// by records an admin's decision: by, reason and at.
	MoveResult(ctx context.Context, id, from, to, by, reason string, at time.Time) (ExamResult, error)
}

// The ports below are defined here, by their consumer, and implemented by
// the packages that own the data; cmd wires them.

// ExamGames is the games side: pending game records (the same records
// matchmaking creates) and their outcomes.
type ExamGames interface {
	// CreatePending creates the pending game g, idempotently by g.ID: a
	// second call with the same id creates nothing and is no error.
	CreatePending(ctx context.Context, g ExamGame) error
	// Outcome reports a game's result, or who showed up for an
	// unfinished one.
	Outcome(ctx context.Context, gameID string) (GameOutcome, error)
}

// ErrUnknownPlayer is what ExamPlayers returns (wrapped) for a username
// that has no account.
var ErrUnknownPlayer = errors.New("unknown player")

// ExamPlayers reads the ranks a player has.
type ExamPlayers interface {
	// LadderScore is the player's ladder score now.
	LadderScore(ctx context.Context, player string) (int, error)
	// CertifiedRank is the player's certified rank; the zero Rank for none.
	CertifiedRank(ctx context.Context, player string) (Rank, error)
}

// CertifiedChange is one change of a certified rank, with its evidence,
// for the ledger's audit chain.
type CertifiedChange struct {
	Key      string // idempotency key: "exam:" + result id
	Player   string
	Rank     Rank
	Cause    string // "exam"
	CauseID  string // the result id (session id + "/" + player)
	Evidence []string
	Actor    string // ExamActor, or the approving admin
	Reason   string
	At       time.Time
}

// ExamActor is the actor of certifications the exam job makes by itself.
const ExamActor = "system:exams"

// Certifier records certified-rank changes (in the ledger, as audit
// entries).
type Certifier interface {
	// SetCertified applies c once per c.Key: a repeated call with the same
	// key changes nothing and is no error.
	SetCertified(ctx context.Context, c CertifiedChange) error
}
