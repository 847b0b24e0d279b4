package intake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// BulkStore is a Store that stores and marks many games per command, for
// archives. Each element behaves as the single call would (Create,
// MarkRated); an error may leave some written, as the single calls
// would.
type BulkStore interface {
	Store
	// CreateAll stores each game as Create does and returns each one's
	// answer (nil, or ErrSourceTaken); the error is for the whole call.
	CreateAll(ctx context.Context, gs []StoredGame) ([]error, error)
	// MarkAllRated marks each game rated as MarkRated does.
	MarkAllRated(ctx context.Context, ids []string) error
}

// ArchiveGame is one finished game of an archive, in the order played.
type ArchiveGame struct {
	// Source names where it was read, for the summary ("dir/a.sgf#2").
	Source string
	Record *games.Record
	// At is when it was played: the record's date (Dated), else the
	// file's modification time.
	At    time.Time
	Dated bool
}

// Outcomes of an archive's game (ArchiveOutcome.Status).
const (
	ArchiveRated     = "rated"
	ArchiveDuplicate = "duplicate"
	ArchiveRefused   = "refused"
)

// ArchiveOutcome is what became of one game of an archive.
type ArchiveOutcome struct {
	Source string `json:"source"`
	GameID string `json:"game_id,omitempty"`
	Status string `json:"status"`
	// Code and Reason say why a game was refused (Code as RefusalCode,
	// the API's error codes).
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// ArchiveOptions tune an Archive.
type ArchiveOptions struct {
	// CreatePlayers makes an account for each player the archive names
	// who has none (players.EnsurePlayers); without it their games are
	// refused (unknown_player).
	CreatePlayers bool
	// Trusted takes the archive's results on trust, as a game server's
	// (Submission.Trusted): a count that does not give the claim is
	// rated as claimed and flagged.
	Trusted bool
}

// Archive rates an archive's games, batch after batch, in the order
// given: a game is stored once, keyed by its content (ArchiveSourceID),
// so running an archive again (after an interruption, or twice) rates
// nothing twice and completes what an interruption left. It keeps, for
// one run, the source ids seen and the players resolved.
type Archive struct {
	in      *Intake
	opt     ArchiveOptions
	seen    map[string]bool
	players map[string]string // name as written → username ("" refused)
	// Created lists the accounts made (CreatePlayers).
	Created []string
	// Stats counts how the rating service applied the games.
	Stats rating.BatchStats
	// run writes the players' latest-state records once, at Close.
	run *rating.BatchRun
}

// Archive starts rating an archive; Close ends it.
func (in *Intake) Archive(opt ArchiveOptions) *Archive {
	return &Archive{in: in, opt: opt, seen: map[string]bool{}, players: map[string]string{}, run: in.ratings.NewBatchRun()}
}

// Close writes the latest-state records (the leaderboard's) of the
// archive's players, which its batches leave for the end
// (rating.BatchRun). Without it (an interrupted run) the store repairs
// them when it is next opened.
func (a *Archive) Close(ctx context.Context) error { return a.run.Close(ctx) }

// ArchiveSourceID is the source_id of an archive's game: its content hash
// (players, rules, moves, result: ContentHash) with its date when the
// record gives one. The same game in two files, or read again, is the
// same game.
func ArchiveSourceID(g StoredGame, dated bool, at time.Time) string {
	h := sha256.New()
	h.Write([]byte(g.Hash))
	if dated {
		h.Write([]byte("|" + at.UTC().Format(time.RFC3339)))
	}
	return "archive:" + hex.EncodeToString(h.Sum(nil))[:40]
}

// Submit rates a batch of the archive's games, in the order given (the
// caller sorts them by date, then file order), and says what became of
// each: rated, a duplicate (stored and rated before, or earlier in this
// run) or refused with the reason. The games are stored in one bulk
// insert, rated by rating.Service.ApplyBatch and marked rated in one
// more. An error (a store down, a crash) leaves what the next run
// completes. Submit is Prepare then Commit.
func (a *Archive) Submit(ctx context.Context, batch []ArchiveGame) ([]ArchiveOutcome, error) {
	p, err := a.Prepare(ctx, batch)
	if err != nil {
		return nil, err
	}
	return a.Commit(ctx, p)
}

// Prepared is a batch of an archive's games judged and hashed, not yet
// stored (Archive.Prepare).
type Prepared struct {
	out   []ArchiveOutcome
	store []StoredGame
	// input[i] is store[i]'s rating input, its hashes taken here.
	input []rating.GameInput
	at    []int // store[i] is the batch's game at[i]
	// What Store settled: the games to rate (the batch's games rate[i] at
	// rateAt[i]) and their inputs (the rated ones').
	stored bool
	rate   []StoredGame
	rateAt []int
	inputs []rating.GameInput
}

// Prepare resolves a batch's players and judges its games: the work of
// Submit that writes no game. Batches are prepared in the archive's
// order and committed in the same order; one batch's Prepare may run
// beside the previous batch's Commit (one goroutine each), which is how
// an import keeps a second core busy while the store writes.
func (a *Archive) Prepare(ctx context.Context, batch []ArchiveGame) (*Prepared, error) {
	p := &Prepared{out: make([]ArchiveOutcome, len(batch))}
	if err := a.resolvePlayers(ctx, batch); err != nil {
		return nil, err
	}
	now := a.in.now()
	out := p.out
	for i, ag := range batch {
		out[i].Source = ag.Source
		g, err := a.judge(ag, now)
		if err != nil {
			out[i].Status, out[i].Code, out[i].Reason = ArchiveRefused, refusal(err), err.Error()
			a.in.rec.GameRefused(out[i].Code)
			continue
		}
		out[i].GameID = g.ID
		if a.seen[g.SourceID] {
			out[i].Status = ArchiveDuplicate
			continue
		}
		a.seen[g.SourceID] = true
		p.store, p.at = append(p.store, g), append(p.at, i)
		p.input = append(p.input, judgedInput(g))
	}
	return p, nil
}

// Commit stores, rates and marks a prepared batch's games and says what
// became of each of the batch's games: Store, then Rate.
func (a *Archive) Commit(ctx context.Context, p *Prepared) ([]ArchiveOutcome, error) {
	if err := a.Store(ctx, p); err != nil {
		return nil, err
	}
	return a.Rate(ctx, p)
}

// Store stores a prepared batch's games, unrated (each marked so until
// Rate), and settles which of them are to be rated: a game an earlier run
// stored and rated is a duplicate. One batch's Store may run beside the
// previous batch's Rate (batches stored in order, rated in order): a game
// stored and not yet rated is what an interruption leaves anyway, and the
// next run, or rankd's recovery, rates it in the order played.
func (a *Archive) Store(ctx context.Context, p *Prepared) error {
	out, store, at := p.out, p.store, p.at
	answers, err := a.createAll(ctx, store)
	if err != nil {
		return err
	}
	p.inputs = make([]rating.GameInput, 0, len(store))
	for j, g := range store {
		i, in := at[j], p.input[j]
		if errors.Is(answers[j], ErrSourceTaken) {
			stored, err := a.in.store.Game(ctx, g.ID)
			if err != nil {
				return err
			}
			switch {
			case stored.Hash != g.Hash || stored.SourceID != g.SourceID:
				cerr := &ConflictError{SourceID: g.SourceID, GameID: stored.ID}
				out[i].Status, out[i].Code, out[i].Reason = ArchiveRefused, RefusalCode(cerr), cerr.Error()
				continue
			case stored.Status == StatusRated:
				out[i].Status = ArchiveDuplicate
				continue
			}
			g = stored // stored by an interrupted run, not rated yet
			if in, err = RatingInput(g); err != nil {
				return err
			}
		} else if answers[j] != nil {
			return answers[j]
		}
		p.rate, p.rateAt = append(p.rate, g), append(p.rateAt, i)
		if g.Rated {
			// Marked unrated until MarkAllRated: a rerun applies it again.
			in.Tracked = true
			p.inputs = append(p.inputs, in)
		}
	}
	p.stored = true
	return nil
}

// Rate rates and marks the games of a batch Store stored, in order, and
// says what became of each of the batch's games.
func (a *Archive) Rate(ctx context.Context, p *Prepared) ([]ArchiveOutcome, error) {
	if !p.stored {
		return nil, errors.New("intake: Archive.Rate of a batch not stored")
	}
	out, rate, rateAt, inputs := p.out, p.rate, p.rateAt, p.inputs
	if _, err := a.run.Apply(ctx, inputs, &a.Stats); err != nil {
		return nil, err
	}
	ids := make([]string, len(rate))
	for j, g := range rate {
		ids[j] = g.ID
		if g.Verdict != nil && g.Verdict.CountUnverified {
			if err := a.in.store.Flag(ctx, g.ID, FlagCountUnverified, g.FinishedAt); err != nil {
				return nil, err
			}
		}
	}
	if err := a.markAllRated(ctx, ids); err != nil {
		return nil, err
	}
	for _, i := range rateAt {
		out[i].Status = ArchiveRated
		a.in.rec.GameAccepted()
	}
	return out, nil
}

// refusal is the code of an error refusing a game ("invalid_field" for
// one without its own).
func refusal(err error) string {
	if c := RefusalCode(err); c != "" {
		return c
	}
	return "invalid_field"
}

// judge makes the stored game of an archive's game, as Submit would from
// its SGF: both players resolved, judged by the rules engine, hashed.
func (a *Archive) judge(ag ArchiveGame, now time.Time) (StoredGame, error) {
	r := ag.Record
	if r == nil {
		return StoredGame{}, invalid("record", "no record")
	}
	black, white := a.players[r.Black.Name], a.players[r.White.Name]
	switch {
	case strings.TrimSpace(r.Black.Name) == "":
		return StoredGame{}, invalid("black", "the black player is not named (PB)")
	case strings.TrimSpace(r.White.Name) == "":
		return StoredGame{}, invalid("white", "the white player is not named (PW)")
	case black == "":
		return StoredGame{}, &UnknownPlayerError{Side: "black", Username: r.Black.Name}
	case white == "":
		return StoredGame{}, &UnknownPlayerError{Side: "white", Username: r.White.Name}
	case black == white:
		return StoredGame{}, invalid("white", "%q cannot play against themselves", black)
	}
	fillUnset(r, nil)
	v, err := games.JudgeWith(r, games.JudgeOptions{ProposeDead: true, TrustClaim: a.opt.Trusted && len(r.Dead) == 0})
	if err != nil {
		return StoredGame{}, err
	}
	played := ag.At.UTC().Truncate(time.Millisecond)
	g := StoredGame{
		Status: StatusFinished, Black: black, White: white, Rated: true, Record: r, Verdict: &v,
		Hash: ContentHash(black, white, true, r, v), SubmittedBy: rating.ArchiveActor,
		CreatedAt: now, FinishedAt: played, PlayedAt: played,
	}
	g.Record.Assumptions = keptAssumptions(r.Assumptions)
	g.SourceID = ArchiveSourceID(g, ag.Dated, played)
	g.ID = GameIDFor(g.SourceID)
	return g, nil
}

// judgedInput is RatingInput of a game judge made: its content hash,
// taken by judge from the same record, is not taken again.
func judgedInput(g StoredGame) rating.GameInput {
	return ratingInput(g, boundHash(g, g.Hash))
}

// resolvePlayers resolves every player the batch names that this run has
// not met, making accounts for the unknown ones with CreatePlayers.
func (a *Archive) resolvePlayers(ctx context.Context, batch []ArchiveGame) error {
	var names []string
	for _, ag := range batch {
		if ag.Record == nil {
			continue
		}
		for _, n := range []string{ag.Record.Black.Name, ag.Record.White.Name} {
			if _, ok := a.players[n]; ok || strings.TrimSpace(n) == "" {
				continue
			}
			a.players[n] = ""
			names = append(names, n)
		}
	}
	if a.opt.CreatePlayers {
		var valid []string
		for _, n := range names {
			if _, err := players.NormalizeUsername(n); err == nil {
				valid = append(valid, n)
			}
		}
		made, err := a.in.accounts.EnsurePlayers(ctx, valid)
		if err != nil {
			return err
		}
		a.Created = append(a.Created, made...)
	}
	for _, n := range names {
		u, err := a.in.accounts.Playable(ctx, n)
		switch {
		case err == nil:
			a.players[n] = u
		case errors.Is(err, players.ErrNotFound) || errors.Is(err, players.ErrCannotPlay):
		default:
			return fmt.Errorf("player %s: %w", n, err)
		}
	}
	return nil
}

// createAll stores the games, in one bulk insert on a BulkStore.
func (a *Archive) createAll(ctx context.Context, gs []StoredGame) ([]error, error) {
	if len(gs) == 0 {
		return nil, nil
	}
	if bs, ok := a.in.store.(BulkStore); ok {
		return bs.CreateAll(ctx, gs)
	}
	out := make([]error, len(gs))
	for i, g := range gs {
		err := a.in.store.Create(ctx, g)
		if err != nil && !errors.Is(err, ErrSourceTaken) {
			return nil, err
		}
		out[i] = err
	}
	return out, nil
}

// markAllRated marks the games rated, in one bulk insert on a BulkStore.
func (a *Archive) markAllRated(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	if bs, ok := a.in.store.(BulkStore); ok {
		return bs.MarkAllRated(ctx, ids)
	}
	for _, id := range ids {
		if err := a.in.store.MarkRated(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// SortArchive puts an archive's games in the order they were played: by
// At, games of the same time in the order given (file order).
func SortArchive(gs []ArchiveGame) {
	slices.SortStableFunc(gs, func(a, b ArchiveGame) int { return a.At.Compare(b.At) })
}
