package schools

import (
	"fmt"
	"time"
)

// DateLayout is how days are written: 2026-09-01, in the school's time
// zone.
const DateLayout = "2006-01-02"

// MaxSpanYears bounds a date range (a period, a progress series, a class
// end date from today), decided: five school years are the longest span
// a teacher asks about, and it bounds a day-by-day series at 1,827
// points per student.
const MaxSpanYears = 5

// ParseDate reads a day (YYYY-MM-DD) as its midnight in loc; field names
// the input for the error.
func ParseDate(field, s string, loc *time.Location) (time.Time, error) {
	t, err := time.ParseInLocation(DateLayout, s, loc)
	if err != nil {
		return time.Time{}, &FieldError{field, fmt.Sprintf("%q is not a date YYYY-MM-DD", s)}
	}
	return t, nil
}

// Range is a span of whole days in a school's time zone: From's midnight
// up to the midnight after To.
type Range struct {
	From, To time.Time // midnights in the school's zone; To is the last day
}

// End is the first instant after the range.
func (r Range) End() time.Time { return r.To.AddDate(0, 0, 1) }

// Contains reports whether t falls in the range.
func (r Range) Contains(t time.Time) bool { return !t.Before(r.From) && t.Before(r.End()) }

// NewRange checks a range given as two days: to may not be before from,
// and the range may not span more than MaxSpanYears; the errors name the
// field at fault (fromField, toField).
func NewRange(fromField, from, toField, to string, loc *time.Location) (Range, error) {
	f, err := ParseDate(fromField, from, loc)
	if err != nil {
		return Range{}, err
	}
	t, err := ParseDate(toField, to, loc)
	if err != nil {
		return Range{}, err
	}
	return checkRange(fromField, toField, Range{From: f, To: t})
}

func checkRange(fromField, toField string, r Range) (Range, error) {
	if r.To.Before(r.From) {
		return Range{}, &FieldError{toField, fmt.Sprintf("%s ends before %s (%s)", r.To.Format(DateLayout), fromField, r.From.Format(DateLayout))}
	}
	if r.To.After(r.From.AddDate(MaxSpanYears, 0, 0)) {
		return Range{}, &FieldError{toField, fmt.Sprintf("the range %s to %s spans more than %d years", r.From.Format(DateLayout), r.To.Format(DateLayout), MaxSpanYears)}
	}
	return r, nil
}

// monthStart is the first midnight of t's month in loc.
func monthStart(t time.Time, loc *time.Location) time.Time {
	y, m, _ := t.In(loc).Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, loc)
}
