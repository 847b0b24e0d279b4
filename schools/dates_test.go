package schools_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/schools"
)

func TestRanges(t *testing.T) {
	sh, _ := time.LoadLocation("Asia/Shanghai")
	r, err := schools.NewRange("from", "2026-09-01", "to", "2026-09-30", sh)
	if err != nil || r.From.Format(time.RFC3339) != "2026-09-01T00:00:00+08:00" || r.End().Format(time.RFC3339) != "2026-10-01T00:00:00+08:00" {
		t.Fatalf("range %+v, %v", r, err)
	}
	if !r.Contains(time.Date(2026, 9, 30, 15, 59, 0, 0, time.UTC)) || r.Contains(time.Date(2026, 9, 30, 16, 0, 0, 0, time.UTC)) {
		t.Error("the range's end is not the midnight after its last day in Shanghai")
	}
	if _, err := schools.NewRange("from", "2026-09-01", "to", "2026-09-01", sh); err != nil {
		t.Errorf("a one-day range: %v", err)
	}
	if _, err := schools.NewRange("from", "2021-09-01", "to", "2026-09-01", sh); err != nil {
		t.Errorf("exactly five years: %v", err)
	}
	for _, tc := range []struct{ from, to, field, why string }{
		{"2026-09-02", "2026-09-01", "to", "ends before"},
		{"2021-09-01", "2026-09-02", "to", "more than 5 years"},
		{"2026-9-1", "2026-09-30", "from", "not a date"},
		{"2026-09-01", "yesterday", "to", "not a date"},
		{"2026-02-30", "2026-03-01", "from", "not a date"},
	} {
		_, err := schools.NewRange("from", tc.from, "to", tc.to, sh)
		var fe *schools.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, schools.ErrInvalid) {
			t.Errorf("%s…%s: %v, want field %s", tc.from, tc.to, err, tc.field)
		} else if !strings.Contains(fe.Reason, tc.why) {
			t.Errorf("%s…%s: reason %q, want it to say %q", tc.from, tc.to, fe.Reason, tc.why)
		}
	}
}
