package jobs_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/jobs"
)

func TestParseSpec(t *testing.T) {
	after := time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC) // a Saturday
	for _, tc := range []struct {
		spec string
		next string // RFC 3339 UTC; "" when the spec is refused
		why  string // part of the refusal
	}{
		{"0 19 * * SAT", "2026-03-07T19:00:00Z", ""},
		{"CRON_TZ=Asia/Shanghai 0 19 * * SAT", "2026-03-07T11:00:00Z", ""},
		{"TZ=America/New_York 30 2 * * *", "2026-03-07T07:30:00Z", ""},
		{"  */15 * * * *  ", "2026-03-07T00:15:00Z", ""},
		{"@daily", "2026-03-08T00:00:00Z", ""},
		{"@weekly", "2026-03-08T00:00:00Z", ""},
		{"0 0 29 2 *", "2028-02-29T00:00:00Z", ""},
		{"", "", "empty"},
		{"CRON_TZ=Asia/Shanghai", "", "no schedule"},
		{"CRON_TZ=Mars/Olympus 0 19 * * SAT", "", "bad location"},
		{"0 19 * * SUNDAY", "", "SUNDAY"},
		{"61 * * * *", "", "above maximum"},
		{"0 19 * *", "", "expected exactly 5 fields"},
		{"@every 1h", "", "not anchored"},
		{"CRON_TZ=UTC @every 5m", "", "not anchored"},
		{"0 0 30 2 *", "", "never fires"},
	} {
		s, err := jobs.ParseSpec(tc.spec)
		if tc.next == "" {
			if !errors.Is(err, jobs.ErrSpec) || !strings.Contains(err.Error(), tc.why) {
				t.Errorf("ParseSpec(%q) error = %v; want ErrSpec saying %q", tc.spec, err, tc.why)
			}
			if _, err := (jobs.Calendar{}).Next(tc.spec, after); !errors.Is(err, jobs.ErrSpec) {
				t.Errorf("Calendar.Next(%q) error = %v; want ErrSpec", tc.spec, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tc.spec, err)
			continue
		}
		if got := s.Next(after).UTC().Format(time.RFC3339); got != tc.next {
			t.Errorf("ParseSpec(%q).Next = %s, want %s", tc.spec, got, tc.next)
		}
		if got, err := (jobs.Calendar{}).Next(tc.spec, after); err != nil || got.UTC().Format(time.RFC3339) != tc.next {
			t.Errorf("Calendar.Next(%q) = %v, %v; want %s", tc.spec, got, err, tc.next)
		}
	}
}

// The firing after a daylight-saving jump is computed in the spec's zone.
func TestSpecAcrossDaylightSaving(t *testing.T) {
	s, err := jobs.ParseSpec("CRON_TZ=Europe/Berlin 0 9 * * *")
	if err != nil {
		t.Fatal(err)
	}
	before := time.Date(2026, 3, 28, 9, 0, 0, 0, time.UTC) // 10:00 CET
	if got, want := s.Next(before), time.Date(2026, 3, 29, 7, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Fatalf("next 09:00 Berlin after the switch to CEST = %v, want %v", got.UTC(), want)
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"0 19 * * SAT", "CRON_TZ=Asia/Shanghai 0 19 * * SAT", "TZ=", "CRON_TZ=", "@every 1s", "@monthly", "1-5/2 * * * *"} {
		f.Add(s)
	}
	after := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := jobs.ParseSpec(spec)
		if err != nil {
			if !errors.Is(err, jobs.ErrSpec) {
				t.Fatalf("ParseSpec(%q) error %v does not wrap ErrSpec", spec, err)
			}
			return
		}
		if n := s.Next(after); !n.After(after) {
			t.Fatalf("ParseSpec(%q) accepted, but Next(%v) = %v", spec, after, n)
		}
	})
}

func TestFiringKeys(t *testing.T) {
	at := time.Date(2026, 3, 7, 19, 0, 0, 0, time.FixedZone("CST", 8*3600))
	for _, f := range []jobs.Firing{
		{Job: "exams", At: at.UTC()},
		{Job: "ledger.verify", RunID: "abc-1"},
	} {
		g, err := jobs.ParseKey(f.Key())
		if err != nil || g != f {
			t.Errorf("ParseKey(%q) = %+v, %v; want %+v", f.Key(), g, err, f)
		}
	}
	if k := (jobs.Firing{Job: "exams", At: at}).Key(); k != "exams@2026-03-07T11:00:00Z" {
		t.Errorf("key = %q: the scheduled time must be printed in UTC so every replica agrees", k)
	}
	for _, bad := range []string{"", "exams", "Exams@2026-03-07T11:00:00Z", "exams@tomorrow", "exams@run:", "exams@run:a b"} {
		if _, err := jobs.ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted", bad)
		}
	}
}
