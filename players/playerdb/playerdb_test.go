package playerdb_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/outage"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playerdb"
	"github.com/weiqi-platform/rank/players/playertest"
)

func TestContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			playertest.Run(t, func(t *testing.T) players.Store {
				s, err := playerdb.New(context.Background(), testsvc.MongoOf(t, kind))
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
		if _, err := playerdb.New(context.Background(), db); err != nil {
			t.Fatalf("New #%d: %v", i+1, err)
		}
	}
}

// TestStoreDownIsUnavailable: a store nobody listens on gives
// an outage, which api turns into 503.
func TestStoreDownIsUnavailable(t *testing.T) {
	c, err := mongo.Connect(options.Client().ApplyURI("mongodb://127.0.0.1:1/").SetServerSelectionTimeout(200 * time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Disconnect(context.Background()) }()
	s, err := playerdb.New(context.Background(), c.Database("x"))
	if !outage.Is(err) {
		t.Fatalf("New on a dead store: %v, want ErrUnavailable", err)
	}
	if s != nil {
		t.Fatal("New returned a store along with an error")
	}
}

// TestClosedClientIsUnavailable: a read through a store whose client went
// away is ErrUnavailable too, and the text names the operation.
func TestClosedClientIsUnavailable(t *testing.T) {
	c, err := mongo.Connect(options.Client().ApplyURI(testsvc.MongoURI(t)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := playerdb.New(context.Background(), c.Database(testsvc.Mongo(t).Name()))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Disconnect(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err = s.Account(context.Background(), "alice")
	if !outage.Is(err) || !strings.Contains(err.Error(), "read account") {
		t.Fatalf("Account after disconnect: %v, want ErrUnavailable naming the operation", err)
	}
}
