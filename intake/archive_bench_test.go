package intake

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/charset"
	"github.com/weiqi-platform/rank/rating"
)

// BenchmarkArchivePure is the pure work of rating an archive's game, one
// game an iteration, on one goroutine: reading it from a multi-game SGF
// file (as rankctl gen writes them: 9x9, up to 60 moves), judging it
// with the rules engine, its content hash and source id, the formula
// (ladder and Glicko-2) for both players and both ledger entries' hashes.
// No store. Run with -cpu 1; games/CPU-s is the rate of one core
// whatever else the machine runs.
func BenchmarkArchivePure(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 15))
	const n, players = 1000, 100
	var sgf bytes.Buffer
	recs := make([]*games.Record, n)
	for i := range recs {
		r := games.RandomRecord(rng, 9, 10+rng.IntN(51), rng.IntN(4) == 0)
		bl := rng.IntN(players)
		r.Black.Name, r.White.Name = fmt.Sprintf("p%03d", bl), fmt.Sprintf("p%03d", (bl+1+rng.IntN(players-1))%players)
		r.Date = "2024-05-06"
		recs[i] = r
	}
	if err := games.WriteSGF(&sgf, recs...); err != nil {
		b.Fatal(err)
	}
	data := sgf.Bytes()
	a := &Archive{players: map[string]string{}, seen: map[string]bool{}}
	for i := range players {
		a.players[fmt.Sprintf("p%03d", i)] = fmt.Sprintf("p%03d", i)
	}
	states := map[string]rating.PlayerState{}
	sys := rating.Default
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	done := 0
	for done < b.N {
		rs, err := games.ReadRecords(data, games.ReadOptions{Decode: charset.Decode})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rs {
			if done == b.N {
				break
			}
			done++
			g, err := a.judge(ArchiveGame{Record: r, At: r.PlayedAt, Dated: true}, now)
			if err != nil {
				b.Fatal(err)
			}
			in := judgedInput(g)
			w, l := in.Black, in.White
			if in.Winner == rating.SideWhite {
				w, l = l, w
			}
			ws, ls := states[w], states[l]
			if ws.Username == "" {
				ws = rating.NewPlayer(w)
			}
			if ls.Username == "" {
				ls = rating.NewPlayer(l)
			}
			ap, err := sys.Apply(ws.State, ls.State, in.Game)
			if err != nil {
				b.Fatal(err)
			}
			for _, side := range []struct {
				st    *rating.PlayerState
				after rating.State
				delta int
			}{{&ws, ap.Winner, ap.Deltas.Winner}, {&ls, ap.Loser, ap.Deltas.Loser}} {
				e := rating.LedgerEntry{Username: side.st.Username, Seq: side.st.Seq + 1, Cause: rating.CauseGame, CauseID: g.ID,
					SourceID: g.SourceID, ScoreBefore: side.st.Score, ScoreAfter: side.after.Score, Delta: side.delta,
					RankBefore: side.st.Rank().String(), RankAfter: side.after.Rank().String(), Glicko: side.after.Glicko, At: g.PlayedAt, Prev: side.st.Head}
				e.Hash = e.ComputeHash()
				side.st.State, side.st.Seq, side.st.Head = side.after, e.Seq, e.Hash
			}
			states[w], states[l] = ws, ls
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		// The process's CPU (GC included): the rate of one core however
		// loaded the machine is.
		b.ReportMetric(float64(b.N)/cpu, "games/CPU-s")
	}
}
