package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// A server busy hashing passwords (503 with Retry-After) is asked again
// until it answers; the setup of a bench or a matchsim does not fail.
func TestEnsurePlayerWaitsWhileTheServerIsBusy(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"error":{"code":"busy"}}`, http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"token":"t-1"}`))
	}))
	defer srv.Close()
	tok, err := ensurePlayer(context.Background(), srv.Client(), srv.URL, "p1", true)
	if err != nil || tok != "t-1" {
		t.Fatalf("ensurePlayer = %q, %v; want t-1 after two busy answers", tok, err)
	}
	if n := calls.Load(); n != 3 {
		t.Fatalf("%d requests, want 3 (two busy, one answered)", n)
	}
}

// The wait for a busy server ends with the caller's context.
func TestEnsurePlayerStopsWaitingWhenCancelled(t *testing.T) {
	var calls atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Retry-After", "10")
		http.Error(w, "busy", http.StatusServiceUnavailable)
		cancel() // the caller gives up while it waits
	}))
	defer srv.Close()
	if _, err := ensurePlayer(ctx, srv.Client(), srv.URL, "p1", true); err == nil {
		t.Fatal("ensurePlayer on a busy server and an ended context succeeded")
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d requests after the context ended, want 1", n)
	}
}
