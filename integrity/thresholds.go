package integrity

import "time"

// Thresholds are every number the detectors decide by. Defaults gives
// the decided ones; the test suite measures them on a simulated
// population (at least 95% of the planted cheats flagged, at most 1% of
// the honest players).
type Thresholds struct {
	// MinVariance: a z-score counts only over games whose expected
	// results vary by at least this much (Σ expected·(1 − expected)).
	MinVariance float64 `json:"min_variance"`

	// EarlyMoves: a resignation before this many moves is early. Few
	// honest games are decided in the opening; a given-away game is
	// usually resigned at once.
	EarlyMoves int `json:"early_moves"`

	// Farming. A captive opponent of a player has played at least
	// CaptiveMinGames games against them, and at least CaptiveShare of
	// all their games. New accounts had played fewer than NewAccountGames
	// rated games before the game. A player is flagged when their z over
	// their games against captive opponents, or against new accounts,
	// reaches FarmZ over at least FarmMinGames games (also against any
	// one opponent); or when their opponents (or any one of them) resign
	// early against them far more often than they do against others: at
	// least FarmEarlyWins such wins, at a probability of at most
	// FarmEarlyP (Poisson; for one opponent, times the number of
	// opponents who lost that many games to the player) given each
	// opponent's rate of early
	// resignations in their other losses, shrunk toward HonestEarlyRate
	// by EarlyPriorLosses losses' worth (so an opponent who loses to no
	// one else is taken to resign early as often as an honest player
	// may).
	CaptiveMinGames  int     `json:"captive_min_games"`
	CaptiveShare     float64 `json:"captive_share"`
	NewAccountGames  int     `json:"new_account_games"`
	FarmZ            float64 `json:"farm_z"`
	FarmMinGames     int     `json:"farm_min_games"`
	FarmEarlyWins    int     `json:"farm_early_wins"`
	FarmEarlyP       float64 `json:"farm_early_p"`
	EarlyPriorLosses float64 `json:"early_prior_losses"`

	// HonestEarlyRate is the most an honest player's losses are resigned
	// early.
	HonestEarlyRate float64 `json:"honest_early_rate"`

	// Sandbagging. A player is flagged when their z over all their games
	// is at most −SandbagZ (over at least SandbagMinGames); when at least
	// SandbagEarlyLosses of their losses were resigned early and a player
	// who resigns HonestEarlyRate of their losses early would do so at a
	// probability of at most SandbagEarlyP (binomial); or when, over the
	// games played while a win would have lifted them across a rank
	// boundary (a score within BandMargin of the next rank) or within
	// BeforeCheck before an exam's eligibility check of theirs, their z is
	// at most −WindowZ (over at least WindowMinGames) or their early
	// resignations pass the same binomial test.
	SandbagZ           float64       `json:"sandbag_z"`
	SandbagMinGames    int           `json:"sandbag_min_games"`
	SandbagEarlyLosses int           `json:"sandbag_early_losses"`
	SandbagEarlyP      float64       `json:"sandbag_early_p"`
	BandMargin         int           `json:"band_margin"`
	BeforeCheck        time.Duration `json:"before_check"`
	WindowZ            float64       `json:"window_z"`
	WindowMinGames     int           `json:"window_min_games"`

	// Exam collusion. Two players who met in at least ExamPairGames exam
	// games are flagged when the probability Glicko-2 gives the results
	// of those games is at most ExamImprobable, or when at least
	// ExamEarlyGames of them were resigned early.
	ExamPairGames  int     `json:"exam_pair_games"`
	ExamImprobable float64 `json:"exam_improbable"`
	ExamEarlyGames int     `json:"exam_early_games"`
}

// Decided thresholds, measured in integrity_test.go (TestDetectionRates).
const (
	// DefaultMinVariance: two games' worth: the normal approximation of
	// a z-score is poor below it (one upset in 30 games a player was all
	// but sure to lose is z 5, and no evidence of anything).
	DefaultMinVariance = 2

	// DefaultEarlyMoves: 30 moves is the opening.
	DefaultEarlyMoves = 30

	DefaultCaptiveMinGames = 2
	// DefaultCaptiveShare: most of the opponent's games. Friends who play
	// each other a lot are captives of each other too; their results
	// follow Glicko-2, so they are not flagged.
	DefaultCaptiveShare = 0.5
	// DefaultNewAccountGames: a new account is still placing.
	DefaultNewAccountGames = 15
	// DefaultFarmZ: one-sided p ≈ 3·10⁻⁵ for an honest set of games.
	DefaultFarmZ        = 4.0
	DefaultFarmMinGames = 6
	// DefaultFarmEarlyWins, DefaultFarmEarlyP: at least four early
	// resignations against the player, at a chance of 1 in 1,000 (for one
	// opponent, times the opponents they beat): their opponents are
	// giving the games away.
	DefaultFarmEarlyWins = 4
	DefaultFarmEarlyP    = 1e-3
	// DefaultEarlyPriorLosses: ten losses' worth of the honest rate.
	DefaultEarlyPriorLosses = 10

	// DefaultHonestEarlyRate: one loss in ten resigned in the opening,
	// more than all but the most impatient honest players (refit on real
	// games: the share of losses resigned before EarlyMoves, per player).
	DefaultHonestEarlyRate = 0.10

	DefaultSandbagZ        = 4.0
	DefaultSandbagMinGames = 20
	// DefaultSandbagEarlyLosses, DefaultSandbagEarlyP: at least four
	// early resignations, at a chance of 1 in 200 for a player who
	// resigns HonestEarlyRate of their losses in the opening (most honest
	// players resign far fewer: in the simulation none came below 0.02).
	DefaultSandbagEarlyLosses = 4
	DefaultSandbagEarlyP      = 5e-3
	// DefaultBandMargin: within one ordinary win (+5 to +10) of the next
	// rank.
	DefaultBandMargin = 10
	// DefaultBeforeCheck: the week before an exam's eligibility check.
	DefaultBeforeCheck    = 7 * 24 * time.Hour
	DefaultWindowZ        = 3.5
	DefaultWindowMinGames = 5

	DefaultExamPairGames = 2
	// DefaultExamImprobable: 1 in 1,000 for the pair's exam results.
	DefaultExamImprobable = 0.001
	// DefaultExamEarlyGames: one exam game between players who meet
	// again, resigned in the opening.
	DefaultExamEarlyGames = 1
)

// Defaults are the decided thresholds.
func Defaults() Thresholds {
	return Thresholds{
		MinVariance:        DefaultMinVariance,
		EarlyMoves:         DefaultEarlyMoves,
		CaptiveMinGames:    DefaultCaptiveMinGames,
		CaptiveShare:       DefaultCaptiveShare,
		NewAccountGames:    DefaultNewAccountGames,
		FarmZ:              DefaultFarmZ,
		FarmMinGames:       DefaultFarmMinGames,
		FarmEarlyWins:      DefaultFarmEarlyWins,
		FarmEarlyP:         DefaultFarmEarlyP,
		EarlyPriorLosses:   DefaultEarlyPriorLosses,
		SandbagZ:           DefaultSandbagZ,
		SandbagMinGames:    DefaultSandbagMinGames,
		SandbagEarlyLosses: DefaultSandbagEarlyLosses,
		HonestEarlyRate:    DefaultHonestEarlyRate,
		SandbagEarlyP:      DefaultSandbagEarlyP,
		BandMargin:         DefaultBandMargin,
		BeforeCheck:        DefaultBeforeCheck,
		WindowZ:            DefaultWindowZ,
		WindowMinGames:     DefaultWindowMinGames,
		ExamPairGames:      DefaultExamPairGames,
		ExamImprobable:     DefaultExamImprobable,
		ExamEarlyGames:     DefaultExamEarlyGames,
	}
}
