// Package jobsredis keeps the jobs runner's firing leases in Redis
// (go-redis v9): a lease per firing taken with SET NX PX and renewed while
// its holder runs, a done marker, a pending set of firings taken but not
// done, and a failed-attempt count. Each change is one Lua script, so it
// is atomic on the server, and all keys share one hash tag so the scripts
// also run on Redis Cluster.
//
// It implements jobs.Leases and imports only jobs, internal/redisx (what
// is an outage) and go-redis; never api.
package jobsredis
