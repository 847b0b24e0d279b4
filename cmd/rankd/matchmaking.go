package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/weiqi-platform/rank/internal/mmports"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/matchmaking/redisqueue"
)

// matchParts are the matchmaking service of a Main and its pairing loop.
type matchParts struct {
	Matchmaking *matchmaking.Service

	stopPairing context.CancelFunc
	pairingDone chan struct{}
}

// openMatchmaking wires matchmaking to the Redis queue (which also keeps
// who met whom) and to the games intake, where pairings become pending
// games.
func (m *Main) openMatchmaking() error {
	cfg := m.Config
	q := redisqueue.New(m.redis.Client)
	svc, err := matchmaking.New(q, mmports.Games{Intake: m.Intake, TTL: cfg.GameTTL}, q, matchmaking.Config{
		Policy:           cfg.matchPolicy(),
		MaxAge:           cfg.TicketMaxAge,
		HeartbeatTimeout: cfg.TicketHeartbeat,
		Now:              m.now,
		Metrics:          m.Metrics,
	})
	if err != nil {
		return fmt.Errorf("matchmaking: %w", err)
	}
	m.Matchmaking = svc
	return nil
}

// startPairing runs the pairing passes in the background. Every replica
// may run them: a lease per pool lets one pass at a time.
func (m *Main) startPairing() {
	if m.Config.MatchEvery <= 0 {
		m.Logger.Info("matchmaking passes off on this replica", "match_every", m.Config.MatchEvery)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.stopPairing, m.pairingDone = cancel, make(chan struct{})
	go func() {
		defer close(m.pairingDone)
		m.Matchmaking.Run(ctx, m.Config.MatchEvery, func(err error) {
			m.Logger.Warn("matchmaking pass", "err", err)
		})
	}()
}

// stopPairingNow stops the passes and waits for the one in progress; its
// leases are given up so that another replica takes over at once.
func (m *Main) stopPairingNow() {
	if m.stopPairing == nil {
		return
	}
	m.stopPairing()
	<-m.pairingDone
	m.stopPairing = nil
}

// Expire is the expire job's work, in one place: pending games whose time
// is up, and matchmaking tickets whose players stopped waiting.
func (m *Main) Expire(ctx context.Context) error {
	games, gerr := m.Intake.ExpirePending(ctx)
	tickets, terr := m.Matchmaking.Expire(ctx)
	if games > 0 || tickets > 0 {
		m.Logger.Info("expired", "pending_games", games, "tickets", tickets)
	}
	return errors.Join(gerr, terr)
}
