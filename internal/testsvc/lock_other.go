//go:build !unix

package testsvc

// lockFile is a no-op where flock is missing: tests in one binary still
// take turns (clusterMu).
func lockFile(string) (func(), error) { return func() {}, nil }
