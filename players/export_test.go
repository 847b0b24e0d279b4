package players

import "time"

// SwapHashGate gives the process a hash gate of n slots and the given
// wait for one test, entered (may be nil) seeing the hashes in flight at
// each start; the returned func restores the gate.
func SwapHashGate(n int, wait time.Duration, entered func(inFlight int)) (restore func()) {
	old := hashes
	hashes = newHashGate(n, wait)
	hashes.entered = entered
	return func() { hashes = old }
}

// HoldHashSlot takes a slot of the gate and keeps it until release is
// called.
func HoldHashSlot() (release func()) {
	in, out := make(chan struct{}), make(chan struct{})
	g := hashes
	go func() { _ = g.run(t0ctx, func() { close(in); <-out }) }()
	<-in
	return func() { close(out) }
}

// MaxHashesInFlight is the decided bound.
var MaxHashesInFlight = maxHashesInFlight
