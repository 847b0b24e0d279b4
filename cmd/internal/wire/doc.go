// Package wire opens the stores the commands share: MongoDB (or embedded
// FerretDB under the data dir when no URI is given) through the Mongo
// driver, and Redis (or in-process miniredis when no URL is given) through
// go-redis. The embedded kinds only produce a URI: from there on the code
// path is the same as for the real servers. It also masks secrets in URIs
// for logs.
//
// Only the commands under cmd import it.
package wire
