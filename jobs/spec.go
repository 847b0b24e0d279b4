package jobs

import (
	"errors"
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // CRON_TZ names must resolve the same on every replica, with or without system zoneinfo

	"github.com/robfig/cron/v3"
)

// ErrSpec is returned (wrapped in a *SpecError) for a cron expression that
// cannot be used.
var ErrSpec = errors.New("invalid cron expression")

// SpecError says what is wrong with a cron expression.
type SpecError struct {
	Spec   string
	Reason string
}

func (e *SpecError) Error() string { return fmt.Sprintf("cron expression %q: %s", e.Spec, e.Reason) }

// Unwrap lets errors.Is(err, ErrSpec) match.
func (e *SpecError) Unwrap() error { return ErrSpec }

// DefaultZone is the time zone of a spec that names none. Decided: UTC,
// never the server's local zone, so that replicas configured differently
// still agree on every firing (and so on every idempotency key).
var DefaultZone = time.UTC

// parser reads the standard five fields (minute hour day-of-month month
// day-of-week), an optional CRON_TZ=/TZ= prefix and the @daily-style
// descriptors.
var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// Schedule is a parsed cron expression.
type Schedule struct {
	spec  string
	sched cron.Schedule
}

// String returns the expression as written.
func (s Schedule) String() string { return s.spec }

// Next returns the first firing strictly after t, or the zero time when
// there is none within five years (such as "0 0 30 2 *").
func (s Schedule) Next(t time.Time) time.Time { return s.sched.Next(t) }

// ParseSpec reads a cron expression such as "0 19 * * SAT" or
// "CRON_TZ=Asia/Shanghai 0 19 * * SAT". Refused, with the reason: empty
// or malformed fields, an unknown time zone, "@every" (its firings depend
// on when each replica started, so replicas would not agree on them) and
// expressions that never fire.
func ParseSpec(spec string) (Schedule, error) {
	bad := func(format string, args ...any) (Schedule, error) {
		return Schedule{}, &SpecError{Spec: spec, Reason: fmt.Sprintf(format, args...)}
	}
	s := strings.TrimSpace(spec)
	if s == "" {
		return bad("empty")
	}
	zoned := strings.HasPrefix(s, "TZ=") || strings.HasPrefix(s, "CRON_TZ=")
	if zoned && !strings.Contains(s, " ") {
		return bad("a time zone but no schedule")
	}
	body := s
	if zoned {
		body = strings.TrimSpace(s[strings.Index(s, " "):])
	}
	if strings.HasPrefix(body, "@every") {
		return bad("@every is not anchored to the clock, so replicas would not agree on its firings; write the times as cron fields")
	}
	if !zoned {
		s = "CRON_TZ=" + DefaultZone.String() + " " + s
	}
	sched, err := parser.Parse(s)
	if err != nil {
		return bad("%s", strings.TrimPrefix(err.Error(), "provided "))
	}
	// One probe from a fixed instant tells an expression that can never
	// fire (February 30th) from one that fires rarely.
	probe := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for range 2 { // leap years: "29 2" needs the second 5-year window at most
		if n := sched.Next(probe); !n.IsZero() {
			return Schedule{spec: spec, sched: sched}, nil
		}
		probe = probe.AddDate(5, 0, 0)
	}
	return bad("never fires")
}

// Calendar reads cron expressions for packages that must not import cron
// (exam schedules in ranks): it implements their Next(spec, after) port.
type Calendar struct{}

// Next returns the first firing of spec strictly after t; a bad spec gives
// an error wrapping ErrSpec that says what is wrong.
func (Calendar) Next(spec string, after time.Time) (time.Time, error) {
	s, err := ParseSpec(spec)
	if err != nil {
		return time.Time{}, err
	}
	return s.Next(after), nil
}
