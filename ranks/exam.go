package ranks

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// Promotion exams (platform.md flow 4): an admin's ExamSchedule fires by
// a cron expression; each firing opens an ExamSession whose registered
// candidates play exam games; at its deadline each candidate is graded
// and a pass sets the certified rank (or waits for an admin's approval).

// Exam defaults and limits (issue 6), decided here.
const (
	DefaultExamGames         = 6
	DefaultExamWins          = 4
	MaxExamGames             = 20
	DefaultExamBoardSize     = 19
	DefaultExamRules         = "chinese"
	DefaultRegistrationOpens = 7 * 24 * time.Hour // before each session
	DefaultSessionLength     = 24 * time.Hour     // from the firing to the grading deadline
	MaxSessionLength         = 31 * 24 * time.Hour
)

// DefaultExamTimeControl is 20 minutes and 3×30 s byo-yomi.
var DefaultExamTimeControl = TimeControl{MainSeconds: 20 * 60, ByoYomiPeriods: 3, ByoYomiSeconds: 30}

// TimeControl is main time plus Japanese byo-yomi.
type TimeControl struct {
	MainSeconds    int `json:"main_seconds"`
	ByoYomiPeriods int `json:"byo_yomi_periods"`
	ByoYomiSeconds int `json:"byo_yomi_seconds"`
}

// Calendar reads cron expressions (with a CRON_TZ= zone). It is the port
// through which ranks uses cron without importing it: jobs.Calendar
// implements it.
type Calendar interface {
	// Next returns the first firing of spec strictly after t, or an error
	// saying what is wrong with spec.
	Next(spec string, after time.Time) (time.Time, error)
}

// ExamDraft is an exam schedule as an admin writes it (the body of
// POST /api/v1/exams). Empty or nil fields take the defaults; Build checks
// every field and names each bad one.
type ExamDraft struct {
	TargetRank         string       `json:"target_rank"`
	Cron               string       `json:"cron"`                // "CRON_TZ=Asia/Shanghai 0 19 * * SAT"
	RegistrationOpens  string       `json:"registration_opens"`  // Go duration before each session; default 168h
	RegistrationCloses string       `json:"registration_closes"` // Go duration before each session; default 0s (at the firing)
	SessionLength      string       `json:"session_length"`      // from the firing to grading; default 24h
	GamesPerCandidate  *int         `json:"games_per_candidate"` // default 6
	WinsNeeded         *int         `json:"wins_needed"`         // default 4
	MinLadderRank      string       `json:"min_ladder_rank"`     // default: one rank below the target
	NominationWaives   *bool        `json:"nomination_waives"`   // a teacher's nomination waives MinLadderRank; default true
	BoardSize          *int         `json:"board_size"`          // 9, 13 or 19; default 19
	Rules              string       `json:"rules"`               // rules preset; default chinese
	TimeControl        *TimeControl `json:"time_control"`        // default DefaultExamTimeControl
	Rated              *bool        `json:"rated"`               // exam games also move the ladder; default true
	NeedsApproval      bool         `json:"needs_approval"`      // a pass waits for an admin
}

// ExamSchedule is a validated exam schedule.
type ExamSchedule struct {
	ID                 string
	Target             Rank
	Cron               string
	RegistrationOpens  time.Duration
	RegistrationCloses time.Duration
	SessionLength      time.Duration
	Games              int
	WinsNeeded         int
	MinLadderRank      Rank
	NominationWaives   bool
	BoardSize          int
	Rules              string
	TimeControl        TimeControl
	Rated              bool
	NeedsApproval      bool
	CreatedBy          string
	CreatedAt          time.Time
	// OpenedThrough is the firing time up to which sessions have been
	// opened; the next session is the first firing after it.
	OpenedThrough time.Time
}

// ErrInvalid is wrapped by a *ValidationError.
var ErrInvalid = errors.New("invalid exam schedule")

// FieldError names one bad field (by its JSON name) and says why.
type FieldError struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

// ValidationError lists every bad field of an ExamDraft.
type ValidationError struct {
	Fields []FieldError
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Field + ": " + f.Reason
	}
	return "ranks: invalid exam schedule: " + strings.Join(parts, "; ")
}

// Unwrap lets errors.Is(err, ErrInvalid) match.
func (e *ValidationError) Unwrap() error { return ErrInvalid }

// ExamChecks are the outside checks Build needs: the cron port, and
// optionally the rules presets the rules engine knows (nil accepts any
// lower-case name).
type ExamChecks struct {
	Calendar Calendar
	Rules    func(name string) error
}

// Build validates d and returns the schedule with defaults filled in, or
// a *ValidationError naming every bad field. now becomes CreatedAt and
// OpenedThrough: no session fires for times before the schedule existed.
func (d ExamDraft) Build(c ExamChecks, id, by string, now time.Time) (ExamSchedule, error) {
	var bad []FieldError
	fail := func(field, reason string) { bad = append(bad, FieldError{field, reason}) }
	now = now.UTC().Truncate(time.Millisecond) // what a store keeps
	s := ExamSchedule{ID: id, CreatedBy: by, CreatedAt: now, OpenedThrough: now}

	switch r, err := Parse(d.TargetRank); {
	case strings.TrimSpace(d.TargetRank) == "":
		fail("target_rank", "required (e.g. 1d, 3k)")
	case err != nil:
		fail("target_rank", reasonOf(err))
	case r.Kind() == Pro:
		fail("target_rank", "professional ranks are not certified by exams")
	default:
		s.Target = r
	}

	s.Cron = strings.TrimSpace(d.Cron)
	switch {
	case s.Cron == "":
		fail("cron", `required (e.g. "CRON_TZ=Asia/Shanghai 0 19 * * SAT")`)
	case c.Calendar == nil:
		fail("cron", "no calendar to check it with")
	default:
		if _, err := c.Calendar.Next(s.Cron, now); err != nil {
			fail("cron", err.Error())
		}
	}

	duration := func(field, text string, def time.Duration) time.Duration {
		if strings.TrimSpace(text) == "" {
			return def
		}
		v, err := time.ParseDuration(strings.TrimSpace(text))
		if err != nil || v < 0 {
			fail(field, "want a non-negative duration such as 168h or 30m, not "+strconv.Quote(text))
			return def
		}
		return v
	}
	s.RegistrationOpens = duration("registration_opens", d.RegistrationOpens, DefaultRegistrationOpens)
	s.RegistrationCloses = duration("registration_closes", d.RegistrationCloses, 0)
	s.SessionLength = duration("session_length", d.SessionLength, DefaultSessionLength)
	if s.RegistrationOpens <= s.RegistrationCloses {
		fail("registration_opens", "must be longer before the session than registration_closes ("+s.RegistrationCloses.String()+")")
	}
	if s.SessionLength <= 0 || s.SessionLength > MaxSessionLength {
		fail("session_length", "must be more than 0 and at most "+MaxSessionLength.String())
	}

	s.Games = intOr(d.GamesPerCandidate, DefaultExamGames)
	if s.Games < 1 || s.Games > MaxExamGames {
		fail("games_per_candidate", "must be 1…"+strconv.Itoa(MaxExamGames)+", not "+strconv.Itoa(s.Games))
	}
	s.WinsNeeded = intOr(d.WinsNeeded, DefaultExamWins)
	if s.WinsNeeded < 1 || s.WinsNeeded > s.Games {
		fail("wins_needed", "must be 1…games_per_candidate ("+strconv.Itoa(s.Games)+"), not "+strconv.Itoa(s.WinsNeeded))
	}

	if strings.TrimSpace(d.MinLadderRank) != "" {
		switch r, err := Parse(d.MinLadderRank); {
		case err != nil:
			fail("min_ladder_rank", reasonOf(err))
		case r.Kind() == Pro:
			fail("min_ladder_rank", "professional ranks are not on the ladder")
		case !s.Target.IsZero() && r.Compare(s.Target) > 0:
			fail("min_ladder_rank", r.String()+" is above the target rank "+s.Target.String())
		default:
			s.MinLadderRank = r
		}
	} else if !s.Target.IsZero() {
		s.MinLadderRank = OneBelow(s.Target)
	}
	s.NominationWaives = boolOr(d.NominationWaives, true)

	s.BoardSize = intOr(d.BoardSize, DefaultExamBoardSize)
	if s.BoardSize != 9 && s.BoardSize != 13 && s.BoardSize != 19 {
		fail("board_size", "must be 9, 13 or 19, not "+strconv.Itoa(s.BoardSize))
	}
	s.Rules = strings.TrimSpace(d.Rules)
	if s.Rules == "" {
		s.Rules = DefaultExamRules
	}
	switch {
	case c.Rules != nil:
		if err := c.Rules(s.Rules); err != nil {
			fail("rules", err.Error())
		}
	case strings.ToLower(s.Rules) != s.Rules || strings.ContainsAny(s.Rules, " \t"):
		fail("rules", "want a rules preset name such as chinese or japanese")
	}
	s.TimeControl = DefaultExamTimeControl
	if d.TimeControl != nil {
		s.TimeControl = *d.TimeControl
		if reason := s.TimeControl.check(); reason != "" {
			fail("time_control", reason)
		}
	}
	s.Rated = boolOr(d.Rated, true)
	s.NeedsApproval = d.NeedsApproval

	if bad != nil {
		return ExamSchedule{}, &ValidationError{Fields: bad}
	}
	return s, nil
}

func (tc TimeControl) check() string {
	switch {
	case tc.MainSeconds < 0 || tc.ByoYomiPeriods < 0 || tc.ByoYomiSeconds < 0:
		return "times and periods must not be negative"
	case (tc.ByoYomiPeriods == 0) != (tc.ByoYomiSeconds == 0):
		return "byo_yomi_periods and byo_yomi_seconds go together"
	case tc.MainSeconds == 0 && tc.ByoYomiPeriods == 0:
		return "no time at all: give main_seconds or byo-yomi"
	}
	return ""
}

// reasonOf strips the package prefix off a ranks error for a field
// message.
func reasonOf(err error) string {
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe.Reason + " in " + strconv.Quote(pe.Input)
	}
	return strings.TrimPrefix(err.Error(), "ranks: ")
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

func boolOr(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

// OneBelow returns the rank one step below r on its scale (1d → 1k,
// 3k → 4k); the lowest kyu and the zero Rank stay as they are.
// Professional ranks step down within the pro scale.
func OneBelow(r Rank) Rank {
	switch {
	case r.kind == Dan && r.level == 1:
		return Rank{Kyu, 1}
	case r.kind == Kyu && r.level < MaxKyu:
		return Rank{Kyu, r.level + 1}
	case (r.kind == Dan || r.kind == Pro) && r.level > 1:
		return Rank{r.kind, r.level - 1}
	}
	return r
}

// SessionFor returns the firing time of the session a registration at
// now goes to, for a schedule whose registration closes `closes` before
// each session: the first firing more than `closes` after now.
func (s ExamSchedule) SessionFor(c Calendar, now time.Time) (time.Time, error) {
	return c.Next(s.Cron, now.Add(s.RegistrationCloses))
}

// ExamSessionID is the id of s's session firing at at; every replica
// derives the same one, which makes opening a session idempotent.
func ExamSessionID(scheduleID string, at time.Time) string {
	return scheduleID + "@" + at.UTC().Format(time.RFC3339)
}
