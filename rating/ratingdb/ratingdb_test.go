package ratingdb_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
	"github.com/weiqi-platform/rank/rating/ratingtest"
)

func TestContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			ratingtest.Run(t, func(t *testing.T) rating.Store {
				s, err := ratingdb.New(context.Background(), testsvc.MongoOf(t, kind))
				if err != nil {
					t.Fatal(err)
				}
				return s
			})
		})
	}
}

// TestNewIsIdempotent: every rankd start calls New on the same database.
func TestNewIsIdempotent(t *testing.T) {
	db := testsvc.Mongo(t)
	for i := range 2 {
		if _, err := ratingdb.New(context.Background(), db); err != nil {
			t.Fatalf("New #%d: %v", i+1, err)
		}
	}
}

// TestBatchWrites: AppendEntries and CommitAll answer per element as
// AppendEntry and Commit would: a retry is no error, a conflict is.
func TestBatchWrites(t *testing.T) {
	ctx := context.Background()
	s, err := ratingdb.New(ctx, testsvc.Mongo(t))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	entry := func(user string, delta int) rating.LedgerEntry {
		e := rating.LedgerEntry{Username: user, Seq: 1, Cause: rating.CauseGame, CauseID: "g1", Delta: delta, At: at}
		e.Hash = e.ComputeHash()
		return e
	}
	es := []rating.LedgerEntry{entry("alice", 5), entry("bob", -5)}
	for i := range 2 { // the second time: a retry
		if err := s.AppendEntries(ctx, es); err != nil {
			t.Fatalf("AppendEntries #%d: %v", i+1, err)
		}
	}
	if err := s.AppendEntries(ctx, []rating.LedgerEntry{entry("carol", 1), entry("bob", 7)}); !errors.Is(err, rating.ErrLedgerConflict) {
		t.Fatalf("another bob entry 1: %v, want ErrLedgerConflict", err)
	}
	sts := []rating.PlayerState{rating.NewPlayer("alice"), rating.NewPlayer("bob")}
	for i := range 2 {
		if err := s.CommitAll(ctx, sts); err != nil {
			t.Fatalf("CommitAll #%d: %v", i+1, err)
		}
	}
	next := func(p rating.PlayerState, op string) rating.PlayerState {
		p.Version, p.Op, p.Seq, p.Score = 1, op, 1, p.Score+5
		return p
	}
	if err := s.CommitAll(ctx, []rating.PlayerState{next(sts[0], "g1"), next(sts[1], "g1")}); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitAll(ctx, []rating.PlayerState{next(sts[0], "g1"), next(sts[1], "g2")}); !errors.Is(err, rating.ErrVersionTaken) {
		t.Fatalf("bob's version 1 by another operation: %v, want ErrVersionTaken", err)
	}
	for i, user := range []string{"alice", "bob"} {
		got, err := s.Player(ctx, user)
		if err != nil || got.Version != 1 || got.Op != "g1" {
			t.Fatalf("%s = %+v, %v; want version 1 by g1", user, got, err)
		}
		l, err := s.Ledger(ctx, user, 0, 10)
		if err != nil || len(l) != 1 || l[0].Hash != es[i].Hash {
			t.Fatalf("%s's ledger = %+v, %v; want the one entry", user, l, err)
		}
	}
}
