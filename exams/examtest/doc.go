// Package examtest is the contract suite every exams.Store implementation
// must pass (StoreContract): round trips, first-writer-wins creates,
// conditional state moves, also under concurrent callers, and the
// ErrNotFound of every call on something missing. It also owns Memory
// (memory.go), an in-memory exams.Store held to the same suite for tests
// whose subject is not storage (its Fail hook injects an outage at a
// named method), and a settable Clock.
//
// It imports exams, ranks and the standard library only; adapters
// run the contract from their tests, Memory runs it in this package's
// own; product code never imports it.
package examtest
