// Package examtest is the contract suite every exams.Store
// implementation must pass: round trips, first-writer-wins creates, and
// conditional state moves, also under concurrent callers.
//
// It also has a settable Clock for tests of the exam service.
//
// It imports exams, games, ranks and the standard library only; adapters
// run it from their tests, and product code never imports it.
package examtest
