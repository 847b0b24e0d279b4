package ranks

import (
	"errors"
	"fmt"
)

// ladderStep is one row of the ladder table: the rank held from this
// score up to just below the next row's score.
type ladderStep struct {
	rank Rank
	from int
}

// ladder is rating.md §1's table (seed 003), lowest rank first. It is the
// one place the ladder's ranks and score boundaries are written.
var ladder = [...]ladderStep{
	{Rank{Kyu, 9}, -800},
	{Rank{Kyu, 8}, -700},
	{Rank{Kyu, 7}, -600},
	{Rank{Kyu, 6}, -500},
	{Rank{Kyu, 5}, -400},
	{Rank{Kyu, 4}, -300},
	{Rank{Kyu, 3}, -200},
	{Rank{Kyu, 2}, -100},
	{Rank{Kyu, 1}, 0},
	{Rank{Dan, 1}, 100},
	{Rank{Dan, 2}, 200},
	{Rank{Dan, 3}, 300},
	{Rank{Dan, 4}, 400},
	{Rank{Dan, 5}, 500},
	{Rank{Dan, 6}, 600},
	{Rank{Dan, 7}, 700},
	{Rank{Dan, 8}, 800},
	{Rank{Dan, 9}, 900},
}

// LadderBottom and LadderTop are the lowest and highest ladder ranks.
var (
	LadderBottom = ladder[0].rank
	LadderTop    = ladder[len(ladder)-1].rank
)

// FromScore reads a ladder score's rank off the table. Scores below the
// bottom row stay 9k and scores from 900 up are 9d: the rank is clamped,
// the score never is (decided, rating.md §1).
func FromScore(score int) Rank {
	// Last row whose lower bound the score reaches; the first row also
	// takes everything below it.
	i := len(ladder) - 1
	for i > 0 && score < ladder[i].from {
		i--
	}
	return ladder[i].rank
}

// ErrNotOnLadder is returned (wrapped) for a rank the ladder does not have:
// 10k and below, and every professional rank.
var ErrNotOnLadder = errors.New("not on the ladder")

// OnLadder reports whether r is one of the ladder's ranks, 9k…9d.
func (r Rank) OnLadder() bool {
	_, ok := ladderIndex(r)
	return ok
}

// LowestScore returns the lowest ladder score of r: the "score from"
// column of the table (200 for 3d, −800 for 9k, although lower scores are
// 9k too). A rank off the ladder gives an error wrapping ErrNotOnLadder.
func (r Rank) LowestScore() (int, error) {
	i, ok := ladderIndex(r)
	if !ok {
		return 0, fmt.Errorf("ranks: %s is %w (%s…%s)", r, ErrNotOnLadder, LadderBottom, LadderTop)
	}
	return ladder[i].from, nil
}

func ladderIndex(r Rank) (int, bool) {
	for i, s := range ladder {
		if s.rank == r {
			return i, true
		}
	}
	return 0, false
}

// LadderRanks returns the ladder's ranks, lowest first.
func LadderRanks() []Rank {
	rs := make([]Rank, len(ladder))
	for i, s := range ladder {
		rs[i] = s.rank
	}
	return rs
}

// Band is the ladder scores that read as r: from its lowest score to
// just below the next rank's. The ladder's ends are open, since the rank
// is clamped there (9k takes every score below −800, 9d every score from
// 900): Min is nil for 9k and Max nil for 9d. A rank off the ladder gives
// an error wrapping ErrNotOnLadder.
func (r Rank) Band() (min, max *int, err error) {
	i, ok := ladderIndex(r)
	if !ok {
		return nil, nil, fmt.Errorf("ranks: %s is %w (%s…%s)", r, ErrNotOnLadder, LadderBottom, LadderTop)
	}
	if i > 0 {
		lo := ladder[i].from
		min = &lo
	}
	if i+1 < len(ladder) {
		hi := ladder[i+1].from - 1
		max = &hi
	}
	return min, max, nil
}
