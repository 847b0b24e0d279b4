// Package embedded starts the zero-setup stores in-process: FerretDB v1 on
// SQLite files (spoken to through the ordinary MongoDB driver) and miniredis
// (spoken to through the ordinary go-redis client). Product code never sees
// these types: it only gets a URI, so that real and embedded stores share
// one code path. For rankd's database it also indexes the expression
// FerretDB looks documents up by _id with (IndexIDs), which its own _id
// index does not serve.
//
// Only cmd and the test-support package internal/testsvc import it; no
// domain package, adapter, api or jobs may.
package embedded
