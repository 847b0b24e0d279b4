// Command rankctl is the platform's admin and data tool: it checks, shows,
// scores and converts game records (SGF of any server, Tygem .gib,
// Pandanet .ugf), computes ranks and ratings, and talks to a running rankd.
// Output is for people by default and JSON with --json.
//
// Exit codes: 0 success, 1 the answer is "no" (an illegal record, a failed
// verification), 2 bad arguments or an error before any answer.
//
// As a command it may import anything: the pure cores for the record and
// rating tools, an adapter on stores opened by cmd/internal/wire for the
// tools that read or write one store (admin, audit, recompute), and the
// whole application through the one wiring (internal/app) where it needs
// the services (import, schoolbench).
package main
