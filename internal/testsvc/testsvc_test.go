package testsvc

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestRedisIsolatedDatabases(t *testing.T) {
	a, b := Redis(t), Redis(t)
	ctx := context.Background()
	if err := a.Set(ctx, "k", "a", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := b.Exists(ctx, "k").Result(); err != nil || n != 0 {
		t.Fatalf("second test database sees the first's key: n=%d err=%v", n, err)
	}
}

func TestMongoRoundTrip(t *testing.T) {
	db := Mongo(t)
	ctx := context.Background()
	if _, err := db.Collection("c").InsertOne(ctx, bson.M{"_id": "x", "v": 7}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		V int `bson:"v"`
	}
	if err := db.Collection("c").FindOne(ctx, bson.M{"_id": "x"}).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.V != 7 {
		t.Fatalf("v = %d, want 7", got.V)
	}
}
