package reviewstest_test

import (
	"testing"

	"github.com/weiqi-platform/rank/reviews"
	"github.com/weiqi-platform/rank/reviews/reviewstest"
)

// TestMemory holds the in-memory store to the contract reviewsdb passes.
func TestMemory(t *testing.T) {
	reviewstest.Run(t, func(*testing.T) reviews.Store { return reviewstest.NewMemory() })
}
