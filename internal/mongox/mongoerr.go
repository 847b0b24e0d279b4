package mongox

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"github.com/weiqi-platform/rank/internal/outage"
)

// Unavailable reports whether err means the store could not be reached
// (network, timeout, no server selected, client closed).
func Unavailable(err error) bool {
	var sel topology.ServerSelectionError
	return mongo.IsNetworkError(err) || mongo.IsTimeout(err) || errors.As(err, &sel) ||
		errors.Is(err, mongo.ErrClientDisconnected) || errors.Is(err, context.DeadlineExceeded)
}

// Wrap names the adapter and operation, keeps the driver error in the
// chain for the log, and marks connection trouble as an outage of the
// document store (which api shows as 503 without the driver text). It
// returns nil for a nil err.
func Wrap(adapter, op string, err error) error {
	if err == nil {
		return nil
	}
	if Unavailable(err) {
		return outage.Wrap("mongo", adapter+": "+op, err)
	}
	return fmt.Errorf("%s: %s: %w", adapter, op, err)
}
