// Package intaketest is the contract suite every intake.Store
// implementation must pass (Run) and the one for intake.Presence
// (RunPresence), so that the Mongo adapters on embedded FerretDB and on a
// real MongoDB and the in-memory stores are held to one behaviour. It also
// owns those in-memory stores (memory.go): Memory (an intake.Store) and
// MemoryPresence, for tests whose subject is not storage; their Fail hook
// injects an outage at a named method. Finished and PendingGame make
// games as the intake would store them, and Assumed a reader's
// assumptions to store with one.
//
// It imports intake, games, internal/outage (the outage of the Fail hook)
// and the standard library only (testing for the suites); never a driver,
// and product code must not import it.
package intaketest
