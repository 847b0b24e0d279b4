//go:build !unix

package main

// cpuSeconds is not measured here: the summary gives wall time only.
func cpuSeconds() float64 { return 0 }
