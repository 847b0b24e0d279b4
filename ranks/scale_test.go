package ranks

import "testing"

func TestScaleShow(t *testing.T) {
	for _, tc := range []struct {
		ladder         string
		server, chines string
	}{
		{"9k", "10k", "9k"}, {"5k", "6k", "5k"}, {"1k", "2k", "1k"}, {"1d", "1k", "1d"},
		{"2d", "1d", "2d"}, {"5d", "4d", "5d"}, {"6d", "5d", "5d"}, {"9d", "8d", "5d"},
	} {
		r := MustParse(tc.ladder)
		if got := ScaleServer.Show(r).String(); got != tc.server {
			t.Errorf("server shows %s as %s, want %s", tc.ladder, got, tc.server)
		}
		if got := ScaleChinese.Show(r).String(); got != tc.chines {
			t.Errorf("chinese shows %s as %s, want %s", tc.ladder, got, tc.chines)
		}
		if got := ScaleLadder.Show(r); got != r {
			t.Errorf("ladder shows %s as %s", r, got)
		}
	}
	// Off the ladder and none: shown as they are.
	for _, s := range Scales {
		if got := s.Show(MustParse("12k")).String(); got != "12k" {
			t.Errorf("%s shows 12k as %s", s, got)
		}
		if !s.Show(Rank{}).IsZero() {
			t.Errorf("%s shows no rank as a rank", s)
		}
	}
}

// The server scale keeps order and every distinction; each scale never
// shows a higher ladder rank as a lower one.
func TestScalesKeepOrder(t *testing.T) {
	rs := LadderRanks()
	if len(rs) != len(scaleTable) {
		t.Fatalf("the scale table has %d rows for %d ladder ranks", len(scaleTable), len(rs))
	}
	seen := map[Rank]bool{}
	for i := range rs {
		sv := ScaleServer.Show(rs[i])
		if seen[sv] {
			t.Errorf("server shows two ladder ranks as %s", sv)
		}
		seen[sv] = true
		if i == 0 {
			continue
		}
		for _, s := range Scales {
			if s.Show(rs[i]).Compare(s.Show(rs[i-1])) < 0 {
				t.Errorf("%s shows %s below %s", s, rs[i], rs[i-1])
			}
		}
	}
	if ScaleServer.Show(LadderBottom).String() != "10k" || ScaleServer.Show(LadderTop).String() != "8d" {
		t.Error("the server scale does not run 10k…8d")
	}
}

func TestParseScaleAndChinese(t *testing.T) {
	if s, err := ParseScale(""); err != nil || s != ScaleLadder {
		t.Errorf(`ParseScale("") = %v, %v`, s, err)
	}
	if s, err := ParseScale("chinese"); err != nil || s != ScaleChinese {
		t.Errorf(`ParseScale("chinese") = %v, %v`, s, err)
	}
	if _, err := ParseScale("kgs"); err == nil {
		t.Error("ParseScale(kgs) accepted")
	}
	for in, want := range map[string]string{"5k": "5级", "3d": "3段", "9p": "职业九段", "1p": "职业一段"} {
		if got := MustParse(in).Chinese(); got != want {
			t.Errorf("%s in Chinese = %q, want %q", in, got, want)
		}
		if back, err := Parse(MustParse(in).Chinese()); err != nil || back.String() != in {
			t.Errorf("%s: its Chinese form parses as %v, %v", in, back, err)
		}
	}
	if (Rank{}).Chinese() != "" {
		t.Error("no rank has a Chinese form")
	}
}
