-- The fenced floor's acquire: the least a fenced lock can do, the lock
-- and its fence in one step, so a fence is issued only with ownership.
-- KEYS[1] lock key, KEYS[2] fence counter, ARGV[1] owner token,
-- ARGV[2] lease in milliseconds. Returns the fence, or 0 when taken.
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  return redis.call("INCR", KEYS[2])
end
return 0
