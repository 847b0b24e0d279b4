package ratingdb

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/btree"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/rating"
)

// projCache is, for a sole writer (SoleWriter), every player's projection:
// read once at New, then kept as this Store writes them. On FerretDB v1
// with SQLite any query but one by _id decodes the whole collection in Go
// (75–115 µs a player): a leaderboard page at 20,000 players took 1.6 s,
// which the cache answers from memory (BenchmarkLatestOfTwo).
type projCache struct {
	mu    sync.RWMutex
	by    map[string]stateDoc
	order *btree.BTreeG[leaderKey] // by score, highest first, then name
	// unsure are the players whose projection write failed: the store may
	// hold it or not, so they are read again before they are served.
	unsure map[string]bool
}

type leaderKey struct {
	score int
	name  string
}

func leaderLess(a, b leaderKey) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.name < b.name
}

// loadProjections reads every projection of players into a fresh cache.
func loadProjections(ctx context.Context, players *mongo.Collection) (*projCache, error) {
	c := &projCache{by: map[string]stateDoc{}, order: btree.NewG(32, leaderLess), unsure: map[string]bool{}}
	cur, err := players.Find(ctx, bson.D{})
	if err != nil {
		return nil, wrap("read player projections", err)
	}
	defer func() { _ = cur.Close(ctx) }()
	for cur.Next(ctx) {
		var d stateDoc
		if err := cur.Decode(&d); err != nil {
			return nil, wrap("read player projections", err)
		}
		c.put(d)
	}
	return c, wrap("read player projections", cur.Err())
}

// put keeps d as its player's projection unless a later version is kept.
func (c *projCache) put(d stateDoc) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(d)
}

func (c *projCache) putLocked(d stateDoc) {
	d.ID, d.K = d.Username, ""
	d.UpdatedAt = time.UnixMilli(d.UpdatedAt.UnixMilli()).UTC() // as stored
	if old, ok := c.by[d.Username]; ok {
		if old.Version > d.Version {
			return
		}
		c.order.Delete(leaderKey{old.Score, old.Username})
	}
	c.by[d.Username] = d
	c.order.ReplaceOrInsert(leaderKey{d.Score, d.Username})
}

// wrote records the outcome of writing these projections: kept when
// written, unsure (read again before served) when the write failed.
func (c *projCache) wrote(ds []stateDoc, err error) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range ds {
		if err != nil {
			c.unsure[d.Username] = true
			continue
		}
		c.putLocked(d)
	}
}

// settle reads again the players whose projection write failed; those it
// cannot read stay unsure.
func (c *projCache) settle(ctx context.Context, players *mongo.Collection) error {
	c.mu.RLock()
	n := len(c.unsure)
	c.mu.RUnlock()
	if n == 0 {
		return nil
	}
	c.mu.Lock()
	names := make([]string, 0, len(c.unsure))
	for name := range c.unsure {
		names = append(names, name)
	}
	c.mu.Unlock()
	for _, name := range names {
		var d stateDoc
		err := players.FindOne(ctx, bson.D{{Key: "_id", Value: name}}).Decode(&d)
		if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
			return wrap("read player projection", err)
		}
		c.mu.Lock()
		if err == nil {
			c.putLocked(d)
		} else if old, ok := c.by[name]; ok { // none there: none kept
			c.order.Delete(leaderKey{old.Score, old.Username})
			delete(c.by, name)
		}
		delete(c.unsure, name)
		c.mu.Unlock()
	}
	return nil
}

func (c *projCache) get(name string) (stateDoc, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d, ok := c.by[name]
	return d, ok
}

// page is Leaderboard from memory (a limit of 0: no limit, as the
// store's).
func (c *projCache) page(q rating.LeaderQuery) []rating.PlayerState {
	c.mu.RLock()
	defer c.mu.RUnlock()
	from := leaderKey{score: int(^uint(0) >> 1)}
	if q.MaxScore != nil {
		from = leaderKey{score: *q.MaxScore}
	}
	after := q.After
	if after != nil && !leaderLess(leaderKey{after.Score, after.Username}, from) {
		from = leaderKey{after.Score, after.Username}
	}
	var out []rating.PlayerState
	c.order.AscendGreaterOrEqual(from, func(k leaderKey) bool {
		if after != nil && k == (leaderKey{after.Score, after.Username}) {
			return true // the cursor's row is the previous page's
		}
		if q.MinScore != nil && k.score < *q.MinScore || q.Limit > 0 && len(out) >= q.Limit {
			return false
		}
		out = append(out, c.by[k.name].state())
		return true
	})
	return out
}

// latestOf is LatestOf from memory, sorted by name.
func (c *projCache) latestOf(usernames []string) []rating.PlayerState {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]rating.PlayerState, 0, len(usernames))
	for _, n := range usernames {
		if d, ok := c.by[n]; ok {
			out = append(out, d.state())
		}
	}
	return byName(out)
}
