package mongox

import (
	"context"
	"sort"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Marker stands for one piece of work in flight, by id.
type Marker struct {
	ID string    `bson:"_id"`
	At time.Time `bson:"at"`
}

// Markers reads every marker of c, oldest first (then by id). Sorted here,
// not by the store: the collection holds only the work in flight, and
// FerretDB v1 would sort in Go anyway.
func Markers(ctx context.Context, c *mongo.Collection) ([]Marker, error) {
	cur, err := c.Find(ctx, bson.D{})
	if err != nil {
		return nil, err
	}
	var marks []Marker
	if err := cur.All(ctx, &marks); err != nil {
		return nil, err
	}
	sort.Slice(marks, func(i, j int) bool {
		if !marks[i].At.Equal(marks[j].At) {
			return marks[i].At.Before(marks[j].At)
		}
		return marks[i].ID < marks[j].ID
	})
	return marks, nil
}

// Mark inserts the marker; one already there is no error.
func Mark(ctx context.Context, c *mongo.Collection, id string, at time.Time) error {
	_, err := c.InsertOne(ctx, Marker{ID: id, At: at.UTC()})
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return err
}

// Mark is mongox.Mark through the inserter: the marker is inserted with
// the other callers' at the same time.
func (b *Inserter) Mark(ctx context.Context, id string, at time.Time) error {
	err := b.Insert(ctx, Marker{ID: id, At: at.UTC()})
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return err
}
