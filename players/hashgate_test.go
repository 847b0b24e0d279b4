package players

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

var t0ctx = context.Background()

// TestHashGateBound: however many ask at once, no more than the gate's
// slots run, and with a long enough wait every one of them runs.
func TestHashGateBound(t *testing.T) {
	const slots, callers = 3, 40
	g := newHashGate(slots, time.Hour)
	var mu sync.Mutex
	cur, peak, full := 0, 0, make(chan struct{})
	var ran sync.WaitGroup
	errs := make(chan error, callers)
	for range callers {
		ran.Go(func() {
			errs <- g.run(t0ctx, func() {
				mu.Lock()
				cur++
				if cur > peak {
					peak = cur
					if peak == slots {
						close(full) // seen full: let them all go
					}
				}
				mu.Unlock()
				<-full
				mu.Lock()
				cur--
				mu.Unlock()
			})
		})
	}
	ran.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("a caller with an hour to wait got %v", err)
		}
	}
	if peak != slots {
		t.Fatalf("at most %d hashes ran at once, want exactly the %d slots", peak, slots)
	}
}

// TestHashGateBusy: a caller that finds every slot taken for its whole
// wait gets a *BusyError carrying RetryAfter; one whose context ends first
// gets the context's error.
func TestHashGateBusy(t *testing.T) {
	g := newHashGate(1, time.Millisecond)
	in, out := make(chan struct{}), make(chan struct{})
	go func() { _ = g.run(t0ctx, func() { close(in); <-out }) }()
	<-in
	defer close(out)

	ran := false
	err := g.run(t0ctx, func() { ran = true })
	var be *BusyError
	if !errors.As(err, &be) || !errors.Is(err, ErrBusy) || be.RetryAfter != busyRetryAfter || ran {
		t.Fatalf("got %v (ran %v), want a *BusyError asking for a retry after %v", err, ran, busyRetryAfter)
	}

	g.wait = time.Hour
	ctx, cancel := context.WithCancel(t0ctx)
	cancel()
	if err := g.run(ctx, func() { ran = true }); !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("with a cancelled context: got %v (ran %v), want context.Canceled", err, ran)
	}
}

// TestMaxHashesInFlightTiedToCores: the bound is one a core, at least one.
func TestMaxHashesInFlightTiedToCores(t *testing.T) {
	if maxHashesInFlight < 1 || cap(hashes.slots) != maxHashesInFlight {
		t.Fatalf("bound %d, gate of %d slots", maxHashesInFlight, cap(hashes.slots))
	}
}

// TestNormalizePassword: text that is not UTF-8, or holds the U+FFFD a
// decoder leaves for such bytes, is a *FieldError on "password"; valid
// text comes out in NFC.
func TestNormalizePassword(t *testing.T) {
	for _, bad := range []string{"pass\xffword1", "pass\xc3word1", "pass\uFFFDword1", "\xed\xa0\x80surrogate"} {
		_, err := normalizePassword(bad)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "password" || !strings.Contains(fe.Reason, "UTF-8") {
			t.Errorf("normalizePassword(%q) = %v, want a *FieldError on password", bad, err)
		}
	}
	nfd, nfc := "cafe\u0301-passw\u00f6rd", "caf\u00e9-passw\u00f6rd"
	for _, in := range []string{nfd, nfc, "o\u0308" + nfc} {
		got, err := normalizePassword(in)
		if err != nil || !strings.HasSuffix(got, nfc) || strings.ContainsRune(got, '\u0301') || strings.ContainsRune(got, '\u0308') {
			t.Errorf("normalizePassword(%q) = %q, %v; want NFC", in, got, err)
		}
	}
	if _, err := HashPassword("pass\xffword1"); !errors.Is(err, ErrInvalid) {
		t.Errorf("HashPassword of bytes that are not UTF-8: %v, want a *FieldError", err)
	}
}
