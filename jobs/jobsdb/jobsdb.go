package jobsdb

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/internal/mongox"
	"github.com/weiqi-platform/rank/jobs"
)

// Collection is where finished firings are kept.
const Collection = "job_runs"

// Runs is a jobs.Runs on a Mongo database.
type Runs struct{ c *mongo.Collection }

var _ jobs.Runs = (*Runs)(nil)

// New returns the Runs of db (the _id index is all it needs).
func New(db *mongo.Database) *Runs { return &Runs{c: db.Collection(Collection)} }

type runDoc struct {
	ID string    `bson:"_id"`
	At time.Time `bson:"at"`
}

// Finished implements jobs.Runs.
func (r *Runs) Finished(ctx context.Context, key string) (bool, error) {
	err := r.c.FindOne(ctx, bson.D{{Key: "_id", Value: key}}).Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, mongox.Wrap("jobsdb", "read run", err)
}

// MarkFinished implements jobs.Runs.
func (r *Runs) MarkFinished(ctx context.Context, key string, at time.Time) error {
	_, err := r.c.InsertOne(ctx, runDoc{ID: key, At: at.UTC().Truncate(time.Millisecond)})
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return mongox.Wrap("jobsdb", "mark run", err)
}
