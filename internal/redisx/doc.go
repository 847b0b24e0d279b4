// Package redisx is what every Redis adapter (players/playerredis,
// matchmaking/redisqueue, jobs/jobsredis) shares: telling connection
// trouble from the rest of a go-redis error and marking it as the one
// outage kind (internal/outage), so that api answers 503 for the queue,
// the leases and the limits as for any store.
//
// It imports go-redis and internal/outage; adapters import it, domain
// packages never do.
package redisx
