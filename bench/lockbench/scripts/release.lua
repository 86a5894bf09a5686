-- The floors' release: delete the key only if it holds the owner's token.
-- KEYS[1] lock key, ARGV[1] owner token.
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("DEL", KEYS[1])
end
return 0
