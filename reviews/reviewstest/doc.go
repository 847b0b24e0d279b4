// Package reviewstest is the contract suite of reviews.Store: Run checks
// a store made fresh for each subtest. Every implementation's tests call
// it; Memory, an in-memory store for tests whose subject is not storage,
// passes it too.
//
// It imports reviews, integrity and the standard library's testing.
package reviewstest
