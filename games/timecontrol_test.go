package games

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestTimeControlNormalize(t *testing.T) {
	for _, tc := range []struct {
		in      TimeControl
		want    string // canonical form
		preset  string
		errPath string // field of the error, "-" for the whole, "" for none
	}{
		{TimeControl{Preset: "rapid"}, "600+3x30", "rapid", ""},
		{TimeControl{Main: 10 * time.Minute, Periods: 3, Period: 30 * time.Second}, "600+3x30", "rapid", ""},
		{TimeControl{Preset: "rapid", Main: 10 * time.Minute, Periods: 3, Period: 30 * time.Second}, "600+3x30", "rapid", ""},
		{TimeControl{Main: 15 * time.Minute}, "900+0x0", "", ""}, // absolute time
		{TimeControl{Periods: 1, Period: 30 * time.Second}, "0+1x30", "", ""},
		{TimeControl{Preset: "bullet"}, "", "", "preset"},
		{TimeControl{Preset: "rapid", Main: time.Minute}, "", "", "-"},
		{TimeControl{}, "", "", "-"},
		{TimeControl{Main: 7 * time.Hour}, "", "", "main"},
		{TimeControl{Main: 1500 * time.Millisecond}, "", "", "main"},
		{TimeControl{Main: -time.Minute}, "", "", "main"},
		{TimeControl{Main: time.Minute, Periods: 31, Period: time.Minute}, "", "", "periods"},
		{TimeControl{Main: time.Minute, Periods: 3}, "", "", "period"},
		{TimeControl{Main: time.Minute, Period: 30 * time.Second}, "", "", "period"},
		{TimeControl{Main: time.Minute, Periods: 3, Period: 2 * time.Second}, "", "", "period"},
	} {
		got, err := tc.in.Normalize()
		if tc.errPath != "" {
			want := strings.TrimPrefix(tc.errPath, "-")
			var fe *InvalidRecordError
			if !errors.As(err, &fe) || fe.Field != want || !errors.Is(err, ErrInvalidRecord) {
				t.Errorf("Normalize(%+v) err = %v, want a field error on %s", tc.in, err, tc.errPath)
			}
			continue
		}
		if err != nil || got.String() != tc.want || got.Preset != tc.preset {
			t.Errorf("Normalize(%+v) = %v %q, %v; want %s %q", tc.in, got, got.Preset, err, tc.want, tc.preset)
		}
	}
}

func TestTimeControlTextForm(t *testing.T) {
	for _, s := range []string{"600+3x30", "900+0x0", "0+1x30"} {
		tc, err := ParseTimeControl(s)
		if err != nil || tc.String() != s {
			t.Errorf("ParseTimeControl(%q) = %v, %v", s, tc, err)
		}
	}
	for _, s := range []string{"600", "600+3x30x", "0600+3x30", "36028797018963968+0x0", "21601+0x0", ""} {
		if tc, err := ParseTimeControl(s); err == nil {
			t.Errorf("ParseTimeControl(%q) = %v, want a refusal", s, tc)
		}
	}
	if (TimeControl{}).String() != "" {
		t.Error("the zero time control has a text form")
	}
	if _, err := Seconds(1<<55, 0, 0); err == nil {
		t.Error("2^55 main seconds became a time control")
	}
}
