package rating

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"sync"
	"time"
)

// maxHelpDepth bounds how deep an operation helps the operations in its
// way (each holds a player of higher username than the one before, so a
// chain is at most as long as the players of the chain). Beyond it the
// caller gets ErrBusy and may retry; nothing is left half done that
// Recover cannot finish.
const maxHelpDepth = 64

// maxHoldAttempts bounds how often one hold is retried after helping.
const maxHoldAttempts = 1000

// recoverBatch is how many unfinished operations Recover reads at a time.
const recoverBatch = 100

// Recorder counts rating updates (metrics.Registry is one).
type Recorder interface{ RatingUpdated() }

// ServiceConfig tunes a Service.
type ServiceConfig struct {
	System System           // the zero System uses DefaultTau
	Now    func() time.Time // the clock; time.Now when nil
	// Recorder counts applied updates; nil records nothing.
	Recorder Recorder
	// Placement makes new players' first PlacementGames rated games
	// placement games (placement.go). rankd sets it; without it a new
	// player starts at StartScore and only the formula moves them, as
	// before issue 16. Players who had a state before it was set stay
	// as they are.
	Placement bool
	// CachedEntries bounds the ledger entries kept in memory for tables
	// and series (runs.go); 0 means DefaultCachedEntries.
	CachedEntries int
	// AuditKey authenticates every ledger entry written (LedgerEntry.MAC)
	// and the checkpoints; nil writes unkeyed entries (as before issue 11).
	AuditKey []byte
	// GameHash gives the content hash of the stored game with the id, as
	// its content is now (intake recomputes it), for verification to
	// compare with what the ledger bound; nil skips that check.
	GameHash func(ctx context.Context, gameID string) (string, error)
}

// Service applies finished games to both players' ratings exactly once
// and in order, and keeps each player's ledger. It needs no transaction:
// see Apply. Every method may run concurrently, in several processes on
// one store.
type Service struct {
	store Store
	sys   System
	now   func() time.Time
	rec   Recorder
	place bool
	// local serializes, within this process, games that share a player,
	// so that its goroutines queue instead of colliding on holds and
	// helping each other (correct, but costly in store writes). Across
	// processes the holds in the store still decide.
	local [localStripes]sync.Mutex

	// hints remembers the last state this process wrote per player: the
	// first guess of the latest version (a guess that is behind only
	// costs a detour, see holdOne), which spares a store read per player
	// and game.
	hintMu sync.Mutex
	hints  map[string]PlayerState

	// runs keeps players' ledger entries read for tables and series.
	runs     ledgerCache
	key      []byte // the audit key; nil: unkeyed
	gameHash func(ctx context.Context, gameID string) (string, error)
	// evidence remembers placing players' games for ApplyBatch (batch.go).
	evidence map[string]evidence
}

// maxHints bounds the hints; they are forgotten all at once when full.
const maxHints = 100_000

func (s *Service) hint(name string) (PlayerState, bool) {
	s.hintMu.Lock()
	defer s.hintMu.Unlock()
	st, ok := s.hints[name]
	return st, ok
}

func (s *Service) remember(st PlayerState) {
	s.hintMu.Lock()
	defer s.hintMu.Unlock()
	if old, ok := s.hints[st.Username]; ok && old.Version >= st.Version {
		return
	}
	if len(s.hints) >= maxHints {
		clear(s.hints)
	}
	s.hints[st.Username] = st
}

// localStripes is how many in-process locks players are spread over.
const localStripes = 256

// lockPlayers takes the in-process locks of both players, in stripe
// order (so two games never wait on each other), and returns the unlock.
func (s *Service) lockPlayers(a, b string) func() {
	i, j := stripe(a), stripe(b)
	if i > j {
		i, j = j, i
	}
	s.local[i].Lock()
	if j != i {
		s.local[j].Lock()
	}
	return func() {
		if j != i {
			s.local[j].Unlock()
		}
		s.local[i].Unlock()
	}
}

func stripe(name string) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32() % localStripes)
}

// NewService returns a Service on the store.
func NewService(store Store, cfg ServiceConfig) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Recorder == nil {
		cfg.Recorder = noRecorder{}
	}
	if cfg.CachedEntries <= 0 {
		cfg.CachedEntries = DefaultCachedEntries
	}
	return &Service{store: store, sys: cfg.System, now: cfg.Now, rec: cfg.Recorder, place: cfg.Placement, hints: map[string]PlayerState{},
		runs: newLedgerCache(cfg.CachedEntries), key: cfg.AuditKey, gameHash: cfg.GameHash}
}

// newPlayer is the state a player starts with: NewPlayer, placing when
// the service places newcomers.
func (s *Service) newPlayer(username string) PlayerState {
	st := NewPlayer(username)
	st.Placing = s.place
	return st
}

type noRecorder struct{}

func (noRecorder) RatingUpdated() {}

// GameInput is a finished game as the rating service needs it.
type GameInput struct {
	ID       string // the game id: the operation's key
	Black    string // usernames
	White    string
	Winner   Side // SideNone for a draw or a void game
	Game     Game
	SourceID string
	// GameHash is the stored game's content hash, bound into both ledger
	// entries.
	GameHash string
	Actor    string
	At       time.Time
	// Tracked: the caller applies the game again until Apply returns
	// (see Operation.Tracked): Recover need not find it.
	Tracked bool
	// Fresh: the caller stored the game just now, so no operation of it
	// was ever started, and Apply tries to write it all at once
	// (OpWriter) before anything else. A retry or a recovery is not
	// fresh: it goes step by step at once, which finds what was done
	// (were Fresh wrong, the one write would stop at the stored
	// operation: it decides nothing).
	Fresh bool
}

// PlayerResult is one player after a game.
type PlayerResult struct {
	PlayerState
	Delta int `json:"delta"`
}

// GameResult is what a game did to both players.
type GameResult struct {
	Black PlayerResult
	White PlayerResult
	// Applied is false for a game that moves no rating (handicap, void):
	// the states are the players' current ones.
	Applied bool
}

// moves reports whether the game changes any rating (ladder or Glicko-2).
func moves(g Game) bool {
	_, _, ok := glickoScores(g)
	return ok
}

// opFor is the operation of a game: one place, so that Apply and the
// batch path store the same facts (the bound game hash included).
func opFor(in GameInput) Operation {
	return Operation{
		ID: in.ID, Black: in.Black, White: in.White, Winner: in.Winner, Game: in.Game,
		SourceID: in.SourceID, GameHash: in.GameHash, Actor: in.Actor, At: in.At.UTC().Truncate(time.Millisecond), Tracked: in.Tracked,
	}
}

// Apply applies the game to both players exactly once (keyed by in.ID)
// and returns both players after it; applying it again returns the same
// result. A game that moves no rating changes nothing and returns the
// current states.
//
// The steps (docs/architecture.md): store the operation; hold both
// players in username order (a player held by another operation is not
// waited on: that operation is run to completion first); compute the plan
// from the held states and store it once; append each ledger entry and
// write each state guarded by the version the plan was computed from,
// which releases the hold; mark the operation done. Every step can be
// repeated by anyone, so a crash anywhere is repaired by running the
// operation again (Recover).
func (s *Service) Apply(ctx context.Context, in GameInput) (GameResult, error) {
	if err := checkInput(in); err != nil {
		return GameResult{}, err
	}
	if !moves(in.Game) {
		return s.current(ctx, in.Black, in.White)
	}
	defer s.lockPlayers(in.Black, in.White)()
	op := opFor(in)
	if w, ok := s.store.(OpWriter); ok && op.Tracked && in.Fresh {
		done, err := s.applyAtOnce(ctx, w, op)
		if err != nil {
			return GameResult{}, err
		}
		if done.Done {
			return resultOf(done)
		}
	}
	op, err := s.store.CreateOp(ctx, op)
	if err != nil {
		return GameResult{}, err
	}
	if op, err = s.run(ctx, op, 0); err != nil {
		return GameResult{}, err
	}
	return resultOf(op)
}

// applyAtOnce is Apply's common case in one write (OpWriter.ApplyOp):
// both players' latest states guessed (guess; a player with none at their
// start, which ApplyOp writes first), the plan computed from
// them before holding them, and every step written together, the holds at
// the guessed versions guarding the plan as the step-by-step way's do.
// It returns op done, or op as it was when the step-by-step way must
// take over (a new player, a guess behind, anything already there).
func (s *Service) applyAtOnce(ctx context.Context, w OpWriter, op Operation) (Operation, error) {
	names := op.players()
	guess, ok := s.guess(ctx, names, true)
	if !ok {
		return op, nil
	}
	states := make(map[string]PlayerState, len(names))
	for i, n := range names {
		states[n] = guess[i]
	}
	evidence, err := s.placementEvidence(ctx, op, states)
	if err != nil {
		return op, err
	}
	plan, err := s.plan(op, names, states, evidence)
	if err != nil {
		return op, nil // given up step by step, which says why
	}
	planned := op
	planned.Plan = &plan
	if written, err := w.ApplyOp(ctx, planned); err != nil || !written {
		return op, err
	}
	for _, st := range plan.Steps {
		s.remember(st.After)
	}
	s.keepGameEvidence(planned)
	planned.Done = true
	s.rec.RatingUpdated()
	return planned, nil
}

func checkInput(in GameInput) error {
	switch {
	case in.ID == "":
		return &InputError{"game id", "is empty"}
	case in.Black == "" || in.White == "":
		return &InputError{"players", "are not both named"}
	case in.Black == in.White:
		return &InputError{"players", in.Black + " cannot play against themselves"}
	case in.Winner != SideBlack && in.Winner != SideWhite && in.Winner != SideNone:
		return &InputError{"winner", fmt.Sprintf("%q is not black, white or none", in.Winner)}
	case in.Winner == SideNone && in.Game.Outcome == Decisive:
		return &InputError{"winner", "a decisive game needs a winner"}
	}
	return nil
}

// current returns both players' states as they are (new players as they
// would start).
func (s *Service) current(ctx context.Context, black, white string) (GameResult, error) {
	b, err := s.PlayerOrNew(ctx, black)
	if err != nil {
		return GameResult{}, err
	}
	w, err := s.PlayerOrNew(ctx, white)
	if err != nil {
		return GameResult{}, err
	}
	return GameResult{Black: PlayerResult{PlayerState: b}, White: PlayerResult{PlayerState: w}}, nil
}

// resultOf reads a done operation's result off its plan.
func resultOf(op Operation) (GameResult, error) {
	if op.Error != "" {
		return GameResult{}, fmt.Errorf("%w: rating game %s was given up: %s", ErrInvalidGame, op.ID, op.Error)
	}
	var r GameResult
	r.Applied = true
	for _, st := range op.Plan.Steps {
		pr := PlayerResult{PlayerState: st.After, Delta: st.Entry.Delta}
		if st.Before.Username == op.Black {
			r.Black = pr
		} else {
			r.White = pr
		}
	}
	return r, nil
}

// run takes the operation through every step still to do.
func (s *Service) run(ctx context.Context, op Operation, depth int) (Operation, error) {
	done, err := s.isDone(ctx, op)
	if err != nil || done {
		op.Done = done
		return op, err
	}
	if op.Plan == nil {
		if op, err = s.hold(ctx, op, depth); err != nil || op.Done {
			return op, err
		}
	}
	if err := s.write(ctx, op.Plan.Steps); err != nil {
		return op, err
	}
	s.keepGameEvidence(op)
	// A tracked operation's caller records its end (intake's rated game),
	// and its written plan says it is done (isDone): no document for it.
	if !op.Tracked {
		if err := s.store.FinishOp(ctx, op.ID, ""); err != nil {
			return op, err
		}
	}
	op.Done = true
	s.rec.RatingUpdated()
	return op, nil
}

// isDone reports whether the operation is done: finished in the store, or
// (a tracked one, which is not finished there unless given up) its plan
// written, every player's latest version past the one the plan moved
// them from, since only the holder of a version writes the next.
func (s *Service) isDone(ctx context.Context, op Operation) (bool, error) {
	if op.Done || !op.Tracked || op.Plan == nil {
		return op.Done, nil
	}
	for _, st := range op.Plan.Steps {
		// A state this process wrote exists: past the plan's version, it
		// says so without a read.
		if h, ok := s.hint(st.Before.Username); ok && h.Version > st.Before.Version {
			continue
		}
		cur, err := s.store.Player(ctx, st.Before.Username)
		if errors.Is(err, ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if cur.Version <= st.Before.Version {
			return false, nil
		}
	}
	return true, nil
}

// write appends each step's ledger entries (a placement's after its
// game's) and commits its state: entries before state for each player;
// on a BatchStore all entries, then both states, together.
func (s *Service) write(ctx context.Context, steps []Step) error {
	if bs, ok := s.store.(BatchStore); ok && len(steps) > 1 {
		entries, states := Plan{Steps: steps}.Writes()
		if err := bs.AppendEntries(ctx, entries); err != nil {
			return err
		}
		if err := bs.CommitAll(ctx, states); err != nil {
			return err
		}
		for _, st := range states {
			s.remember(st)
		}
		return nil
	}
	for _, st := range steps {
		for _, e := range st.entries() {
			if err := s.store.AppendEntry(ctx, e); err != nil {
				return err
			}
		}
		if err := s.store.Commit(ctx, st.After); err != nil {
			return err
		}
		s.remember(st.After)
	}
	return nil
}

// hold takes the operation's players for op and stores the plan computed
// from their states; it returns the operation with its (first stored)
// plan.
func (s *Service) hold(ctx context.Context, op Operation, depth int) (Operation, error) {
	names := op.players()
	states := make(map[string]PlayerState, len(names))
	s.holdAll(ctx, op.ID, names, states)
	for _, n := range names {
		if _, held := states[n]; held {
			continue
		}
		st, err := s.holdOne(ctx, n, op.ID, depth)
		if err != nil {
			return op, err
		}
		states[n] = st
	}
	evidence, err := s.placementEvidence(ctx, op, states)
	if err != nil {
		return op, err
	}
	plan, err := s.plan(op, names, states, evidence)
	if err != nil {
		// Corrupt data (a score beyond ScoreLimit): give the game up,
		// pass both players on unchanged, and say so.
		for _, n := range names {
			if serr := s.skip(ctx, states[n], op.ID); serr != nil {
				return op, serr
			}
		}
		if ferr := s.store.FinishOp(ctx, op.ID, err.Error()); ferr != nil {
			return op, ferr
		}
		return op, err
	}
	stored, err := s.store.SetPlan(ctx, op.ID, plan)
	if err != nil {
		return op, err
	}
	op.Plan = &stored
	// Another runner's plan won, computed from earlier versions (it
	// committed a player before this runner held it): the versions held
	// here are not the plan's, and are passed on unchanged.
	for _, st := range op.Plan.Steps {
		if held := states[st.Before.Username]; held.Version != st.Before.Version {
			if err := s.skip(ctx, held, op.ID); err != nil {
				return op, err
			}
		}
	}
	return op, nil
}

// holdAll is the common case of holdOne for every player at once, on a
// BatchStore: the latest states guessed as holdOne guesses them (this
// process's hints, else the recorded latest states, in one read), and
// the holds in one write, in username order. Those held go into states;
// from the first that was not (held by another operation, a guess
// behind, a new player, an error) holdOne takes over, in order, and sees
// for itself what stopped this.
func (s *Service) holdAll(ctx context.Context, opID string, names []string, states map[string]PlayerState) {
	bs, ok := s.store.(BatchStore)
	if !ok || len(names) < 2 {
		return
	}
	guess, ok := s.guess(ctx, names, false)
	if !ok {
		return // a new player, or a failed read: holdOne sees which
	}
	versions := make([]int64, len(names))
	for i, st := range guess {
		versions[i] = st.Version
	}
	held, _ := bs.HoldOp(ctx, opID, names, versions)
	for i := range held {
		states[names[i]] = guess[i]
	}
}

// keepGameEvidence remembers, for each placing player of a game whose
// plan is written, the game among their placement games (keepEvidence),
// so that their last placement game reads none of their ledger.
func (s *Service) keepGameEvidence(op Operation) {
	if op.Kind != "" && op.Kind != OpGame || op.Plan == nil {
		return
	}
	for _, st := range op.Plan.Steps {
		if st.Before.Placing {
			s.keepEvidence(st.Before, st.After, []string{op.ID})
		}
	}
}

// guess is each named player's latest state as holdOne first guesses it:
// this process's hints, else the recorded latest states, in one read;
// for a player with none, their start (version 0) when fresh is true;
// false when a player has none and fresh is false, or the read failed.
func (s *Service) guess(ctx context.Context, names []string, fresh bool) ([]PlayerState, bool) {
	guess := make([]PlayerState, len(names))
	var unknown []string
	for i, n := range names {
		if st, ok := s.hint(n); ok {
			guess[i] = st
		} else {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) == 0 {
		return guess, true
	}
	read, err := s.store.LatestOf(ctx, unknown)
	if err != nil {
		return nil, false
	}
	for i, n := range names {
		if guess[i].Username != "" {
			continue
		}
		for _, st := range read {
			if st.Username == n {
				guess[i] = st
			}
		}
		switch {
		case guess[i].Username != "":
		case fresh:
			guess[i] = s.newPlayer(n)
		default:
			return nil, false
		}
	}
	return guess, true
}

// skip passes a player held by opID at st.Version on to the next version
// unchanged, for an operation that will not change them from that
// version (given up, or planned from another version).
func (s *Service) skip(ctx context.Context, st PlayerState, opID string) error {
	st.Version++
	st.Op = opID
	if err := s.store.Commit(ctx, st); err != nil {
		return err
	}
	s.remember(st)
	return nil
}

// holdOne holds the player's latest state for opID, first running to
// completion any operation that holds that version.
func (s *Service) holdOne(ctx context.Context, name, opID string, depth int) (PlayerState, error) {
	for attempt := range maxHoldAttempts {
		// The cheap read first: if it is behind, the version it names is
		// held by the operation that moved past it, and the next attempt
		// reads the truth. A hold that succeeds is on the latest version,
		// since only the holder of a version writes the next.
		read := s.store.Player
		if attempt == 0 {
			read = s.store.Latest
		}
		st, ok := s.hint(name)
		var err error
		if !ok || attempt > 0 {
			st, err = read(ctx, name)
		}
		if errors.Is(err, ErrNotFound) {
			// A new player: version 0 is the start (idempotent: every
			// writer writes the same).
			st = s.newPlayer(name)
			err = s.store.Commit(ctx, st)
		}
		if err != nil {
			return PlayerState{}, err
		}
		err = s.store.Hold(ctx, name, st.Version, opID)
		var he *HeldError
		if !errors.As(err, &he) {
			return st, err
		}
		if depth >= maxHelpDepth {
			return PlayerState{}, fmt.Errorf("%w: %v", ErrBusy, he)
		}
		other, err := s.store.Op(ctx, he.By)
		if err != nil {
			return PlayerState{}, fmt.Errorf("player %s held by operation %s: %w", name, he.By, err)
		}
		if other, err = s.run(ctx, other, depth+1); err != nil && !errors.Is(err, ErrInvalidGame) {
			return PlayerState{}, err
		}
		// The holder is done. Unless its plan moved this player from this
		// version, its hold was void: pass the player on.
		if !plans(other, name, st.Version) {
			if err := s.skip(ctx, st, other.ID); err != nil {
				return PlayerState{}, err
			}
		}
		if err := ctx.Err(); err != nil {
			return PlayerState{}, err
		}
	}
	return PlayerState{}, fmt.Errorf("%w: player %s", ErrBusy, name)
}

// plans reports whether op's plan moves the player from the version.
func plans(op Operation, name string, version int64) bool {
	if op.Plan == nil {
		return false
	}
	for _, st := range op.Plan.Steps {
		if st.Before.Username == name && st.Before.Version == version {
			return true
		}
	}
	return false
}

// players lists the usernames an operation holds, sorted.
func (op Operation) players() []string {
	if op.Kind == OpChange {
		return []string{op.Player}
	}
	names := []string{op.Black, op.White}
	sort.Strings(names)
	return names
}

// plan computes what the operation does to its held players; evidence
// is, for a player whose last placement game this is, their placement
// games (placementEvidence).
func (s *Service) plan(op Operation, names []string, states map[string]PlayerState, evidence map[string][]string) (Plan, error) {
	var p Plan
	var err error
	switch op.Kind {
	case OpChange:
		p, err = planChange(op, states[op.Player])
	case OpAnnul:
		p, err = planAnnul(op, names, states)
	default:
		p, err = s.planGame(op, names, states, evidence)
	}
	if err != nil {
		return Plan{}, err
	}
	// Every entry is sealed here, the one place plans are made.
	for i := range p.Steps {
		st := &p.Steps[i]
		st.Entry.MAC = s.mac(st.Entry)
		if st.Then != nil {
			st.Then.MAC = s.mac(*st.Then)
		}
	}
	return p, nil
}

// placementEvidence lists, for each held player of a game for whom it is
// the last placement game, their placement games: every game in their
// ledger up to the held version (a player placing has been placing since
// their first state, so all their games are placement games, annulled
// ones too, since Glicko-2 keeps them), then this one. The entries up to
// the held version never change, so every runner reads the same.
func (s *Service) placementEvidence(ctx context.Context, op Operation, states map[string]PlayerState) (map[string][]string, error) {
	if op.Kind != "" && op.Kind != OpGame {
		return nil, nil
	}
	var out map[string][]string
	for n, st := range states {
		if !st.Placing || !PlacementDue(st.PlacingGames+1) {
			continue
		}
		ids, known := s.evidenceHint(st) // the games this process applied
		if !known && st.Seq > 0 {
			es, err := s.store.Ledger(ctx, n, st.Seq+1, int(min(st.Seq, maxPlacementLedger)))
			if err != nil {
				return nil, fmt.Errorf("placement evidence of %s: %w", n, err)
			}
			for i := len(es) - 1; i >= 0; i-- {
				if es[i].Cause == CauseGame {
					ids = append(ids, es[i].CauseID)
				}
			}
		}
		if out == nil {
			out = map[string][]string{}
		}
		out[n] = append(ids, op.ID)
	}
	return out, nil
}

// planGame computes what the game does to both held players, with the
// pure formula, and the ledger entries that record it; for a player
// whose last placement game it is, also the placement (a second entry in
// their step, with evidence[player]).
func (s *Service) planGame(op Operation, names []string, states map[string]PlayerState, evidence map[string][]string) (Plan, error) {
	black, white := states[op.Black], states[op.White]
	winner, loser := black, white
	if op.Winner == SideWhite {
		winner, loser = white, black
	}
	applied, err := s.sys.Apply(winner.State, loser.State, op.Game)
	if err != nil {
		return Plan{}, err
	}
	after := map[string]State{winner.Username: applied.Winner, loser.Username: applied.Loser}
	delta := map[string]int{winner.Username: applied.Deltas.Winner, loser.Username: applied.Deltas.Loser}
	at := s.planTime(op)
	var p Plan
	for _, n := range names {
		before := states[n]
		a := before
		a.State = after[n]
		a.Games++
		result := ResultLoss
		switch {
		case op.Game.Outcome == Draw:
			a.Draws++
			result = ResultDraw
		case n == winner.Username:
			a.Wins++
			result = ResultWin
		default:
			a.Losses++
		}
		opponent := op.White
		if n == op.White {
			opponent = op.Black
		}
		e := LedgerEntry{
			Username: n, Seq: before.Seq + 1, Cause: CauseGame, CauseID: op.ID, SourceID: op.SourceID,
			Actor: op.Actor, Opponent: opponent,
			ScoreBefore: before.Score, ScoreAfter: a.Score, RankBefore: before.Rank().String(), RankAfter: a.Rank().String(),
			Delta: delta[n], Glicko: a.Glicko, At: at, Prev: before.Head, Result: result, GameHash: op.GameHash,
		}
		e.Hash = e.ComputeHash()
		a.Seq, a.Head, a.Version, a.Op, a.UpdatedAt = e.Seq, e.Hash, before.Version+1, op.ID, at
		step := Step{Before: before, After: a, Entry: e}
		next, placed, err := PlacementStep(a)
		if err != nil {
			return Plan{}, err
		}
		if placed {
			pe := placementEntry(e, next.Score, evidence[n])
			step.Then = &pe
			next.Seq, next.Head = pe.Seq, pe.Hash
		}
		step.After = next
		p.Steps = append(p.Steps, step)
	}
	return p, nil
}

// Recover runs every unfinished operation to completion, oldest first:
// what a crash left. It runs at start and from a job; running it while
// games come in is safe. It returns how many it completed.
func (s *Service) Recover(ctx context.Context) (int, error) {
	n := 0
	for {
		ops, err := s.store.Unfinished(ctx, recoverBatch)
		if err != nil || len(ops) == 0 {
			return n, err
		}
		progress := false
		for _, op := range ops {
			if _, err := s.run(ctx, op, 0); err != nil && !errors.Is(err, ErrInvalidGame) {
				return n, fmt.Errorf("recover operation %s: %w", op.ID, err)
			}
			n++
			progress = true
		}
		if !progress {
			return n, nil
		}
	}
}

// Player returns a player's state; ErrNotFound if they never had one.
func (s *Service) Player(ctx context.Context, username string) (PlayerState, error) {
	return s.store.Player(ctx, username)
}

// PlayerOrNew returns a player's state, or the state they would start
// with.
func (s *Service) PlayerOrNew(ctx context.Context, username string) (PlayerState, error) {
	st, err := s.store.Player(ctx, username)
	if errors.Is(err, ErrNotFound) {
		return s.newPlayer(username), nil
	}
	return st, err
}

// History returns up to limit of the player's ledger entries, newest
// first, with sequence numbers below before (0: from the newest).
func (s *Service) History(ctx context.Context, username string, before int64, limit int) ([]LedgerEntry, error) {
	return s.store.Ledger(ctx, username, before, limit)
}

// Leaderboard returns a page of players by score.
func (s *Service) Leaderboard(ctx context.Context, q LeaderQuery) ([]PlayerState, error) {
	return s.store.Leaderboard(ctx, q)
}

// Verify checks a player's ledger chain and that their score is their
// placement plus their ledger (see VerifyChain). A player with no state
// has nothing to verify.
func (s *Service) Verify(ctx context.Context, username string) error {
	st, err := s.store.Player(ctx, username)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	var all []LedgerEntry
	before := int64(0)
	for {
		page, err := s.store.Ledger(ctx, username, before, 500)
		if err != nil {
			return err
		}
		all = append(all, page...)
		if len(page) < 500 {
			break
		}
		before = page[len(page)-1].Seq
	}
	for i, j := 0, len(all)-1; i < j; i, j = i+1, j-1 {
		all[i], all[j] = all[j], all[i]
	}
	return VerifyChain(st, all)
}
