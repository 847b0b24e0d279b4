// Package jobstest holds the contract suite of jobs.Runs and an in-memory
// implementation held to it. Test support: product code must not import
// it (but internal/apptest does, for the in-memory stack).
package jobstest
