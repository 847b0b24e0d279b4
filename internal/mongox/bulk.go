package mongox

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// InsertMany inserts the documents in one unordered InsertMany (the
// driver splits only what exceeds a command's limits), now and on the
// caller's context, and returns each one's error as Inserter.InsertAll
// does. For bulk writers (an archive's import), whose batches are larger
// than the Inserter's: on the embedded store one command is one SQLite
// transaction, so one fsync for the whole batch.
func InsertMany(ctx context.Context, c *mongo.Collection, docs []any) []error {
	if len(docs) == 0 {
		return nil
	}
	_, err := c.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	return splitErrors(err, len(docs))
}
