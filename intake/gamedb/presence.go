package gamedb

import (
	"context"
	"sort"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/intake"
)

// PresenceColl holds one document per game and player who checked in.
const PresenceColl = "game_presence"

// Presence is a intake.Presence on a Mongo database: a check-in is an
// insert under "<game>#<player>", so repeating it is harmless. Only exam
// grading lists a game's check-ins (a small query, indexed by game).
type Presence struct{ c *mongo.Collection }

var _ intake.Presence = (*Presence)(nil)

// NewPresence returns a Presence on db after making sure its index exists.
func NewPresence(ctx context.Context, db *mongo.Database) (*Presence, error) {
	p := &Presence{c: db.Collection(PresenceColl)}
	if _, err := p.c.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "game_id", Value: 1}}, Options: options.Index().SetName("game")}); err != nil {
		return nil, wrap("create presence index", err)
	}
	return p, nil
}

type presenceDoc struct {
	ID     string    `bson:"_id"`
	GameID string    `bson:"game_id"`
	Player string    `bson:"player"`
	At     time.Time `bson:"at"`
}

// CheckIn implements intake.Presence.
func (p *Presence) CheckIn(ctx context.Context, gameID, player string, at time.Time) error {
	_, err := p.c.InsertOne(ctx, presenceDoc{ID: gameID + "#" + player, GameID: gameID, Player: player, At: at.UTC()})
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return wrap("check in", err)
}

// Present implements intake.Presence.
func (p *Presence) Present(ctx context.Context, gameID string) ([]string, error) {
	cur, err := p.c.Find(ctx, bson.D{{Key: "game_id", Value: gameID}})
	if err != nil {
		return nil, wrap("read presence", err)
	}
	var docs []presenceDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, wrap("read presence", err)
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Player
	}
	sort.Strings(out)
	return out, nil
}
