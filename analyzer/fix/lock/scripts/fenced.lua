-- The attempt of a fenced Obtain that does not queue: takes the lock and
-- issues its fence in one step, the shortest script that can (the first
-- attempt of every fenced Obtain is one).
-- KEYS[1]  lock key
-- KEYS[2]  the fence counter
-- KEYS[3]  the fence record, for a counter that other locks may share
-- ARGV[1]  owner token
-- ARGV[2]  lease in milliseconds
-- Returns the fence when acquired, 0 when another owner holds the lock,
-- and -2 when the key holds the caller's token but the fence issued with
-- it is gone (an evicted or deleted counter or record).
--
-- The counter has a life: a fence refreshes its TTL to max(24 h, 1000
-- leases) when less than half of that is left, so an unused counter goes
-- after at most that long. A missing counter (new, expired, evicted or
-- deleted) starts again from the server's TIME in microseconds. Its last
-- life issued fences from its own start S up to S + n - 1 for n fences;
-- they stay below the new start as long as fewer fences were issued than
-- microseconds passed between the two starts, i.e. fewer than one per
-- microsecond on average (each costs a script run, so a server cannot
-- issue 1e6 a second) and the clock has not gone back by more than that
-- margin, which after an expiry includes the counter's whole life.
-- acquire.lua and handoff.lua issue fences the same way.
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  local life = math.max(86400000, 1000 * tonumber(ARGV[2]))
  local issued = redis.call("INCR", KEYS[2])
  local restart = issued == 1
  if restart then
    local now = redis.call("TIME")
    issued = tonumber(now[1]) * 1000000 + tonumber(now[2])
  end
  if restart or redis.call("PTTL", KEYS[2]) < life / 2 then
    redis.call("SET", KEYS[2], issued, "PX", life)
  end
  if KEYS[3] then
    redis.call("SET", KEYS[3], issued, "PX", ARGV[2])
  end
  return issued
end
-- A copy re-sent after a lost reply finds the caller's token: the same
-- acquisition. A counter of this lock's own moves only when the lock
-- changes hands (a new life starts at the fence it issues), so its value
-- is the fence issued with the token.
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return tonumber(redis.call("GET", KEYS[#KEYS])) or -2
end
return 0
