package exams

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// Promotion exams (platform.md flow 4): an admin's Schedule fires by
// a cron expression; each firing opens an Session whose registered
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
	// MaxRegistrationOpens: registration opens at most 90 days before a
	// session (issue 11: 1,000,000 hours was accepted).
	MaxRegistrationOpens = 90 * 24 * time.Hour
	// MaxDecisionReason bounds an admin's reason to approve or reject a
	// pass, in characters: it goes into the certification's reason with
	// the tally, within rating.MaxReason.
	MaxDecisionReason = rating.MaxReason - 200
)

// DefaultTimeControl is 20 minutes and 3×30 s byo-yomi.
var DefaultTimeControl = games.TimeControl{Main: 20 * time.Minute, Periods: 3, Period: 30 * time.Second}

// TimeControlSeconds is a time control as an exam draft writes it, in
// whole seconds; Build turns it into the rules engine's one TimeControl.
type TimeControlSeconds struct {
	MainSeconds    int64 `json:"main_seconds"`
	ByoYomiPeriods int64 `json:"byo_yomi_periods"`
	ByoYomiSeconds int64 `json:"byo_yomi_seconds"`
}

// SecondsOf writes a time control the way a draft does.
func SecondsOf(tc games.TimeControl) TimeControlSeconds {
	return TimeControlSeconds{MainSeconds: int64(tc.Main / time.Second), ByoYomiPeriods: int64(tc.Periods), ByoYomiSeconds: int64(tc.Period / time.Second)}
}

// timeControl checks the draft's time control against the rules engine's
// limits; the reason names the draft's own fields.
func (d TimeControlSeconds) timeControl() (games.TimeControl, string) {
	switch {
	case d.MainSeconds < 0 || d.ByoYomiPeriods < 0 || d.ByoYomiSeconds < 0:
		return games.TimeControl{}, "times and periods must not be negative"
	case (d.ByoYomiPeriods == 0) != (d.ByoYomiSeconds == 0):
		return games.TimeControl{}, "byo_yomi_periods and byo_yomi_seconds go together"
	case d.MainSeconds == 0 && d.ByoYomiPeriods == 0:
		return games.TimeControl{}, "no time at all: give main_seconds or byo-yomi"
	}
	tc, err := games.Seconds(d.MainSeconds, d.ByoYomiPeriods, d.ByoYomiSeconds)
	if err == nil {
		tc, err = tc.Normalize()
	}
	var ie *games.InvalidRecordError
	if errors.As(err, &ie) {
		return games.TimeControl{}, ie.Msg
	}
	return tc, ""
}

// Calendar reads cron expressions (with a CRON_TZ= zone). It is the port
// through which exams uses cron without importing it (only jobs imports
// cron): jobs.Calendar
// implements it.
type Calendar interface {
	// Next returns the first firing of spec strictly after t, or an error
	// saying what is wrong with spec.
	Next(spec string, after time.Time) (time.Time, error)
}

// Draft is an exam schedule as an admin writes it (the body of
// POST /api/v1/exams). Empty or nil fields take the defaults; Build checks
// every field and names each bad one.
type Draft struct {
	TargetRank         string              `json:"target_rank"`
	Cron               string              `json:"cron"`                // "CRON_TZ=Asia/Shanghai 0 19 * * SAT"
	RegistrationOpens  string              `json:"registration_opens"`  // Go duration before each session; default 168h
	RegistrationCloses string              `json:"registration_closes"` // Go duration before each session; default 0s (at the firing)
	SessionLength      string              `json:"session_length"`      // from the firing to grading; default 24h
	GamesPerCandidate  *int                `json:"games_per_candidate"` // default 6
	WinsNeeded         *int                `json:"wins_needed"`         // default 4
	MinLadderRank      string              `json:"min_ladder_rank"`     // default: one rank below the target
	NominationWaives   *bool               `json:"nomination_waives"`   // a teacher's nomination waives MinLadderRank; default true
	BoardSize          *int                `json:"board_size"`          // 9, 13 or 19; default 19
	Rules              string              `json:"rules"`               // rules preset; default chinese
	TimeControl        *TimeControlSeconds `json:"time_control"`        // default DefaultTimeControl
	Rated              *bool               `json:"rated"`               // exam games also move the ladder; default true
	NeedsApproval      bool                `json:"needs_approval"`      // a pass waits for an admin
}

// Schedule is a validated exam schedule.
type Schedule struct {
	ID                 string
	Target             ranks.Rank
	Cron               string
	RegistrationOpens  time.Duration
	RegistrationCloses time.Duration
	SessionLength      time.Duration
	Games              int
	WinsNeeded         int
	MinLadderRank      ranks.Rank
	NominationWaives   bool
	BoardSize          int
	Rules              string
	TimeControl        games.TimeControl
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

// ValidationError lists every bad field of an Draft.
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

// Checks are the outside checks Build needs: the cron port (rules are
// checked against the rules engine's presets).
type Checks struct {
	Calendar Calendar
}

// Build validates d and returns the schedule with defaults filled in, or
// a *ValidationError naming every bad field. now becomes CreatedAt and
// OpenedThrough: no session fires for times before the schedule existed.
func (d Draft) Build(c Checks, id, by string, now time.Time) (Schedule, error) {
	var bad []FieldError
	fail := func(field, reason string) { bad = append(bad, FieldError{field, reason}) }
	now = now.UTC().Truncate(time.Millisecond) // what a store keeps
	s := Schedule{ID: id, CreatedBy: by, CreatedAt: now, OpenedThrough: now}

	switch r, err := ranks.Parse(d.TargetRank); {
	case strings.TrimSpace(d.TargetRank) == "":
		fail("target_rank", "required (e.g. 1d, 3k)")
	case err != nil:
		fail("target_rank", reasonOf(err))
	case r.Kind() == ranks.Pro:
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
	if s.RegistrationOpens > MaxRegistrationOpens {
		fail("registration_opens", "must be at most "+MaxRegistrationOpens.String()+" before the session, not "+s.RegistrationOpens.String())
	}
	if s.RegistrationOpens <= s.RegistrationCloses {
		fail("registration_opens", "must be longer before the session than registration_closes ("+s.RegistrationCloses.String()+")")
	}
	if s.SessionLength <= 0 || s.SessionLength > MaxSessionLength {
		fail("session_length", "must be more than 0 and at most "+MaxSessionLength.String())
	} else if c.Calendar != nil && s.Cron != "" {
		// A session is open from its firing until it is graded, and a
		// registration names one session: a schedule's sessions follow
		// one another.
		gap, ok := shortestGap(c.Calendar, s.Cron, now)
		if ok && gap < s.SessionLength && strings.TrimSpace(d.SessionLength) == "" {
			s.SessionLength = gap // the default (24h) would overlap: as long as the gap allows
		}
		if ok && gap < s.SessionLength {
			fail("session_length", fmt.Sprintf("must be at most %s, the shortest time between two sessions of cron %q (sessions may not overlap), not %s",
				gap, s.Cron, s.SessionLength))
		}
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
		switch r, err := ranks.Parse(d.MinLadderRank); {
		case err != nil:
			fail("min_ladder_rank", reasonOf(err))
		case r.Kind() == ranks.Pro:
			fail("min_ladder_rank", "professional ranks are not on the ladder")
		case !s.Target.IsZero() && r.Compare(s.Target) > 0:
			fail("min_ladder_rank", r.String()+" is above the target rank "+s.Target.String())
		default:
			s.MinLadderRank = r
		}
	} else if !s.Target.IsZero() {
		s.MinLadderRank = ranks.OneBelow(s.Target)
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
	// A preset by its name, as the engine's table writes it (a record's
	// RU may say "Chinese Rules"; a schedule names the preset).
	if !slices.Contains(games.RulesetNames(), s.Rules) {
		fail("rules", fmt.Sprintf("unknown rules %q: want a rules preset name: %s", s.Rules, strings.Join(games.RulesetNames(), ", ")))
	}
	s.TimeControl = DefaultTimeControl
	if d.TimeControl != nil {
		tc, reason := d.TimeControl.timeControl()
		if reason != "" {
			fail("time_control", reason)
		}
		s.TimeControl = tc
	}
	s.Rated = boolOr(d.Rated, true)
	s.NeedsApproval = d.NeedsApproval

	if bad != nil {
		return Schedule{}, &ValidationError{Fields: bad}
	}
	return s, nil
}

// reasonOf strips the package prefix off a ranks error for a field
// message.
func reasonOf(err error) string {
	var pe *ranks.ParseError
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

// SessionFor returns the firing time of the session a registration at
// now goes to, for a schedule whose registration closes `closes` before
// each session: the first firing more than `closes` after now.
func (s Schedule) SessionFor(c Calendar, now time.Time) (time.Time, error) {
	return c.Next(s.Cron, now.Add(s.RegistrationCloses))
}

// SessionID is the id of s's session firing at at; every replica
// derives the same one, which makes opening a session idempotent.
func SessionID(scheduleID string, at time.Time) string {
	return scheduleID + "@" + at.UTC().Format(time.RFC3339)
}

// gapHorizon is how far ahead shortestGap looks, and gapFirings how many
// firings it follows from a start: sessions last at most
// MaxSessionLength, so a year shows every gap that matters, and the
// firings around each change of the cron's zone's offset (daylight-saving
// time) are followed besides, for a cron that fires too often for a year
// of firings.
const (
	gapHorizon = 366 * 24 * time.Hour
	gapFirings = 1000
	gapAround  = 26 * time.Hour // before an offset's change, where its firings are followed from
)

// shortestGap is the shortest time between two consecutive firings of
// cron within gapHorizon after now; ok is false when it fires at most
// once in it.
func shortestGap(cal Calendar, cron string, now time.Time) (gap time.Duration, ok bool) {
	from := func(start time.Time) {
		prev, err := cal.Next(cron, start)
		if err != nil {
			return
		}
		for range gapFirings {
			next, err := cal.Next(cron, prev)
			if err != nil || next.Sub(now) > gapHorizon || next.Sub(start) > 2*gapAround && !start.Equal(now) {
				return
			}
			if d := next.Sub(prev); !ok || d < gap {
				gap, ok = d, true
			}
			prev = next
		}
	}
	from(now)
	for _, t := range offsetChanges(cronZone(cron), now, now.Add(gapHorizon)) {
		from(t.Add(-gapAround))
	}
	return gap, ok
}

// cronZone is the zone a cron's CRON_TZ= (or TZ=) names, UTC otherwise.
func cronZone(cron string) *time.Location {
	f := strings.Fields(cron)
	if len(f) > 0 {
		for _, p := range []string{"CRON_TZ=", "TZ="} {
			if name, ok := strings.CutPrefix(f[0], p); ok {
				if loc, err := time.LoadLocation(name); err == nil {
					return loc
				}
			}
		}
	}
	return time.UTC
}

// offsetChanges lists, to the hour, when loc's offset from UTC changes
// between from and to.
func offsetChanges(loc *time.Location, from, to time.Time) []time.Time {
	var out []time.Time
	_, last := from.In(loc).Zone()
	for t := from.Truncate(time.Hour); t.Before(to); t = t.Add(time.Hour) {
		if _, off := t.In(loc).Zone(); off != last {
			out, last = append(out, t), off
		}
	}
	return out
}
