package redisqueue_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/matchmaking/redisqueue"
)

var benchSeq atomic.Int64

// benchRedis is a database on the real test server that is emptied in the
// background when the benchmark ends: a benchmark leaves hundreds of
// thousands of keys, and the next test to get this database would
// otherwise flush them synchronously, stalling the shared server.
func benchRedis(b *testing.B) *redis.Client {
	c := testsvc.Redis(b)
	b.Cleanup(func() { _ = c.FlushDBAsync(context.Background()).Err() })
	return c
}

// BenchmarkEnqueueAndPair is the queue's throughput on the real
// redis-server: b.N players enqueue from 16 goroutines while one replica
// passes over the pool in a loop, until every ticket is in a game. Levels
// are all within the first window (0..50), so every ticket has a partner at
// once: this measures the queue, not the wait (see the policy benchmarks
// and matchsim for that).
func BenchmarkEnqueueAndPair(b *testing.B) {
	q := redisqueue.New(benchRedis(b))
	g := newGames()
	s, err := matchmaking.New(q, g, q, matchmaking.Config{Holder: "bench", NewID: newIDs("b")})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run := benchSeq.Add(1)
	want := int64(b.N &^ 1)
	b.ReportAllocs()
	b.ResetTimer()

	var paired atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for paired.Load() < want {
			rep, err := s.Pass(ctx, pool.Key())
			if err != nil {
				b.Error(err)
				return
			}
			paired.Add(2 * int64(rep.Paired))
			if rep.Waiting < 2 {
				time.Sleep(time.Millisecond) // nothing to pair yet
			}
		}
	}()
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(run), uint64(w)))
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				req := request(fmt.Sprintf("bench%d-%d", run, i), int(i%51))
				req.Level.Rating += r.Float64()
				if _, err := s.Enqueue(ctx, req); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	<-done
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tickets/s")
}

// BenchmarkPassRedis is one full pass over a pool of waiting players in
// the real redis-server: read the pool, run the policy, claim the pairs,
// make the games.
//
// "fresh" is the worst case: n players arrive at once and nearly all pair
// in one pass. "steady" is the usual one: n players wait who cannot pair
// (each accepts only its own exact score), and 100 newcomers arrive
// between passes and pair among themselves.
func BenchmarkPassRedis(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("fresh/players=%d", n), func(b *testing.B) { benchFreshPass(b, n) })
	}
	b.Run("steady/players=10000", func(b *testing.B) { benchSteadyPass(b, 10_000, 100) })
}

func benchService(b *testing.B, clk *clock, g *gameRec) (*matchmaking.Service, *redisqueue.Queue) {
	q := redisqueue.New(benchRedis(b))
	s, err := matchmaking.New(q, g, q, matchmaking.Config{
		Holder: "bench", Now: clk.Now, NewID: newIDs("p"),
		MaxAge: 24 * time.Hour, HeartbeatTimeout: 24 * time.Hour,
	})
	if err != nil {
		b.Fatal(err)
	}
	return s, q
}

func benchFreshPass(b *testing.B, n int) {
	g, clk := newGames(), newClock()
	s, q := benchService(b, clk, g)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	paired := 0
	for b.Loop() {
		b.StopTimer()
		g.finishAll()
		clk.Advance(time.Hour) // past the cooldown of the last round
		run := benchSeq.Add(1)
		for j := range n {
			if _, err := s.Enqueue(ctx, request(fmt.Sprintf("pass%d-%d", run, j), int(r.NormFloat64()*400))); err != nil {
				b.Fatal(err)
			}
		}
		clk.Advance(10 * time.Second)
		b.StartTimer()
		rep, err := s.Pass(ctx, pool.Key())
		if err != nil {
			b.Fatal(err)
		}
		paired = rep.Paired
		b.StopTimer()
		// Clear the leftovers for the next round.
		w, _ := q.Waiting(ctx, pool.Key())
		for _, t := range w {
			if _, err := q.End(ctx, t.Ref(), true, clk.Now(), matchmaking.Cutoffs{}, time.Minute); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(2*paired)/float64(n), "paired/op")
}

func benchSteadyPass(b *testing.B, n, arrivals int) {
	g, clk := newGames(), newClock()
	s, _ := benchService(b, clk, g)
	ctx := context.Background()
	for j := range n {
		req := request(fmt.Sprintf("waiting%d", j), j*10)
		req.Range = &matchmaking.ScoreRange{Min: j * 10, Max: j * 10}
		if _, err := s.Enqueue(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	paired := 0
	for b.Loop() {
		b.StopTimer()
		clk.Advance(time.Second)
		run := benchSeq.Add(1)
		for j := range arrivals {
			if _, err := s.Enqueue(ctx, request(fmt.Sprintf("new%d-%d", run, j), -1000-j/2)); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		rep, err := s.Pass(ctx, pool.Key())
		if err != nil {
			b.Fatal(err)
		}
		paired += rep.Paired
	}
	b.ReportMetric(float64(paired)/float64(b.N), "pairs/op")
}
