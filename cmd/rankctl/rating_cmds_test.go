package main

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// ratingCase is one run of a rankctl subcommand of issue 3.
type ratingCase struct {
	args   string // split on spaces; "_" inside an argument stands for a space
	code   int
	stdout string // exact, when not empty
	stderr string // a piece of it, when not empty
}

func runRatingCases(t *testing.T, cases []ratingCase) {
	t.Helper()
	for _, tc := range cases {
		args := strings.Fields(tc.args)
		for i := range args {
			args[i] = strings.ReplaceAll(args[i], "_", " ")
		}
		var out, errb bytes.Buffer
		code := run(context.Background(), args, &out, &errb)
		if code != tc.code {
			t.Errorf("rankctl %s: exit %d, want %d (stderr %q)", tc.args, code, tc.code, errb.String())
		}
		if tc.stdout != "" && out.String() != tc.stdout {
			t.Errorf("rankctl %s: stdout\n%s\nwant\n%s", tc.args, out.String(), tc.stdout)
		}
		if tc.code != exitOK && out.Len() != 0 {
			t.Errorf("rankctl %s: failed but printed %q", tc.args, out.String())
		}
		if tc.stderr != "" && !strings.Contains(errb.String(), tc.stderr) {
			t.Errorf("rankctl %s: stderr %q, want it to contain %q", tc.args, errb.String(), tc.stderr)
		}
	}
}

func TestRankCommand(t *testing.T) {
	runRatingCases(t, []ratingCase{
		{args: "rank -- -850", stdout: "9k\n"},
		{args: "rank -850", stdout: "9k\n"},
		{args: "rank 0", stdout: "1k\n"},
		{args: "rank 99", stdout: "1k\n"},
		{args: "rank 100", stdout: "1d\n"},
		{args: "rank 5000", stdout: "9d\n"},
		{args: "rank 5k", stdout: "5k lowest score -400\n"},
		{args: "rank 5K", stdout: "5k lowest score -400\n"},
		{args: "rank 5_kyu", stdout: "5k lowest score -400\n"},
		{args: "rank 5 kyu", stdout: "5k lowest score -400\n"}, // two arguments
		{args: "rank 3D", stdout: "3d lowest score 300\n"},
		{args: "rank 3_dan", stdout: "3d lowest score 300\n"},
		{args: "rank 5級", stdout: "5k lowest score -400\n"},
		{args: "rank 5级", stdout: "5k lowest score -400\n"},
		{args: "rank 三段", stdout: "3d lowest score 300\n"},
		{args: "rank 3段", stdout: "3d lowest score 300\n"},
		{args: "rank 初段", stdout: "1d lowest score 100\n"},
		{args: "rank 1段", stdout: "1d lowest score 100\n"},
		{args: "rank 9k", stdout: "9k lowest score -800\n"},
		{args: "rank 职业九段", stdout: "9p (not on the ladder 9k…9d)\n"},
		{args: "rank 職業九段", stdout: "9p (not on the ladder 9k…9d)\n"},
		{args: "rank 9p", stdout: "9p (not on the ladder 9k…9d)\n"},
		{args: "rank 25k", stdout: "25k (not on the ladder 9k…9d)\n"},
		{args: "rank --json 3d", stdout: `{"rank":"3d","lowest_score":300,"on_ladder":true}` + "\n"},
		{args: "rank 3d --json", stdout: `{"rank":"3d","lowest_score":300,"on_ladder":true}` + "\n"},
		{args: "rank --json -- -850", stdout: `{"score":-850,"rank":"9k","lowest_score":-800,"on_ladder":true}` + "\n"},
		{args: "rank --json 9p", stdout: `{"rank":"9p","on_ladder":false}` + "\n"},
		{args: "rank 26k", code: exitUsage, stderr: `rankctl rank: ranks: parsing "26k": kyu level 26 out of range 1…25`},
		{args: "rank 5x", code: exitUsage, stderr: `"5x"`},
		{args: "rank", code: exitUsage, stderr: "want a SCORE or a RANK"},
		{args: "rank 99999999999999999999999", code: exitUsage, stderr: `score "99999999999999999999999" is out of range`},
		{args: "rank --bogus 5k", code: exitUsage, stderr: "-bogus"},
		{args: "rank -h", code: exitOK, stderr: "usage: rankctl rank"},
	})
}

func TestRateCommand(t *testing.T) {
	runRatingCases(t, []ratingCase{
		{args: "rate --winner 120 --loser 50", stdout: "" +
			"winner      120 (1d)   +3 →    123 (1d)\n" +
			"loser        50 (1k)   -3 →     47 (1k)\n" +
			"rated\n"},
		{args: "rate --winner -850 --loser -790 --moves 100", stdout: "" +
			"winner     -850 (9k)   +6 →   -844 (9k)\n" +
			"loser      -790 (9k)   -6 →   -796 (9k)\n" +
			"rated\n"},
		{args: "rate --winner 0 --loser 0 --moves 35", stdout: "" +
			"winner        0 (1k)   +0 →      0 (1k)\n" +
			"loser         0 (1k)   -5 →     -5 (2k)\n" +
			"rated; won in fewer than 40 moves, the winner gains nothing\n"},
		{args: "rate --winner 0 --loser 0 --escape", stdout: "" +
			"winner        0 (1k)   +5 →      5 (1k)\n" +
			"loser         0 (1k)  -10 →    -10 (2k)\n" +
			"rated; the loser escaped, their deduction is doubled\n"},
		{args: "rate --winner 0 --loser 300 --draw", stdout: "" +
			"player 1      0 (1k)   +0 →      0 (1k)\n" +
			"player 2    300 (3d)   +0 →    300 (3d)\n" +
			"rated: a draw changes nobody's ladder score\n"},
		{args: "rate --winner 0 --loser 300 --handicap 1", stdout: "" +
			"winner        0 (1k)   +0 →      0 (1k)\n" +
			"loser       300 (3d)   +0 →    300 (3d)\n" +
			"not rated: handicap games are not rated\n"},
		{args: "rate --winner 0 --loser 300 --void", stderr: "", stdout: "" +
			"player 1      0 (1k)   +0 →      0 (1k)\n" +
			"player 2    300 (3d)   +0 →    300 (3d)\n" +
			"not rated: a void game changes nobody's score\n"},
		{args: "rate --winner 150", code: exitUsage, stderr: "--loser is required"},
		{args: "rate --loser 150", code: exitUsage, stderr: "--winner is required"},
		{args: "rate --winner x --loser 1", code: exitUsage, stderr: `invalid value "x" for flag -winner`},
		{args: "rate --winner 1 --loser 2 --moves -1", code: exitUsage, stderr: "rankctl rate: --moves: -1 is negative"},
		{args: "rate --winner 1 --loser 2 --handicap -2", code: exitUsage, stderr: "rankctl rate: --handicap: -2 is negative"},
		{args: "rate --winner 2000000000 --loser 2", code: exitUsage, stderr: "rankctl rate: --winner: 2000000000 is beyond"},
		{args: "rate --winner 1 --loser 2 --draw --escape", code: exitUsage, stderr: "--escape"},
		{args: "rate --winner 1 --loser 2 --draw --void", code: exitUsage, stderr: "--draw and --void"},
		{args: "rate --winner 1 --loser 2 extra", code: exitUsage, stderr: `unexpected argument "extra"`},
	})
}

func TestRateJSON(t *testing.T) {
	tests := []struct {
		args string
		want map[string]any
	}{
		{"rate --json --winner 150 --loser 400", map[string]any{
			"winner_delta": 10.0, "loser_delta": -10.0, "winner_score": 160.0, "loser_score": 390.0,
			"winner_rank": "1d", "loser_rank": "3d", "rated": true}},
		{"rate --winner 400 --loser 150 --escape --json", map[string]any{
			"winner_delta": 0.0, "loser_delta": -2.0, "winner_score": 400.0, "loser_score": 148.0,
			"winner_rank": "4d", "loser_rank": "1d", "rated": true}},
		{"rate --winner 95 --loser 0 --handicap 3 --json", map[string]any{
			"winner_delta": 0.0, "loser_delta": 0.0, "winner_score": 95.0, "loser_score": 0.0,
			"winner_rank": "1k", "loser_rank": "1k", "rated": false}},
		{"rate --winner 95 --loser 100 --json", map[string]any{
			"winner_delta": 5.0, "loser_delta": -5.0, "winner_score": 100.0, "loser_score": 95.0,
			"winner_rank": "1d", "loser_rank": "1k", "rated": true}},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		if code := run(context.Background(), strings.Fields(tt.args), &out, &errb); code != exitOK {
			t.Fatalf("rankctl %s: exit %d: %s", tt.args, code, errb.String())
		}
		var got map[string]any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("rankctl %s: %s (%v), want %v", tt.args, out.String(), err, tt.want)
		}
	}
}

func TestGlicko2Command(t *testing.T) {
	glickman := "glicko2 --player 1500/200/0.06 --won 1400/30 --lost 1550/100 --lost 1700/300"
	runRatingCases(t, []ratingCase{
		{args: glickman, stdout: "" +
			"rating      1464.05\n" +
			"rd          151.52\n" +
			"volatility  0.059996\n" +
			"ladder rank 2k (95%: 5k…2d)\n"},
		// The order of the games does not matter within a period.
		{args: "glicko2 --lost 1700/300 --player 1500/200/0.06 --lost 1550/100 --won 1400/30 --tau 0.5", stdout: "" +
			"rating      1464.05\n" +
			"rd          151.52\n" +
			"volatility  0.059996\n" +
			"ladder rank 2k (95%: 5k…2d)\n"},
		{args: "glicko2 --drew 1500/350", stdout: "" +
			"rating      1500.00\n" +
			"rd          290.32\n" +
			"volatility  0.059999\n" +
			"ladder rank 1k (95%: 7k…5d)\n"},
		{args: "glicko2 --won 1400/x", code: exitUsage, stderr: `invalid value "1400/x" for flag -won: rd "x" is not a number`},
		{args: "glicko2 --won 1400", code: exitUsage, stderr: `invalid value "1400" for flag -won: want R/RD`},
		{args: "glicko2 --won 1400/30/0.06", code: exitUsage, stderr: `flag -won: want R/RD`},
		{args: "glicko2 --player 1500/200/0.06/1", code: exitUsage, stderr: `flag -player: want R/RD or R/RD/VOL`},
		{args: "glicko2 --player 1500/NaN", code: exitUsage, stderr: `flag -player: rd "NaN" is not a number`},
		{args: "glicko2 --won 1400/30 --lost 1550/-3", code: exitUsage, stderr: "rankctl glicko2: --lost 1550/-3: rd -3 is outside"},
		{args: "glicko2 --won 1400/30 --drew 99999/30", code: exitUsage, stderr: "rankctl glicko2: --drew 99999/30: rating 99999 is not"},
		{args: "glicko2 --player 1500/0/0.06", code: exitUsage, stderr: "rankctl glicko2: --player 1500/0/0.06: rd 0 is outside"},
		{args: "glicko2 --player 1500/100/0", code: exitUsage, stderr: "--player 1500/100/0: volatility 0 is outside"},
		{args: "glicko2 --tau -1", code: exitUsage, stderr: "rankctl glicko2: --tau: -1 is outside"},
		{args: "glicko2 --tau 0", code: exitUsage, stderr: "rankctl glicko2: --tau: 0 is outside"},
		{args: "glicko2 foo", code: exitUsage, stderr: `unexpected argument "foo"`},
	})
}

func TestGlicko2JSON(t *testing.T) {
	var out, errb bytes.Buffer
	args := strings.Fields("glicko2 --json --player 1500/200/0.06 --won 1400/30 --lost 1550/100 --lost 1700/300")
	if code := run(context.Background(), args, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got struct {
		Rating, RD, Volatility *float64
		SuggestedRank          string `json:"suggested_rank"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Rating == nil || got.RD == nil || got.Volatility == nil {
		t.Fatalf("JSON %s: %v", out.String(), err)
	}
	for _, f := range []struct {
		name      string
		got, want float64
		tol       float64
	}{{"rating", *got.Rating, 1464.05, 1e-2}, {"rd", *got.RD, 151.52, 1e-2}, {"volatility", *got.Volatility, 0.05999, 1e-5}} {
		if d := f.got - f.want; d > f.tol || d < -f.tol {
			t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
		}
	}
	if !strings.Contains(out.String(), `"rd":`) || !strings.Contains(out.String(), `"volatility":`) || got.SuggestedRank != "2k" {
		t.Errorf("JSON %s lacks the issue's field names", out.String())
	}
}
