// Package intaketest is the contract suite every intake.Store implementation
// must pass (Run), so that the Mongo adapter on embedded FerretDB and on a
// real MongoDB are held to one behaviour.
//
// It imports intake, games and the standard library's testing; never a
// driver.
package intaketest
