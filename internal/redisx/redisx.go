package redisx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/outage"
)

// Unavailable reports whether err means Redis could not be reached or
// cannot serve now: a network error, a closed client or pool, a timeout,
// a connection cut mid-reply, or a server (or cluster) that says it is
// loading, failing over or down.
func Unavailable(err error) bool {
	if err == nil || errors.Is(err, redis.Nil) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, redis.ErrClosed) || errors.Is(err, redis.ErrPoolTimeout) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var re redis.Error
	if errors.As(err, &re) {
		msg := re.Error()
		for _, p := range busyPrefixes {
			if strings.HasPrefix(msg, p) {
				return true
			}
		}
	}
	return false
}

// busyPrefixes are the replies of a server that is up but cannot serve
// yet: it is loading its data, a cluster is down or resharding, a replica
// lost its primary.
var busyPrefixes = []string{"LOADING", "CLUSTERDOWN", "TRYAGAIN", "MASTERDOWN", "READONLY"}

// Wrap names the adapter and operation and marks connection trouble as an
// outage of Redis; other errors keep their text. It returns nil for nil.
func Wrap(adapter, op string, err error) error {
	if err == nil {
		return nil
	}
	if Unavailable(err) {
		return outage.Wrap("redis", adapter+": "+op, err)
	}
	return fmt.Errorf("%s: %s: %w", adapter, op, err)
}
