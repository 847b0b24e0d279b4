package examports

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// sourcePrefix makes an exam game's source_id: no other source's id can
// take it, since a submitted game's source_id is its source's own.
const sourcePrefix = "exam:"

// SourceID is the source_id of the pending game of an exam game.
func SourceID(examGameID string) string { return sourcePrefix + examGameID }

// GameID is the id of the stored game of an exam game: the id the players
// and the game server use (check-in, result).
func GameID(examGameID string) string { return games.GameIDFor(SourceID(examGameID)) }

// Rules checks a schedule's rules against the rules engine's presets.
func Rules(name string) error {
	if _, ok := games.Preset(name); !ok {
		return fmt.Errorf("unknown rules %q (want chinese, japanese, ing or qq)", name)
	}
	return nil
}

// TimeControl writes an exam's time control the way matchmaking names
// pools: main seconds, then "+periods x seconds" of byo-yomi.
func TimeControl(tc ranks.TimeControl) string {
	s := strconv.Itoa(tc.MainSeconds)
	if tc.ByoYomiPeriods > 0 {
		s += "+" + strconv.Itoa(tc.ByoYomiPeriods) + "x" + strconv.Itoa(tc.ByoYomiSeconds)
	}
	return s
}

// Intake is what Games needs of games.Intake.
type Intake interface {
	CreatePending(ctx context.Context, p games.Pending) (games.StoredGame, error)
	Game(ctx context.Context, id string) (games.StoredGame, error)
}

// Presence tells who checked in for a game (games.Attendance).
type Presence interface {
	Present(ctx context.Context, gameID string) ([]string, error)
}

// Annulments tells whether a game was annulled (rating.Service).
type Annulments interface {
	Annulment(ctx context.Context, gameID string) (rating.Changed, error)
}

// Games is the games side as ranks.ExamGames.
type Games struct {
	Intake     Intake
	Presence   Presence
	Annulments Annulments
}

var _ ranks.ExamGames = Games{}

// CreatePending implements ranks.ExamGames: an even game with the rules'
// komi, expiring at the session's deadline, idempotent by the exam game's
// id.
func (g Games) CreatePending(ctx context.Context, eg ranks.ExamGame) error {
	rules, ok := games.Preset(eg.Rules)
	if !ok {
		return fmt.Errorf("exam game %s: %w", eg.ID, Rules(eg.Rules))
	}
	_, err := g.Intake.CreatePending(ctx, games.Pending{
		SourceID: SourceID(eg.ID), Black: eg.Black, White: eg.White, Size: eg.BoardSize, Rules: rules,
		Komi: games.DefaultKomi(rules, 0), TimeControl: TimeControl(eg.TimeControl), Rated: eg.Rated,
		By: sourcePrefix + eg.SessionID, Until: eg.Deadline,
	})
	return err
}

// Outcome implements ranks.ExamGames: a finished game's winner by
// username ("" for a draw), void when it ended without a result or was
// annulled; for a game not finished (pending or expired), who checked in.
func (g Games) Outcome(ctx context.Context, examGameID string) (ranks.GameOutcome, error) {
	sg, err := g.Intake.Game(ctx, GameID(examGameID))
	if errors.Is(err, games.ErrNotFound) {
		return ranks.GameOutcome{}, fmt.Errorf("exam game %s: %w", examGameID, ranks.ErrNotFound)
	}
	if err != nil {
		return ranks.GameOutcome{}, err
	}
	switch sg.Status {
	case games.StatusFinished, games.StatusRated:
		if _, err := g.Annulments.Annulment(ctx, sg.ID); err == nil {
			return ranks.GameOutcome{Finished: true, Void: true}, nil
		} else if !errors.Is(err, rating.ErrNotFound) {
			return ranks.GameOutcome{}, err
		}
		v := sg.Verdict
		switch {
		case v == nil || v.End == games.EndVoid:
			return ranks.GameOutcome{Finished: true, Void: true}, nil
		case v.Winner == games.Black:
			return ranks.GameOutcome{Finished: true, Winner: sg.Black}, nil
		case v.Winner == games.White:
			return ranks.GameOutcome{Finished: true, Winner: sg.White}, nil
		}
		return ranks.GameOutcome{Finished: true}, nil // a draw
	}
	present, err := g.Presence.Present(ctx, sg.ID)
	if err != nil {
		return ranks.GameOutcome{}, err
	}
	return ranks.GameOutcome{Present: present}, nil
}

// Ratings is what Players and Certifier need of rating.Service.
type Ratings interface {
	PlayerOrNew(ctx context.Context, username string) (rating.PlayerState, error)
	Change(ctx context.Context, in rating.ChangeInput) (rating.Changed, error)
}

// Wiring is what an exam service is wired to: its store, the games
// intake, the check-ins, the rating service, the directory of accounts
// and the clock.
type Wiring struct {
	Store    ranks.ExamStore
	Intake   Intake
	Presence Presence
	Ratings  interface {
		Ratings
		Annulments
	}
	Directory games.Players
	Clock     ranks.Clock
}

// NewService wires an exam service to the real ports: the one place
// rankd and the tests that need the real wiring build it.
func NewService(w Wiring) *ranks.ExamService {
	return &ranks.ExamService{
		Store:     w.Store,
		Games:     Games{Intake: w.Intake, Presence: w.Presence, Annulments: w.Ratings},
		Players:   Players{Directory: w.Directory, Ratings: w.Ratings},
		Certifier: Certifier{Ratings: w.Ratings},
		Calendar:  jobs.Calendar{},
		Rules:     Rules,
		Clock:     w.Clock,
	}
}

// Players is the rating service as ranks.ExamPlayers.
type Players struct {
	Directory games.Players // who has an account that may play
	Ratings   Ratings
}

var _ ranks.ExamPlayers = Players{}

func (p Players) state(ctx context.Context, player string) (rating.PlayerState, error) {
	name, err := p.Directory.Resolve(ctx, player)
	if errors.Is(err, games.ErrUnknownPlayer) {
		return rating.PlayerState{}, fmt.Errorf("%w: %s", ranks.ErrUnknownPlayer, player)
	}
	if err != nil {
		return rating.PlayerState{}, err
	}
	return p.Ratings.PlayerOrNew(ctx, name)
}

// LadderScore implements ranks.ExamPlayers.
func (p Players) LadderScore(ctx context.Context, player string) (int, error) {
	st, err := p.state(ctx, player)
	return st.Score, err
}

// CertifiedRank implements ranks.ExamPlayers.
func (p Players) CertifiedRank(ctx context.Context, player string) (ranks.Rank, error) {
	st, err := p.state(ctx, player)
	return st.Certified, err
}

// Certifier is the rating service as ranks.Certifier.
type Certifier struct{ Ratings Ratings }

var _ ranks.Certifier = Certifier{}

// SetCertified implements ranks.Certifier: one ledger entry of cause exam
// per key, with the exam's evidence; an exam never lowers a certified
// rank (a higher one stays, and the entry records the pass).
func (c Certifier) SetCertified(ctx context.Context, ch ranks.CertifiedChange) error {
	_, err := c.Ratings.Change(ctx, rating.ChangeInput{
		Key: ch.Key, Player: ch.Player, Cause: rating.CauseExam, CauseID: ch.CauseID, Certify: ch.Rank, KeepHigher: true,
		Actor: ch.Actor, Reason: ch.Reason, Evidence: ch.Evidence, At: ch.At,
	})
	return err
}
