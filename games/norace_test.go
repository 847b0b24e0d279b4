//go:build !race

package games

// raceBuild: see race_test.go.
const raceBuild = false
