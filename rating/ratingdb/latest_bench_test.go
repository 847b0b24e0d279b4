package ratingdb

import (
	"context"
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/embedded"
	"github.com/weiqi-platform/rank/rating"
)

// BenchmarkLatestOfTwo reads two players' projections among 20,000 on
// the embedded store, as a game's first rating after a restart does: one
// $in query (what LatestOf did for any number) against a read by _id
// each (what it does for a few), and from a sole writer's memory; and a
// leaderboard page of the store and of the sole writer, whose start reads
// every projection.
func BenchmarkLatestOfTwo(b *testing.B) {
	ctx := context.Background()
	// A store of its own, its indexes tuned as rankd's are.
	f, err := embedded.StartFerret(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Stop()
	client, err := mongo.Connect(options.Client().ApplyURI(f.URI))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = client.Disconnect(ctx) }()
	s, err := New(ctx, client.Database("bench"))
	if err != nil {
		b.Fatal(err)
	}
	const players = 20_000
	docs := make([]any, 0, 1000)
	for i := range players {
		d := toStateDoc(rating.NewPlayer(fmt.Sprintf("p%05d", i)))
		d.ID, d.K = d.Username, "" // the projection's form
		docs = append(docs, d)
		if len(docs) == cap(docs) {
			if _, err := s.players.InsertMany(ctx, docs); err != nil {
				b.Fatal(err)
			}
			docs = docs[:0]
		}
	}
	if err := f.TuneNow("bench"); err != nil {
		b.Fatal(err)
	}
	var sole *Store
	b.Run("sole_writer_start", func(b *testing.B) { // reads every projection
		b.ReportAllocs()
		for b.Loop() {
			if sole, err = New(ctx, client.Database("bench"), SoleWriter()); err != nil {
				b.Fatal(err)
			}
		}
	})
	names := []string{"p00017", "p19990"}
	for _, bc := range []struct {
		name string
		read func(context.Context, []string) ([]rating.PlayerState, error)
	}{{"in_query", s.latestIn}, {"by_id", s.latestByID}, {"leaderboard", func(ctx context.Context, _ []string) ([]rating.PlayerState, error) {
		return s.Leaderboard(ctx, rating.LeaderQuery{Limit: 2})
	}}, {"leaderboard_sole_writer", func(ctx context.Context, _ []string) ([]rating.PlayerState, error) {
		return sole.Leaderboard(ctx, rating.LeaderQuery{Limit: 2})
	}}, {"latest_sole_writer", sole.LatestOf}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				got, err := bc.read(ctx, names)
				if err != nil || len(got) != 2 {
					b.Fatalf("%d states, %v", len(got), err)
				}
			}
		})
	}
}
