package exams_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/ranks"
)

var (
	now    = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	checks = exams.Checks{Calendar: jobs.Calendar{}}
)

func intp(n int) *int { return &n }

func TestDraftDefaults(t *testing.T) {
	s, err := exams.Draft{TargetRank: "1段", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT"}.Build(checks, "e1", "root", now)
	if err != nil {
		t.Fatal(err)
	}
	want := exams.Schedule{
		ID: "e1", Target: ranks.MustParse("1d"), Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		RegistrationOpens: 168 * time.Hour, SessionLength: 24 * time.Hour, Games: 6, WinsNeeded: 4,
		MinLadderRank: ranks.MustParse("1k"), NominationWaives: true, BoardSize: 19, Rules: "chinese",
		TimeControl: exams.DefaultTimeControl, Rated: true, CreatedBy: "root", CreatedAt: now, OpenedThrough: now,
	}
	if s != want {
		t.Fatalf("defaults:\n got %+v\nwant %+v", s, want)
	}
}

func TestDraftNamesEachBadField(t *testing.T) {
	ok := exams.Draft{TargetRank: "3k", Cron: "0 19 * * SAT"}
	for _, tc := range []struct {
		name   string
		edit   func(*exams.Draft)
		fields string // the bad fields named, in order
		says   string // part of the first reason
	}{
		{"no target", func(d *exams.Draft) { d.TargetRank = "" }, "target_rank", "required"},
		{"bad target", func(d *exams.Draft) { d.TargetRank = "3x" }, "target_rank", `unknown unit "x"`},
		{"pro target", func(d *exams.Draft) { d.TargetRank = "1p" }, "target_rank", "professional"},
		{"no cron", func(d *exams.Draft) { d.Cron = " " }, "cron", "required"},
		{"bad cron", func(d *exams.Draft) { d.Cron = "0 25 * * *" }, "cron", "above maximum"},
		{"bad zone", func(d *exams.Draft) { d.Cron = "CRON_TZ=Nowhere/Land 0 19 * * SAT" }, "cron", "bad location"},
		{"every", func(d *exams.Draft) { d.Cron = "@every 1h" }, "cron", "not anchored"},
		{"bad duration", func(d *exams.Draft) { d.SessionLength = "a day" }, "session_length", "duration"},
		{"window backwards", func(d *exams.Draft) { d.RegistrationOpens, d.RegistrationCloses = "1h", "2h" }, "registration_opens", "longer"},
		{"too long", func(d *exams.Draft) { d.SessionLength = "800h" }, "session_length", "at most"},
		{"no games", func(d *exams.Draft) { d.GamesPerCandidate = intp(0) }, "games_per_candidate,wins_needed", "1…20"},
		{"wins above games", func(d *exams.Draft) { d.GamesPerCandidate, d.WinsNeeded = intp(3), intp(4) }, "wins_needed", "1…games_per_candidate (3)"},
		{"min above target", func(d *exams.Draft) { d.MinLadderRank = "1d" }, "min_ladder_rank", "above the target"},
		{"board", func(d *exams.Draft) { d.BoardSize = intp(21) }, "board_size", "9, 13 or 19"},
		{"rules", func(d *exams.Draft) { d.Rules = "Chinese Rules" }, "rules", "preset"},
		{"time control", func(d *exams.Draft) { d.TimeControl = &exams.TimeControlSeconds{ByoYomiPeriods: 3} }, "time_control", "go together"},
		{"no time", func(d *exams.Draft) { d.TimeControl = &exams.TimeControlSeconds{} }, "time_control", "no time"},
		{"several", func(d *exams.Draft) { d.TargetRank, d.Cron, d.BoardSize = "", "", intp(8) }, "target_rank,cron,board_size", "required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ok
			tc.edit(&d)
			_, err := d.Build(checks, "e", "root", now)
			var ve *exams.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, exams.ErrInvalid) {
				t.Fatalf("Build = %v, want a *ValidationError", err)
			}
			var names []string
			for _, f := range ve.Fields {
				names = append(names, f.Field)
			}
			if got := strings.Join(names, ","); got != tc.fields {
				t.Fatalf("fields %s, want %s (%v)", got, tc.fields, err)
			}
			if !strings.Contains(ve.Fields[0].Reason, tc.says) {
				t.Fatalf("reason %q does not say %q", ve.Fields[0].Reason, tc.says)
			}
		})
	}
	if _, err := ok.Build(checks, "e", "root", now); err != nil {
		t.Fatalf("the base draft is refused: %v", err)
	}
	// Rules are the rules engine's presets.
	lasker := ok
	lasker.Rules = "lasker"
	if _, err := lasker.Build(checks, "e", "root", now); err == nil || !strings.Contains(err.Error(), `rules: unknown rules "lasker"`) {
		t.Fatalf("an unknown rules preset was not refused by name: %v", err)
	}
	japanese := ok
	japanese.Rules = "japanese"
	if _, err := japanese.Build(checks, "e", "root", now); err != nil {
		t.Fatalf("a known preset is refused: %v", err)
	}
}

func TestSettle(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    exams.Outcome
		want exams.Settlement
	}{
		{"black won", exams.Outcome{Finished: true, Winner: "b"}, exams.Settlement{Kind: exams.SettledPlayed, Winner: "b"}},
		{"white won", exams.Outcome{Finished: true, Winner: "w"}, exams.Settlement{Kind: exams.SettledPlayed, Winner: "w"}},
		{"draw", exams.Outcome{Finished: true}, exams.Settlement{Kind: exams.SettledDraw}},
		{"annulled", exams.Outcome{Finished: true, Void: true, Winner: "b"}, exams.Settlement{Kind: exams.SettledVoid}},
		{"a stranger won", exams.Outcome{Finished: true, Winner: "x"}, exams.Settlement{Kind: exams.SettledVoid}},
		{"white absent", exams.Outcome{Present: []string{"b"}}, exams.Settlement{Kind: exams.SettledForfeit, Winner: "b"}},
		{"black absent", exams.Outcome{Present: []string{"w"}}, exams.Settlement{Kind: exams.SettledForfeit, Winner: "w"}},
		{"both absent", exams.Outcome{}, exams.Settlement{Kind: exams.SettledVoid}},
		{"both came, unfinished", exams.Outcome{Present: []string{"w", "b"}}, exams.Settlement{Kind: exams.SettledVoid}},
	} {
		if got := exams.Settle("b", "w", tc.o); got != tc.want {
			t.Errorf("%s: Settle = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestTallyGames(t *testing.T) {
	g := func(b, w string, s *exams.Settlement) exams.Game {
		return exams.Game{Black: b, White: w, Settled: s}
	}
	games := []exams.Game{
		g("ann", "bob", &exams.Settlement{Kind: exams.SettledPlayed, Winner: "ann"}),
		g("cat", "ann", &exams.Settlement{Kind: exams.SettledForfeit, Winner: "ann"}),
		g("ann", "dan", &exams.Settlement{Kind: exams.SettledForfeit, Winner: "dan"}),
		g("eve", "ann", &exams.Settlement{Kind: exams.SettledVoid}),
		g("ann", "fay", &exams.Settlement{Kind: exams.SettledDraw}),
		g("gus", "ann", &exams.Settlement{Kind: exams.SettledPlayed, Winner: "gus"}),
		g("bob", "cat", &exams.Settlement{Kind: exams.SettledPlayed, Winner: "bob"}),
		g("ann", "hal", nil),
	}
	want := exams.Tally{Games: 6, Wins: 2, Losses: 2, Draws: 1, Voids: 1, ForfeitWins: 1, ForfeitLosses: 1}
	got := exams.TallyGames("ann", games)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tally = %+v, want %+v", got, want)
	}
	if got.Passes(3) || !got.Passes(2) {
		t.Fatalf("2 wins: Passes(3) = %v, Passes(2) = %v", got.Passes(3), got.Passes(2))
	}
}

// TestSessionsDoNotOverlap: a session lasts until it is graded and a
// registration names one session, so session_length is at most the
// shortest time between two firings of the cron (within a year: a daily
// cron in a zone with daylight-saving time has a 23-hour day).
func TestSessionsDoNotOverlap(t *testing.T) {
	for _, tc := range []struct {
		cron, length string
		ok           bool
	}{
		{"CRON_TZ=Asia/Shanghai 0 19 * * SAT", "168h", true},
		{"CRON_TZ=Asia/Shanghai 0 19 * * SAT", "169h", false},
		{"0 * * * *", "1h", true},
		{"0 * * * *", "3h", false},
		{"* * * * *", "3h", false},
		{"0 9 * * *", "24h", true},
		{"CRON_TZ=Europe/Berlin 0 9 * * *", "24h", false}, // the spring day is 23 hours
		{"CRON_TZ=Europe/Berlin 0 9 * * *", "23h", true},
		{"0 0 29 2 *", "720h", true}, // once in the year ahead: nothing to overlap
		// Every two hours: the autumn change (25 Oct, beyond its first
		// 1,000 firings) fires 00:30 and 01:30 UTC, an hour apart.
		{"CRON_TZ=Europe/Berlin 30 */2 * * *", "2h", false},
		{"CRON_TZ=Europe/Berlin 30 */2 * * *", "1h", true},
		{"CRON_TZ=Europe/Berlin 0 9 * * *", "", true}, // the default (24h) is cut to the gap
	} {
		_, err := exams.Draft{TargetRank: "1d", Cron: tc.cron, SessionLength: tc.length}.Build(checks, "e", "root", now)
		if tc.ok != (err == nil) {
			t.Errorf("cron %q, session %s: %v", tc.cron, tc.length, err)
		}
		if tc.length == "" && err == nil {
			s, _ := exams.Draft{TargetRank: "1d", Cron: tc.cron}.Build(checks, "e", "root", now)
			if s.SessionLength != 23*time.Hour {
				t.Errorf("cron %q, no session length: %s, want the 23 hours between two sessions", tc.cron, s.SessionLength)
			}
		}
		var ve *exams.ValidationError
		if err != nil && (!errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Field != "session_length" || !strings.Contains(err.Error(), "may not overlap")) {
			t.Errorf("cron %q, session %s: %v, want a session_length error saying why", tc.cron, tc.length, err)
		}
	}
}
