package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// TestServesUntilSignalled: ferretpg on the tests' PostgreSQL database
// answers a MongoDB client (a document goes in and comes back) and stops
// cleanly on SIGTERM.
func TestServesUntilSignalled(t *testing.T) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"-listen", "127.0.0.1:0", "-postgresql-url", testsvc.PGURL()}, pw, io.Discard)
		_ = pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no listening line: %v (run: %v)", err, <-done)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	uri := strings.TrimSpace(strings.TrimPrefix(line, "ferretpg: listening on"))
	if !strings.HasPrefix(uri, "mongodb://127.0.0.1:") {
		t.Fatalf("listening line %q", line)
	}
	c, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testsvc.Ceiling)
	defer cancel()
	db := c.Database("ferretpg_test_" + strings.ReplaceAll(time.Now().Format("150405.000000"), ".", "_"))
	defer func() { _ = db.Drop(ctx); _ = c.Disconnect(ctx) }()
	if _, err := db.Collection("c").InsertOne(ctx, bson.D{{Key: "_id", Value: "a"}, {Key: "n", Value: 7}}); err != nil {
		t.Fatal(err)
	}
	var got struct{ N int }
	if err := db.Collection("c").FindOne(ctx, bson.D{{Key: "_id", Value: "a"}}).Decode(&got); err != nil || got.N != 7 {
		t.Fatalf("find = %+v, %v", got, err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run after SIGTERM: %v", err)
		}
	case <-time.After(testsvc.Ceiling):
		t.Fatal("ferretpg did not stop on SIGTERM")
	}
}

// TestUnreachablePostgreSQLFails: a PostgreSQL that is not there fails at
// start, naming the URL, instead of at rankd's first request.
func TestUnreachablePostgreSQLFails(t *testing.T) {
	err := run([]string{"-listen", "127.0.0.1:0", "-postgresql-url", "postgres://postgres@127.0.0.1:1/none"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1/none") {
		t.Fatalf("run = %v, want a failure naming the URL", err)
	}
}
