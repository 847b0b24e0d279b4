package ranks_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/ranks"
)

var (
	now    = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	checks = ranks.ExamChecks{Calendar: jobs.Calendar{}}
)

func intp(n int) *int { return &n }

func TestExamDraftDefaults(t *testing.T) {
	s, err := ranks.ExamDraft{TargetRank: "1段", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT"}.Build(checks, "e1", "root", now)
	if err != nil {
		t.Fatal(err)
	}
	want := ranks.ExamSchedule{
		ID: "e1", Target: ranks.MustParse("1d"), Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		RegistrationOpens: 168 * time.Hour, SessionLength: 24 * time.Hour, Games: 6, WinsNeeded: 4,
		MinLadderRank: ranks.MustParse("1k"), NominationWaives: true, BoardSize: 19, Rules: "chinese",
		TimeControl: ranks.DefaultExamTimeControl, Rated: true, CreatedBy: "root", CreatedAt: now, OpenedThrough: now,
	}
	if s != want {
		t.Fatalf("defaults:\n got %+v\nwant %+v", s, want)
	}
}

func TestExamDraftNamesEachBadField(t *testing.T) {
	ok := ranks.ExamDraft{TargetRank: "3k", Cron: "0 19 * * SAT"}
	for _, tc := range []struct {
		name   string
		edit   func(*ranks.ExamDraft)
		fields string // the bad fields named, in order
		says   string // part of the first reason
	}{
		{"no target", func(d *ranks.ExamDraft) { d.TargetRank = "" }, "target_rank", "required"},
		{"bad target", func(d *ranks.ExamDraft) { d.TargetRank = "3x" }, "target_rank", `unknown unit "x"`},
		{"pro target", func(d *ranks.ExamDraft) { d.TargetRank = "1p" }, "target_rank", "professional"},
		{"no cron", func(d *ranks.ExamDraft) { d.Cron = " " }, "cron", "required"},
		{"bad cron", func(d *ranks.ExamDraft) { d.Cron = "0 25 * * *" }, "cron", "above maximum"},
		{"bad zone", func(d *ranks.ExamDraft) { d.Cron = "CRON_TZ=Nowhere/Land 0 19 * * SAT" }, "cron", "bad location"},
		{"every", func(d *ranks.ExamDraft) { d.Cron = "@every 1h" }, "cron", "not anchored"},
		{"bad duration", func(d *ranks.ExamDraft) { d.SessionLength = "a day" }, "session_length", "duration"},
		{"window backwards", func(d *ranks.ExamDraft) { d.RegistrationOpens, d.RegistrationCloses = "1h", "2h" }, "registration_opens", "longer"},
		{"too long", func(d *ranks.ExamDraft) { d.SessionLength = "800h" }, "session_length", "at most"},
		{"no games", func(d *ranks.ExamDraft) { d.GamesPerCandidate = intp(0) }, "games_per_candidate,wins_needed", "1…20"},
		{"wins above games", func(d *ranks.ExamDraft) { d.GamesPerCandidate, d.WinsNeeded = intp(3), intp(4) }, "wins_needed", "1…games_per_candidate (3)"},
		{"min above target", func(d *ranks.ExamDraft) { d.MinLadderRank = "1d" }, "min_ladder_rank", "above the target"},
		{"board", func(d *ranks.ExamDraft) { d.BoardSize = intp(21) }, "board_size", "9, 13 or 19"},
		{"rules", func(d *ranks.ExamDraft) { d.Rules = "Chinese Rules" }, "rules", "preset"},
		{"time control", func(d *ranks.ExamDraft) { d.TimeControl = &ranks.TimeControl{ByoYomiPeriods: 3} }, "time_control", "go together"},
		{"no time", func(d *ranks.ExamDraft) { d.TimeControl = &ranks.TimeControl{} }, "time_control", "no time"},
		{"several", func(d *ranks.ExamDraft) { d.TargetRank, d.Cron, d.BoardSize = "", "", intp(8) }, "target_rank,cron,board_size", "required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ok
			tc.edit(&d)
			_, err := d.Build(checks, "e", "root", now)
			var ve *ranks.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, ranks.ErrInvalid) {
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
	rulesCheck := ranks.ExamChecks{Calendar: jobs.Calendar{}, Rules: func(name string) error {
		if name != "japanese" {
			return errors.New("unknown rules preset " + name)
		}
		return nil
	}}
	if _, err := ok.Build(rulesCheck, "e", "root", now); err == nil || !strings.Contains(err.Error(), "rules: unknown rules preset chinese") {
		t.Fatalf("the rules port is not asked: %v", err)
	}
}

func TestOneBelow(t *testing.T) {
	for in, want := range map[string]string{"1d": "1k", "3d": "2d", "1k": "2k", "24k": "25k", "25k": "25k", "3p": "2p", "1p": "1p"} {
		if got := ranks.OneBelow(ranks.MustParse(in)).String(); got != want {
			t.Errorf("OneBelow(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestSettle(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    ranks.GameOutcome
		want ranks.Settlement
	}{
		{"black won", ranks.GameOutcome{Finished: true, Winner: "b"}, ranks.Settlement{Kind: ranks.SettledPlayed, Winner: "b"}},
		{"white won", ranks.GameOutcome{Finished: true, Winner: "w"}, ranks.Settlement{Kind: ranks.SettledPlayed, Winner: "w"}},
		{"draw", ranks.GameOutcome{Finished: true}, ranks.Settlement{Kind: ranks.SettledDraw}},
		{"annulled", ranks.GameOutcome{Finished: true, Void: true, Winner: "b"}, ranks.Settlement{Kind: ranks.SettledVoid}},
		{"a stranger won", ranks.GameOutcome{Finished: true, Winner: "x"}, ranks.Settlement{Kind: ranks.SettledVoid}},
		{"white absent", ranks.GameOutcome{Present: []string{"b"}}, ranks.Settlement{Kind: ranks.SettledForfeit, Winner: "b"}},
		{"black absent", ranks.GameOutcome{Present: []string{"w"}}, ranks.Settlement{Kind: ranks.SettledForfeit, Winner: "w"}},
		{"both absent", ranks.GameOutcome{}, ranks.Settlement{Kind: ranks.SettledVoid}},
		{"both came, unfinished", ranks.GameOutcome{Present: []string{"w", "b"}}, ranks.Settlement{Kind: ranks.SettledVoid}},
	} {
		if got := ranks.Settle("b", "w", tc.o); got != tc.want {
			t.Errorf("%s: Settle = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestTallyGames(t *testing.T) {
	g := func(b, w string, s *ranks.Settlement) ranks.ExamGame {
		return ranks.ExamGame{Black: b, White: w, Settled: s}
	}
	games := []ranks.ExamGame{
		g("ann", "bob", &ranks.Settlement{Kind: ranks.SettledPlayed, Winner: "ann"}),
		g("cat", "ann", &ranks.Settlement{Kind: ranks.SettledForfeit, Winner: "ann"}),
		g("ann", "dan", &ranks.Settlement{Kind: ranks.SettledForfeit, Winner: "dan"}),
		g("eve", "ann", &ranks.Settlement{Kind: ranks.SettledVoid}),
		g("ann", "fay", &ranks.Settlement{Kind: ranks.SettledDraw}),
		g("gus", "ann", &ranks.Settlement{Kind: ranks.SettledPlayed, Winner: "gus"}),
		g("bob", "cat", &ranks.Settlement{Kind: ranks.SettledPlayed, Winner: "bob"}),
		g("ann", "hal", nil),
	}
	want := ranks.Tally{Games: 6, Wins: 2, Losses: 2, Draws: 1, Voids: 1, ForfeitWins: 1, ForfeitLosses: 1}
	got := ranks.TallyGames("ann", games)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tally = %+v, want %+v", got, want)
	}
	if got.Passes(3) || !got.Passes(2) {
		t.Fatalf("2 wins: Passes(3) = %v, Passes(2) = %v", got.Passes(3), got.Passes(2))
	}
}
