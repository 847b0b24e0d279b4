// Package examtest is the contract suite every ranks.ExamStore
// implementation must pass (StoreContract): round trips, first-writer-wins
// creates, conditional state moves, also under concurrent callers, and
// the ErrNotFound of every call on something missing. It also owns
// Memory (memory.go), an in-memory ExamStore held to the same suite for
// tests whose subject is not storage (its Fail hook injects an outage at
// a named method), and, in fakes.go, stand-ins for the ports other
// packages own (games, players, the ledger, the clock).
//
// It imports ranks and the standard library only; adapters run the
// contract from their tests, Memory runs it in this package's own.
package examtest
