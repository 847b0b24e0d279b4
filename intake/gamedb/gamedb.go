package gamedb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/mongox"
)

// Collection names.
const (
	Games = "games"
	// Ends decides, once per game, how a pending game ends (a result or
	// expiry): an insert under the game's id.
	Ends = "game_ends"
	// Unrated marks the finished games not yet rated (by _id), so that
	// Recover reads a small collection instead of scanning the games. A
	// finished game without its mark is rated: the mark is written before
	// the game and deleted once it is rated.
	Unrated = "games_unrated"
	// Rated held one document per rated game until the deleted mark said
	// it (issue 15: one command a game less); stores written before still
	// have them, and a marked game with one is rated.
	Rated = "games_rated"
	// Pending marks the pending games not yet ended (by _id, with both
	// players and the expiry), so that expiry and "is this player in a
	// game" read a small collection instead of scanning the games.
	Pending = "games_pending"
	// Flagged marks the games with a flag admins list, one document per
	// game and flag (an insert: marking again is a duplicate).
	Flagged = "games_flagged"
	// ByPlayer holds one small document per game (its players and
	// creation time), so that a player's games are listed by scanning
	// small documents, never the records (FerretDB v1 on SQLite scans a
	// collection for any query but one by _id; MongoDB uses the index).
	ByPlayer = "games_by_player"
)

// Store is a intake.Store on a Mongo database. A game document is written
// once; what happens to it later is a document of its own under the
// game's id: its end (Ends: the finished game, or expiry), and its being
// rated, said by its unrated mark's deletion. Game puts them together. So a pending game's end is
// decided by an insert, never by a filtered update, which FerretDB v1 (the
// embedded store) does not apply atomically; and the hot path only
// inserts and reads by _id, the only operations that do not scan the
// collection on FerretDB v1 with SQLite.
type Store struct {
	games   *mongo.Collection
	ends    *mongo.Collection
	unrated *mongo.Collection
	// ratedOld is Rated, read for stores written before issue 15.
	ratedOld *mongo.Collection
	pending  *mongo.Collection
	flagged  *mongo.Collection
	players  *mongo.Collection
	// The hot path's inserts, combined with concurrent callers' (group
	// commit).
	insGames, insUnrated, insPlayers *mongox.Inserter
	// Pending marks go with concurrent pairings' (a pass makes its games
	// together).
	insPending *mongox.Inserter
	delUnrated *mongox.Deleter
	delPending *mongox.Deleter
	// ratedLinger, when positive, lets a rated game's mark wait that long
	// for its delete (RatedLinger); ratedSoon are those games, rated as
	// far as this Store tells.
	ratedLinger time.Duration
	ratedMu     sync.Mutex
	ratedSoon   map[string]bool
	// made are the batch marks this Store inserted (CreateAll), each with
	// the games stored under it, and madeIn each such game's mark.
	madeMu sync.Mutex
	made   map[string][]madeGame
	madeIn map[string]string
	// gone are the batch marks this Store has seen deleted, so a read of
	// an imported game does not look for its batch's mark each time. One
	// comes back only through a CreateAll of the same games, which finds
	// them stored (duplicates: their own marks say) or stores those that
	// settleBatch marked one by one; CreateAll forgets it here as well.
	gone map[string]bool
	// marks is, for a sole writer (SoleWriter), every player's pending
	// marks; nil otherwise.
	marks *markIndex
	lane  *mongox.Lane // WriteLane
	// beforeRated is called before rated games' marks are deleted
	// (BeforeRatedDelete).
	beforeRated func(context.Context) error
}

// Option tunes New.
type Option func(*Store)

// SoleWriter says that this Store is the only writer of the database (the
// embedded store: its data directory is locked to one process). Then the
// pending marks are read once at New and kept in memory as they are
// written, and Unfinished, asked at every matchmaking enqueue, reads the
// store only for the marks a player has. Never use it on a database that
// another process writes: it would miss their pending games.
func SoleWriter() Option {
	return func(s *Store) { s.marks = &markIndex{by: map[string]map[string]int{}} }
}

// RatedLinger lets the deletes of rated games' marks (and of ended games'
// pending marks) wait up to d and go together, one command for all the
// games rated meanwhile instead of one each on the request path. Until
// its delete is sent this Store says the game is rated from memory;
// another process reading the game in that time sees it finished, not
// yet rated, and its recovery rates it again (finding it done) should
// this one stop first. Call Drain before closing the database.
func RatedLinger(d time.Duration) Option {
	return func(s *Store) { s.ratedLinger = d }
}

// BeforeRatedDelete makes the Store call f before it deletes rated
// games' unrated marks, and delete them only once f succeeded: f makes
// lasting what the rating of those games left in memory (the rating
// store's deferred projections, ratingdb.DeferProjections), so that a
// crash before it leaves the games marked, for recovery to finish.
func BeforeRatedDelete(f func(context.Context) error) Option {
	return func(s *Store) { s.beforeRated = f }
}

// WriteLane makes the Store's combined writes take turns in l with the
// other stores' of the database (mongox.Lane: a store of one writer).
func WriteLane(l *mongox.Lane) Option { return func(s *Store) { s.lane = l } }

var _ intake.Store = (*Store)(nil)

// New returns a Store on db after making sure its indexes exist.
func New(ctx context.Context, db *mongo.Database, opts ...Option) (*Store, error) {
	s := &Store{games: db.Collection(Games), ends: db.Collection(Ends), unrated: db.Collection(Unrated), ratedOld: db.Collection(Rated), pending: db.Collection(Pending), flagged: db.Collection(Flagged), players: db.Collection(ByPlayer)}
	for _, o := range opts {
		o(s)
	}
	lane := mongox.InLane(s.lane)
	s.insGames, s.insUnrated = mongox.NewInserter(s.games, lane), mongox.NewInserter(s.unrated, lane)
	s.insPlayers, s.insPending = mongox.NewInserter(s.players, lane), mongox.NewInserter(s.pending, lane)
	s.delUnrated = mongox.NewLingering(s.unrated, s.ratedLinger, lane, mongox.Before(s.beforeRated))
	s.delPending = mongox.NewLingering(s.pending, s.ratedLinger, lane)
	s.ratedSoon = map[string]bool{}
	s.made, s.madeIn, s.gone = map[string][]madeGame{}, map[string]string{}, map[string]bool{}
	// source_id is unique: the idempotency key of a submission. The
	// status index serves expiry (pending, by expiry). One call per
	// index: FerretDB v1 panics on a createIndexes of several indexes that
	// already exist.
	for _, m := range []mongo.IndexModel{
		{Keys: bson.D{{Key: "source_id", Value: 1}}, Options: options.Index().SetName("source_id").SetUnique(true)},
		{Keys: bson.D{{Key: "status", Value: 1}, {Key: "expires_at", Value: 1}}, Options: options.Index().SetName("status_expires")},
	} {
		if _, err := s.games.Indexes().CreateOne(ctx, m); err != nil {
			return nil, wrap("create game indexes", err)
		}
	}
	if _, err := s.flagged.Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys: bson.D{{Key: "flag", Value: 1}, {Key: "at", Value: -1}, {Key: "game", Value: 1}}, Options: options.Index().SetName("flag_at"),
	}); err != nil {
		return nil, wrap("create flag index", err)
	}
	if _, err := s.ends.Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys: bson.D{{Key: "kind", Value: 1}, {Key: "at", Value: -1}}, Options: options.Index().SetName("kind_at"),
	}); err != nil {
		return nil, wrap("create end index", err)
	}
	// A player's games, newest first (PlayerGames; multikey on players).
	if _, err := s.players.Indexes().CreateOne(ctx, mongo.IndexModel{
		Keys: bson.D{{Key: "players", Value: 1}, {Key: "created_at", Value: -1}, {Key: "_id", Value: -1}}, Options: options.Index().SetName("players_created"),
	}); err != nil {
		return nil, wrap("create player index", err)
	}
	if err := s.backfillByPlayer(ctx); err != nil {
		return nil, err
	}
	if s.marks != nil {
		marks, err := s.pendingMarks(ctx, bson.D{})
		if err != nil {
			return nil, err
		}
		for _, m := range marks {
			s.marks.add(m)
		}
	}
	return s, nil
}

// gameDoc is the stored form of intake.StoredGame. The record and verdict
// are kept as their JSON (the engine's own text forms of moves, points and
// rules), which round-trips exactly; the fields queried are top-level.
type gameDoc struct {
	ID          string     `bson:"_id"`
	SourceID    string     `bson:"source_id"`
	Status      string     `bson:"status"`
	Black       string     `bson:"black"`
	White       string     `bson:"white"`
	Rated       bool       `bson:"rated"`
	TimeControl string     `bson:"time_control,omitempty"`
	Record      string     `bson:"record"`
	Verdict     string     `bson:"verdict,omitempty"`
	Hash        string     `bson:"hash,omitempty"`
	SubmittedBy string     `bson:"submitted_by,omitempty"`
	CreatedAt   time.Time  `bson:"created_at"`
	FinishedAt  *time.Time `bson:"finished_at,omitempty"`
	ExpiresAt   *time.Time `bson:"expires_at,omitempty"`
	PlayedAt    *time.Time `bson:"played_at,omitempty"`
	// Batch names the batch mark (in Unrated) of a game CreateAll
	// stored: the game is unrated while that mark is there, as well as
	// while its own mark is.
	Batch string `bson:"batch,omitempty"`
}

// A game is stored with the fields its queries and indexes read at the
// top (source_id, status, the players, created_at, expires_at, batch) and
// the rest in one JSON text, s, its record and verdict in it as JSON:
// FerretDB v1 pays about 2 µs a field of every document (it keeps each
// field's type beside it), as for the rating's documents (ratingdb,
// compactStateDoc). Games stored before, field by field, read as they are.
type compactGameDoc struct {
	ID        string     `bson:"_id"`
	SourceID  string     `bson:"source_id"`
	Status    string     `bson:"status"`
	Black     string     `bson:"black"`
	White     string     `bson:"white"`
	CreatedAt time.Time  `bson:"created_at"`
	ExpiresAt *time.Time `bson:"expires_at,omitempty"`
	Batch     string     `bson:"batch,omitempty"`
	S         string     `bson:"s"`
}

// gameBody is a game's fields in its s, as JSON.
type gameBody struct {
	Rated       bool            `json:"rated,omitempty"`
	TimeControl string          `json:"time_control,omitempty"`
	Record      json.RawMessage `json:"record"`
	Verdict     json.RawMessage `json:"verdict,omitempty"`
	Hash        string          `json:"hash,omitempty"`
	SubmittedBy string          `json:"submitted_by,omitempty"`
	FinishedAt  *time.Time      `json:"finished_at,omitempty"`
	PlayedAt    *time.Time      `json:"played_at,omitempty"`
}

// msOf is t as a BSON date keeps it.
func msOf(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC().Truncate(time.Millisecond)
	return &u
}

// MarshalBSON stores a game compact.
func (d gameDoc) MarshalBSON() ([]byte, error) {
	body := gameBody{Rated: d.Rated, TimeControl: d.TimeControl, Record: json.RawMessage(d.Record), Hash: d.Hash,
		SubmittedBy: d.SubmittedBy, FinishedAt: msOf(d.FinishedAt), PlayedAt: msOf(d.PlayedAt)}
	if d.Verdict != "" {
		body.Verdict = json.RawMessage(d.Verdict)
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("gamedb: game %s: %w", d.ID, err)
	}
	return bson.Marshal(compactGameDoc{ID: d.ID, SourceID: d.SourceID, Status: d.Status, Black: d.Black, White: d.White,
		CreatedAt: d.CreatedAt.UTC(), ExpiresAt: d.ExpiresAt, Batch: d.Batch, S: string(b)})
}

// UnmarshalBSON reads either form.
func (d *gameDoc) UnmarshalBSON(b []byte) error {
	type plain gameDoc
	*d = gameDoc{}
	var g gameBody
	if ok, err := mongox.CompactBody(b, (*plain)(d), &g); err != nil {
		return fmt.Errorf("gamedb: game %s: %w", d.ID, err)
	} else if !ok {
		return nil // field by field
	}
	d.Rated, d.TimeControl, d.Record, d.Hash, d.SubmittedBy = g.Rated, g.TimeControl, string(g.Record), g.Hash, g.SubmittedBy
	if len(g.Verdict) > 0 {
		d.Verdict = string(g.Verdict)
	}
	d.FinishedAt, d.PlayedAt = msOf(g.FinishedAt), msOf(g.PlayedAt)
	return nil
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

func toDoc(g intake.StoredGame) (gameDoc, error) {
	d := gameDoc{
		ID: g.ID, SourceID: g.SourceID, Status: string(g.Status), Black: g.Black, White: g.White,
		Rated: g.Rated, TimeControl: g.TimeControl, Hash: g.Hash, SubmittedBy: g.SubmittedBy,
		CreatedAt: g.CreatedAt.UTC(), FinishedAt: optTime(g.FinishedAt), ExpiresAt: optTime(g.ExpiresAt),
		PlayedAt: optTime(g.PlayedAt),
	}
	rec, err := json.Marshal(g.Record)
	if err != nil {
		return gameDoc{}, fmt.Errorf("gamedb: game %s: record: %w", g.ID, err)
	}
	d.Record = string(rec)
	if g.Verdict != nil {
		v, err := json.Marshal(g.Verdict)
		if err != nil {
			return gameDoc{}, fmt.Errorf("gamedb: game %s: verdict: %w", g.ID, err)
		}
		d.Verdict = string(v)
	}
	return d, nil
}

func (d gameDoc) game() (intake.StoredGame, error) {
	g := intake.StoredGame{
		ID: d.ID, SourceID: d.SourceID, Status: intake.Status(d.Status), Black: d.Black, White: d.White,
		Rated: d.Rated, TimeControl: d.TimeControl, Hash: d.Hash, SubmittedBy: d.SubmittedBy,
		CreatedAt: d.CreatedAt.UTC(), Record: new(games.Record),
	}
	if d.FinishedAt != nil {
		g.FinishedAt = d.FinishedAt.UTC()
	}
	if d.ExpiresAt != nil {
		g.ExpiresAt = d.ExpiresAt.UTC()
	}
	if d.PlayedAt != nil {
		g.PlayedAt = d.PlayedAt.UTC()
	}
	if err := json.Unmarshal([]byte(d.Record), g.Record); err != nil {
		return intake.StoredGame{}, fmt.Errorf("gamedb: game %s: stored record: %w", d.ID, err)
	}
	if d.Verdict != "" {
		g.Verdict = new(games.Verdict)
		if err := json.Unmarshal([]byte(d.Verdict), g.Verdict); err != nil {
			return intake.StoredGame{}, fmt.Errorf("gamedb: game %s: stored verdict: %w", d.ID, err)
		}
	}
	return g, nil
}

// markUnrated marks the game before it becomes finished, so that no
// finished game is ever without its mark until it is rated (a mark
// already there will do).
func (s *Store) markUnrated(ctx context.Context, g intake.StoredGame) error {
	err := s.insUnrated.Insert(ctx, mongox.Marker{ID: g.ID, At: g.FinishedAt.UTC()})
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return wrap("mark game unrated", err)
}

// Create implements intake.Store.
func (s *Store) Create(ctx context.Context, g intake.StoredGame) error {
	d, err := toDoc(g)
	if err != nil {
		return err
	}
	switch g.Status {
	case intake.StatusFinished:
		if err := s.markUnrated(ctx, g); err != nil {
			return err
		}
	case intake.StatusPending:
		if err := s.markPending(ctx, g); err != nil {
			return err
		}
	}
	// Listed by player before it is stored, like the marks: a listing
	// drops an entry whose game never came.
	if err := s.insPlayers.Insert(ctx, toPlayerDoc(d)); err != nil && !mongo.IsDuplicateKeyError(err) {
		return wrap("list game by player", err)
	}
	err = s.insGames.Insert(ctx, d)
	if mongo.IsDuplicateKeyError(err) {
		// A mark this call made beside the game there stays: that game may
		// be another call's, stored after this mark and being rated under
		// it (its own mark was refused as this one's duplicate), so only a
		// rating of it may take the mark away (intake rates it again).
		return fmt.Errorf("%w: %q", intake.ErrSourceTaken, g.SourceID)
	}
	return wrap("create game", err)
}

func (s *Store) one(ctx context.Context, filter bson.D, what string) (intake.StoredGame, error) {
	var d gameDoc
	err := s.games.FindOne(ctx, filter).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return intake.StoredGame{}, fmt.Errorf("%s: %w", what, intake.ErrNotFound)
	}
	if err != nil {
		return intake.StoredGame{}, wrap("read game", err)
	}
	return s.assemble(ctx, d)
}

// assemble is the game document as it stands: as created, or as its end
// made it, and rated once marked.
func (s *Store) assemble(ctx context.Context, d gameDoc) (intake.StoredGame, error) {
	if d.Status == string(intake.StatusPending) {
		var end endDoc
		err := s.ends.FindOne(ctx, bson.D{{Key: "_id", Value: d.ID}}).Decode(&end)
		switch {
		case errors.Is(err, mongo.ErrNoDocuments):
		case err != nil:
			return intake.StoredGame{}, wrap("read game end", err)
		case end.Kind == string(intake.StatusFinished) && end.Game != nil:
			d = *end.Game
		default:
			d.Status = end.Kind
		}
	}
	if d.Status == string(intake.StatusFinished) {
		rated, err := s.rated(ctx, d.ID, d.Batch)
		if err != nil {
			return intake.StoredGame{}, err
		}
		if rated {
			d.Status = string(intake.StatusRated)
		}
	}
	return d.game()
}

// Game implements intake.Store.
func (s *Store) Game(ctx context.Context, id string) (intake.StoredGame, error) {
	return s.one(ctx, bson.D{{Key: "_id", Value: id}}, "game "+id)
}

// BySource implements intake.Store.
func (s *Store) BySource(ctx context.Context, sourceID string) (intake.StoredGame, error) {
	return s.one(ctx, bson.D{{Key: "source_id", Value: sourceID}}, "source_id "+sourceID)
}

// endDoc is the decided end of a pending game: finished (with the
// finished game) or expired.
type endDoc struct {
	ID   string   `bson:"_id"`
	Kind string   `bson:"kind"` // a intake.Status: finished, expired or aborted
	Game *gameDoc `bson:"game,omitempty"`
	// An abort's player, both players and time.
	By    string     `bson:"by,omitempty"`
	Black string     `bson:"black,omitempty"`
	White string     `bson:"white,omitempty"`
	At    *time.Time `bson:"at,omitempty"`
}

// Finish implements intake.Store.
func (s *Store) Finish(ctx context.Context, f intake.StoredGame) error {
	g, err := s.Game(ctx, f.ID)
	if err != nil {
		return err
	}
	if g.Status != intake.StatusPending {
		return fmt.Errorf("game %s is %s: %w", f.ID, g.Status, intake.ErrNotPending)
	}
	d, err := toDoc(f)
	if err != nil {
		return err
	}
	if err := s.markUnrated(ctx, f); err != nil {
		return err
	}
	end := endDoc{ID: f.ID, Kind: string(intake.StatusFinished), Game: &d}
	if _, err := s.ends.InsertOne(ctx, end); err != nil {
		if !mongo.IsDuplicateKeyError(err) {
			return wrap("decide game end", err)
		}
		// Decided before: by this same result (a retry goes on), or not.
		if err := s.ends.FindOne(ctx, bson.D{{Key: "_id", Value: f.ID}}).Decode(&end); err != nil {
			return wrap("read game end", err)
		}
		if end.Kind != string(intake.StatusFinished) || end.Game.Hash != f.Hash {
			return fmt.Errorf("game %s already ended: %w", f.ID, intake.ErrNotPending)
		}
	}
	return s.unmarkPending(ctx, f.ID)
}

// rated reports whether the finished game is rated: its unrated mark and
// its batch's (batch, when CreateAll stored it) are gone, or (a store
// written before the mark said it) a rated document is there. One read
// by _id for almost every game, two for an archive's.
func (s *Store) rated(ctx context.Context, id, batch string) (bool, error) {
	if s.isRatedSoon(id) {
		return true, nil
	}
	if batch != "" && !s.batchGone(batch) {
		err := s.unrated.FindOne(ctx, bson.D{{Key: "_id", Value: batch}}).Err()
		switch {
		case err == nil:
			return false, nil
		case !errors.Is(err, mongo.ErrNoDocuments):
			return false, wrap("read game", err)
		}
		s.madeMu.Lock()
		s.gone[batch] = true
		s.madeMu.Unlock()
	}
	err := s.unrated.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Err()
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		return true, nil
	case err != nil:
		return false, wrap("read game", err)
	}
	err = s.ratedOld.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Err()
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, mongo.ErrNoDocuments):
		return false, nil
	}
	return false, wrap("read game", err)
}

// MarkRated implements intake.Store: the game's unrated mark is deleted,
// with the other games' marked at the same time (one command for them
// all): at once, or within the linger (RatedLinger), the game rated in
// memory until then. It reads nothing: intake calls it for a finished
// game only.
func (s *Store) MarkRated(ctx context.Context, id string) error {
	if s.ratedLinger <= 0 {
		return wrap("mark game rated", s.delUnrated.DeleteNow(ctx, id))
	}
	s.ratedMu.Lock()
	s.ratedSoon[id] = true
	s.ratedMu.Unlock()
	// A failed delete leaves the mark and the memory: Recover's next
	// sweep deletes it.
	s.delUnrated.Later(id, func(err error) {
		if err == nil {
			s.forgetRated(id)
		}
	})
	return nil
}

func (s *Store) batchGone(b string) bool {
	s.madeMu.Lock()
	defer s.madeMu.Unlock()
	return s.gone[b]
}

func (s *Store) isRatedSoon(id string) bool {
	s.ratedMu.Lock()
	defer s.ratedMu.Unlock()
	return s.ratedSoon[id]
}

func (s *Store) forgetRated(id string) {
	s.ratedMu.Lock()
	delete(s.ratedSoon, id)
	s.ratedMu.Unlock()
}

// Drain sends the mark deletes that linger (RatedLinger) and waits for
// them.
func (s *Store) Drain() {
	s.delUnrated.Wait()
	s.delPending.Wait()
}

// Finished implements intake.Store: the marked games, oldest first; the
// marks of games rated meanwhile are dropped.
func (s *Store) Finished(ctx context.Context, limit int) ([]intake.StoredGame, error) {
	marks, err := mongox.Markers(ctx, s.unrated)
	if err != nil {
		return nil, wrap("list unrated games", err)
	}
	// A batch's mark becomes its games' own marks first (what an
	// interrupted import left), so they are listed in the order played.
	settled := false
	for _, m := range marks {
		if isBatchMark(m.ID) {
			if _, err := s.settleBatch(ctx, m.ID, nil); err != nil {
				return nil, err
			}
			settled = true
		}
	}
	if settled {
		if marks, err = mongox.Markers(ctx, s.unrated); err != nil {
			return nil, wrap("list unrated games", err)
		}
	}
	out := make([]intake.StoredGame, 0, limit)
	for _, m := range marks {
		if len(out) == limit {
			break
		}
		if s.isRatedSoon(m.ID) {
			// Rated here, its delete queued (or failed): it goes with the
			// next linger's, after what must be written before it
			// (BeforeRatedDelete), never straight from here.
			s.delUnrated.Later(m.ID, func(err error) {
				if err == nil {
					s.forgetRated(m.ID)
				}
			})
			continue
		}
		g, err := s.Game(ctx, m.ID)
		switch {
		case errors.Is(err, intake.ErrNotFound), err == nil && g.Status == intake.StatusPending:
			continue // marked just before it is stored or finished
		case err != nil:
			return nil, err
		case g.Status != intake.StatusFinished:
			if _, err := s.unrated.DeleteOne(ctx, bson.D{{Key: "_id", Value: m.ID}}); err != nil {
				return nil, wrap("unmark game", err)
			}
			s.forgetRated(m.ID)
			continue
		}
		out = append(out, g)
	}
	return out, nil
}

// ExpirePending implements intake.Store: it reads the pending marks, not
// the games. Each expiry is decided like a result, by an insert under the
// game's id, so a result and an expiry racing each other cannot both win.
func (s *Store) ExpirePending(ctx context.Context, now time.Time) (int, error) {
	marks, err := s.pendingMarks(ctx, bson.D{})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range marks {
		if m.ExpiresAt.After(now) {
			continue
		}
		end := endDoc{ID: m.ID, Kind: string(intake.StatusExpired)}
		if _, err := s.ends.InsertOne(ctx, end); err != nil && !mongo.IsDuplicateKeyError(err) {
			return n, wrap("decide game end", err)
		} else if err == nil {
			n++
		}
		// Ended now or before (a result, another expiry): the mark goes.
		if err := s.unmarkPending(ctx, m.ID); err != nil {
			return n, err
		}
	}
	return n, nil
}

// pendingDoc marks a pending game until it ends.
type pendingDoc struct {
	ID        string    `bson:"_id"`
	Black     string    `bson:"black"`
	White     string    `bson:"white"`
	ExpiresAt time.Time `bson:"expires_at"`
}

// markPending marks the game before it is stored, so that no pending game
// is ever without its mark; a mark whose game never came is dropped by
// Unfinished and ExpirePending. The in-memory index (SoleWriter) learns of
// the mark before the insert and forgets it only after the delete, so it
// holds every stored mark, perhaps a few more.
func (s *Store) markPending(ctx context.Context, g intake.StoredGame) error {
	m := pendingDoc{ID: g.ID, Black: g.Black, White: g.White, ExpiresAt: g.ExpiresAt.UTC()}
	s.marks.add(m)
	err := s.insPending.Insert(ctx, m)
	if mongo.IsDuplicateKeyError(err) {
		return nil // a retry of the same create
	}
	return wrap("mark game pending", err)
}

// unmarkPending drops the mark of a game that has ended: from memory at
// once, from the store within the linger (RatedLinger), with other
// games'. Until then, or for good if the delete fails, readers of the
// marks find the game ended and drop it themselves.
func (s *Store) unmarkPending(_ context.Context, id string) error {
	s.marks.remove(id)
	s.delPending.Later(id, nil)
	return nil
}

func (s *Store) pendingMarks(ctx context.Context, filter bson.D) ([]pendingDoc, error) {
	cur, err := s.pending.Find(ctx, filter)
	if err != nil {
		return nil, wrap("list pending games", err)
	}
	var marks []pendingDoc
	if err := cur.All(ctx, &marks); err != nil {
		return nil, wrap("list pending games", err)
	}
	return marks, nil
}

// Unfinished implements intake.Store: the player's marks whose games are
// still pending. Marks of games that ended (a crash between the end and
// the unmarking) or never came are dropped on the way.
func (s *Store) Unfinished(ctx context.Context, player string) ([]string, error) {
	var marks []pendingDoc
	if s.marks != nil {
		marks = s.marks.of(player)
	} else {
		var err error
		marks, err = s.pendingMarks(ctx, bson.D{{Key: "$or", Value: bson.A{
			bson.D{{Key: "black", Value: player}}, bson.D{{Key: "white", Value: player}},
		}}})
		if err != nil {
			return nil, err
		}
	}
	var ids []string
	for _, m := range marks {
		g, err := s.Game(ctx, m.ID)
		switch {
		case errors.Is(err, intake.ErrNotFound):
			// Marked just before it is stored, or the create failed.
			continue
		case err != nil:
			return nil, err
		case g.Status == intake.StatusPending:
			ids = append(ids, m.ID)
		default:
			if err := s.unmarkPending(ctx, m.ID); err != nil {
				return nil, err
			}
		}
	}
	return ids, nil
}

// wrap keeps the driver error for logs and marks connection trouble as
// an outage (internal/outage), which api shows as 503 without the driver text.
func wrap(op string, err error) error {
	return mongox.Wrap("gamedb", op, err)
}

// flagDoc marks one game with one flag.
type flagDoc struct {
	ID   string    `bson:"_id"` // flag + "#" + game
	Flag string    `bson:"flag"`
	Game string    `bson:"game"`
	At   time.Time `bson:"at"`
}

// Flag implements intake.Store.
func (s *Store) Flag(ctx context.Context, id, flag string, at time.Time) error {
	_, err := s.flagged.InsertOne(ctx, flagDoc{ID: flag + "#" + id, Flag: flag, Game: id, At: at.UTC()})
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return wrap("flag game", err)
}

// Flagged implements intake.Store: the marks of a page (indexed by flag
// and time on MongoDB; an admin's read, never the hot path), then each
// game by _id.
func (s *Store) Flagged(ctx context.Context, flag string, after *intake.FlagCursor, limit int) ([]intake.FlaggedGame, error) {
	filter := bson.D{{Key: "flag", Value: flag}}
	if after != nil {
		at := after.At.UTC()
		filter = append(filter, bson.E{Key: "$or", Value: bson.A{
			bson.D{{Key: "at", Value: bson.D{{Key: "$lt", Value: at}}}},
			bson.D{{Key: "at", Value: at}, {Key: "game", Value: bson.D{{Key: "$gt", Value: after.ID}}}},
		}})
	}
	opts := options.Find().SetSort(bson.D{{Key: "at", Value: -1}, {Key: "game", Value: 1}})
	if limit > 0 {
		opts.SetLimit(int64(limit))
	}
	cur, err := s.flagged.Find(ctx, filter, opts)
	if err != nil {
		return nil, wrap("list flagged games", err)
	}
	var marks []flagDoc
	if err := cur.All(ctx, &marks); err != nil {
		return nil, wrap("list flagged games", err)
	}
	out := make([]intake.FlaggedGame, 0, len(marks))
	for _, m := range marks {
		g, err := s.Game(ctx, m.Game)
		if err != nil {
			return nil, err
		}
		out = append(out, intake.FlaggedGame{Game: g, Flag: m.Flag, At: m.At.UTC()})
	}
	return out, nil
}

// playerDoc lists one game under its players (ByPlayer).
type playerDoc struct {
	ID        string    `bson:"_id"`
	Players   []string  `bson:"players"`
	CreatedAt time.Time `bson:"created_at"`
}

func toPlayerDoc(d gameDoc) playerDoc {
	return playerDoc{ID: d.ID, Players: []string{d.Black, d.White}, CreatedAt: d.CreatedAt}
}

// backfilledID marks ByPlayer as holding every game stored before it
// existed, and every game CreateAll stored before it listed them (an
// import's games were missing from their players' lists until stop 33:
// hence the "2", which makes stores marked before backfill once more). It
// matches no player query: it has no players.
const backfilledID = "!backfilled-2"

// backfillByPlayer lists the games stored before ByPlayer existed, once
// per database: every rankd start checks the mark (a read by _id); a
// start that dies midway does it again (the inserts are idempotent).
func (s *Store) backfillByPlayer(ctx context.Context) error {
	err := s.players.FindOne(ctx, bson.D{{Key: "_id", Value: backfilledID}}).Err()
	if err == nil {
		return nil
	}
	if !errors.Is(err, mongo.ErrNoDocuments) {
		return wrap("read player list mark", err)
	}
	cur, err := s.games.Find(ctx, bson.D{}, options.Find().SetProjection(bson.D{{Key: "black", Value: 1}, {Key: "white", Value: 1}, {Key: "created_at", Value: 1}}))
	if err != nil {
		return wrap("list games to backfill", err)
	}
	var docs []gameDoc
	if err := cur.All(ctx, &docs); err != nil {
		return wrap("list games to backfill", err)
	}
	for start := 0; start < len(docs); start += 500 {
		batch := make([]any, 0, 500)
		for _, d := range docs[start:min(start+500, len(docs))] {
			batch = append(batch, toPlayerDoc(d))
		}
		for _, err := range s.insPlayers.InsertAll(ctx, batch) {
			if err != nil && !mongo.IsDuplicateKeyError(err) {
				return wrap("backfill player list", err)
			}
		}
	}
	if _, err := s.players.InsertOne(ctx, bson.D{{Key: "_id", Value: backfilledID}}); err != nil && !mongo.IsDuplicateKeyError(err) {
		return wrap("mark player list", err)
	}
	return nil
}

// playerBatch is how many list entries PlayerGames reads at a time while
// a state filter leaves its page short.
const playerBatch = 50

// PlayerGames implements intake.Store: the player's entries in ByPlayer
// (small documents), newest first, then each game by _id put together as
// it stands (its end, its being rated), filtered by state until the page
// is full.
func (s *Store) PlayerGames(ctx context.Context, q intake.GamesQuery) ([]intake.StoredGame, error) {
	filter := bson.D{{Key: "players", Value: q.Player}}
	if q.Opponent != "" {
		filter = bson.D{{Key: "players", Value: bson.D{{Key: "$all", Value: bson.A{q.Player, q.Opponent}}}}}
	}
	after := q.After
	batch := int64(playerBatch)
	if q.Limit > 0 && len(q.States) == 0 {
		batch = int64(q.Limit)
	}
	var out []intake.StoredGame
	for {
		f := filter
		if after != nil {
			at := after.At.UTC()
			f = append(slices.Clone(filter), bson.E{Key: "$or", Value: bson.A{
				bson.D{{Key: "created_at", Value: bson.D{{Key: "$lt", Value: at}}}},
				bson.D{{Key: "created_at", Value: at}, {Key: "_id", Value: bson.D{{Key: "$lt", Value: after.ID}}}},
			}})
		}
		cur, err := s.players.Find(ctx, f, options.Find().SetSort(bson.D{{Key: "created_at", Value: -1}, {Key: "_id", Value: -1}}).SetLimit(batch))
		if err != nil {
			return nil, wrap("list player games", err)
		}
		var entries []playerDoc
		if err := cur.All(ctx, &entries); err != nil {
			return nil, wrap("list player games", err)
		}
		for _, e := range entries {
			g, err := s.Game(ctx, e.ID)
			if errors.Is(err, intake.ErrNotFound) {
				continue // listed just before it is stored, or its create failed
			}
			if err != nil {
				return nil, err
			}
			g.CreatedAt = e.CreatedAt.UTC() // as created: the order's key
			if len(q.States) == 0 || slices.Contains(q.States, g.Status) {
				out = append(out, g)
				if q.Limit > 0 && len(out) == q.Limit {
					return out, nil
				}
			}
		}
		if int64(len(entries)) < batch {
			return out, nil
		}
		last := entries[len(entries)-1]
		after = &intake.GameCursor{At: last.CreatedAt.UTC(), ID: last.ID}
	}
}

// Abort implements intake.Store: decided like a result or an expiry, by
// an insert under the game's id.
func (s *Store) Abort(ctx context.Context, id, by string, at time.Time) error {
	g, err := s.Game(ctx, id)
	if err != nil {
		return err
	}
	if g.Status != intake.StatusPending {
		return fmt.Errorf("game %s is %s: %w", id, g.Status, intake.ErrNotPending)
	}
	t := at.UTC()
	end := endDoc{ID: id, Kind: string(intake.StatusAborted), By: by, Black: g.Black, White: g.White, At: &t}
	if _, err := s.ends.InsertOne(ctx, end); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return fmt.Errorf("game %s already ended: %w", id, intake.ErrNotPending)
		}
		return wrap("decide game end", err)
	}
	return s.unmarkPending(ctx, id)
}

// Aborts implements intake.Store.
func (s *Store) Aborts(ctx context.Context, since time.Time) ([]intake.Abort, error) {
	cur, err := s.ends.Find(ctx, bson.D{{Key: "kind", Value: string(intake.StatusAborted)}, {Key: "at", Value: bson.D{{Key: "$gte", Value: since.UTC()}}}},
		options.Find().SetSort(bson.D{{Key: "at", Value: -1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, wrap("list aborts", err)
	}
	var docs []endDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("list aborts", err)
	}
	out := make([]intake.Abort, len(docs))
	for i, d := range docs {
		out[i] = intake.Abort{GameID: d.ID, By: d.By, Black: d.Black, White: d.White, At: d.At.UTC()}
	}
	return out, nil
}
