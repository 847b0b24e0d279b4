package jobstest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/jobs"
)

// Memory is a jobs.Runs in memory.
type Memory struct {
	mu   sync.Mutex
	runs map[string]time.Time
}

var _ jobs.Runs = (*Memory)(nil)

// NewMemory returns an empty Memory.
func NewMemory() *Memory { return &Memory{runs: map[string]time.Time{}} }

// Finished implements jobs.Runs.
func (m *Memory) Finished(ctx context.Context, key string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.runs[key]
	return ok, nil
}

// MarkFinished implements jobs.Runs.
func (m *Memory) MarkFinished(ctx context.Context, key string, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.runs[key]; !ok {
		m.runs[key] = at
	}
	return nil
}

// Run is the contract every jobs.Runs meets.
func Run(t *testing.T, newRuns func(t *testing.T) jobs.Runs) {
	ctx := context.Background()
	at := time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC)
	t.Run("UnknownIsNotFinished", func(t *testing.T) {
		r := newRuns(t)
		if ok, err := r.Finished(ctx, "expire@run:a"); err != nil || ok {
			t.Fatalf("Finished of an unknown key = %v, %v", ok, err)
		}
	})
	t.Run("MarkedOnceAndAgain", func(t *testing.T) {
		r := newRuns(t)
		for range 2 {
			if err := r.MarkFinished(ctx, "expire@run:a", at); err != nil {
				t.Fatalf("MarkFinished: %v", err)
			}
		}
		if ok, err := r.Finished(ctx, "expire@run:a"); err != nil || !ok {
			t.Fatalf("Finished after MarkFinished = %v, %v", ok, err)
		}
		if ok, err := r.Finished(ctx, "expire@run:b"); err != nil || ok {
			t.Fatalf("another key is finished: %v, %v", ok, err)
		}
	})
}
