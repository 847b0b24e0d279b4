package rating

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/ranks"
)

// Kinds of operation (Operation.Kind).
const (
	OpGame   = "game"   // a rated game: both players, by the formula
	OpChange = "change" // one player: adjustment, placement, certification, revocation
	OpAnnul  = "annul"  // a game's annulment: both players, compensating entries
)

// Operation ids of the kinds other than games: prefixed, so that they
// never meet a game id (game ids are [0-9a-v] only).
const (
	changePrefix = "change:"
	annulPrefix  = "annul:"
)

// Change is what a one-player operation does (OpChange), or, for an
// annulment (OpAnnul), which game it reverses and by how much.
type Change struct {
	Cause   string `json:"cause"`
	CauseID string `json:"cause_id,omitempty"`
	// The ladder: add Delta, or set Score; neither leaves it.
	Delta *int `json:"delta,omitempty"`
	Score *int `json:"score,omitempty"`
	// The certified rank: set Certify (a rank), or Revoke it; neither
	// leaves it. KeepHigher keeps a higher certified rank (an exam never
	// lowers one).
	Certify    string `json:"certify,omitempty"`
	KeepHigher bool   `json:"keep_higher,omitempty"`
	Revoke     bool   `json:"revoke,omitempty"`
	Reason     string `json:"reason,omitempty"`
	// Evidence is an exam's game ids.
	Evidence []string `json:"evidence,omitempty"`
	// Reverse is, for an annulment, each player's ladder delta from the
	// annulled game (read once from its plan when the annulment is made).
	Reverse map[string]int `json:"reverse,omitempty"`
	// BeforeFirstGame: the change applies only while the player has no
	// rated game (a teacher's starting-rank placement); decided in the
	// plan, so a game landing first wins.
	BeforeFirstGame bool `json:"before_first_game,omitempty"`
}

// Sentinels of changes and annulments.
var (
	// ErrKeyReused: an idempotency key already names another change.
	ErrKeyReused = errors.New("idempotency key names another change")
	// ErrNotRated: the game named moved no rating, so there is nothing
	// to annul.
	ErrNotRated = errors.New("the game moved no rating")
	// ErrNoCertifiedRank: a revocation of a player with no certified rank.
	ErrNoCertifiedRank = errors.New("no certified rank")
)

// ChangeInput is one change of one player's ladder score or certified
// rank: an admin's adjustment or placement, an exam's certification, a
// revocation. It is applied once per Key.
type ChangeInput struct {
	Key     string // idempotency key; the same key applies once
	Player  string
	Cause   string // CauseAdjustment, CausePlacement, CauseExam, CauseRevocation
	CauseID string
	// The ladder: at most one of Delta and Score.
	Delta *int
	Score *int
	// The certified rank: at most one of Certify (non-zero) and Revoke.
	Certify    ranks.Rank
	KeepHigher bool
	Revoke     bool
	Actor      string
	Reason     string
	Evidence   []string
	At         time.Time // zero: the service's clock
	// BeforeFirstGame refuses the change (ErrPlayed) once the player has
	// a rated game.
	BeforeFirstGame bool
}

// Changed is what a change or an annulment did: each player's state after
// it and the ledger entry that records it, in username order.
type Changed struct {
	Op      string        `json:"op"`
	Players []PlayerState `json:"players"`
	Entries []LedgerEntry `json:"entries"`
}

// PlacementScore is the ladder score a player placed at a ladder rank
// gets. Decided: the rank's lowest score, as a new player starts at 1k's
// lowest (StartScore).
func PlacementScore(r ranks.Rank) (int, error) { return r.LowestScore() }

// Change applies in once per in.Key and returns the player after it;
// applying the same change again returns the same answer, another change
// under the same key is ErrKeyReused. It goes through the same holds and
// versions as a game (see Apply), so it is ordered with the player's games
// and safe against crashes and other replicas.
func (s *Service) Change(ctx context.Context, in ChangeInput) (Changed, error) {
	if err := checkChange(in); err != nil {
		return Changed{}, err
	}
	if in.Revoke {
		if err := s.canRevoke(ctx, in); err != nil {
			return Changed{}, err
		}
	}
	at := in.At
	if at.IsZero() {
		at = s.stamp()
	}
	if in.CauseID == "" {
		in.CauseID = in.Key // an admin's change is known by its key
	}
	ch := &Change{Cause: in.Cause, CauseID: in.CauseID, Delta: in.Delta, Score: in.Score, KeepHigher: in.KeepHigher,
		Revoke: in.Revoke, Reason: in.Reason, Evidence: in.Evidence, BeforeFirstGame: in.BeforeFirstGame}
	if !in.Certify.IsZero() {
		ch.Certify = in.Certify.String()
	}
	want := Operation{ID: changePrefix + in.Key, Kind: OpChange, Player: in.Player, Change: ch, Actor: in.Actor,
		At: at.UTC().Truncate(time.Millisecond)}
	defer s.lockPlayers(in.Player, in.Player)()
	op, err := s.store.CreateOp(ctx, want)
	if err != nil {
		return Changed{}, err
	}
	if !sameChange(op, want) {
		return Changed{}, fmt.Errorf("%w: %q", ErrKeyReused, in.Key)
	}
	return s.finish(ctx, op)
}

// canRevoke refuses, before anything is stored, the revocation of a
// player who has no certified rank; a retry of a revocation made finds
// its operation and goes on.
func (s *Service) canRevoke(ctx context.Context, in ChangeInput) error {
	_, err := s.store.Op(ctx, changePrefix+in.Key)
	if !errors.Is(err, ErrNotFound) {
		return err
	}
	st, err := s.PlayerOrNew(ctx, in.Player)
	if err != nil {
		return err
	}
	if st.Certified.IsZero() {
		return fmt.Errorf("%w: %s has none to revoke", ErrNoCertifiedRank, in.Player)
	}
	return nil
}

func checkChange(in ChangeInput) error {
	switch {
	case strings.TrimSpace(in.Key) == "":
		return &InputError{"key", "is empty"}
	case in.Player == "":
		return &InputError{"player", "is empty"}
	case !slices.Contains(Causes, in.Cause) || in.Cause == CauseGame || in.Cause == CauseAnnulment:
		return &InputError{"cause", fmt.Sprintf("%q is not a cause of a change", in.Cause)}
	case in.Delta != nil && in.Score != nil:
		return &InputError{"delta", "give delta or score, not both"}
	case !in.Certify.IsZero() && in.Revoke:
		return &InputError{"certify", "certify or revoke, not both"}
	case in.Delta == nil && in.Score == nil && in.Certify.IsZero() && !in.Revoke:
		return &InputError{"delta", "the change changes nothing: give delta, score, a certified rank or a revocation"}
	case in.Score != nil && (*in.Score < -MaxSetScore || *in.Score > MaxSetScore):
		return &InputError{"score", fmt.Sprintf("%d is beyond the limit of ±%d", *in.Score, MaxSetScore)}
	case in.Delta != nil && *in.Delta == 0:
		return &InputError{"delta", "0 changes nothing"}
	case in.Delta != nil && (*in.Delta < -MaxDelta || *in.Delta > MaxDelta):
		return &InputError{"delta", fmt.Sprintf("%d is beyond the limit of ±%d", *in.Delta, MaxDelta)}
	case !in.Certify.IsZero() && in.Certify.Kind() == ranks.Pro:
		return &InputError{"certified_rank", "professional ranks are not certified here"}
	}
	if err := checkReason(in.Reason); err != nil {
		return err
	}
	return checkEvidence(in.Evidence)
}

// sameChange reports whether the stored operation is the change asked
// for (a retry), whenever it was made.
func sameChange(stored, want Operation) bool {
	if stored.Kind != want.Kind || stored.Player != want.Player || stored.Actor != want.Actor {
		return false
	}
	a, _ := json.Marshal(stored.Change)
	b, _ := json.Marshal(want.Change)
	return string(a) == string(b)
}

// finish runs a change or an annulment to completion and reads what it did.
func (s *Service) finish(ctx context.Context, op Operation) (Changed, error) {
	op, err := s.run(ctx, op, 0)
	if err != nil {
		return Changed{}, err
	}
	if op.Error != "" {
		if op.Change != nil && op.Change.BeforeFirstGame && strings.HasSuffix(op.Error, playedText) {
			return Changed{}, fmt.Errorf("%w: operation %s: %s", ErrPlayed, op.ID, op.Error)
		}
		return Changed{}, fmt.Errorf("%w: operation %s was given up: %s", ErrInvalidGame, op.ID, op.Error)
	}
	c := Changed{Op: op.ID}
	for _, st := range op.Plan.Steps {
		c.Players = append(c.Players, st.After)
		c.Entries = append(c.Entries, st.Entry)
	}
	return c, nil
}

// planChange computes a one-player change from the held state.
func planChange(op Operation, before PlayerState) (Plan, error) {
	ch := op.Change
	if ch == nil {
		return Plan{}, &InputError{"change", "operation " + op.ID + " has no change"}
	}
	if ch.BeforeFirstGame && before.Games > 0 {
		return Plan{}, &PlayedError{Player: before.Username, Games: before.Games}
	}
	a := before
	delta := 0
	switch {
	case ch.Delta != nil:
		delta = *ch.Delta
	case ch.Score != nil:
		delta = *ch.Score - before.Score
	}
	a.Score += delta
	if a.Score < -ScoreLimit || a.Score > ScoreLimit {
		return Plan{}, &InputError{"score", fmt.Sprintf("%d%+d is beyond ±%d", before.Score, delta, ScoreLimit)}
	}
	if ch.Delta != nil || ch.Score != nil {
		// Decided: a person (or an exam) who sets the ladder score ends
		// the newcomer's placement; the score is theirs, not the rule's.
		a.Placing = false
	}
	switch {
	case ch.Certify != "":
		r, err := ranks.Parse(ch.Certify)
		if err != nil {
			return Plan{}, &InputError{"certified_rank", err.Error()}
		}
		if !ch.KeepHigher || before.Certified.IsZero() || before.Certified.Compare(r) < 0 {
			a.Certified = r
		}
	case ch.Revoke:
		if before.Certified.IsZero() {
			return Plan{}, &InputError{"certified_rank", before.Username + " has no certified rank to revoke"}
		}
		a.Certified = ranks.Rank{}
	}
	e := LedgerEntry{
		Username: before.Username, Seq: before.Seq + 1, Cause: ch.Cause, CauseID: ch.CauseID, Actor: op.Actor,
		ScoreBefore: before.Score, ScoreAfter: a.Score, RankBefore: before.Rank().String(), RankAfter: a.Rank().String(),
		Delta: delta, Glicko: a.Glicko, Reason: ch.Reason, At: op.At, Prev: before.Head, Evidence: ch.Evidence,
	}
	if ch.Certify != "" || ch.Revoke {
		e.CertifiedBefore, e.CertifiedAfter = rankText(before.Certified), rankText(a.Certified)
	}
	e.Hash = e.ComputeHash()
	a.Seq, a.Head, a.Version, a.Op, a.UpdatedAt = e.Seq, e.Hash, before.Version+1, op.ID, op.At
	return Plan{Steps: []Step{{Before: before, After: a, Entry: e}}}, nil
}

// AnnulInput names the game to annul, who annuls it and why.
type AnnulInput struct {
	GameID string
	Actor  string
	Reason string
	At     time.Time // zero: the service's clock
}

// Annul reverses a rated game's ladder deltas for both players by
// compensating ledger entries (cause CauseAnnulment), once per game: a
// second annulment of the same game returns the first. The game's counts
// (games, wins, losses, draws) are taken back too; Glicko-2 is left as it
// is, and games played after it are not recomputed (decided: a rating
// after the annulled game was earned against the ratings of the time).
// A game that moved no rating is ErrNotRated.
func (s *Service) Annul(ctx context.Context, in AnnulInput) (Changed, error) {
	switch {
	case in.GameID == "":
		return Changed{}, &InputError{"game id", "is empty"}
	}
	if err := checkReason(in.Reason); err != nil {
		return Changed{}, err
	}
	game, err := s.store.Op(ctx, in.GameID)
	if errors.Is(err, ErrNotFound) || err == nil && game.Kind != "" && game.Kind != OpGame {
		return Changed{}, fmt.Errorf("%w: game %s", ErrNotRated, in.GameID)
	}
	if err != nil {
		return Changed{}, err
	}
	unlock := s.lockPlayers(game.Black, game.White)
	game, err = s.run(ctx, game, 0) // a game still being applied is finished first
	unlock()
	if err != nil && !errors.Is(err, ErrInvalidGame) {
		return Changed{}, err
	}
	if game.Error != "" || game.Plan == nil {
		return Changed{}, fmt.Errorf("%w: game %s was given up", ErrNotRated, in.GameID)
	}
	reverse := make(map[string]int, 2)
	for _, st := range game.Plan.Steps {
		reverse[st.Entry.Username] = st.Entry.Delta
	}
	at := in.At
	if at.IsZero() {
		at = s.stamp()
	}
	defer s.lockPlayers(game.Black, game.White)()
	op, err := s.store.CreateOp(ctx, Operation{
		ID: annulPrefix + in.GameID, Kind: OpAnnul, Black: game.Black, White: game.White, Winner: game.Winner, Game: game.Game,
		SourceID: game.SourceID, Actor: in.Actor, At: at.UTC().Truncate(time.Millisecond),
		Change: &Change{Cause: CauseAnnulment, CauseID: in.GameID, Reason: in.Reason, Reverse: reverse},
	})
	if err != nil {
		return Changed{}, err
	}
	return s.finish(ctx, op)
}

// Annulment returns what the annulment of the game did, or ErrNotFound if
// the game was not annulled (or its annulment is not complete yet).
func (s *Service) Annulment(ctx context.Context, gameID string) (Changed, error) {
	op, err := s.store.Op(ctx, annulPrefix+gameID)
	if err != nil {
		return Changed{}, err
	}
	if !op.Done || op.Plan == nil {
		return Changed{}, fmt.Errorf("annulment of %s is not complete: %w", gameID, ErrNotFound)
	}
	return s.finish(ctx, op)
}

// Annulled is a game's annulment: when, by whom (for the audit; a game's
// public page leaves it out) and why.
type Annulled struct {
	At     time.Time
	Actor  string
	Reason string
}

// AnnulledGame reports whether the game was annulled, and how: a game
// shown after its annulment must not look rated still. ok is false when
// it was not (or not yet completely).
func (s *Service) AnnulledGame(ctx context.Context, gameID string) (Annulled, bool, error) {
	// The stored operation as it is: a read of a public page helps no
	// operation along (Annulment does), and one given up annulled nothing.
	op, err := s.store.Op(ctx, annulPrefix+gameID)
	if errors.Is(err, ErrNotFound) {
		return Annulled{}, false, nil
	}
	if err != nil {
		return Annulled{}, false, err
	}
	if !op.Done || op.Error != "" || op.Plan == nil || len(op.Plan.Steps) == 0 {
		return Annulled{}, false, nil
	}
	e := op.Plan.Steps[0].Entry
	return Annulled{At: e.At, Actor: e.Actor, Reason: e.Reason}, true, nil
}

// planAnnul computes the compensating entries of an annulment.
func planAnnul(op Operation, names []string, states map[string]PlayerState) (Plan, error) {
	ch := op.Change
	if ch == nil {
		return Plan{}, &InputError{"change", "annulment " + op.ID + " has no change"}
	}
	var p Plan
	for _, n := range names {
		before := states[n]
		a := before
		delta := -ch.Reverse[n]
		a.Score += delta
		if a.Score < -ScoreLimit || a.Score > ScoreLimit {
			return Plan{}, &InputError{"score", fmt.Sprintf("%d%+d is beyond ±%d", before.Score, delta, ScoreLimit)}
		}
		a.Games = max(a.Games-1, 0)
		switch {
		case op.Game.Outcome == Draw:
			a.Draws = max(a.Draws-1, 0)
		case (op.Winner == SideBlack) == (n == op.Black):
			a.Wins = max(a.Wins-1, 0)
		default:
			a.Losses = max(a.Losses-1, 0)
		}
		opponent := op.White
		if n == op.White {
			opponent = op.Black
		}
		e := LedgerEntry{
			Username: n, Seq: before.Seq + 1, Cause: CauseAnnulment, CauseID: ch.CauseID, SourceID: op.SourceID,
			Actor: op.Actor, Opponent: opponent, ScoreBefore: before.Score, ScoreAfter: a.Score,
			RankBefore: before.Rank().String(), RankAfter: a.Rank().String(), Delta: delta, Glicko: a.Glicko,
			Reason: ch.Reason, At: op.At, Prev: before.Head,
		}
		e.Hash = e.ComputeHash()
		a.Seq, a.Head, a.Version, a.Op, a.UpdatedAt = e.Seq, e.Hash, before.Version+1, op.ID, op.At
		p.Steps = append(p.Steps, Step{Before: before, After: a, Entry: e})
	}
	return p, nil
}

// stamp is the service's clock in UTC to the millisecond.
func (s *Service) stamp() time.Time { return s.now().UTC().Truncate(time.Millisecond) }
