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
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  local issued = redis.call("INCR", KEYS[2])
  if KEYS[3] then
    redis.call("SET", KEYS[3], issued, "PX", ARGV[2])
  end
  return issued
end
-- A copy re-sent after a lost reply finds the caller's token: the same
-- acquisition. A counter of this lock's own moves only when the lock
-- changes hands, so its value is the fence issued with the token.
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return tonumber(redis.call("GET", KEYS[#KEYS])) or -2
end
return 0
