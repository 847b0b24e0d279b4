package testsvc

import (
	"testing"
	"time"
)

// Ceiling is how long a test waits for an event before it calls the wait
// a hang (decided: far beyond what a fully loaded CI machine delays an
// event by; a test never relies on an event happening sooner).
const Ceiling = 3 * time.Minute

// Eventually waits until cond holds, polling, and fails the test if the
// ceiling passes first. what says what was awaited.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Ceiling)
	pause := time.Millisecond
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s: a hang", Ceiling, what)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}
