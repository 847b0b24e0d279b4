package ratingdb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

var bg = context.Background()

// fixedClock: ledger times are part of the hash.
func fixedClock() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }

func intp(n int) *int { return &n }

func game(id, black, white string, winner rating.Side) rating.GameInput {
	g := rating.GameInput{ID: id, Black: black, White: white, Winner: winner, Game: rating.Game{Moves: 150}, SourceID: "src-" + id, Actor: "go-server", At: fixedClock()}
	if winner == rating.SideNone {
		g.Game.Outcome = rating.Draw
	}
	return g
}

// history makes a store with games, an adjustment, a certification and
// an annulment, and returns the service and the database under it.
func history(t *testing.T) (*rating.Service, *mongo.Database) {
	t.Helper()
	db := testsvc.Mongo(t)
	store, err := ratingdb.New(bg, db)
	if err != nil {
		t.Fatal(err)
	}
	svc := rating.NewService(store, rating.ServiceConfig{Now: fixedClock})
	for _, g := range []rating.GameInput{
		game("g1", "alice", "bob", rating.SideBlack), game("g2", "bob", "carol", rating.SideWhite),
		game("g3", "carol", "alice", rating.SideNone), game("g4", "alice", "carol", rating.SideWhite),
	} {
		if _, err := svc.Apply(bg, g); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []rating.ChangeInput{
		{Key: "a1", Player: "bob", Cause: rating.CauseAdjustment, Delta: intp(-30), Reason: "sandbagging", Actor: "root"},
		{Key: "x1", Player: "alice", Cause: rating.CauseExam, CauseID: "s/alice", Certify: ranks.MustParse("1k"), Reason: "passed", Actor: "system:exams"},
	} {
		if _, err := svc.Change(bg, c); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Annul(bg, rating.AnnulInput{GameID: "g2", Actor: "root", Reason: "wrong result"}); err != nil {
		t.Fatal(err)
	}
	return svc, db
}

// TestVerifyFindsTampering: verification on this store: a clean store verifies; each edit made behind
// the service's back, through the driver, is reported, and names the
// player and the check that failed.
func TestVerifyFindsTampering(t *testing.T) {
	svc, _ := history(t)
	rep, err := svc.VerifyAll(bg, "clean")
	if err != nil || !rep.OK() || rep.Players != 3 || rep.Games != 4 || rep.Entries != 12 {
		t.Fatalf("clean store: %+v, %v", rep, err)
	}
	set := func(coll, id string, fields bson.D) func(*mongo.Database) error {
		return func(db *mongo.Database) error {
			_, err := db.Collection(coll).UpdateOne(bg, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: fields}})
			return err
		}
	}
	setInText := func(id string, fields map[string]any) func(*mongo.Database) error {
		return func(db *mongo.Database) error { return editText(db, id, fields) }
	}
	del := func(coll, id string) func(*mongo.Database) error {
		return func(db *mongo.Database) error {
			_, err := db.Collection(coll).DeleteOne(bg, bson.D{{Key: "_id", Value: id}})
			return err
		}
	}
	for _, tc := range []struct {
		name   string
		tamper func(db *mongo.Database) error
		want   []string // "player check" that must be reported
	}{
		{"an entry's delta", setInText(ratingdb.EntryID("alice", 1), map[string]any{"delta": 50, "score_after": 50}), []string{"alice chain", "alice score"}},
		{"an entry's reason", setInText(ratingdb.EntryID("bob", 3), map[string]any{"reason": "routine"}), []string{"bob chain"}},
		{"an entry deleted", del(ratingdb.Log, ratingdb.EntryID("carol", 1)), []string{"carol chain", "bob formula"}}, // bob's g2 lost its pair
		{"the last entry deleted", del(ratingdb.Log, ratingdb.EntryID("alice", 4)), []string{"alice chain"}},
		{"a score in the latest-state record", set(ratingdb.Players, "bob", bson.D{{Key: "score", Value: 900}}), []string{"bob state"}},
		{"a score in the stored version", func(db *mongo.Database) error {
			return errorsJoin(setInText(ratingdb.StateID("carol", 4), map[string]any{"score": 900})(db), set(ratingdb.Players, "carol", bson.D{{Key: "score", Value: 900}})(db))
		}, []string{"carol score"}},
		{"a certified rank", func(db *mongo.Database) error {
			return errorsJoin(setInText(ratingdb.StateID("alice", 4), map[string]any{"certified": "5d"})(db), set(ratingdb.Players, "alice", bson.D{{Key: "certified", Value: "5d"}})(db))
		}, []string{"alice certified"}},
		{"a game's winner", setInText(ratingdb.OpID("g1"), map[string]any{"winner": "white"}), []string{"alice formula", "bob formula", "alice glicko", "bob glicko"}},
		// alice#3 is g4 against carol; alice#4 (her exam) copies the true
		// Glicko-2, so it is reported as moving it; carol is not blamed.
		{"a game entry's Glicko-2", setInText(ratingdb.EntryID("alice", 3), map[string]any{"rating": 1777.5}), []string{"alice chain", "alice glicko"}},
		{"a game's outcome", setInText(ratingdb.OpID("g3"), map[string]any{"outcome": "decisive", "winner": "black"}),
			[]string{"carol formula", "alice formula", "carol glicko", "alice glicko"}},
		{"Glicko-2 in the stored version", func(db *mongo.Database) error {
			return errorsJoin(setInText(ratingdb.StateID("carol", 4), map[string]any{"rd": 30.0})(db), set(ratingdb.Players, "carol", bson.D{{Key: "glicko.rd", Value: 30.0}})(db))
		}, []string{"carol glicko"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, db := history(t)
			if err := tc.tamper(db); err != nil {
				t.Fatal(err)
			}
			rep, err := svc.VerifyAll(bg, "t")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range rep.Mismatches {
				got = append(got, m.Player+" "+m.Check)
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("report lacks %q: %+v", w, rep.Mismatches)
				}
			}
			for _, m := range rep.Mismatches {
				if !slices.ContainsFunc(tc.want, func(w string) bool { return w[:len(m.Player)+1] == m.Player+" " }) {
					t.Errorf("an untouched player is reported: %+v", m)
				}
			}
		})
	}
}

// TestVerifyChecksThePlacement: a newcomer placed by the rule verifies;
// a placement entry edited behind the service's back is reported as a
// placement fault besides the broken chain.
func TestVerifyChecksThePlacement(t *testing.T) {
	db := testsvc.Mongo(t)
	store, err := ratingdb.New(bg, db)
	if err != nil {
		t.Fatal(err)
	}
	svc := rating.NewService(store, rating.ServiceConfig{Now: fixedClock, Placement: true})
	for i := range rating.PlacementGames {
		if _, err := svc.Apply(bg, game(fmt.Sprint("g", i), "newbie", fmt.Sprint("opp", i), rating.SideBlack)); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := svc.VerifyAll(bg, "clean")
	if err != nil || !rep.OK() || rep.Entries != 2*rating.PlacementGames+1 {
		t.Fatalf("clean store: %+v, %v", rep, err)
	}
	seq := ratingdb.EntryID("newbie", rating.PlacementGames+1)
	if err := editText(db, seq, map[string]any{"score_after": 800, "delta": 750}); err != nil {
		t.Fatal(err)
	}
	rep, err = svc.VerifyAll(bg, "t")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range rep.Mismatches {
		got = append(got, m.Player+" "+m.Check)
	}
	for _, w := range []string{"newbie chain", "newbie placement", "newbie score"} {
		if !slices.Contains(got, w) {
			t.Errorf("report lacks %q: %+v", w, rep.Mismatches)
		}
	}
}

func errorsJoin(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// editText edits a stored version's, entry's or operation's fields
// behind the service's back: in its JSON text (s), where it keeps all but the
// queried ones.
func editText(db *mongo.Database, id string, fields map[string]any) error {
	var d struct {
		S string `bson:"s"`
	}
	if err := db.Collection(ratingdb.Log).FindOne(bg, bson.D{{Key: "_id", Value: id}}).Decode(&d); err != nil {
		return err
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(d.S), &body); err != nil {
		return fmt.Errorf("%s: s %q: %w", id, d.S, err)
	}
	maps.Copy(body, fields)
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	_, err = db.Collection(ratingdb.Log).UpdateOne(bg, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: bson.D{{Key: "s", Value: string(b)}}}})
	return err
}
