package schooltest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/schools"
	"github.com/weiqi-platform/rank/schools/schooltest"
)

// TestMemory holds the in-memory store to the contract schooldb passes.
func TestMemory(t *testing.T) {
	schooltest.Run(t, func(t *testing.T) schools.Store { return schooltest.NewMemory() })
}

func TestMemoryFail(t *testing.T) {
	m := schooltest.NewMemory()
	m.Fail = func(method string) error {
		if method == "PutClass" {
			return outage.Wrap("memory", "test", errors.New("down"))
		}
		return nil
	}
	if err := m.PutClass(context.Background(), schooltest.NewClass("c1", "s1")); !outage.Is(err) {
		t.Fatalf("PutClass during the outage: %v", err)
	}
	if _, err := m.Class(context.Background(), "c1"); !errors.Is(err, schools.ErrNotFound) {
		t.Fatalf("a failed put stored something: %v", err)
	}
}
