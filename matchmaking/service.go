package matchmaking

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sync"
	"time"
)

// Config tunes the service. Zero fields take the defaults below.
type Config struct {
	// Policy is the pairing policy; the zero value means DefaultPolicy().
	Policy Policy
	// MaxAge is how long a ticket may wait before it expires.
	MaxAge time.Duration
	// HeartbeatTimeout expires a ticket whose player stopped polling.
	HeartbeatTimeout time.Duration
	// HeartbeatRefresh, when positive, lets a poll read its waiting ticket
	// without recording the heartbeat (a script run) if this replica
	// recorded it less than this long ago: a player who stops polling then
	// expires between HeartbeatTimeout-HeartbeatRefresh and
	// HeartbeatTimeout after their last poll. Zero: every poll records it.
	HeartbeatRefresh time.Duration
	// Keep is how long an ended ticket stays readable by its player.
	Keep time.Duration
	// LeaseTTL is the pass lease's lifetime; a dead holder's lease is taken
	// over after it.
	LeaseTTL time.Duration
	// OpenGrace is how long a claimed pairing may go without its game
	// before a poll creates the game itself (the pass that claimed it
	// normally does so at once).
	OpenGrace time.Duration
	// ClaimBatch is how many pairings one Claim call takes; the lease is
	// renewed between batches.
	ClaimBatch int
	// Holder names this replica in the lease; default a random id.
	Holder string
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Rand decides nigiri; default a randomly seeded generator.
	Rand Rand
	// NewID makes ticket ids; default 16 random hex digits.
	NewID func() string
	// Metrics receives measurements; default NopMetrics.
	Metrics Metrics
}

// Service defaults (decided).
const (
	DefaultMaxAge           = 10 * time.Minute
	DefaultHeartbeatTimeout = time.Minute
	DefaultKeep             = time.Hour
	DefaultLeaseTTL         = 5 * time.Second
	DefaultOpenGrace        = 5 * time.Second
	DefaultClaimBatch       = 500
	// maxEnqueueAttempts bounds an enqueue's tries against concurrent ones.
	maxEnqueueAttempts = 8
	// staleBatch bounds how many stale tickets one pass expires.
	staleBatch = 1000
	// maxConcurrentGames bounds the games one pass makes at once.
	maxConcurrentGames = 64
)

// Service is matchmaking: tickets in, pairings out, games made. It is safe
// for concurrent use; any number of replicas may share one Queue.
type Service struct {
	q       Queue
	games   Games
	history History
	cfg     Config

	randMu   sync.Mutex
	matchers sync.Pool

	// beats is when this replica last recorded each waiting ticket's
	// heartbeat (HeartbeatRefresh); the zero time for a ticket it saw
	// ended.
	beatMu sync.Mutex
	beats  map[Ref]time.Time
}

// maxBeats bounds Service.beats; it is forgotten all at once when full
// (the next polls record their heartbeats again).
const maxBeats = 100_000

// New returns a service on its stores.
func New(q Queue, games Games, history History, cfg Config) (*Service, error) {
	if cfg.Policy == (Policy{}) {
		cfg.Policy = DefaultPolicy()
	}
	if err := cfg.Policy.Check(); err != nil {
		return nil, err
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&cfg.MaxAge, DefaultMaxAge)
	def(&cfg.HeartbeatTimeout, DefaultHeartbeatTimeout)
	def(&cfg.Keep, DefaultKeep)
	def(&cfg.LeaseTTL, DefaultLeaseTTL)
	def(&cfg.OpenGrace, DefaultOpenGrace)
	if cfg.MaxAge < 0 || cfg.HeartbeatTimeout < 0 || cfg.HeartbeatRefresh < 0 || cfg.HeartbeatRefresh >= cfg.HeartbeatTimeout && cfg.HeartbeatRefresh > 0 || cfg.Keep < 0 || cfg.LeaseTTL < time.Millisecond || cfg.OpenGrace < 0 {
		return nil, fmt.Errorf("matchmaking config: negative durations, a lease under 1ms or a heartbeat refresh not under the heartbeat timeout: %+v", cfg)
	}
	if cfg.ClaimBatch <= 0 {
		cfg.ClaimBatch = DefaultClaimBatch
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Rand == nil {
		cfg.Rand = mrand.New(mrand.NewPCG(mrand.Uint64(), mrand.Uint64()))
	}
	if cfg.NewID == nil {
		cfg.NewID = randomID
	}
	if cfg.Holder == "" {
		cfg.Holder = randomID()
	}
	if cfg.Metrics == nil {
		cfg.Metrics = NopMetrics{}
	}
	if q == nil || games == nil || history == nil {
		return nil, errors.New("matchmaking: a queue, games and history are required")
	}
	s := &Service{q: q, games: games, history: history, cfg: cfg, beats: map[Ref]time.Time{}}
	s.matchers.New = func() any { return &Matcher{Policy: cfg.Policy} }
	return s, nil
}

func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand docs)
	return hex.EncodeToString(b[:])
}

// Config returns the configuration in force, defaults filled in.
func (s *Service) Config() Config { return s.cfg }

// Now is the service's clock, by which tickets' waits are told.
func (s *Service) Now() time.Time { return s.cfg.Now() }

func (s *Service) cutoffs(now time.Time) Cutoffs {
	return Cutoffs{Created: now.Add(-s.cfg.MaxAge), Seen: now.Add(-s.cfg.HeartbeatTimeout)}
}

// Enqueue makes the player's ticket. A player with a live ticket gets
// ErrHasTicket; one in an unfinished game (or whose pairing is still
// becoming a game) gets ErrInGame; a bad request gets a *FieldError.
func (s *Service) Enqueue(ctx context.Context, req Request) (Ticket, error) {
	pool, rng, err := req.validate()
	if err != nil {
		return Ticket{}, err
	}
	busy, err := s.games.Unfinished(ctx, req.Player)
	if err != nil {
		return Ticket{}, fmt.Errorf("matchmaking: is %s in a game: %w", req.Player, err)
	}
	if busy {
		return Ticket{}, ErrInGame
	}
	now := s.cfg.Now()
	t := Ticket{ID: s.cfg.NewID(), Player: req.Player, Level: req.Level, Pool: pool, Range: rng, CreatedAt: now, State: Waiting}
	ref := t.Ref()
	// The pointer is claimed first, then the ticket added: a crash in
	// between leaves a pointer to nothing, which the next attempt retires.
	var old Ref
	for attempt := 0; ; attempt++ {
		cur, swapped, err := s.q.SwapPointer(ctx, req.Player, old, ref)
		if err != nil {
			return Ticket{}, err
		}
		if swapped {
			break
		}
		// Give up only here, right after a failed swap: a request that
		// retired a ticket always tries to take the pointer after, so the
		// pointer never stays on a ticket retired before it was added.
		if attempt == maxEnqueueAttempts {
			return Ticket{}, fmt.Errorf("%w (concurrent requests)", ErrHasTicket)
		}
		if old = cur; cur == (Ref{}) {
			continue // it vanished meanwhile
		}
		// Retire the old ticket if it is stale, or tombstone it if it was
		// never added, so that it can never turn live later.
		ot, err := s.retire(ctx, cur, now)
		if err != nil {
			return Ticket{}, err
		}
		switch {
		case ot.State == Waiting:
			return Ticket{}, fmt.Errorf("%w (ticket %s)", ErrHasTicket, cur.ID)
		case ot.State == Matched && (ot.Match == nil || ot.Match.GameID == ""):
			return Ticket{}, fmt.Errorf("%w (pairing %s is being made a game)", ErrInGame, cur.ID)
		}
	}
	stored, err := s.q.Add(ctx, t, s.cfg.MaxAge+s.cfg.Keep)
	if err != nil {
		return Ticket{}, err
	}
	if stored.State == Expired {
		// Retired before it was added, by another enqueue that is taking
		// the pointer over: that one wins. (A cancel that came first leaves
		// it Cancelled, and the cancel stands.)
		return Ticket{}, fmt.Errorf("%w (concurrent requests)", ErrHasTicket)
	}
	// A new ticket's heartbeat is its creation.
	s.noteBeat(stored.Ref(), stored.State, stored.CreatedAt)
	return stored, nil
}

// retire is End without cancel for an enqueue's old ticket, read only
// when it has ended already (the usual case: the player's last game): an
// ended ticket never turns live again, so End would return it unchanged.
func (s *Service) retire(ctx context.Context, ref Ref, now time.Time) (Ticket, error) {
	if t, err := s.q.Get(ctx, ref); err == nil && t.State != Waiting {
		return t, nil
	}
	return s.q.End(ctx, ref, false, now, s.cutoffs(now), s.cfg.Keep)
}

// pointer returns the ref of the player's ticket; ErrNoTicket if none.
func (s *Service) pointer(ctx context.Context, player string) (Ref, error) {
	ref, ok, err := s.q.Pointer(ctx, player)
	if err == nil && !ok {
		err = ErrNoTicket
	}
	return ref, err
}

// Mine is the player's poll: their ticket, with the heartbeat recorded. A
// stale ticket is expired on the spot; a pairing whose game is overdue gets
// its game made here.
func (s *Service) Mine(ctx context.Context, player string) (Ticket, error) {
	ref, err := s.pointer(ctx, player)
	if err != nil {
		return Ticket{}, err
	}
	now := s.cfg.Now()
	t, err := s.poll(ctx, ref, now)
	if err != nil {
		return Ticket{}, err
	}
	switch {
	case t.State == Expired:
		s.keepPointer(ctx, player, ref)
	case t.State == Matched && t.Match != nil && t.Match.GameID == "" && now.Sub(t.Match.MatchedAt) >= s.cfg.OpenGrace:
		// A failure here is the pass's to report and retry; the poll still
		// answers with the pairing as it stands.
		if p, err := s.q.Pairing(ctx, ref.Pool, t.Match.PairID); err == nil {
			if err := s.complete(ctx, ref.Pool, []Pairing{p}); err == nil {
				return s.q.Get(ctx, ref)
			}
		}
	}
	return t, nil
}

// poll is Queue.Poll, or a plain read of the ticket when this replica
// recorded its heartbeat less than HeartbeatRefresh ago and it is not past
// its age, or saw it ended: the read is all a poll would do then but the
// heartbeat (an ended ticket never turns live again). Players poll their
// matched tickets until the game is there: those are reads, not scripts.
func (s *Service) poll(ctx context.Context, ref Ref, now time.Time) (Ticket, error) {
	cut := s.cutoffs(now)
	if s.cfg.HeartbeatRefresh > 0 {
		s.beatMu.Lock()
		at, ok := s.beats[ref]
		s.beatMu.Unlock()
		ended := ok && at.IsZero()
		if ended || ok && now.Sub(at) < s.cfg.HeartbeatRefresh {
			t, err := s.q.Get(ctx, ref)
			if err == nil && (t.State != Waiting || !ended && t.CreatedAt.After(cut.Created)) {
				s.noteBeat(ref, t.State, at)
				return t, nil
			}
			// Missing or past its age: the script decides, as always.
		}
	}
	t, err := s.q.Poll(ctx, ref, now, cut, s.cfg.Keep)
	if err == nil {
		s.noteBeat(ref, t.State, now)
	}
	return t, err
}

// noteBeat remembers a waiting ticket's heartbeat recorded at at, or
// that a ticket has ended.
func (s *Service) noteBeat(ref Ref, st State, at time.Time) {
	if s.cfg.HeartbeatRefresh <= 0 {
		return
	}
	if st != Waiting {
		at = time.Time{}
	}
	s.beatMu.Lock()
	defer s.beatMu.Unlock()
	if len(s.beats) >= maxBeats {
		clear(s.beats)
	}
	s.beats[ref] = at
}

// Cancel ends the player's waiting ticket. If a pairing took it first the
// answer is the matched ticket and a *MatchedError (ErrMatched): a cancel
// and a game never both happen. Cancelling an ended ticket returns it
// unchanged.
func (s *Service) Cancel(ctx context.Context, player string) (Ticket, error) {
	ref, err := s.pointer(ctx, player)
	if err != nil {
		return Ticket{}, err
	}
	now := s.cfg.Now()
	t, err := s.q.End(ctx, ref, true, now, s.cutoffs(now), s.cfg.Keep)
	if err != nil {
		return Ticket{}, err
	}
	if t.State == Matched {
		return t, &MatchedError{Ticket: t, At: now}
	}
	s.keepPointer(ctx, player, ref)
	return t, nil
}

// keepPointer lets an ended ticket's pointer expire with the ticket. It is
// best effort: a pointer left behind points at an ended ticket, which the
// next Enqueue replaces.
func (s *Service) keepPointer(ctx context.Context, player string, ref Ref) {
	_ = s.q.KeepPointer(ctx, player, ref, s.cfg.Keep)
}

// PassReport says what one pass over a pool did.
type PassReport struct {
	Pool      string
	Skipped   bool // another replica holds the lease
	Waiting   int  // waiting tickets seen
	Expired   int
	Paired    int // pairings claimed and made games
	Recovered int // pairings left open by an earlier pass and finished now
	Lost      int // pairings the policy chose but the claim refused (a cancel or expiry raced it)
}

// Pass runs one pairing pass over a pool if this replica holds (or can
// take) the pool's lease: it finishes pairings left open by a crash,
// expires stale tickets, pairs the waiting ones by the policy, claims each
// pair atomically and creates its game.
func (s *Service) Pass(ctx context.Context, pool string) (PassReport, error) {
	rep := PassReport{Pool: pool}
	now := s.cfg.Now()
	held, err := s.q.Lease(ctx, pool, s.cfg.Holder, s.cfg.LeaseTTL, now)
	if err != nil {
		return rep, err
	}
	if !held {
		rep.Skipped = true
		return rep, nil
	}

	// 1. Pairings claimed but never made games (the claimer died).
	// Games that fail to be made stay open for the next pass; the pass goes
	// on and reports them.
	var gameErrs []error
	open, err := s.q.Open(ctx, pool, now, s.cfg.ClaimBatch)
	if err != nil {
		return rep, err
	}
	if err := s.complete(ctx, pool, open); err != nil {
		gameErrs = append(gameErrs, err)
	}
	rep.Recovered = len(open)

	// 2. Stale tickets.
	if rep.Expired, err = s.expireStale(ctx, pool, now); err != nil {
		return rep, err
	}

	// 3. The policy over everyone waiting.
	waiting, err := s.q.Waiting(ctx, pool)
	if err != nil {
		return rep, err
	}
	rep.Waiting = len(waiting)
	pairings, err := s.plan(ctx, pool, waiting, now)
	if err != nil {
		return rep, err
	}

	// 4. Claim in batches, renewing the lease between them; then make the
	// games. Losing the lease stops the claiming; claims stay safe without
	// it, the lease only keeps two replicas from planning at once.
	for i := 0; i < len(pairings); i += s.cfg.ClaimBatch {
		if i > 0 {
			if held, err := s.q.Lease(ctx, pool, s.cfg.Holder, s.cfg.LeaseTTL, s.cfg.Now()); err != nil || !held {
				break
			}
		}
		batch := pairings[i:min(i+s.cfg.ClaimBatch, len(pairings))]
		ok, err := s.q.Claim(ctx, pool, batch, now, s.cutoffs(now))
		if err != nil {
			return rep, err
		}
		claimed := make([]Pairing, 0, len(batch))
		for j, p := range batch {
			if ok[j] {
				claimed = append(claimed, p)
			} else {
				rep.Lost++
			}
		}
		for _, p := range claimed {
			// Their players' polls read them from now on (poll).
			s.noteBeat(Ref{Pool: pool, ID: p.Black.Ticket}, Matched, now)
			s.noteBeat(Ref{Pool: pool, ID: p.White.Ticket}, Matched, now)
			s.cfg.Metrics.Paired(pool, now.Sub(p.Black.Since))
			s.cfg.Metrics.Paired(pool, now.Sub(p.White.Since))
			s.cfg.Metrics.LevelGap(pool, abs(p.Black.Level.Score-p.White.Level.Score))
		}
		rep.Paired += len(claimed)
		if err := s.complete(ctx, pool, claimed); err != nil {
			gameErrs = append(gameErrs, err)
		}
	}
	s.cfg.Metrics.QueueLength(pool, rep.Waiting-2*rep.Paired)
	return rep, errors.Join(gameErrs...)
}

// plan runs the policy and turns its pairs into pairings with colours.
func (s *Service) plan(ctx context.Context, pool string, waiting []Ticket, now time.Time) ([]Pairing, error) {
	if len(waiting) < 2 {
		return nil, nil
	}
	cands := make([]Candidate, len(waiting))
	for i, t := range waiting {
		cands[i] = Candidate{Ticket: t.ID, Player: t.Player, Level: t.Level, Range: t.Range, Since: t.CreatedAt}
	}
	m := s.matchers.Get().(*Matcher)
	defer s.matchers.Put(m)
	pairs, err := s.pairRespectingCooldown(ctx, m, cands, now)
	if err != nil {
		return nil, err
	}
	out := make([]Pairing, len(pairs))
	s.randMu.Lock()
	defer s.randMu.Unlock()
	for i, p := range pairs {
		// By custom the stronger player holds the stones and the weaker
		// one guesses; A is the lower level.
		guesser, holder := waiting[p.A], waiting[p.B]
		black, white := holder, guesser
		if Nigiri(s.cfg.Rand) {
			black, white = guesser, holder
		}
		out[i] = Pairing{
			ID:        PairID(guesser.ID, holder.ID),
			Pool:      pool,
			Black:     Side{Ticket: black.ID, Player: black.Player, Level: black.Level, Since: black.CreatedAt},
			White:     Side{Ticket: white.ID, Player: white.Player, Level: white.Level, Since: white.CreatedAt},
			Nigiri:    true,
			ClaimedAt: now,
		}
	}
	return out, nil
}

// maxCooldownRounds bounds the rounds of pairRespectingCooldown.
const maxCooldownRounds = 4

// pairRespectingCooldown runs the policy with the cooldown, asking History
// only about the players the policy wants to pair rather than about the
// whole pool: pair, look up whom the paired players met, and pair again
// with those meetings forbidden until no pair breaks the cooldown. A
// matching that is optimal with fewer pairs forbidden and breaks none of
// the rest is optimal with all of them, so this gives what asking about
// everyone first would, at the cost of a few more runs when rematches are
// near. After maxCooldownRounds the pairs still breaking it are dropped.
func (s *Service) pairRespectingCooldown(ctx context.Context, m *Matcher, cands []Candidate, now time.Time) ([]Pair, error) {
	if s.cfg.Policy.Cooldown <= 0 {
		return m.Pair(now, cands, nil), nil
	}
	since := now.Add(-s.cfg.Policy.Cooldown)
	recent := Recent{}
	asked := map[string]bool{}
	for round := 1; ; round++ {
		pairs := m.Pair(now, cands, recent)
		var ask []string
		for _, p := range pairs {
			for _, i := range [2]int{p.A, p.B} {
				if pl := cands[i].Player; !asked[pl] {
					asked[pl] = true
					ask = append(ask, pl)
				}
			}
		}
		if len(ask) > 0 {
			met, err := s.history.Recent(ctx, ask, since)
			if err != nil {
				return nil, err
			}
			for pl, opps := range met {
				recent[pl] = opps
			}
		}
		kept := pairs[:0]
		for _, p := range pairs {
			if !recent.Met(cands[p.A].Player, cands[p.B].Player) {
				kept = append(kept, p)
			}
		}
		if len(kept) == len(pairs) || round == maxCooldownRounds {
			return kept, nil
		}
	}
}

// complete makes the games of claimed pairings and closes them. Each step
// is idempotent, so a pairing left open by a crash is finished by running
// this again: the game (keyed by the pairing id), the cooldown record, then
// closing the pairing.
func (s *Service) complete(ctx context.Context, pool string, ps []Pairing) error {
	if len(ps) == 0 {
		return nil
	}
	pl, err := ParsePool(pool)
	if err != nil {
		return err
	}
	// The games are made concurrently, so that the store can write them
	// together (the pending-game inserts are combined: group commit)
	// instead of one pairing after another.
	gameIDs := make([]string, len(ps))
	gameErrs := make([]error, len(ps))
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxConcurrentGames)
	for i := range ps {
		p := ps[i]
		if p.GameID != "" {
			gameIDs[i] = p.GameID
			continue
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			gameIDs[i], gameErrs[i] = s.games.CreatePending(ctx, PendingGame{
				ID: p.ID, Black: p.Black.Player, White: p.White.Player,
				BoardSize: pl.BoardSize, Rules: pl.Rules, TimeControl: pl.TimeControl, Rated: pl.Rated,
				CreatedAt: p.ClaimedAt,
			})
		})
	}
	wg.Wait()
	done := make([]Pairing, 0, len(ps))
	var errs []error
	for i, p := range ps {
		if err := gameErrs[i]; err != nil {
			// Left open: the next pass or poll tries again.
			errs = append(errs, fmt.Errorf("matchmaking: create game of pairing %s: %w", p.ID, err))
			continue
		}
		p.GameID = gameIDs[i]
		done = append(done, p)
	}
	if len(done) > 0 && s.cfg.Policy.Cooldown > 0 {
		ms := make([]Meeting, len(done))
		for i, p := range done {
			ms[i] = Meeting{A: p.Black.Player, B: p.White.Player, At: p.ClaimedAt}
		}
		// Before closing: a pairing closed without its meeting recorded
		// would escape the cooldown.
		if err := s.history.Met(ctx, ms, s.cfg.Policy.Cooldown); err != nil {
			return errors.Join(append(errs, err)...)
		}
	}
	if err := s.q.Complete(ctx, pool, done, s.cfg.Keep); err != nil {
		return errors.Join(append(errs, err)...)
	}
	return errors.Join(errs...)
}

// expireStale ends up to staleBatch of a pool's stale waiting tickets.
// Each end is atomic in the queue, so it needs no lease.
func (s *Service) expireStale(ctx context.Context, pool string, now time.Time) (int, error) {
	cut := s.cutoffs(now)
	stale, err := s.q.Stale(ctx, pool, cut, staleBatch)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, ref := range stale {
		t, err := s.q.End(ctx, ref, false, now, cut, s.cfg.Keep)
		if err != nil {
			return n, err
		}
		if t.State == Expired {
			n++
			s.keepPointer(ctx, t.Player, ref)
		}
	}
	return n, nil
}

// Expire ends the stale waiting tickets of every pool (the passes do it
// too; this is for the expire job, which runs whether or not this replica
// pairs) and returns how many it ended.
func (s *Service) Expire(ctx context.Context) (int, error) {
	pools, err := s.q.Pools(ctx)
	if err != nil {
		return 0, err
	}
	total := 0
	var errs []error
	for _, p := range pools {
		n, err := s.expireStale(ctx, p, s.cfg.Now())
		total += n
		if err != nil {
			errs = append(errs, fmt.Errorf("pool %s: %w", p, err))
		}
	}
	return total, errors.Join(errs...)
}

// PassAll runs a pass over every known pool.
func (s *Service) PassAll(ctx context.Context) ([]PassReport, error) {
	pools, err := s.q.Pools(ctx)
	if err != nil {
		return nil, err
	}
	var reps []PassReport
	var errs []error
	for _, p := range pools {
		rep, err := s.Pass(ctx, p)
		if err != nil {
			errs = append(errs, fmt.Errorf("pool %s: %w", p, err))
		}
		reps = append(reps, rep)
	}
	return reps, errors.Join(errs...)
}

// Run passes over every pool each interval until ctx ends, then gives up
// its leases so another replica takes over at once. Errors of one pass are
// handed to onErr (may be nil) and the loop goes on.
func (s *Service) Run(ctx context.Context, every time.Duration, onErr func(error)) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if _, err := s.PassAll(ctx); err != nil && onErr != nil && ctx.Err() == nil {
			onErr(err)
		}
		select {
		case <-ctx.Done():
			s.releaseAll()
			return
		case <-tick.C:
		}
	}
}

func (s *Service) releaseAll() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	pools, err := s.q.Pools(ctx)
	if err != nil {
		return
	}
	for _, p := range pools {
		_ = s.q.Release(ctx, p, s.cfg.Holder)
	}
}

// PoolStats is the admin view of one pool.
type PoolStats struct {
	Key        string        `json:"key"`
	Pool       Pool          `json:"pool"`
	Waiting    int           `json:"waiting"`
	OldestWait time.Duration `json:"oldest_wait"`
}

// Pools is the admin view: each pool's waiting count and oldest wait.
func (s *Service) Pools(ctx context.Context) ([]PoolStats, error) {
	keys, err := s.q.Pools(ctx)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	out := make([]PoolStats, 0, len(keys))
	for _, k := range keys {
		pool, err := ParsePool(k)
		if err != nil {
			return nil, err
		}
		n, oldest, err := s.q.Stats(ctx, k)
		if err != nil {
			return nil, err
		}
		st := PoolStats{Key: k, Pool: pool, Waiting: n}
		if n > 0 && now.After(oldest) {
			st.OldestWait = now.Sub(oldest)
		}
		out = append(out, st)
	}
	return out, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
