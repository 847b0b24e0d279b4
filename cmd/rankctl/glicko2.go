package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

func init() {
	commands["glicko2"] = command{
		summary: "one Glicko-2 rating period: new rating, deviation and volatility",
		run:     runGlicko2,
	}
}

// glicko2Answer is `rankctl glicko2 --json`.
type glicko2Answer struct {
	Rating        float64    `json:"rating"`
	RD            float64    `json:"rd"`
	Volatility    float64    `json:"volatility"`
	SuggestedRank ranks.Rank `json:"suggested_rank"`
}

// glicko2Games collects --won, --lost and --drew in command-line order.
type glicko2Games struct {
	results []rating.Result
	args    []string // "--lost 1550/100", to name an argument in an error
}

// glicko2Flag is one of --won, --lost, --drew.
type glicko2Flag struct {
	games *glicko2Games
	name  string
	score float64
}

func (f glicko2Flag) String() string { return "" }

func (f glicko2Flag) Set(s string) error {
	g, err := parseGlicko(s, false)
	if err != nil {
		return err
	}
	f.games.results = append(f.games.results, rating.Result{Opponent: g, Score: f.score})
	f.games.args = append(f.games.args, "--"+f.name+" "+s)
	return nil
}

// glicko2Player is --player R/RD[/VOL].
type glicko2Player struct{ g rating.Glicko }

func (p *glicko2Player) String() string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("%g/%g/%g", p.g.Rating, p.g.RD, p.g.Volatility)
}

func (p *glicko2Player) Set(s string) (err error) {
	p.g, err = parseGlicko(s, true)
	return err
}

// parseGlicko reads R/RD, or R/RD/VOL when withVolatility (the
// volatility then defaults to a new player's).
func parseGlicko(s string, withVolatility bool) (rating.Glicko, error) {
	parts := strings.Split(s, "/")
	want := "R/RD"
	if withVolatility {
		want = "R/RD or R/RD/VOL"
	}
	if len(parts) < 2 || len(parts) > 2 && !withVolatility || len(parts) > 3 {
		return rating.Glicko{}, fmt.Errorf("want %s", want)
	}
	g := rating.Glicko{Volatility: rating.NewVolatility}
	fields := []*float64{&g.Rating, &g.RD, &g.Volatility}
	names := []string{"rating", "rd", "volatility"}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return rating.Glicko{}, fmt.Errorf("%s %q is not a number (want %s)", names[i], p, want)
		}
		*fields[i] = v
	}
	return g, nil
}

func runGlicko2(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs, asJSON := ratingFlagSet("rankctl glicko2", stderr, "[--player R/RD/VOL] [--tau T] [--won R/RD]... [--lost R/RD]... [--drew R/RD]... [--json]\n\n"+
		"Runs one Glicko-2 rating period (Glickman's algorithm) over the games\n"+
		"given and prints the new rating, deviation and volatility. The platform\n"+
		"itself rates every game as its own period.")
	player := &glicko2Player{g: rating.NewGlicko()}
	fs.Var(player, "player", "the player's rating before the period, R/RD/VOL (omitted: a new player)")
	tau := fs.Float64("tau", rating.DefaultTau, "Glicko-2 system constant τ")
	games := &glicko2Games{}
	fs.Var(glicko2Flag{games, "won", rating.Win}, "won", "a win against opponent R/RD (repeatable)")
	fs.Var(glicko2Flag{games, "lost", rating.Loss}, "lost", "a loss against opponent R/RD (repeatable)")
	fs.Var(glicko2Flag{games, "drew", rating.Tie}, "drew", "a draw against opponent R/RD (repeatable)")
	if code, ok := ratingFlagsOnly(fs, args, stderr); !ok {
		return code
	}
	if *tau == 0 { // to rating, 0 means "the default"; here it is a typo
		return ratingUsage(stderr, fs.Name(), fmt.Sprintf("--tau: 0 is outside %v…%v", rating.MinTau, rating.MaxTau))
	}

	after, err := rating.System{Tau: *tau}.Update(player.g, games.results)
	if err != nil {
		return ratingUsage(stderr, fs.Name(), glicko2Blame(err, player, games))
	}
	sug, err := rating.Suggest(after)
	if err != nil {
		return ratingUsage(stderr, fs.Name(), err.Error())
	}
	ans := glicko2Answer{Rating: after.Rating, RD: after.RD, Volatility: after.Volatility, SuggestedRank: sug.Rank}
	if *asJSON {
		return ratingJSON(stdout, stderr, ans)
	}
	fmt.Fprintf(stdout, "rating      %.2f\nrd          %.2f\nvolatility  %.6f\nladder rank %s (95%%: %s…%s)\n",
		after.Rating, after.RD, after.Volatility, sug.Rank, sug.Low, sug.High)
	return exitOK
}

// glicko2Blame turns rating's error into one naming the argument at fault.
func glicko2Blame(err error, player *glicko2Player, games *glicko2Games) string {
	var ie *rating.InputError
	if !errors.As(err, &ie) {
		return err.Error()
	}
	switch {
	case ie.Field == "tau":
		return "--tau: " + ie.Reason
	case strings.HasPrefix(ie.Field, "player "):
		return fmt.Sprintf("--player %s: %s %s", player, strings.TrimPrefix(ie.Field, "player "), ie.Reason)
	}
	var n int
	var what string
	if _, e := fmt.Sscanf(ie.Field, "opponent %d %s", &n, &what); e == nil && n >= 1 && n <= len(games.args) {
		return fmt.Sprintf("%s: %s %s", games.args[n-1], what, ie.Reason)
	}
	return err.Error()
}
