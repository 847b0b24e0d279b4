// Package ratingtest is the contract suite every rating.Store
// implementation must pass (Run): the single-document steps the rating
// service builds exactly-once from, each tried twice and against the
// wrong caller.
//
// It imports rating and the standard library's testing; never a driver.
package ratingtest
