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
-- it is gone (an expired, evicted or deleted counter or record).
--
-- A counter lives 24 hours from its start, so none outlives its last
-- fence by more; renewing it would cost every fence a command. It starts
-- at the server's TIME in microseconds when INCR finds it below 1e15 (the
-- clock in 2001): missing (new, expired, evicted, deleted) or from before
-- counters had a life. A life that started at S issued S .. S+n-1 for n
-- fences, all below the next start S' as long as n <= S' - S: fewer
-- fences than microseconds passed (each costs a script run; no server
-- runs a million a second on one key), unless the clock went back by
-- more than the margin, which after an expiry is a day less a
-- microsecond per fence. acquire.lua and handoff.lua do the same.
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  local issued = redis.call("INCR", KEYS[2])
  if issued < 1e15 then
    local now = redis.call("TIME")
    issued = tonumber(now[1]) * 1000000 + tonumber(now[2])
    redis.call("SET", KEYS[2], issued, "PX", 86400000)
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
