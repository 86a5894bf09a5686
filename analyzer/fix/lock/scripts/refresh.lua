-- KEYS[1] lock key, ARGV[1] owner token, ARGV[2] lease in milliseconds.
-- Extends the lease only for its owner; a missing key is never recreated.
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0
