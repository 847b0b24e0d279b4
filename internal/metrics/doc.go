// Package metrics owns the Prometheus registry of rankd: HTTP requests and
// latencies by route and status, and the domain counters (games accepted
// and refused by reason, rating updates, matchmaking queue length, wait at
// pairing and level gap at pairing).
//
// Domain code never imports it nor Prometheus: a domain package declares
// the small interface it calls (for example
// `interface{ GameAccepted(); GameRefused(reason string) }`, see Recorder)
// and the wiring (internal/app) passes a *Registry, which has every such
// method. api likewise sees only an ObserveRequest method and an
// http.Handler. Only this package imports client_golang (cmd may too).
package metrics
