package reviews

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/integrity"
	"github.com/weiqi-platform/rank/rating"
)

// ScanWindow is how far back the nightly scan looks (decided: farming
// and sandbagging show over weeks; a quarter of games keeps every
// detector's sample large while a night's scan stays short, and flags
// from overlapping windows are recorded once).
const ScanWindow = 90 * 24 * time.Hour

// Sources are what the scan reads: the ledger's rated games (with both
// players as they were before each), the games intake (how each ended)
// and the exam registrations (eligibility checks). The queue's other
// calls need none of them.
type Sources struct {
	Ratings *rating.Service
	Intake  *intake.Intake
	Exams   *exams.Service
}

// Scan runs the integrity detectors over the rated games of the window
// ending at `at` and records the flags not yet in the queue; it returns
// how many were new. It never changes a score.
func (s *Service) Scan(ctx context.Context, at time.Time) (int, error) {
	in, err := s.input(ctx, at.Add(-ScanWindow), at)
	if err != nil {
		return 0, err
	}
	flags, err := integrity.Detect(in, integrity.Defaults())
	if err != nil {
		return 0, fmt.Errorf("reviews: detect: %w", err)
	}
	return s.Record(ctx, flags)
}

// input builds the detectors' input for [from, to).
func (s *Service) input(ctx context.Context, from, to time.Time) (integrity.Input, error) {
	src := s.src
	if src.Ratings == nil || src.Intake == nil || src.Exams == nil {
		return integrity.Input{}, errors.New("reviews: the scan's sources are not wired")
	}
	rated, err := src.Ratings.RatedGames(ctx, from, to)
	if err != nil {
		return integrity.Input{}, err
	}
	var in integrity.Input
	for _, rg := range rated {
		g := integrity.Game{
			ID: rg.ID, Moves: rg.Game.Moves, End: integrity.EndOther, Ended: rg.At,
			Exam:  strings.HasPrefix(rg.SourceID, exams.SourceID("")),
			Black: side(rg.Black), White: side(rg.White),
		}
		switch rg.Winner {
		case rating.SideBlack:
			g.Winner = rg.Black.Username
		case rating.SideWhite:
			g.Winner = rg.White.Username
		}
		sg, err := src.Intake.Game(ctx, rg.ID)
		switch {
		case err == nil:
			g.End, g.Started = end(sg), sg.CreatedAt
		case !errors.Is(err, intake.ErrNotFound): // a rating without a stored game: its end is unknown
			return integrity.Input{}, err
		}
		if rg.Game.Escape {
			g.End = integrity.EndEscape
		}
		in.Games = append(in.Games, g)
	}
	regs, err := src.Exams.RegistrationsBetween(ctx, from, to)
	if err != nil {
		return integrity.Input{}, err
	}
	for _, r := range regs {
		in.Checks = append(in.Checks, integrity.Check{Player: r.Player, At: r.At, Exam: r.SessionID})
	}
	return in, nil
}

func side(st rating.PlayerState) integrity.Side {
	return integrity.Side{Player: st.Username, Glicko: st.Glicko, Score: st.Score, Games: st.Games}
}

// end is how a stored game ended, as the detectors name it.
func end(g intake.StoredGame) integrity.End {
	if g.Verdict == nil {
		return integrity.EndOther
	}
	switch g.Verdict.End {
	case games.EndScore:
		return integrity.EndCount
	case games.EndResign:
		return integrity.EndResign
	case games.EndTime:
		return integrity.EndTimeout
	case games.EndEscape:
		return integrity.EndEscape
	}
	return integrity.EndOther
}
