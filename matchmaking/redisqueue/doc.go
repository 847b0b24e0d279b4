// Package redisqueue is the matchmaking queue on Redis (go-redis v9): it
// implements matchmaking.Queue and matchmaking.History for one server or a
// Redis Cluster.
//
// It imports matchmaking and go-redis, never api or jobs.
package redisqueue
