package ratingdb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/mongox"
	"github.com/weiqi-platform/rank/rating"
)

// Collection names.
const (
	// Log holds every document an operation writes, each with its kind
	// (field k) under an _id that begins with it: the operation
	// ("o:"+id), its holds ("h:"+username#version), its plan ("p:"+id),
	// its ledger entries ("e:"+username#seq) and the states it writes
	// ("s:"+username#version). One collection, so that one ordered insert
	// writes an operation's steps in their order (ApplyOp): MongoDB
	// writes several collections together only in a transaction.
	Log     = "rating_log"
	Players = "rating_players" // each player's latest state: a hint, and the leaderboard
	Open    = "rating_open"    // one marker per operation not yet done
	Done    = "rating_done"    // one document per operation done (a tracked one only when given up), written once
)

// The kinds of Log's documents.
const (
	kindState = "state"
	kindEntry = "entry"
	kindOp    = "op"
	kindHold  = "hold"
	kindPlan  = "plan"
)

// StateID, EntryID and OpID are the _ids in Log of a player's state at a
// version, of their ledger entry at a sequence number and of an
// operation.
func StateID(username string, version int64) string { return "s:" + key(username, version) }
func EntryID(username string, seq int64) string     { return "e:" + key(username, seq) }
func OpID(id string) string                         { return "o:" + id }

func holdID(username string, version int64) string { return "h:" + key(username, version) }
func planID(id string) string                      { return "p:" + id }

// Store is a rating.Store on a Mongo database. Every decision is an
// insert under a unique _id in Log (a state's or a hold's
// "username#version", the operation's id, an entry's "username#seq",
// each after its kind); the only update is the players' projection, a hint
// that reads check and repair, so a filtered update that FerretDB v1
// applies non-atomically never decides anything.
//
// The hot path only inserts and reads one document by _id: on FerretDB v1
// with SQLite those are the only operations that do not grow with the
// collection (a find by _id alone is pushed down to SQLite; any other
// filter, and every update or delete, scans the collection). So the
// latest state is found from the projection's version by probing the next
// versions by _id, a player's ledger is read entry by entry by _id from
// the head down, an operation's plan and its being done are documents of
// their own, and the operations not done are markers in a small
// collection. Only the leaderboard and the projection's update scan the
// players (not the games); a sole writer answers the leaderboard from
// memory (SoleWriter).
type Store struct {
	// lane is where the bulk writes take turns (WriteLane; nil: none).
	lane    *mongox.Lane
	states  *mongo.Collection
	players *mongo.Collection
	holds   *mongo.Collection
	ops     *mongo.Collection
	open    *mongo.Collection
	plans   *mongo.Collection
	done    *mongo.Collection
	ledger  *mongo.Collection
	reports *mongo.Collection
	// reproject marks the players a bulk commit is rewriting (bulk.go).
	reproject *mongo.Collection
	// The hot path's inserts, combined with concurrent callers' (group
	// commit): ApplyOp's sequences, and the steps one at a time.
	seqLog                   *mongox.SeqInserter
	projWriter               *mongox.Writer // projectAll, with concurrent games
	insLog, insOpen, insDone *mongox.Inserter
	delOpen                  *mongox.Deleter
	tracked                  trackedIDs
	// deferredMarks are this process's Reproject markers of a run of
	// batches whose projections wait for its ReprojectAll (bulk.go).
	deferred      sync.Mutex
	deferredMarks map[string]bool
	// cache is every projection, kept in memory by a sole writer
	// (SoleWriter); nil otherwise.
	cache *projCache
	// later holds the projections of games written whole until they are
	// written together (DeferProjections); nil otherwise.
	later *projLater
}

var (
	_ rating.Store      = (*Store)(nil)
	_ rating.BatchStore = (*Store)(nil)
	_ rating.OpWriter   = (*Store)(nil)
)

// Option tunes New.
type Option func(*newOptions)

type newOptions struct {
	inFlight int
	sole     bool
	lane     *mongox.Lane
	deferFor time.Duration
}

// SoleWriter says that this Store is the only writer of the database (the
// embedded store, locked to one process): every player's projection is
// read once at New and kept in memory as it is written, and the
// leaderboard and the latest states are served from there. Never use it
// on a database another process writes.
func SoleWriter() Option { return func(o *newOptions) { o.sole = true } }

// InFlight lets n combined writes of a kind (a game's one insert, the
// projections) be in flight at once: for a store server, which works on
// several at once; the default 1 suits a single-writer store (the
// embedded one), where waiting makes larger batches.
func InFlight(n int) Option { return func(o *newOptions) { o.inFlight = n } }

// DeferProjections holds the players' projections of a game written
// whole (ApplyOp) for up to linger, to be written with every other
// game's of the moment, each player's latest once (projLater): one
// command less on a game's request, and fewer writes. Until then this
// Store's Latest, LatestOf and Player answer with them; its Leaderboard
// (but a sole writer's, from memory) and other processes lag by up to
// linger. Safe only where a rated game's unrated mark is deleted after
// FlushProjections (gamedb.BeforeRatedDelete); call FlushProjections
// before closing.
func DeferProjections(linger time.Duration) Option {
	return func(o *newOptions) { o.deferFor = linger }
}

// WriteLane makes the Store's combined writes take turns in l with the
// other stores' of the database (mongox.Lane: a store of one writer).
func WriteLane(l *mongox.Lane) Option { return func(o *newOptions) { o.lane = l } }

// New returns a Store on db after making sure its indexes exist.
func New(ctx context.Context, db *mongo.Database, opts ...Option) (*Store, error) {
	o := newOptions{inFlight: 1}
	for _, f := range opts {
		f(&o)
	}
	log := db.Collection(Log)
	s := &Store{states: log, players: db.Collection(Players), holds: log, ops: log,
		open: db.Collection(Open), plans: log, done: db.Collection(Done), ledger: log,
		reproject: db.Collection(Reproject)}
	s.lane = o.lane
	lane, inFlight := mongox.InLane(o.lane), mongox.InFlight(o.inFlight)
	s.seqLog, s.insLog = mongox.NewSeqInserter(log, lane, inFlight), mongox.NewInserter(log, lane)
	// One projection command in flight, of projBatch statements at most.
	s.projWriter = mongox.NewWriter(s.players, lane, mongox.MaxBatch(projBatch))
	s.insOpen, s.insDone = mongox.NewInserter(s.open, lane), mongox.NewInserter(s.done, lane)
	s.delOpen = mongox.NewDeleter(s.open, lane)
	if o.deferFor > 0 {
		s.later = &projLater{pending: map[string]stateDoc{}, linger: o.deferFor}
	}
	if err := migrate(ctx, db); err != nil {
		return nil, err
	}
	// The _ids make states, holds and ledger entries unique per player
	// and version (or sequence number); the indexes serve the latest
	// state, history (newest first), the leaderboard and Recover. One
	// call per index: FerretDB v1 panics on a createIndexes of several
	// that already exist.
	for _, ix := range []struct {
		c *mongo.Collection
		m mongo.IndexModel
	}{
		{s.players, mongo.IndexModel{Keys: bson.D{{Key: "score", Value: -1}, {Key: "username", Value: 1}}, Options: options.Index().SetName("score")}},
	} {
		if _, err := ix.c.Indexes().CreateOne(ctx, ix.m); err != nil {
			return nil, wrap("create indexes", err)
		}
	}
	if err := s.openAudit(ctx, db); err != nil {
		return nil, err
	}
	// Projections a bulk run that died left behind (bulk.go).
	if err := s.repairProjections(ctx); err != nil {
		return nil, err
	}
	if o.sole {
		c, err := loadProjections(ctx, s.players)
		if err != nil {
			return nil, err
		}
		s.cache = c
	}
	return s, nil
}

// glickoDoc is rating.Glicko stored.
type glickoDoc struct {
	Rating     float64 `bson:"rating"`
	RD         float64 `bson:"rd"`
	Volatility float64 `bson:"volatility"`
}

// stateDoc is rating.PlayerState stored, one per player and version.
type stateDoc struct {
	ID        string    `bson:"_id"`         // StateID; the projection's: the username
	K         string    `bson:"k,omitempty"` // kindState; none on the projection
	Username  string    `bson:"username"`
	Version   int64     `bson:"version"`
	Op        string    `bson:"op"`
	Score     int       `bson:"score"`
	Glicko    glickoDoc `bson:"glicko"`
	Games     int       `bson:"games"`
	Wins      int       `bson:"wins"`
	Losses    int       `bson:"losses"`
	Draws     int       `bson:"draws"`
	Placement int       `bson:"placement"`
	Certified string    `bson:"certified,omitempty"` // rank text; absent: none
	// Placement progress: placing absent once placed; both absent on
	// states from before placement existed.
	Placing      bool      `bson:"placing,omitempty"`
	PlacingGames int       `bson:"placing_games,omitempty"`
	Seq          int64     `bson:"seq"`
	Head         string    `bson:"head"`
	UpdatedAt    time.Time `bson:"updated_at"`
}

func key(username string, n int64) string { return username + "#" + strconv.FormatInt(n, 10) }

// A version (K kindState) is stored with the fields its queries read
// (EachState's: k, username, version) and the rest as one JSON text, s;
// a projection (the leaderboard's, queried by score) field by field.
// FerretDB v1 pays about 2 µs a field of every document it stores (it
// keeps each field's type beside it): a version's 20 fields were a fifth
// of an import's store time, two versions a game (stop 33). Versions
// stored before, field by field, read as they are.
type compactStateDoc struct {
	ID       string `bson:"_id"`
	K        string `bson:"k"`
	Username string `bson:"username"`
	Version  int64  `bson:"version"`
	S        string `bson:"s"`
}

// stateBody is a version's fields in its s, as JSON.
type stateBody struct {
	Op           string    `json:"op,omitempty"`
	Score        int       `json:"score"`
	Rating       float64   `json:"rating"`
	RD           float64   `json:"rd"`
	Volatility   float64   `json:"volatility"`
	Games        int       `json:"games,omitempty"`
	Wins         int       `json:"wins,omitempty"`
	Losses       int       `json:"losses,omitempty"`
	Draws        int       `json:"draws,omitempty"`
	Placement    int       `json:"placement"`
	Certified    string    `json:"certified,omitempty"`
	Placing      bool      `json:"placing,omitempty"`
	PlacingGames int       `json:"placing_games,omitempty"`
	Seq          int64     `json:"seq,omitempty"`
	Head         string    `json:"head,omitempty"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// MarshalBSON stores a version compact, a projection field by field.
func (d stateDoc) MarshalBSON() ([]byte, error) {
	type plain stateDoc
	if d.K != kindState {
		return bson.Marshal(plain(d))
	}
	body, err := json.Marshal(stateBody{
		Op: d.Op, Score: d.Score, Rating: d.Glicko.Rating, RD: d.Glicko.RD, Volatility: d.Glicko.Volatility,
		Games: d.Games, Wins: d.Wins, Losses: d.Losses, Draws: d.Draws, Placement: d.Placement,
		Certified: d.Certified, Placing: d.Placing, PlacingGames: d.PlacingGames, Seq: d.Seq, Head: d.Head,
		// As a BSON date keeps it.
		UpdatedAt: d.UpdatedAt.UTC().Truncate(time.Millisecond),
	})
	if err != nil {
		return nil, err
	}
	return bson.Marshal(compactStateDoc{ID: d.ID, K: d.K, Username: d.Username, Version: d.Version, S: string(body)})
}

// UnmarshalBSON reads either form.
func (d *stateDoc) UnmarshalBSON(b []byte) error {
	type plain stateDoc
	*d = stateDoc{}
	var body stateBody
	if ok, err := mongox.CompactBody(b, (*plain)(d), &body); err != nil {
		return fmt.Errorf("ratingdb: state %s: %w", d.ID, err)
	} else if !ok {
		return nil // field by field
	}
	d.Op, d.Score, d.Glicko = body.Op, body.Score, glickoDoc{Rating: body.Rating, RD: body.RD, Volatility: body.Volatility}
	d.Games, d.Wins, d.Losses, d.Draws, d.Placement = body.Games, body.Wins, body.Losses, body.Draws, body.Placement
	d.Certified, d.Placing, d.PlacingGames, d.Seq, d.Head = body.Certified, body.Placing, body.PlacingGames, body.Seq, body.Head
	d.UpdatedAt = body.UpdatedAt.UTC()
	return nil
}

func toStateDoc(p rating.PlayerState) stateDoc {
	return stateDoc{
		ID: StateID(p.Username, p.Version), K: kindState, Username: p.Username, Version: p.Version, Op: p.Op,
		Score: p.Score, Glicko: glickoDoc(p.Glicko), Games: p.Games, Wins: p.Wins, Losses: p.Losses, Draws: p.Draws,
		Placement: p.Placement, Certified: rankText(p.Certified), Placing: p.Placing, PlacingGames: p.PlacingGames, Seq: p.Seq, Head: p.Head, UpdatedAt: p.UpdatedAt.UTC(),
	}
}

func (d stateDoc) state() rating.PlayerState {
	return rating.PlayerState{
		Username: d.Username, State: rating.State{Score: d.Score, Glicko: rating.Glicko(d.Glicko)},
		Games: d.Games, Wins: d.Wins, Losses: d.Losses, Draws: d.Draws, Placement: d.Placement,
		Certified: parseRank(d.Certified), Placing: d.Placing, PlacingGames: d.PlacingGames,
		Version: d.Version, Op: d.Op, Seq: d.Seq, Head: d.Head, UpdatedAt: d.UpdatedAt.UTC(),
	}
}

// opDoc is rating.Operation stored; the plan as its JSON, written once.
type opDoc struct {
	ID       string    `bson:"_id"` // OpID
	K        string    `bson:"k"`   // kindOp
	Black    string    `bson:"black"`
	White    string    `bson:"white"`
	Winner   string    `bson:"winner"`
	Moves    int       `bson:"moves"`
	Handicap int       `bson:"handicap"`
	Outcome  string    `bson:"outcome"`
	Escape   bool      `bson:"escape"`
	SourceID string    `bson:"source_id"`
	GameHash string    `bson:"game_hash,omitempty"`
	Actor    string    `bson:"actor"`
	At       time.Time `bson:"at"`
	// Changes and annulments (absent on games).
	Kind   string `bson:"kind,omitempty"`
	Player string `bson:"player,omitempty"`
	Change string `bson:"change,omitempty"` // rating.Change as JSON
	// Tracked operations have no open marker (rating.Operation.Tracked).
	Tracked bool `bson:"tracked,omitempty"`
}

// An operation is stored as its _id, k and one JSON text, s, for the
// reason a version is (compactStateDoc): it is read by _id only.
// Operations stored before, field by field, read as they are.
type compactOpDoc struct {
	ID string `bson:"_id"`
	K  string `bson:"k"`
	S  string `bson:"s"`
}

// opBody is an operation's fields in its s, as JSON.
type opBody struct {
	Black    string    `json:"black,omitempty"`
	White    string    `json:"white,omitempty"`
	Winner   string    `json:"winner,omitempty"`
	Moves    int       `json:"moves,omitempty"`
	Handicap int       `json:"handicap,omitempty"`
	Outcome  string    `json:"outcome,omitempty"`
	Escape   bool      `json:"escape,omitempty"`
	SourceID string    `json:"source_id,omitempty"`
	GameHash string    `json:"game_hash,omitempty"`
	Actor    string    `json:"actor,omitempty"`
	At       time.Time `json:"at"`
	Kind     string    `json:"kind,omitempty"`
	Player   string    `json:"player,omitempty"`
	Change   string    `json:"change,omitempty"`
	Tracked  bool      `json:"tracked,omitempty"`
}

// MarshalBSON stores an operation compact.
func (d opDoc) MarshalBSON() ([]byte, error) {
	body, err := json.Marshal(opBody{
		Black: d.Black, White: d.White, Winner: d.Winner, Moves: d.Moves, Handicap: d.Handicap, Outcome: d.Outcome,
		Escape: d.Escape, SourceID: d.SourceID, GameHash: d.GameHash, Actor: d.Actor,
		At:   d.At.UTC().Truncate(time.Millisecond), // as a BSON date keeps it
		Kind: d.Kind, Player: d.Player, Change: d.Change, Tracked: d.Tracked,
	})
	if err != nil {
		return nil, err
	}
	return bson.Marshal(compactOpDoc{ID: d.ID, K: d.K, S: string(body)})
}

// UnmarshalBSON reads either form.
func (d *opDoc) UnmarshalBSON(b []byte) error {
	type plain opDoc
	*d = opDoc{}
	var o opBody
	if ok, err := mongox.CompactBody(b, (*plain)(d), &o); err != nil {
		return fmt.Errorf("ratingdb: operation %s: %w", d.ID, err)
	} else if !ok {
		return nil // field by field
	}
	d.Black, d.White, d.Winner, d.Moves, d.Handicap, d.Outcome, d.Escape = o.Black, o.White, o.Winner, o.Moves, o.Handicap, o.Outcome, o.Escape
	d.SourceID, d.GameHash, d.Actor, d.At = o.SourceID, o.GameHash, o.Actor, o.At.UTC()
	d.Kind, d.Player, d.Change, d.Tracked = o.Kind, o.Player, o.Change, o.Tracked
	return nil
}

func toOpDoc(op rating.Operation) (opDoc, error) {
	outcome, err := op.Game.Outcome.MarshalText()
	if err != nil {
		return opDoc{}, err
	}
	d := opDoc{
		ID: OpID(op.ID), K: kindOp, Black: op.Black, White: op.White, Winner: string(op.Winner), Moves: op.Game.Moves,
		Handicap: op.Game.Handicap, Outcome: string(outcome), Escape: op.Game.Escape,
		SourceID: op.SourceID, GameHash: op.GameHash, Actor: op.Actor, At: op.At.UTC(), Kind: op.Kind, Player: op.Player,
		Tracked: op.Tracked,
	}
	if op.Change != nil {
		b, err := json.Marshal(op.Change)
		if err != nil {
			return opDoc{}, err
		}
		d.Change = string(b)
	}
	return d, nil
}

func (d opDoc) op() (rating.Operation, error) {
	op := rating.Operation{
		ID: strings.TrimPrefix(d.ID, "o:"), Black: d.Black, White: d.White, Winner: rating.Side(d.Winner),
		Game:     rating.Game{Moves: d.Moves, Handicap: d.Handicap, Escape: d.Escape},
		SourceID: d.SourceID, GameHash: d.GameHash, Actor: d.Actor, At: d.At.UTC(), Kind: d.Kind, Player: d.Player,
		Tracked: d.Tracked,
	}
	if err := op.Game.Outcome.UnmarshalText([]byte(d.Outcome)); err != nil {
		return rating.Operation{}, fmt.Errorf("ratingdb: operation %s: %w", d.ID, err)
	}
	if d.Change != "" {
		op.Change = new(rating.Change)
		if err := json.Unmarshal([]byte(d.Change), op.Change); err != nil {
			return rating.Operation{}, fmt.Errorf("ratingdb: operation %s: stored change: %w", d.ID, err)
		}
	}
	return op, nil
}

// entryDoc is rating.LedgerEntry stored.
type entryDoc struct {
	ID          string    `bson:"_id"` // EntryID
	K           string    `bson:"k"`   // kindEntry
	Username    string    `bson:"username"`
	Seq         int64     `bson:"seq"`
	Cause       string    `bson:"cause"`
	CauseID     string    `bson:"cause_id"`
	SourceID    string    `bson:"source_id,omitempty"`
	Actor       string    `bson:"actor,omitempty"`
	Opponent    string    `bson:"opponent,omitempty"`
	ScoreBefore int       `bson:"score_before"`
	ScoreAfter  int       `bson:"score_after"`
	RankBefore  string    `bson:"rank_before"`
	RankAfter   string    `bson:"rank_after"`
	Delta       int       `bson:"delta"`
	Glicko      glickoDoc `bson:"glicko"`
	Reason      string    `bson:"reason,omitempty"`
	At          time.Time `bson:"at"`
	Prev        string    `bson:"prev"`
	Hash        string    `bson:"hash"`
	// Certified-rank changes and their evidence (absent on other entries).
	CertifiedBefore string   `bson:"certified_before,omitempty"`
	CertifiedAfter  string   `bson:"certified_after,omitempty"`
	Evidence        []string `bson:"evidence,omitempty"`
	Result          string   `bson:"result,omitempty"` // a game's, for this player
	GameHash        string   `bson:"game_hash,omitempty"`
	MAC             string   `bson:"mac,omitempty"`
}

// A ledger entry is stored with the fields its queries read (the audit
// trail's and its indexes': k, username, seq, cause, at) and the rest as
// one JSON text, s, for the reason a version is (compactStateDoc). Entries
// stored before, field by field, read as they are.
type compactEntryDoc struct {
	ID       string    `bson:"_id"`
	K        string    `bson:"k"`
	Username string    `bson:"username"`
	Seq      int64     `bson:"seq"`
	Cause    string    `bson:"cause"`
	At       time.Time `bson:"at"`
	S        string    `bson:"s"`
}

// entryBody is an entry's fields in its s, as JSON.
type entryBody struct {
	CauseID         string   `json:"cause_id,omitempty"`
	SourceID        string   `json:"source_id,omitempty"`
	Actor           string   `json:"actor,omitempty"`
	Opponent        string   `json:"opponent,omitempty"`
	ScoreBefore     int      `json:"score_before"`
	ScoreAfter      int      `json:"score_after"`
	RankBefore      string   `json:"rank_before,omitempty"`
	RankAfter       string   `json:"rank_after,omitempty"`
	Delta           int      `json:"delta"`
	Rating          float64  `json:"rating"`
	RD              float64  `json:"rd"`
	Volatility      float64  `json:"volatility"`
	Reason          string   `json:"reason,omitempty"`
	Prev            string   `json:"prev,omitempty"`
	Hash            string   `json:"hash"`
	CertifiedBefore string   `json:"certified_before,omitempty"`
	CertifiedAfter  string   `json:"certified_after,omitempty"`
	Evidence        []string `json:"evidence,omitempty"`
	Result          string   `json:"result,omitempty"`
	GameHash        string   `json:"game_hash,omitempty"`
	MAC             string   `json:"mac,omitempty"`
}

// MarshalBSON stores an entry compact.
func (d entryDoc) MarshalBSON() ([]byte, error) {
	body, err := json.Marshal(entryBody{
		CauseID: d.CauseID, SourceID: d.SourceID, Actor: d.Actor, Opponent: d.Opponent,
		ScoreBefore: d.ScoreBefore, ScoreAfter: d.ScoreAfter, RankBefore: d.RankBefore, RankAfter: d.RankAfter,
		Delta: d.Delta, Rating: d.Glicko.Rating, RD: d.Glicko.RD, Volatility: d.Glicko.Volatility, Reason: d.Reason,
		Prev: d.Prev, Hash: d.Hash, CertifiedBefore: d.CertifiedBefore, CertifiedAfter: d.CertifiedAfter,
		Evidence: d.Evidence, Result: d.Result, GameHash: d.GameHash, MAC: d.MAC,
	})
	if err != nil {
		return nil, err
	}
	return bson.Marshal(compactEntryDoc{ID: d.ID, K: d.K, Username: d.Username, Seq: d.Seq, Cause: d.Cause, At: d.At.UTC(), S: string(body)})
}

// UnmarshalBSON reads either form.
func (d *entryDoc) UnmarshalBSON(b []byte) error {
	type plain entryDoc
	*d = entryDoc{}
	var e entryBody
	if ok, err := mongox.CompactBody(b, (*plain)(d), &e); err != nil {
		return fmt.Errorf("ratingdb: entry %s: %w", d.ID, err)
	} else if !ok {
		return nil // field by field
	}
	d.CauseID, d.SourceID, d.Actor, d.Opponent = e.CauseID, e.SourceID, e.Actor, e.Opponent
	d.ScoreBefore, d.ScoreAfter, d.RankBefore, d.RankAfter, d.Delta = e.ScoreBefore, e.ScoreAfter, e.RankBefore, e.RankAfter, e.Delta
	d.Glicko = glickoDoc{Rating: e.Rating, RD: e.RD, Volatility: e.Volatility}
	d.Reason, d.Prev, d.Hash = e.Reason, e.Prev, e.Hash
	d.CertifiedBefore, d.CertifiedAfter, d.Evidence, d.Result, d.GameHash, d.MAC = e.CertifiedBefore, e.CertifiedAfter, e.Evidence, e.Result, e.GameHash, e.MAC
	return nil
}

func toEntryDoc(e rating.LedgerEntry) entryDoc {
	return entryDoc{
		ID: EntryID(e.Username, e.Seq), K: kindEntry, Username: e.Username, Seq: e.Seq, Cause: e.Cause, CauseID: e.CauseID,
		SourceID: e.SourceID, Actor: e.Actor, Opponent: e.Opponent, ScoreBefore: e.ScoreBefore, ScoreAfter: e.ScoreAfter,
		RankBefore: e.RankBefore, RankAfter: e.RankAfter, Delta: e.Delta, Glicko: glickoDoc(e.Glicko),
		Reason: e.Reason, At: e.At.UTC(), Prev: e.Prev, Hash: e.Hash,
		CertifiedBefore: e.CertifiedBefore, CertifiedAfter: e.CertifiedAfter, Evidence: e.Evidence, Result: e.Result,
		GameHash: e.GameHash, MAC: e.MAC,
	}
}

func (d entryDoc) entry() rating.LedgerEntry {
	return rating.LedgerEntry{
		Username: d.Username, Seq: d.Seq, Cause: d.Cause, CauseID: d.CauseID, SourceID: d.SourceID, Actor: d.Actor,
		Opponent: d.Opponent, ScoreBefore: d.ScoreBefore, ScoreAfter: d.ScoreAfter, RankBefore: d.RankBefore,
		RankAfter: d.RankAfter, Delta: d.Delta, Glicko: rating.Glicko(d.Glicko), Reason: d.Reason,
		At: d.At.UTC(), Prev: d.Prev, Hash: d.Hash,
		CertifiedBefore: d.CertifiedBefore, CertifiedAfter: d.CertifiedAfter, Evidence: d.Evidence, Result: d.Result,
		GameHash: d.GameHash, MAC: d.MAC,
	}
}

// CreateOp implements rating.Store.
func (s *Store) CreateOp(ctx context.Context, op rating.Operation) (rating.Operation, error) {
	d, err := toOpDoc(op)
	if err != nil {
		return rating.Operation{}, err
	}
	// The marker first: an operation is never stored without one until
	// it is done (unless its caller tracks it: no marker at all). A
	// marker without its operation is dropped by Unfinished.
	if op.Tracked {
		s.tracked.add(op.ID)
	} else if err := s.insOpen.Mark(ctx, op.ID, op.At); err != nil {
		return rating.Operation{}, wrap("mark operation open", err)
	}
	err = s.insLog.Insert(ctx, d)
	switch {
	case err == nil:
		return op, nil
	case mongo.IsDuplicateKeyError(err):
		return s.Op(ctx, op.ID)
	}
	return rating.Operation{}, wrap("create operation", err)
}

// planDoc is a stored plan, as its JSON.
type planDoc struct {
	ID   string `bson:"_id"` // planID
	K    string `bson:"k"`   // kindPlan
	Plan string `bson:"plan"`
}

// Op implements rating.Store.
func (s *Store) Op(ctx context.Context, id string) (rating.Operation, error) {
	var d opDoc
	err := s.ops.FindOne(ctx, bson.D{{Key: "_id", Value: OpID(id)}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return rating.Operation{}, fmt.Errorf("operation %s: %w", id, rating.ErrNotFound)
	}
	if err != nil {
		return rating.Operation{}, wrap("read operation", err)
	}
	op, err := d.op()
	if err != nil {
		return rating.Operation{}, err
	}
	var done doneDoc
	err = s.done.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&done)
	switch {
	case err == nil:
		op.Done, op.Error = true, done.Error
	case !errors.Is(err, mongo.ErrNoDocuments):
		return rating.Operation{}, wrap("read operation", err)
	}
	var p planDoc
	err = s.plans.FindOne(ctx, bson.D{{Key: "_id", Value: planID(id)}}).Decode(&p)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		return op, nil
	case err != nil:
		return rating.Operation{}, wrap("read plan", err)
	}
	op.Plan = new(rating.Plan)
	if err := json.Unmarshal([]byte(p.Plan), op.Plan); err != nil {
		return rating.Operation{}, fmt.Errorf("ratingdb: operation %s: stored plan: %w", id, err)
	}
	return op, nil
}

// SetPlan implements rating.Store: an insert under the operation's id, so
// the first plan stays.
func (s *Store) SetPlan(ctx context.Context, id string, p rating.Plan) (rating.Plan, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return rating.Plan{}, err
	}
	err = s.insLog.Insert(ctx, planDoc{ID: planID(id), K: kindPlan, Plan: string(b)})
	if err == nil {
		return p, nil
	}
	if !mongo.IsDuplicateKeyError(err) {
		return rating.Plan{}, wrap("store plan", err)
	}
	var d planDoc
	if err := s.plans.FindOne(ctx, bson.D{{Key: "_id", Value: planID(id)}}).Decode(&d); err != nil {
		return rating.Plan{}, wrap("read plan", err)
	}
	var stored rating.Plan
	if err := json.Unmarshal([]byte(d.Plan), &stored); err != nil {
		return rating.Plan{}, fmt.Errorf("ratingdb: operation %s: stored plan: %w", id, err)
	}
	return stored, nil
}

// doneDoc says an operation is done (with why it was given up, if so).
type doneDoc struct {
	ID    string `bson:"_id"`
	Error string `bson:"error,omitempty"`
}

// FinishOp implements rating.Store: an insert under the operation's id
// (the first one stays), then its marker goes, later and with others'
// (Unfinished drops a done operation's marker it finds).
func (s *Store) FinishOp(ctx context.Context, id, errText string) error {
	if err := s.insDone.Insert(ctx, doneDoc{ID: id, Error: errText}); err != nil && !mongo.IsDuplicateKeyError(err) {
		return wrap("finish operation", err)
	}
	if !s.tracked.take(id) { // a tracked operation created here has no marker
		s.delOpen.Delete(id)
	}
	return nil
}

// trackedIDs are the Tracked operations this process created and has not
// finished: their FinishOp has no marker to delete. One created by
// another process gets a delete of a marker that is not there (harmless).
type trackedIDs struct {
	mu  sync.Mutex
	ids map[string]bool
}

// maxTracked bounds trackedIDs; it is emptied when full (the cost: a
// needless delete each).
const maxTracked = 10_000

func (t *trackedIDs) add(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ids == nil || len(t.ids) >= maxTracked {
		t.ids = map[string]bool{}
	}
	t.ids[id] = true
}

func (t *trackedIDs) take(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	ok := t.ids[id]
	delete(t.ids, id)
	return ok
}

// Unfinished implements rating.Store: the markers, oldest first.
func (s *Store) Unfinished(ctx context.Context, limit int) ([]rating.Operation, error) {
	marks, err := mongox.Markers(ctx, s.open)
	if err != nil {
		return nil, wrap("list operations", err)
	}
	out := make([]rating.Operation, 0, limit)
	for _, m := range marks {
		if len(out) == limit {
			break
		}
		op, err := s.Op(ctx, m.ID)
		switch {
		case errors.Is(err, rating.ErrNotFound):
			// Died between the marker and the operation: nothing was
			// done under this id. A late CreateOp re-marks it.
			if _, err := s.open.DeleteOne(ctx, bson.D{{Key: "_id", Value: m.ID}}); err != nil {
				return nil, wrap("drop marker", err)
			}
			continue
		case err != nil:
			return nil, err
		case op.Done:
			if _, err := s.open.DeleteOne(ctx, bson.D{{Key: "_id", Value: m.ID}}); err != nil {
				return nil, wrap("drop marker", err)
			}
			continue
		}
		out = append(out, op)
	}
	return out, nil
}

// holdDoc says which operation holds a player's version.
type holdDoc struct {
	ID string `bson:"_id"` // holdID
	K  string `bson:"k"`   // kindHold
	Op string `bson:"op"`
}

// Hold implements rating.Store: an insert under "username#version".
func (s *Store) Hold(ctx context.Context, username string, version int64, opID string) error {
	err := s.insLog.Insert(ctx, holdDoc{ID: holdID(username, version), K: kindHold, Op: opID})
	if err == nil {
		return nil
	}
	if !mongo.IsDuplicateKeyError(err) {
		return wrap("hold player", err)
	}
	var d holdDoc
	if err := s.holds.FindOne(ctx, bson.D{{Key: "_id", Value: holdID(username, version)}}).Decode(&d); err != nil {
		return wrap("read hold", err)
	}
	if d.Op == opID {
		return nil
	}
	return &rating.HeldError{Username: username, By: d.Op}
}

// HoldOp implements rating.BatchStore: one ordered insert of the holds
// (the server stops at the first that fails); one that failed on a hold
// already there goes on through Hold, which tells the holder.
func (s *Store) HoldOp(ctx context.Context, opID string, names []string, versions []int64) (int, error) {
	docs := make([]any, len(names))
	for i, n := range names {
		docs[i] = holdDoc{ID: holdID(n, versions[i]), K: kindHold, Op: opID}
	}
	if len(docs) == 0 {
		return 0, nil
	}
	_, err := s.holds.InsertMany(ctx, docs, options.InsertMany().SetOrdered(true))
	if err == nil {
		return len(docs), nil
	}
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || len(bwe.WriteErrors) == 0 || bwe.WriteConcernError != nil {
		return 0, wrap("hold players", err)
	}
	// Ordered: every hold before the first failure was inserted, none
	// after it was tried.
	first := bwe.WriteErrors[0].Index
	for _, we := range bwe.WriteErrors {
		first = min(first, we.Index)
	}
	for i := first; i < len(names); i++ {
		if err := s.Hold(ctx, names[i], versions[i], opID); err != nil {
			return i, err
		}
	}
	return len(names), nil
}

// ApplyOp implements rating.OpWriter: new players' starts, the
// operation, its holds, its plan, its entries and its states in one
// ordered insert into Log (the
// server stops at the first that is there already, so what it leaves is
// a prefix of the steps), then both projections in one update.
func (s *Store) ApplyOp(ctx context.Context, op rating.Operation) (bool, error) {
	if !op.Tracked || op.Plan == nil {
		return false, fmt.Errorf("ratingdb: ApplyOp of operation %s: it must be tracked and planned", op.ID)
	}
	d, err := toOpDoc(op)
	if err != nil {
		return false, err
	}
	plan, err := json.Marshal(op.Plan)
	if err != nil {
		return false, err
	}
	steps := op.Plan.Steps
	docs := make([]any, 0, 2+5*len(steps))
	for _, st := range steps {
		if st.Before.Version == 0 {
			// A player's start first, as holdOne commits it: one that is
			// there already stops the insert, and step by step goes on.
			docs = append(docs, toStateDoc(st.Before))
		}
	}
	docs = append(docs, d)
	for _, st := range steps {
		docs = append(docs, holdDoc{ID: holdID(st.Before.Username, st.Before.Version), K: kindHold, Op: op.ID})
	}
	docs = append(docs, planDoc{ID: planID(op.ID), K: kindPlan, Plan: string(plan)})
	entries, states := op.Plan.Writes()
	for _, e := range entries {
		docs = append(docs, toEntryDoc(e))
	}
	proj := make([]stateDoc, len(states))
	for i, st := range states {
		proj[i] = toStateDoc(st)
		docs = append(docs, proj[i])
	}
	// No s.tracked.add: a game written whole is never finished, and one
	// that goes step by step is added by CreateOp.
	n, err := s.seqLog.Insert(ctx, docs)
	switch {
	case n == len(docs) && err == nil && s.later != nil:
		for i := range proj {
			proj[i] = asProjection(proj[i])
		}
		s.cache.wrote(proj, nil)
		s.later.keep(proj, s.flushLater)
		return true, nil
	case n == len(docs) && err == nil:
		return true, s.projectAll(ctx, proj)
	case mongo.IsDuplicateKeyError(err):
		return false, nil // something of it was there: step by step
	}
	return false, wrap("apply operation", err)
}

// Commit implements rating.Store: an insert under "username#version",
// then the players' projection is brought forward.
func (s *Store) Commit(ctx context.Context, st rating.PlayerState) error {
	d := toStateDoc(st)
	return s.committed(ctx, st, d, s.insLog.Insert(ctx, d))
}

// CommitAll implements rating.BatchStore: the states' inserts go as one.
func (s *Store) CommitAll(ctx context.Context, sts []rating.PlayerState) error {
	docs := make([]any, len(sts))
	for i, st := range sts {
		docs[i] = toStateDoc(st)
	}
	// The states' projections go together too (one update command of
	// several statements), after every state is stored, as Commit's
	// goes after its state.
	proj := make([]stateDoc, 0, len(sts))
	for i, err := range s.insLog.InsertAll(ctx, docs) {
		d, err := s.stored(ctx, sts[i], docs[i].(stateDoc), err)
		if err != nil {
			return err
		}
		proj = append(proj, d)
	}
	return s.projectAll(ctx, proj)
}

// asProjection is state d as its player's projection.
func asProjection(d stateDoc) stateDoc {
	d.ID, d.K = d.Username, ""
	return d
}

// projectAll is project of every d (each known at the version before
// its own), in one bulk write with concurrent games' (mongox.Writer).
func (s *Store) projectAll(ctx context.Context, ds []stateDoc) error {
	for i := range ds {
		ds[i] = asProjection(ds[i])
	}
	err := s.writeProjections(ctx, ds)
	s.cache.wrote(ds, err)
	if err == nil {
		s.later.written(ds)
	}
	return err
}

// projBatch bounds the projections of one update command: FerretDB v1
// keeps each statement's read (a pooled connection) open until the whole
// command ends, so a command of about as many statements as its pool has
// connections (50 on PostgreSQL, 100 on SQLite) waits for good, and the
// server with it (TestFlushManyProjections); 8 leaves room for three
// replicas' commands and everyone's reads at once.
const projBatch = 8

// writeProjections writes the projections ds in bulk writes of at most
// projBatch, each with concurrent callers' (mongox.Writer).
func (s *Store) writeProjections(ctx context.Context, ds []stateDoc) error {
	for len(ds) > 0 {
		n := min(len(ds), projBatch)
		if err := s.writeSomeProjections(ctx, ds[:n]); err != nil {
			return err
		}
		ds = ds[n:]
	}
	return nil
}

func (s *Store) writeSomeProjections(ctx context.Context, ds []stateDoc) error {
	models := make([]mongo.WriteModel, 0, len(ds))
	for _, d := range ds {
		models = append(models, mongo.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: d.Username}}).SetReplacement(d).SetUpsert(true))
	}
	err := s.projWriter.Write(ctx, models)
	var bwe mongo.BulkWriteException
	if errors.As(err, &bwe) && bwe.WriteConcernError == nil {
		for _, we := range bwe.WriteErrors {
			if !mongo.IsDuplicateKeyError(we) {
				return wrap("write player projection", err)
			}
		}
		return nil // two first versions at once: the other wrote it
	}
	return wrap("write player projection", err)
}

// committed finishes Commit after the insert of d (st) answered err.
func (s *Store) committed(ctx context.Context, st rating.PlayerState, d stateDoc, err error) error {
	d, err = s.stored(ctx, st, d, err)
	if err != nil {
		return err
	}
	return s.project(ctx, d, d.Version-1)
}

// stored is the state stored at st's version after the insert of d (st)
// answered err: d, or the same state already there (a retry);
// ErrVersionTaken when another operation's is.
func (s *Store) stored(ctx context.Context, st rating.PlayerState, d stateDoc, err error) (stateDoc, error) {
	if err != nil && !mongo.IsDuplicateKeyError(err) {
		return stateDoc{}, wrap("commit player", err)
	}
	if err != nil {
		var got stateDoc
		if err := s.states.FindOne(ctx, bson.D{{Key: "_id", Value: d.ID}}).Decode(&got); err != nil {
			return stateDoc{}, wrap("read player version", err)
		}
		if got.Op != st.Op {
			return stateDoc{}, fmt.Errorf("player %s version %d is operation %q's, not %q's: %w", st.Username, st.Version, got.Op, st.Op, rating.ErrVersionTaken)
		}
		d = got
	}
	return d, nil
}

// project writes d as the player's projection unless known (the version
// the projection showed when read, or, from Commit, the version before d,
// without a read) is already d's. Two writers may cross and leave an older
// version there: it is a hint, and Player repairs it when it reads the
// player. It goes with concurrent callers' (projectAll), so that many
// readers repairing at once send a few commands, not one each.
func (s *Store) project(ctx context.Context, d stateDoc, known int64) error {
	if known >= d.Version {
		return nil
	}
	return s.projectAll(ctx, []stateDoc{d})
}

// Latest implements rating.Store: the projection, one read of a
// collection of players (not of versions).
func (s *Store) Latest(ctx context.Context, username string) (rating.PlayerState, error) {
	d, err := s.projection(ctx, username)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return rating.PlayerState{}, fmt.Errorf("player %s: %w", username, rating.ErrNotFound)
	}
	if err != nil {
		return rating.PlayerState{}, wrap("read player", err)
	}
	return d.state(), nil
}

// projection reads the player's projection: from the cache when kept
// (SoleWriter), else one read by _id, or the one this Store holds back
// when later (DeferProjections); mongo.ErrNoDocuments when none.
func (s *Store) projection(ctx context.Context, username string) (stateDoc, error) {
	if s.cache != nil {
		if err := s.cache.settle(ctx, s.players); err != nil {
			return stateDoc{}, err
		}
		if d, ok := s.cache.get(username); ok {
			return d, nil
		}
		return stateDoc{}, mongo.ErrNoDocuments
	}
	var d stateDoc
	err := s.players.FindOne(ctx, bson.D{{Key: "_id", Value: username}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		if p, ok := s.later.get(username); ok {
			return p, nil
		}
	}
	if err != nil {
		return d, err
	}
	return s.later.newer(d), nil
}

// fewByID is how many players LatestOf reads one by one (concurrently):
// FerretDB v1 pushes down a find by _id alone, but scans the whole
// collection for an $in (BenchmarkLatestOfTwo, 20,000 players: 1.48 s for
// the $in, 0.75 ms for two reads). More names (an import's batch, the
// integrity scan's) keep one $in: one command, an index lookup on
// MongoDB; on FerretDB it beats a read each only when the names are a
// fair share of all players, which was not measured here.
const fewByID = 4

// LatestOf implements rating.Store: the projections, one read each for a
// few players, else one query.
func (s *Store) LatestOf(ctx context.Context, usernames []string) ([]rating.PlayerState, error) {
	if len(usernames) == 0 {
		return nil, nil
	}
	if s.cache != nil {
		if err := s.cache.settle(ctx, s.players); err != nil {
			return nil, err
		}
		return s.cache.latestOf(usernames), nil
	}
	if len(usernames) <= fewByID {
		return s.latestByID(ctx, usernames)
	}
	return s.latestIn(ctx, usernames)
}

// latestIn is LatestOf in one query ($in on _id), sorted by name.
func (s *Store) latestIn(ctx context.Context, usernames []string) ([]rating.PlayerState, error) {
	cur, err := s.players.Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: usernames}}}}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, wrap("read players", err)
	}
	var docs []stateDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("read players", err)
	}
	out := make([]rating.PlayerState, len(docs), len(usernames))
	seen := make(map[string]bool, len(docs))
	for i, d := range docs {
		out[i] = s.later.newer(d).state()
		seen[d.Username] = true
	}
	for _, n := range usernames {
		if p, ok := s.later.get(n); ok && !seen[n] {
			out = append(out, p.state())
		}
	}
	return byName(out), nil
}

// latestByID is LatestOf, one read by _id per player, sorted by name.
func (s *Store) latestByID(ctx context.Context, usernames []string) ([]rating.PlayerState, error) {
	got := make([]*rating.PlayerState, len(usernames))
	errs := make([]error, len(usernames))
	var wg sync.WaitGroup
	for i, n := range usernames {
		wg.Go(func() {
			st, err := s.Latest(ctx, n)
			switch {
			case err == nil:
				got[i] = &st
			case !errors.Is(err, rating.ErrNotFound):
				errs[i] = err
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := make([]rating.PlayerState, 0, len(usernames))
	for _, st := range got {
		if st != nil {
			out = append(out, *st)
		}
	}
	return byName(out), nil
}

// byName sorts states by username, once each: LatestOf's order.
func byName(sts []rating.PlayerState) []rating.PlayerState {
	slices.SortFunc(sts, func(a, b rating.PlayerState) int { return strings.Compare(a.Username, b.Username) })
	return slices.CompactFunc(sts, func(a, b rating.PlayerState) bool { return a.Username == b.Username })
}

// Player implements rating.Store: from the projection's version, the next
// versions are probed by _id until one is missing (versions have no gaps).
func (s *Store) Player(ctx context.Context, username string) (rating.PlayerState, error) {
	known := int64(-1)
	d, err := s.projection(ctx, username)
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		// No projection yet: the first version, if any.
		err = s.states.FindOne(ctx, bson.D{{Key: "_id", Value: StateID(username, 0)}}).Decode(&d)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return rating.PlayerState{}, fmt.Errorf("player %s: %w", username, rating.ErrNotFound)
		}
		if err != nil {
			return rating.PlayerState{}, wrap("read player", err)
		}
	case err != nil:
		return rating.PlayerState{}, wrap("read player", err)
	default:
		known = d.Version
	}
	for {
		var next stateDoc
		err := s.states.FindOne(ctx, bson.D{{Key: "_id", Value: StateID(username, d.Version+1)}}).Decode(&next)
		if errors.Is(err, mongo.ErrNoDocuments) {
			break
		}
		if err != nil {
			return rating.PlayerState{}, wrap("read player", err)
		}
		d = next
	}
	if d.Version > known {
		if err := s.project(ctx, d, known); err != nil {
			return rating.PlayerState{}, err
		}
	}
	return d.state(), nil
}

// AppendEntry implements rating.Store.
func (s *Store) AppendEntry(ctx context.Context, e rating.LedgerEntry) error {
	return s.appended(ctx, e, s.insLog.Insert(ctx, toEntryDoc(e)))
}

// AppendEntries implements rating.BatchStore: the entries' inserts go as
// one.
func (s *Store) AppendEntries(ctx context.Context, es []rating.LedgerEntry) error {
	docs := make([]any, len(es))
	for i, e := range es {
		docs[i] = toEntryDoc(e)
	}
	for i, err := range s.insLog.InsertAll(ctx, docs) {
		if err := s.appended(ctx, es[i], err); err != nil {
			return err
		}
	}
	return nil
}

// appended finishes AppendEntry after the insert of e answered err.
func (s *Store) appended(ctx context.Context, e rating.LedgerEntry, err error) error {
	if err == nil {
		return nil
	}
	if !mongo.IsDuplicateKeyError(err) {
		return wrap("append ledger entry", err)
	}
	var d entryDoc
	if err := s.ledger.FindOne(ctx, bson.D{{Key: "_id", Value: EntryID(e.Username, e.Seq)}}).Decode(&d); err != nil {
		return wrap("read ledger entry", err)
	}
	if d.Hash != e.Hash {
		return fmt.Errorf("%s entry %d: %w", e.Username, e.Seq, rating.ErrLedgerConflict)
	}
	return nil
}

// Ledger implements rating.Store: entry by entry by _id, from the
// player's head (or below before) down.
func (s *Store) Ledger(ctx context.Context, username string, before int64, limit int) ([]rating.LedgerEntry, error) {
	st, err := s.Player(ctx, username)
	if errors.Is(err, rating.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	from := st.Seq
	if before > 0 && before-1 < from {
		from = before - 1
	}
	out := make([]rating.LedgerEntry, 0, min(int64(limit), max(from, 0)))
	for seq := from; seq >= 1 && len(out) < limit; seq-- {
		var d entryDoc
		err := s.ledger.FindOne(ctx, bson.D{{Key: "_id", Value: EntryID(username, seq)}}).Decode(&d)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return nil, fmt.Errorf("ratingdb: %s's ledger has no entry %d below its head %d", username, seq, st.Seq)
		}
		if err != nil {
			return nil, wrap("read ledger", err)
		}
		out = append(out, d.entry())
	}
	return out, nil
}

// Leaderboard implements rating.Store.
func (s *Store) Leaderboard(ctx context.Context, q rating.LeaderQuery) ([]rating.PlayerState, error) {
	if s.cache != nil {
		if err := s.cache.settle(ctx, s.players); err != nil {
			return nil, err
		}
		return s.cache.page(q), nil
	}
	var and bson.A
	if q.MinScore != nil {
		and = append(and, bson.D{{Key: "score", Value: bson.D{{Key: "$gte", Value: *q.MinScore}}}})
	}
	if q.MaxScore != nil {
		and = append(and, bson.D{{Key: "score", Value: bson.D{{Key: "$lte", Value: *q.MaxScore}}}})
	}
	if c := q.After; c != nil {
		and = append(and, bson.D{{Key: "$or", Value: bson.A{
			bson.D{{Key: "score", Value: bson.D{{Key: "$lt", Value: c.Score}}}},
			bson.D{{Key: "score", Value: c.Score}, {Key: "username", Value: bson.D{{Key: "$gt", Value: c.Username}}}},
		}}})
	}
	filter := bson.D{}
	if len(and) > 0 {
		filter = bson.D{{Key: "$and", Value: and}}
	}
	cur, err := s.players.Find(ctx, filter,
		options.Find().SetSort(bson.D{{Key: "score", Value: -1}, {Key: "username", Value: 1}}).SetLimit(int64(q.Limit)))
	if err != nil {
		return nil, wrap("read leaderboard", err)
	}
	var docs []stateDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("read leaderboard", err)
	}
	out := make([]rating.PlayerState, len(docs))
	for i, d := range docs {
		out[i] = d.state()
	}
	return out, nil
}

// wrap keeps the driver error for logs and marks connection trouble as
// an outage (internal/outage), which api shows as 503 without the driver text.
func wrap(op string, err error) error {
	return mongox.Wrap("ratingdb", op, err)
}
