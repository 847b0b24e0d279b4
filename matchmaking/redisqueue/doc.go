// Package redisqueue is the matchmaking queue on Redis (go-redis v9): it
// implements matchmaking.Queue and matchmaking.History on one server or a
// Redis Cluster (any redis.UniversalClient).
//
// It imports matchmaking, internal/redisx and go-redis, never api or jobs.
//
// # Keys
//
// P is a pool key (matchmaking.Pool.Key, e.g. "19/600+3x30/chinese/r"); the
// braces make it a hash tag, so every key of one pool lives in one cluster
// slot and pools spread over the cluster:
//
//	mm:{P}:q             zset  waiting ticket id → created (ms)
//	mm:{P}:hb            zset  waiting ticket id → last poll (ms)
//	mm:{P}:w             hash  waiting ticket id → what a pass needs of it
//	mm:{P}:t:<id>        hash  the ticket
//	mm:{P}:pair:<id>     hash  a pairing (JSON) and its game id
//	mm:{P}:open          zset  pairings claimed without a game → claimed (ms)
//	mm:{P}:lease         string holder|deadline (ms), SET NX PX
//
// A player's keys carry the player's own tag ({=name}, or {%hex} for a
// name with braces), in whatever slot that falls:
//
//	mm:player:{=name}    string the player's pointer: "P|ticket id"
//	mm:met:{=name}       zset  opponent → when they were paired
//
// and mm:pools (a set of pool keys) is in a slot of its own.
//
// # One slot per script
//
// Every script gets all its keys in KEYS and they share one hash tag: the
// ticket scripts (add, end, claim, complete) take only keys of one pool;
// the pointer and lease scripts take one key. A test hook checks this for
// every script call the suite makes. The per-player keys and the pool list
// are never in a script with pool keys; they are written with single-key
// commands in an order that leaves every crash repairable:
//
//   - Enqueue swaps the pointer first (compare-and-set in the player's
//     slot), then adds the ticket (pool slot). A crash in between leaves a
//     pointer to a ticket that does not exist. Before the pointer is ever
//     moved off a ticket, that ticket is ended in its pool's slot: a fresh
//     waiting one refuses (the player has a live ticket), a stale one
//     expires, and a missing one becomes a tombstone, so a slow enqueue
//     that adds it later finds the tombstone, adds nothing and answers that
//     another request won. A ticket turns waiting only by its add, the add
//     runs only after the pointer held it, and a request that retires a
//     ticket always tries to take the pointer next: so a player has at
//     most one waiting ticket, and the pointer never rests on a ticket
//     retired before it was added.
//   - The pool list is SADDed in the pipeline of every add: idempotent,
//     and a lost list heals with the next ticket.
//   - A claim (pool slot) marks both tickets matched and records the
//     pairing as open. The game (games store, idempotent by pairing id),
//     the meeting (ZADD in each player's slot, idempotent) and closing the
//     pairing (pool slot) follow; each is safe to repeat, and the pairing
//     stays in mm:{P}:open, and its tickets without a TTL, until the last
//     step, so a crash anywhere is finished by the next pass or poll.
//   - Pointers have no TTL while their ticket may be live; once it ends,
//     a compare-and-expire gives the pointer the ticket's retention. A
//     pointer left without one points at an ended ticket: harmless, and
//     replaced by the player's next enqueue.
//
// Every time is the caller's (the service's injected clock), passed as
// ARGV; Redis TTLs only collect ended tickets and dead leases. The lease is
// taken with SET NX PX; a script renews it for its holder, or takes it over
// once the deadline stored in it has passed, which is also how a replica
// takes over on a server (like the in-process one) whose TTLs do not run in
// real time.
package redisqueue
