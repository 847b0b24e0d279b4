// Package examtest is the contract suite every ranks.ExamStore
// implementation must pass: round trips, first-writer-wins creates, and
// conditional state moves, also under concurrent callers.
//
// It imports ranks and the standard library only; adapters run it from
// their tests.
package examtest
