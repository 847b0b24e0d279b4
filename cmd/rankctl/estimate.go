package main

import (
	"flag"

	"github.com/weiqi-platform/rank/games"
)

// estimateFlags are score's flags for dead stones proposed by the engine
// (games.EstimateDead) instead of those the record agreed.
type estimateFlags struct {
	on       bool
	playouts int
	seed     uint64
}

func (f *estimateFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.on, "estimate-dead", false, "let the engine propose the dead stones (pass-alive analysis and random playouts) instead of the file's")
	fs.IntVar(&f.playouts, "playouts", games.DefaultPlayouts, "random playouts for --estimate-dead")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed for --estimate-dead: the same seed gives the same proposal")
}

// dead proposes the dead stones of the record's final position. A record
// that does not replay gets none here: score then reports its illegal
// move as for any other record.
func (f *estimateFlags) dead(r *games.Record) []games.Point {
	g, err := games.Replay(r)
	if err != nil {
		return nil
	}
	return games.EstimateDead(g.Board(), games.EstimateOptions{Playouts: f.playouts, Seed: f.seed}).Dead
}
