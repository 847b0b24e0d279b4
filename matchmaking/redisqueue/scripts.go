package redisqueue

import "github.com/redis/go-redis/v9"

// Every script below touches only the keys it is given, and every key it is
// given carries the same hash tag (one pool's, or one player's), so each
// runs inside one Redis Cluster slot. Times come in as ARGV (milliseconds of
// the service's clock), never from the server, so tests drive them.

// liveLua decides whether a waiting ticket is still fresh. Expects KEYS[2]
// the heartbeat set; returns 'waiting', 'stale', another state or 'missing'.
const liveLua = `
local function live(tkey, id, cutCreated, cutSeen)
  local st = redis.call('HGET', tkey, 'state')
  if not st then return 'missing' end
  if st ~= 'waiting' then return st end
  local created = tonumber(redis.call('HGET', tkey, 'created'))
  local seen = tonumber(redis.call('ZSCORE', KEYS[2], id) or created)
  if created <= cutCreated or seen <= cutSeen then return 'stale' end
  return 'waiting'
end
local function unindex(id)
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
end
`

// addScript stores a new waiting ticket unless its key exists (a retry, or a
// tombstone written by a cancel or a replacing enqueue that came first).
// KEYS: q, hb, w, ticket. ARGV: id, created, keep, w-entry, then the
// ticket's field/value pairs.
var addScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
local fields = {}
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[4], 'state', 'waiting', unpack(fields))
redis.call('PEXPIRE', KEYS[4], ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
return 1
`)

// endScript is cancel, retire and poll in one. KEYS: q, hb, w, ticket.
// ARGV: id, mode ('cancel' | 'retire' | 'poll'), now, cutCreated, cutSeen,
// keep. A stale waiting ticket expires in every mode; a fresh one is
// cancelled, left waiting, or has its heartbeat recorded. A missing ticket
// is reported as missing (poll) or written as a tombstone: cancelled
// (cancel) or expired (retire). Returns the state after.
var endScript = redis.NewScript(liveLua + `
local id, mode, now = ARGV[1], ARGV[2], ARGV[3]
local st = live(KEYS[4], id, tonumber(ARGV[4]), tonumber(ARGV[5]))
if st == 'missing' then
  unindex(id)
  if mode == 'poll' then return 'missing' end
  st = 'expired'
  if mode == 'cancel' then st = 'cancelled' end
  redis.call('HSET', KEYS[4], 'id', id, 'state', st, 'ended', now)
  redis.call('PEXPIRE', KEYS[4], ARGV[6])
  return st
end
if st == 'waiting' then
  if mode == 'retire' then return st end
  if mode == 'poll' then
    redis.call('ZADD', KEYS[2], 'XX', now, id)
    return st
  end
  st = 'cancelled'
elseif st == 'stale' then
  st = 'expired'
else
  return st
end
redis.call('HSET', KEYS[4], 'state', st, 'ended', now)
redis.call('PEXPIRE', KEYS[4], ARGV[6])
unindex(id)
return st
`)

// claimScript takes a batch of pairings, each on its own: both tickets
// waiting and fresh, then both matched and out of the pool together, and
// the pairing recorded as open. Redis runs the whole script atomically, so
// a cancel or another replica's claim comes wholly before or after it.
// KEYS: q, hb, w, open, then per pairing: black ticket, white ticket,
// pairing. ARGV: now, cutCreated, cutSeen, then per pairing: black id,
// white id, pair id, black player, white player, pairing document.
// Returns per pairing 1 if this call claimed it, 2 if it was claimed
// already (by a replica that planned the same pair; the stored pairing
// stands), else 0.
var claimScript = redis.NewScript(liveLua + `
local now, cutCreated, cutSeen = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}
for i = 0, (#KEYS - 4) / 3 - 1 do
  local bkey, wkey, pkey = KEYS[5 + 3*i], KEYS[6 + 3*i], KEYS[7 + 3*i]
  local bid, wid, pid = ARGV[4 + 6*i], ARGV[5 + 6*i], ARGV[6 + 6*i]
  local res = 0
  if redis.call('HGET', bkey, 'pair') == pid and redis.call('HGET', wkey, 'pair') == pid then
    res = 2
  else
    local b = live(bkey, bid, cutCreated, cutSeen)
    local w = live(wkey, wid, cutCreated, cutSeen)
    if b == 'waiting' and w == 'waiting' then
      redis.call('HSET', bkey, 'state', 'matched', 'ended', now, 'pair', pid, 'opp', ARGV[8 + 6*i], 'colour', 'black', 'matched', now)
      redis.call('HSET', wkey, 'state', 'matched', 'ended', now, 'pair', pid, 'opp', ARGV[7 + 6*i], 'colour', 'white', 'matched', now)
      -- Kept until the game is made: an open pairing must not vanish.
      redis.call('PERSIST', bkey)
      redis.call('PERSIST', wkey)
      unindex(bid)
      unindex(wid)
      redis.call('HSET', pkey, 'data', ARGV[9 + 6*i])
      redis.call('ZADD', KEYS[4], now, pid)
      res = 1
    else
      -- A ticket that ended or vanished should not be in the pool's indexes.
      if b ~= 'waiting' and b ~= 'stale' then unindex(bid) end
      if w ~= 'waiting' and w ~= 'stale' then unindex(wid) end
    end
  end
  out[#out + 1] = res
end
return out
`)

// completeScript records the games of a batch of pairings and closes them;
// idempotent. KEYS: open, then per pairing: black ticket, white ticket,
// pairing. ARGV: keep, then per pairing: pair id, game id.
var completeScript = redis.NewScript(`
for i = 0, (#KEYS - 1) / 3 - 1 do
  local pkey, pid, gid = KEYS[4 + 3*i], ARGV[2 + 2*i], ARGV[3 + 2*i]
  if redis.call('EXISTS', pkey) == 1 then
    redis.call('HSET', pkey, 'game', gid)
    redis.call('PEXPIRE', pkey, ARGV[1])
    for k = 2, 3 do
      local tkey = KEYS[k + 3*i]
      if redis.call('HGET', tkey, 'pair') == pid then
        redis.call('HSET', tkey, 'game', gid)
        redis.call('PEXPIRE', tkey, ARGV[1])
      end
    end
    redis.call('ZREM', KEYS[1], pid)
  end
end
return 1
`)

// swapScript sets a player's pointer if it holds the expected value (an
// empty string for none). KEYS: pointer. ARGV: old, new. Returns {1} if it
// did, else {0, what it holds}.
var swapScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1]) or ''
if cur ~= ARGV[1] then return {0, cur} end
redis.call('SET', KEYS[1], ARGV[2])
return {1}
`)

// keepScript sets the pointer's lifetime if it holds the given ref.
// KEYS: pointer. ARGV: ref, ttl ms (0: none).
var keepScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[2]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
else
  redis.call('PERSIST', KEYS[1])
end
return 1
`)

// leaseScript renews the lease for its holder, or takes it over when the
// holder's deadline (by the caller's clock) has passed. The plain path,
// taking a free lease, is SET NX PX and needs no script.
// KEYS: lease. ARGV: holder, now, ttl ms.
var leaseScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v then
  local holder, deadline = string.match(v, '^(.*)|(%d+)$')
  if holder ~= ARGV[1] and deadline and tonumber(deadline) > tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. (tonumber(ARGV[2]) + tonumber(ARGV[3])), 'PX', ARGV[3])
return 1
`)

// releaseScript deletes the lease if the holder has it. KEYS: lease.
// ARGV: holder.
var releaseScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v and string.match(v, '^(.*)|%d+$') == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`)

var allScripts = []*redis.Script{addScript, endScript, claimScript, completeScript, swapScript, keepScript, leaseScript, releaseScript}
