package ranks

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseNotations(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		// Every notation issue 3 names.
		{"5k", "5k"}, {"5K", "5k"}, {"5 kyu", "5k"},
		{"3d", "3d"}, {"3D", "3d"}, {"3 dan", "3d"},
		{"9p", "9p"},
		{"5级", "5k"}, {"5級", "5k"},
		{"三段", "3d"}, {"3段", "3d"},
		{"职业九段", "9p"}, {"職業九段", "9p"},
		{"初段", "1d"}, {"1段", "1d"},
		// Ends of every scale.
		{"25k", "25k"}, {"1k", "1k"}, {"9d", "9d"}, {"1p", "1p"}, {"9P", "9p"},
		// Neighbours of those forms.
		{"5kyu", "5k"}, {"5 Kyu", "5k"}, {"5 KYU", "5k"}, {"3dan", "3d"}, {"3 Dan", "3d"},
		{"9 pro", "9p"}, {"9pro", "9p"}, {"5 k", "5k"}, {"  7d\t", "7d"}, {"\u30003段\u3000", "3d"},
		{"二十五级", "25k"}, {"十级", "10k"}, {"十五級", "15k"}, {"二十级", "20k"}, {"一段", "1d"},
		{"九段", "9d"}, {"业余三段", "3d"}, {"業餘五段", "5d"}, {"业余5级", "5k"},
		{"职业初段", "1p"}, {"职业9段", "9p"}, {"職業三段", "3p"},
		{"３段", "3d"}, {"１２k", "12k"}, {"三 段", "3d"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got.String() != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		in     string
		want   error
		reason string // a piece of the message
	}{
		{"", ErrSyntax, "empty"},
		{"   ", ErrSyntax, "empty"},
		{"k", ErrSyntax, "no rank number"},
		{"5", ErrSyntax, "no unit"},
		{"5x", ErrSyntax, `unknown unit "x"`},
		{"5 kyus", ErrSyntax, "unknown unit"},
		{"5kd", ErrSyntax, "unknown unit"},
		{"-5k", ErrSyntax, "no rank number"},
		{"+5k", ErrSyntax, "no rank number"},
		{"05k", ErrSyntax, "leading zero"},
		{"5.5k", ErrSyntax, "unknown unit"},
		{"三d", ErrSyntax, "Chinese numeral"},
		{"初级", ErrSyntax, "初段"},
		{"初d", ErrSyntax, "Chinese numeral"},
		{"职业9p", ErrSyntax, "职业"},
		{"职业5级", ErrSyntax, "职业"},
		{"业余3d", ErrSyntax, "业余"},
		{"业余", ErrSyntax, "no rank number"},
		{"段", ErrSyntax, "no rank number"},
		{"十", ErrSyntax, "no unit"},
		{"0k", ErrLevel, "kyu level 0 out of range 1…25"},
		{"26k", ErrLevel, "kyu level 26 out of range 1…25"},
		{"10d", ErrLevel, "dan level 10 out of range 1…9"},
		{"十段", ErrLevel, "dan level 10"},
		{"0p", ErrLevel, "pro level 0"},
		{"10p", ErrLevel, "pro level 10 out of range 1…9"},
		{"职业十段", ErrLevel, "pro level 10"},
		{"99999999999999999999999k", ErrLevel, "out of range"},
	}
	for _, tt := range tests {
		r, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", tt.in, r)
			continue
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("Parse(%q) error %v, want %v", tt.in, err, tt.want)
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Input != tt.in {
			t.Errorf("Parse(%q) error %#v does not carry the input", tt.in, err)
		}
		if msg := err.Error(); !strings.Contains(msg, tt.reason) || !strings.Contains(msg, strconv.Quote(tt.in)) {
			t.Errorf("Parse(%q) error %q, want it to quote the input and say %q", tt.in, msg, tt.reason)
		}
		if !r.IsZero() {
			t.Errorf("Parse(%q) returned %v with its error", tt.in, r)
		}
	}
}

func TestParseErrorQuotesLongInputShort(t *testing.T) {
	_, err := Parse(strings.Repeat("段", 1000))
	if err == nil || len(err.Error()) > 120 {
		t.Fatalf("error %q: want a short message", err)
	}
}

// The spec's table (rating.md §1), copied verbatim.
const specTable = `
| rank | 9k | 8k | 7k | 6k | 5k | 4k | 3k | 2k | 1k | 1d | 2d | 3d | 4d | 5d | 6d | 7d | 8d | 9d |
| score from | −800 | −700 | −600 | −500 | −400 | −300 | −200 | −100 | 0 | 100 | 200 | 300 | 400 | 500 | 600 | 700 | 800 | 900 |`

type specRow struct {
	rank Rank
	from int
}

func specRows(t *testing.T) []specRow {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(specTable), "\n")
	cells := func(line string) []string {
		f := strings.Split(strings.Trim(line, "| "), "|")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		return f[1:]
	}
	names, froms := cells(lines[0]), cells(lines[1])
	rows := make([]specRow, len(names))
	for i := range names {
		from, err := strconv.Atoi(strings.Replace(froms[i], "−", "-", 1))
		if err != nil {
			t.Fatal(err)
		}
		rows[i] = specRow{MustParse(names[i]), from}
	}
	return rows
}

func TestFromScoreFollowsTheSpecTable(t *testing.T) {
	rows := specRows(t)
	if len(rows) != 18 {
		t.Fatalf("spec table has %d rows", len(rows))
	}
	for i, row := range rows {
		top := math.MaxInt // the last row holds every higher score
		if i+1 < len(rows) {
			top = rows[i+1].from - 1
		}
		for _, s := range []int{row.from, row.from + 1, row.from + 50, top - 1, top} {
			if got := FromScore(s); got != row.rank {
				t.Errorf("FromScore(%d) = %s, want %s", s, got, row.rank)
			}
		}
		low, err := row.rank.LowestScore()
		if err != nil || low != row.from {
			t.Errorf("%s.LowestScore() = %d, %v; want %d", row.rank, low, err, row.from)
		}
		if !row.rank.OnLadder() {
			t.Errorf("%s not on the ladder", row.rank)
		}
	}
	var want []Rank
	for _, row := range rows {
		want = append(want, row.rank)
	}
	if got := LadderRanks(); !slices.Equal(got, want) {
		t.Errorf("LadderRanks() = %v, want %v", got, want)
	}
	if LadderBottom != want[0] || LadderTop != want[len(want)-1] {
		t.Errorf("LadderBottom, LadderTop = %s, %s", LadderBottom, LadderTop)
	}
}

func TestFromScoreClampsTheRankNotTheScore(t *testing.T) {
	for _, s := range []int{-801, -850, -10_000, math.MinInt} {
		if got := FromScore(s); got.String() != "9k" {
			t.Errorf("FromScore(%d) = %s, want 9k", s, got)
		}
	}
	for _, s := range []int{900, 1000, 123_456, math.MaxInt} {
		if got := FromScore(s); got.String() != "9d" {
			t.Errorf("FromScore(%d) = %s, want 9d", s, got)
		}
	}
	// Examples of rating.md §1: 1k is 0…99, 1d is 100…199.
	for s, want := range map[int]string{0: "1k", 99: "1k", 100: "1d", 199: "1d", -1: "2k", -790: "9k"} {
		if got := FromScore(s).String(); got != want {
			t.Errorf("FromScore(%d) = %s, want %s", s, got, want)
		}
	}
}

func TestLowestScoreOffTheLadder(t *testing.T) {
	for _, s := range []string{"10k", "25k", "1p", "9p"} {
		r := MustParse(s)
		if r.OnLadder() {
			t.Errorf("%s on the ladder", r)
		}
		_, err := r.LowestScore()
		if !errors.Is(err, ErrNotOnLadder) || !strings.Contains(err.Error(), s) {
			t.Errorf("%s.LowestScore() error %v, want ErrNotOnLadder naming the rank", r, err)
		}
	}
	if _, err := (Rank{}).LowestScore(); !errors.Is(err, ErrNotOnLadder) {
		t.Errorf("zero Rank LowestScore error %v", err)
	}
}

func TestNew(t *testing.T) {
	r, err := New(Kyu, 25)
	if err != nil || r.String() != "25k" || r.Kind() != Kyu || r.Level() != 25 {
		t.Errorf("New(Kyu, 25) = %v, %v", r, err)
	}
	for _, bad := range []struct {
		k Kind
		n int
	}{{Kyu, 0}, {Kyu, 26}, {Dan, 10}, {Pro, 10}, {Pro, -1}} {
		if _, err := New(bad.k, bad.n); !errors.Is(err, ErrLevel) {
			t.Errorf("New(%s, %d) error %v, want ErrLevel", bad.k, bad.n, err)
		}
	}
	if _, err := New(Kind(0), 1); err == nil {
		t.Error("New with no kind: no error")
	}
}

func TestCompareOrdersEveryScale(t *testing.T) {
	var all []Rank
	for n := MaxKyu; n >= 1; n-- {
		all = append(all, Rank{Kyu, uint8(n)})
	}
	for n := 1; n <= MaxDan; n++ {
		all = append(all, Rank{Dan, uint8(n)})
	}
	for n := 1; n <= MaxPro; n++ {
		all = append(all, Rank{Pro, uint8(n)})
	}
	for i := range all {
		for j := range all {
			if got, want := all[i].Compare(all[j]), cmpInt(i, j); got != want {
				t.Errorf("%s.Compare(%s) = %d, want %d", all[i], all[j], got, want)
			}
		}
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestTextAndJSON(t *testing.T) {
	type player struct {
		Rank      Rank `json:"rank"`
		Certified Rank `json:"certified,omitzero"`
	}
	b, err := json.Marshal(player{Rank: MustParse("三段")})
	if err != nil || string(b) != `{"rank":"3d"}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var p player
	if err := json.Unmarshal([]byte(`{"rank":"职业九段","certified":"5 kyu"}`), &p); err != nil {
		t.Fatal(err)
	}
	if p.Rank.String() != "9p" || p.Certified.String() != "5k" {
		t.Errorf("Unmarshal = %+v", p)
	}
	// The zero Rank round-trips as "".
	b, err = json.Marshal(struct{ R Rank }{})
	if err != nil || string(b) != `{"R":""}` {
		t.Errorf("Marshal zero = %s, %v", b, err)
	}
	p = player{Rank: MustParse("1d")}
	if err := json.Unmarshal([]byte(`{"rank":""}`), &p); err != nil || !p.Rank.IsZero() {
		t.Errorf(`Unmarshal "" = %+v, %v`, p, err)
	}
	err = json.Unmarshal([]byte(`{"rank":"26k"}`), &p)
	if !errors.Is(err, ErrLevel) || !strings.Contains(err.Error(), `"26k"`) {
		t.Errorf("Unmarshal 26k error %v", err)
	}
	if got, _ := MustParse("9p").AppendText([]byte("rank=")); string(got) != "rank=9p" {
		t.Errorf("AppendText = %q", got)
	}
	if (Rank{}).String() != "invalid rank" {
		t.Errorf("zero Rank prints %q", Rank{}.String())
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{Kyu: "kyu", Dan: "dan", Pro: "pro", 0: "Kind(0)", 7: "Kind(7)"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"5k", "5K", "5 kyu", "3d", "3 dan", "9p", "5级", "5級", "三段", "3段",
		"职业九段", "職業九段", "初段", "1段", "二十五级", "业余三段", "３段", "26k", "0d", "", "k5", "十"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrLevel) {
				t.Fatalf("Parse(%q) error %v is neither ErrSyntax nor ErrLevel", s, err)
			}
			return
		}
		if r.IsZero() {
			t.Fatalf("Parse(%q) = zero Rank without error", s)
		}
		printed := r.String()
		again, err := Parse(printed)
		if err != nil || again != r {
			t.Fatalf("Parse(%q) = %s, but Parse(%q) = %v, %v", s, r, printed, again, err)
		}
		text, err := r.MarshalText()
		if err != nil || string(text) != printed {
			t.Fatalf("MarshalText(%s) = %q, %v", r, text, err)
		}
		var back Rank
		if err := back.UnmarshalText(text); err != nil || back != r {
			t.Fatalf("UnmarshalText(%q) = %v, %v", text, back, err)
		}
	})
}

// TestBand: a rank's ladder scores, open at the ladder's ends, and
// refused off the ladder.
func TestBand(t *testing.T) {
	str := func(p *int) string {
		if p == nil {
			return "open"
		}
		return strconv.Itoa(*p)
	}
	for in, want := range map[string]string{"9k": "open..-701", "1k": "0..99", "1d": "100..199", "8d": "800..899", "9d": "900..open"} {
		lo, hi, err := MustParse(in).Band()
		if got := str(lo) + ".." + str(hi); err != nil || got != want {
			t.Errorf("%s.Band() = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"10k", "1p"} {
		if _, _, err := MustParse(in).Band(); !errors.Is(err, ErrNotOnLadder) {
			t.Errorf("%s.Band() err = %v, want ErrNotOnLadder", in, err)
		}
	}
}
